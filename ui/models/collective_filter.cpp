#include "models/collective_filter.h"

#include "models/collective_model.h"

using namespace skew;

namespace skewui {

CollectiveFilter::CollectiveFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(CollectiveModel::SortRole); }

// A setter that changes nothing leaves the rows alone: the window sets every filter after each
// load, and each pass over the rows costs tens of ms at 100,000 collectives (the first picture).
void CollectiveFilter::setOp(const QString& op) {
    if (op_ == op) return;
    op_ = op;
    invalidateFilter();
}
void CollectiveFilter::setGroup(int g) {
    if (group_ == g) return;
    group_ = g;
    invalidateFilter();
}
void CollectiveFilter::setMinSkewMs(double ms) {
    if (minSkewMs_ == ms) return;
    minSkewMs_ = ms;
    invalidateFilter();
}
void CollectiveFilter::setBigOnly(bool on) {
    if (bigOnly_ == on) return;
    bigOnly_ = on;
    invalidateFilter();
}
void CollectiveFilter::setCause(const QString& c) {
    if (cause_ == c) return;
    cause_ = c;
    invalidateFilter();
}

unsigned CollectiveFilter::hiddenBy(int row) const {
    auto* m = qobject_cast<CollectiveModel*>(sourceModel());
    if (!m || !m->session() || row < 0 || size_t(row) >= m->session()->analysis.collectives.size()) return 0;
    const Collective& c = m->session()->analysis.collectives[size_t(row)];
    unsigned by = 0;
    if (!op_.isEmpty() && op_ != opName(c.op)) by |= ByOp;
    if (group_ >= 0 && c.group != group_) by |= ByGroup;
    if (double(c.startSkew()) < minSkewMs_ * 1e6) by |= ByMinSkew;
    if (bigOnly_ && !c.big) by |= ByBigOnly;
    if (!cause_.isEmpty() && (c.lateSlot < 0 || cause_ != causeName(c.cause))) by |= ByCause;
    return by;
}

bool CollectiveFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
    return parent.isValid() || hiddenBy(row) == 0;
}

void CollectiveFilter::setSourceModel(QAbstractItemModel* model) {
    disconnect(resetKeys_);
    keysColumn_ = -1;
    QSortFilterProxyModel::setSourceModel(model);
    // before the proxy sorts the new rows
    if (model) resetKeys_ = connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { keysColumn_ = -1; });
}

bool CollectiveFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    auto* m = qobject_cast<CollectiveModel*>(sourceModel());
    if (!m || !m->current() || sortRole() != CollectiveModel::SortRole || left.parent().isValid())
        return QSortFilterProxyModel::lessThan(left, right);
    const int column = left.column();
    const skew::Analysis& a = m->current()->analysis;
    if (column == CollectiveModel::Op || column == CollectiveModel::Cause) return CollectiveModel::sortsBefore(a, column, left.row(), right.row());
    if (keysColumn_ != column || keys_.size() != a.collectives.size()) {
        keys_.resize(a.collectives.size());
        for (size_t i = 0; i < keys_.size(); ++i) keys_[i] = CollectiveModel::sortKey(a, int(i), column);
        keysColumn_ = column;
    }
    return keys_[size_t(left.row())] < keys_[size_t(right.row())];
}

}  // namespace skewui
