#pragma once
// Item models of the viewer: the collectives table (with its filter proxy) and the ranks table.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

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

class CollectiveFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit CollectiveFilter(QObject* parent = nullptr);
    void setOp(const QString& op);        // empty: all
    void setGroup(int group);             // -1: all
    void setMinSkewMs(double ms);
    void setBigOnly(bool on);
    void setCause(const QString& cause);  // identifier (causeName), empty: all
    bool accepts(int collective) const { return filterAcceptsRow(collective, {}); }
    // the filters that hide a collective (none: it is listed)
    enum Criterion : unsigned { ByOp = 1, ByGroup = 2, ByMinSkew = 4, ByBigOnly = 8, ByCause = 16 };
    unsigned hiddenBy(int collective) const;

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString op_, cause_;
    int group_ = -1;
    double minSkewMs_ = 0;
    bool bigOnly_ = false;
};

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
