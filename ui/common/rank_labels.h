#pragma once
// Rank labels elided so that the part that tells them apart stays. With several files open a label
// reads "<file stem>/pid P/dev D", and the stems of one run's captures share a long start
// ("nsysai-mfu_2gpu_before", "nsysai-mfu_2gpu_after"): elided in the middle, the labels lose the
// stem's end that differs ("nsysai-mf...148/dev 0"). Here the start that every label shares goes
// first ("...before/pid 148/dev 0"), then the middle of what is left ("...befo...dev 0").

#include <QFontMetrics>
#include <QString>
#include <QStringList>
#include <QStyledItemDelegate>

#include "model/profile.h"

namespace skewui {

class RankLabelElider {
public:
    RankLabelElider() = default;
    explicit RankLabelElider(const QStringList& labels);
    static RankLabelElider of(const skew::Profile& p);  // the profile's rank labels
    static RankLabelElider withStart(const QString& commonStart);

    // `label` in at most `width` pixels of `fm`
    QString elide(const QString& label, const QFontMetrics& fm, int width) const;
    QString commonStart() const { return start_; }  // core's commonLabelStart

private:
    QString start_;
};

// A table column of rank labels, elided by a RankLabelElider to the column's width.
class RankLabelDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void setElider(const RankLabelElider& e) { elider_ = e; }
    QString shownText(const QStyleOptionViewItem& option, const QModelIndex& index) const;  // as painted

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    RankLabelElider elider_;
};

}  // namespace skewui
