#pragma once
// The collectives table's model: one row per collective of the analysis (source row = collective
// index), display texts, sort keys and tooltips. Filtered by CollectiveFilter (collective_filter.h).

#include <QAbstractTableModel>

#include "session.h"

namespace skewui {

class CollectiveModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // the key columns first, so they stay in view when the table is narrow
    // the cause right after the start skew: how much, then why, in sight in a narrow table (it was cut
    // off behind the late rank at 1024 px: review defect 8)
    enum Column { Group, Index, Op, StartSkew, Cause, LateRank, Excess, EndSkew, Step, Offset, ColumnCount };
    enum Roles { SortRole = Qt::UserRole + 1, CollectiveRole };
    static bool isMeasure(int column);  // durations: the first click sorts them largest first

    explicit CollectiveModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setSession(SessionPtr s);
    SessionPtr session() const { return s_; }
    const skew::Session* current() const { return s_.get(); }  // without a reference (per comparison)

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // What a cell shows (Qt::DisplayRole), from the session alone: callable off the UI thread.
    static QVariant text(const skew::Session& s, int row, int column);
    // The texts the column widths are measured on: per column the longest text, or for the op and
    // late rank columns (proportional texts) each distinct one. O(rows): computed off the UI thread
    // for a capture being loaded (LoadController), so that the table is sized without a pass over it.
    struct WidestTexts {
        QStringList texts[ColumnCount];
    };
    static WidestTexts widestTexts(const skew::Session& s);
    // The table's order (SortRole's, without a QVariant per comparison): row `left` before `right`
    static bool sortsBefore(const skew::Analysis& a, int column, int left, int right);
    // SortRole's number for the columns other than the op and the cause
    static double sortKey(const skew::Analysis& a, int row, int column) { return numericKey(a, a.collectives[size_t(row)], column); }

private:
    static double numericKey(const skew::Analysis& a, const skew::Collective& c, int column);
    SessionPtr s_;
};

}  // namespace skewui
