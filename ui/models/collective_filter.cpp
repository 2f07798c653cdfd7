#include "models/collective_filter.h"

#include "models/collective_model.h"

using namespace skew;

namespace skewui {

CollectiveFilter::CollectiveFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(CollectiveModel::SortRole); }

void CollectiveFilter::setOp(const QString& op) {
    op_ = op;
    invalidateFilter();
}
void CollectiveFilter::setGroup(int g) {
    group_ = g;
    invalidateFilter();
}
void CollectiveFilter::setMinSkewMs(double ms) {
    minSkewMs_ = ms;
    invalidateFilter();
}
void CollectiveFilter::setBigOnly(bool on) {
    bigOnly_ = on;
    invalidateFilter();
}
void CollectiveFilter::setCause(const QString& c) {
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

bool CollectiveFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    auto* m = qobject_cast<CollectiveModel*>(sourceModel());
    if (!m || !m->session() || sortRole() != CollectiveModel::SortRole || left.parent().isValid())
        return QSortFilterProxyModel::lessThan(left, right);
    return CollectiveModel::sortsBefore(m->session()->analysis, left.column(), left.row(), right.row());
}

}  // namespace skewui
