#pragma once
// The warning bar above everything: what reading the exports and the analysis warned about
// (core/session/warnings.h), as selectable text with a button that hides it. Hidden when there is
// nothing to say.

#include <QWidget>

#include <string>
#include <vector>

class QLabel;

namespace skewui {

class WarningBar : public QWidget {
    Q_OBJECT
public:
    explicit WarningBar(QWidget* parent = nullptr);
    void setWarnings(const std::vector<std::string>& lines);  // shown again, unless there are none

private:
    QLabel* label_;
};

}  // namespace skewui
