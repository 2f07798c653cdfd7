#pragma once
// The Ranks tab's model: one row per rank of a group (its per-rank statistics).

#include <QAbstractTableModel>

#include "session.h"

namespace skewui {

class RanksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Last, First, MeanLateness, MeanLatenessExclBig, NcclTime, NcclOnly, ClockOffset, ColumnCount };
    explicit RanksModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setSession(SessionPtr s, int group);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    SessionPtr s_;
    int group_ = 0;
};

}  // namespace skewui
