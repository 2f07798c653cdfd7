#include "models/collective_filter.h"

#include <algorithm>
#include <numeric>

#include "models/collective_model.h"

using namespace skew;

namespace skewui {

std::vector<int> CollectiveFilter::sortedRows(const Analysis& a, int column, Qt::SortOrder order) {
    std::vector<int> rows(a.collectives.size());
    std::iota(rows.begin(), rows.end(), 0);
    const bool up = order == Qt::AscendingOrder;
    if (column < 0 || column >= CollectiveModel::ColumnCount) {
        if (!up) std::reverse(rows.begin(), rows.end());
        return rows;
    }
    // descending: "greater than" is "less than" with the arguments swapped, ties keep collective order
    if (column == CollectiveModel::Op || column == CollectiveModel::Cause) {
        std::stable_sort(rows.begin(), rows.end(), [&](int l, int r) {
            return up ? CollectiveModel::sortsBefore(a, column, l, r) : CollectiveModel::sortsBefore(a, column, r, l);
        });
        return rows;
    }
    // the numeric keys in one sequential pass, then each comparison reads two doubles
    std::vector<double> keys(rows.size());
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = CollectiveModel::sortKey(a, int(i), column);
    std::stable_sort(rows.begin(), rows.end(),
                     [&](int l, int r) { return up ? keys[size_t(l)] < keys[size_t(r)] : keys[size_t(r)] < keys[size_t(l)]; });
    return rows;
}

CollectiveFilter::CollectiveFilter(QObject* parent) : QAbstractProxyModel(parent) {}

const CollectiveModel* CollectiveFilter::model() const {
    return qobject_cast<const CollectiveModel*>(sourceModel());
}

int CollectiveFilter::sourceRows() const {
    const CollectiveModel* m = model();
    return m && m->current() ? int(m->current()->analysis.collectives.size()) : 0;
}

void CollectiveFilter::setSourceModel(QAbstractItemModel* source) {
    beginResetModel();
    for (const auto& c : sourceConnections_) disconnect(c);
    sourceConnections_.clear();
    QAbstractProxyModel::setSourceModel(source);
    // the collectives table's model only resets (a new capture) and never changes a row
    if (source) {
        sourceConnections_ << connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
        sourceConnections_ << connect(source, &QAbstractItemModel::modelReset, this, [this] {
            sourceReset();
            endResetModel();
        });
        sourceConnections_ << connect(source, &QAbstractItemModel::headerDataChanged, this,
                                      &QAbstractItemModel::headerDataChanged);
    }
    sourceReset();
    endResetModel();
}

void CollectiveFilter::sourceReset() {
    const CollectiveModel* m = model();
    const size_t n = size_t(sourceRows());
    std::shared_ptr<const Order> prepared = std::move(prepared_);
    if (prepared && prepared->column == column_ && prepared->order == order_ && prepared->rows.size() == n)
        rows_ = prepared->rows;
    else
        rows_ = n ? sortedRows(m->current()->analysis, column_, order_) : std::vector<int>{};
    filterRows();
}

void CollectiveFilter::filterRows() {
    shown_.clear();
    proxyRow_.assign(rows_.size(), -1);
    for (int r : rows_)
        if (hiddenBy(r) == 0) {
            proxyRow_[size_t(r)] = int(shown_.size());
            shown_.push_back(r);
        }
}

void CollectiveFilter::relayout(const std::function<void()>& change, QAbstractItemModel::LayoutChangeHint hint) {
    emit layoutAboutToBeChanged({}, hint);
    // each persistent index (the current row, the selection) follows its collective, or goes when
    // the filters hide it
    const QModelIndexList from = persistentIndexList();
    std::vector<int> collectives;
    collectives.reserve(size_t(from.size()));
    for (const QModelIndex& i : from)
        collectives.push_back(i.row() >= 0 && size_t(i.row()) < shown_.size() ? shown_[size_t(i.row())] : -1);
    change();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype k = 0; k < from.size(); ++k) {
        const int c = collectives[size_t(k)];
        const int row = c >= 0 ? proxyRow_[size_t(c)] : -1;
        to << (row >= 0 ? createIndex(row, from[k].column()) : QModelIndex());
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, hint);
}

void CollectiveFilter::sort(int column, Qt::SortOrder order) {
    column_ = column;
    order_ = order;
    prepared_.reset();
    const CollectiveModel* m = model();
    if (!m || !m->current()) return;
    relayout(
        [&] {
            rows_ = sortedRows(m->current()->analysis, column, order);
            filterRows();
        },
        QAbstractItemModel::VerticalSortHint);
}

// A setter that changes nothing leaves the rows alone: the window sets every filter after each
// load, and each pass over the rows costs tens of ms at 100,000 collectives (the first picture).
void CollectiveFilter::setOp(const QString& op) {
    if (op_ == op) return;  // the same rows: no pass over them
    op_ = op;
    refilter();
}
void CollectiveFilter::setGroup(int g) {
    if (group_ == g) return;
    group_ = g;
    refilter();
}
void CollectiveFilter::setMinSkewMs(double ms) {
    if (minSkewMs_ == ms) return;
    minSkewMs_ = ms;
    refilter();
}
void CollectiveFilter::setBigOnly(bool on) {
    if (bigOnly_ == on) return;
    bigOnly_ = on;
    refilter();
}
void CollectiveFilter::setCause(const QString& c) {
    if (cause_ == c) return;
    cause_ = c;
    refilter();
}

unsigned CollectiveFilter::hiddenBy(int row) const {
    const CollectiveModel* m = model();
    if (!m || !m->current() || row < 0 || size_t(row) >= m->current()->analysis.collectives.size()) return 0;
    const Collective& c = m->current()->analysis.collectives[size_t(row)];
    unsigned by = 0;
    if (!op_.isEmpty() && op_ != opName(c.op)) by |= ByOp;
    if (group_ >= 0 && c.group != group_) by |= ByGroup;
    if (double(c.startSkew()) < minSkewMs_ * 1e6) by |= ByMinSkew;
    if (bigOnly_ && !c.big) by |= ByBigOnly;
    if (!cause_.isEmpty() && (c.lateSlot < 0 || cause_ != causeName(c.cause))) by |= ByCause;
    return by;
}

// ---- the proxy's rows ------------------------------------------------------------------------

QModelIndex CollectiveFilter::index(int row, int column, const QModelIndex& parent) const {
    if (parent.isValid() || row < 0 || size_t(row) >= shown_.size() || column < 0 || column >= columnCount()) return {};
    return createIndex(row, column);
}

QModelIndex CollectiveFilter::parent(const QModelIndex&) const {
    return {};
}

QModelIndex CollectiveFilter::sibling(int row, int column, const QModelIndex& idx) const {
    return idx.isValid() ? index(row, column) : QModelIndex();
}

int CollectiveFilter::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(shown_.size());
}

int CollectiveFilter::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool CollectiveFilter::hasChildren(const QModelIndex& parent) const {
    return !parent.isValid() && !shown_.empty() && columnCount() > 0;
}

QModelIndex CollectiveFilter::mapToSource(const QModelIndex& proxy) const {
    if (!proxy.isValid() || proxy.model() != this || size_t(proxy.row()) >= shown_.size() || !sourceModel()) return {};
    return sourceModel()->index(shown_[size_t(proxy.row())], proxy.column());
}

QModelIndex CollectiveFilter::mapFromSource(const QModelIndex& source) const {
    if (!source.isValid() || source.model() != sourceModel() || size_t(source.row()) >= proxyRow_.size()) return {};
    const int row = proxyRow_[size_t(source.row())];
    return row >= 0 ? createIndex(row, source.column()) : QModelIndex();
}

QVariant CollectiveFilter::headerData(int section, Qt::Orientation o, int role) const {
    if (!sourceModel()) return {};
    // the columns are the model's (also while the filters list nothing); a row's header is its collective's
    if (o == Qt::Horizontal) return sourceModel()->headerData(section, o, role);
    return section >= 0 && size_t(section) < shown_.size() ? sourceModel()->headerData(shown_[size_t(section)], o, role)
                                                           : QVariant();
}

}  // namespace skewui
