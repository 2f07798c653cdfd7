#pragma once
// The collectives table's order and filter (over CollectiveModel): the rows sorted by one column,
// then filtered by op, group, cause, minimum start skew, big only; and which filters hide a
// collective, so that the window can clear just those.
//
// The order of every row is kept (order_), the rows listed are the ones of it the filters accept
// (shown_). A new capture's order can be computed off the UI thread, by the loader's worker
// (sortedRows) and handed over before the model resets (prepareOrder): the swap of a capture then
// costs one pass over the rows, not a sort (issue 24: a reload of a big capture held the UI thread
// up with the table's sort). A sort or a filter change is one layout change (the current row kept
// when it stays listed).

#include <QAbstractProxyModel>

#include <functional>
#include <memory>
#include <vector>

namespace skew {
struct Analysis;
}

namespace skewui {

class CollectiveModel;

class CollectiveFilter : public QAbstractProxyModel {
    Q_OBJECT
public:
    // the collectives (source rows) in the order of one column: stable (ties in collective order),
    // as QSortFilterProxyModel sorts; column -1: collective order
    struct Order {
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        std::vector<int> rows;
    };
    static std::vector<int> sortedRows(const skew::Analysis& a, int column, Qt::SortOrder order);  // any thread

    explicit CollectiveFilter(QObject* parent = nullptr);
    void setSourceModel(QAbstractItemModel* model) override;
    // the order the next reset of the source uses when it is for the table's column and order and
    // has the new rows' count (else the rows are sorted then, here)
    void prepareOrder(std::shared_ptr<const Order> order) { prepared_ = std::move(order); }
    int sortColumn() const { return column_; }
    Qt::SortOrder sortOrder() const { return order_; }

    void setOp(const QString& op);  // empty: all
    void setGroup(int group);       // -1: all
    void setMinSkewMs(double ms);
    void setBigOnly(bool on);
    void setCause(const QString& cause);  // identifier (causeName), empty: all
    bool accepts(int collective) const { return hiddenBy(collective) == 0; }
    // the filters that hide a collective (none: it is listed)
    enum Criterion : unsigned { ByOp = 1, ByGroup = 2, ByMinSkew = 4, ByBigOnly = 8, ByCause = 16 };
    unsigned hiddenBy(int collective) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& idx) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex& proxy) const override;
    QModelIndex mapFromSource(const QModelIndex& source) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    const CollectiveModel* model() const;
    int sourceRows() const;
    void sourceReset();  // the new rows in the prepared order (or sorted here), filtered
    void filterRows();   // shown_ and proxyRow_ from rows_ and the filters
    // a layout change around `change`, the persistent indexes kept on their collectives
    void relayout(const std::function<void()>& change, QAbstractItemModel::LayoutChangeHint hint);
    void refilter() {
        relayout([this] { filterRows(); }, QAbstractItemModel::NoLayoutChangeHint);
    }

    std::vector<int> rows_;      // every collective, in the table's order
    std::vector<int> shown_;     // proxy row -> collective
    std::vector<int> proxyRow_;  // collective -> proxy row, -1 when the filters hide it
    std::shared_ptr<const Order> prepared_;
    int column_ = -1;
    Qt::SortOrder order_ = Qt::AscendingOrder;
    QList<QMetaObject::Connection> sourceConnections_;
    QString op_, cause_;
    int group_ = -1;
    double minSkewMs_ = 0;
    bool bigOnly_ = false;
};

}  // namespace skewui
