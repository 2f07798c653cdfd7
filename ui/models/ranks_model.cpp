#include "models/ranks_model.h"

#include "common/text.h"
#include "report/format.h"

using namespace skew;

namespace skewui {

void RanksModel::setSession(SessionPtr s, int group) {
    beginResetModel();
    s_ = std::move(s);
    group_ = group;
    endResetModel();
}

int RanksModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !s_ || group_ < 0 || size_t(group_) >= s_->analysis.groups.size()) return 0;
    return int(s_->analysis.groups[size_t(group_)].perRank.size());
}

int RanksModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RanksModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Rank", "Last", "First", "Mean lateness", "Excl. big", "NCCL time", "NCCL-only", "Clock offset"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant RanksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const RankStats& rs = s_->analysis.groups[size_t(group_)].perRank[size_t(index.row())];
    const skew::Rank& r = s_->profile.ranks[size_t(rs.rank)];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank: return QString::fromStdString(r.label);
        case Last: return rs.lastCount;
        case First: return rs.firstCount;
        case MeanLateness: return dur(rs.meanLatenessNs);
        case MeanLatenessExclBig: return dur(rs.meanLatenessExclBigNs);
        case NcclTime: return dur(rs.ncclKernelNs);
        case NcclOnly: return dur(rs.ncclOnlyNs);
        case ClockOffset: return dur(r.clockOffsetNs);
        }
    }
    if (role == Qt::TextAlignmentRole) return int((index.column() == Rank ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    return {};
}

}  // namespace skewui
