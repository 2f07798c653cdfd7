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
    enum Column { Group, Index, Op, StartSkew, LateRank, Cause, Excess, EndSkew, Step, Offset, ColumnCount };
    enum Roles { SortRole = Qt::UserRole + 1, CollectiveRole };
    static bool isMeasure(int column);  // durations: the first click sorts them largest first

    explicit CollectiveModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setSession(SessionPtr s);
    SessionPtr session() const { return s_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    SessionPtr s_;
};

}  // namespace skewui
