#pragma once
// The collectives table's filter (over CollectiveModel): op, group, cause, minimum start skew, big
// only; and which of them hide a collective, so that the window can clear just those.

#include <QSortFilterProxyModel>

#include <vector>

namespace skewui {

class CollectiveFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit CollectiveFilter(QObject* parent = nullptr);
    void setOp(const QString& op);        // empty: all
    void setGroup(int group);             // -1: all
    void setMinSkewMs(double ms);
    void setBigOnly(bool on);
    void setCause(const QString& cause);  // identifier (causeName), empty: all
    void setSourceModel(QAbstractItemModel* model) override;
    bool accepts(int collective) const { return filterAcceptsRow(collective, {}); }
    // the filters that hide a collective (none: it is listed)
    enum Criterion : unsigned { ByOp = 1, ByGroup = 2, ByMinSkew = 4, ByBigOnly = 8, ByCause = 16 };
    unsigned hiddenBy(int collective) const;

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;
    // SortRole's order compared directly (a sort of 100,000 rows asks this a few million times)
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    // the numeric sort keys of the column sorted on, in source row order (one sequential pass per
    // sort, then each comparison reads two doubles); dropped when the source model resets
    mutable std::vector<double> keys_;
    mutable int keysColumn_ = -1;
    QMetaObject::Connection resetKeys_;
    QString op_, cause_;
    int group_ = -1;
    double minSkewMs_ = 0;
    bool bigOnly_ = false;
};

}  // namespace skewui
