#pragma once
// The compare view's list of big events to select: per position of the step that held a big event
// on either side (when both run the same op sequence per step), the big collectives of A and B
// there; then each side's other big events; a side without big events lists its largest start
// skews instead. A collective without a paired one on the other side says so ("no pair"). Activating
// a row selects that collective (and its pair on the other side).

#include <QTreeWidget>

#include <set>

#include "session.h"

namespace skewui {

class CompareEventsList : public QTreeWidget {
    Q_OBJECT
public:
    enum Roles { SideRole = Qt::UserRole + 1, CollectiveRole };  // side 0 A, 1 B
    explicit CompareEventsList(QWidget* parent = nullptr);
    void setPair(CompareSessionPtr c, int pair);
    // marks the row of that collective as current (no signal); none when it is not listed
    void setSelected(bool sideB, int collective);
    QTreeWidgetItem* itemOf(bool sideB, int collective) const;
    // the width that shows every section line and every collective's columns whole
    int widthNeeded() const { return widthNeeded_; }

signals:
    void collectiveActivated(bool sideB, int collective);

private:
    void addPositions(std::set<uint32_t>& listedA, std::set<uint32_t>& listedB);
    void addSide(bool sideB, const std::set<uint32_t>& listed);
    void fitColumns();
    QTreeWidgetItem* addCollective(QTreeWidgetItem* parent, bool sideB, uint32_t collective);
    CompareSessionPtr c_;
    int pair_ = -1;
    int widthNeeded_ = 0;
    bool quiet_ = false;
};

}  // namespace skewui
