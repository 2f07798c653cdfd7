#include "views/compare/compare_delta_model.h"

#include <QColor>

#include <cmath>

#include "report/format.h"
#include "common/palette.h"
#include "common/text.h"

namespace skewui {

namespace {

QString signedDur(int64_t ns) {
    if (ns == 0) return QStringLiteral("0");
    return (ns > 0 ? "+" : "\u2212") + dur(ns < 0 ? -ns : ns);
}
QString signedCount(int64_t n) { return n == 0 ? QStringLiteral("0") : (n > 0 ? "+" : "\u2212") + QString::number(n < 0 ? -n : n); }
QString share(double f) { return QString::fromStdString(skew::formatShare(f)); }
QString signedPoints(double f) {
    double pp = f * 100;
    if (std::abs(pp) < 0.05) return QStringLiteral("0 pp");
    return (pp > 0 ? "+" : "\u2212") + QString::number(std::abs(pp), 'f', 1) + " pp";
}
int trend(double d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }

}  // namespace

void CompareDeltaModel::setPair(CompareSessionPtr c, int pair) {
    beginResetModel();
    rows_.clear();
    if (c && pair >= 0 && size_t(pair) < c->comparison.pairs.size()) {
        const skew::GroupPair& p = c->comparison.pairs[size_t(pair)];
        const skew::GroupDelta &a = p.valuesA, &b = p.valuesB, &d = p.delta;
        auto count = [&](const QString& name, int64_t x, int64_t y, int64_t dd, bool lessBetter, const QString& tip) {
            rows_.push_back({name, QString::number(x), QString::number(y), signedCount(dd), tip, lessBetter ? trend(double(dd)) : 0});
        };
        auto time = [&](const QString& name, int64_t x, int64_t y, int64_t dd, const QString& tip) {
            rows_.push_back({name, dur(x), dur(y), signedDur(dd), tip, trend(double(dd))});
        };
        // what the verdict is made of first, then the distributions, the causes and the step, then
        // the counts and the per-rank figures (also in the bars beside): the key rows stay in sight
        rows_.push_back({tr("start-skew cost"), share(a.costShare), share(b.costShare), signedPoints(d.costShare),
                         tr("Share of the NCCL kernel time spent waiting for the last rank (difference in percentage points)"),
                         trend(d.costShare)});
        time(tr("start-skew excess"), a.excessNs, b.excessNs, d.excessNs, tr("NCCL kernel time spent waiting for the last rank"));
        count(tr("big events"), a.bigCount, b.bigCount, d.bigCount, true, tr("Collectives whose start skew is above the big threshold"));
        time(tr("big events' excess"), a.bigExcessNs, b.bigExcessNs, d.bigExcessNs, tr("The excess of the big events alone"));
        const QString skewTip = tr("Over complete collectives: the latest start minus the earliest");
        time(tr("start skew p50"), a.startSkew.p50, b.startSkew.p50, d.startSkew.p50, skewTip);
        time(tr("start skew p90"), a.startSkew.p90, b.startSkew.p90, d.startSkew.p90, skewTip);
        time(tr("start skew max"), a.startSkew.max, b.startSkew.max, d.startSkew.max, skewTip);
        const QString endTip = tr("Over complete collectives: the latest end minus the earliest");
        time(tr("end skew p50"), a.endSkew.p50, b.endSkew.p50, d.endSkew.p50, endTip);
        time(tr("end skew p90"), a.endSkew.p90, b.endSkew.p90, d.endSkew.p90, endTip);
        time(tr("end skew max"), a.endSkew.max, b.endSkew.max, d.endSkew.max, endTip);
        for (skew::Cause k : skew::kAllCauses)
            count(tr("cause %1").arg(tr(skew::causeLabel(k))), a.causes[size_t(k)], b.causes[size_t(k)], d.causes[size_t(k)], false,
                  tr("Complete collectives whose late arriver was late for this reason (%1)").arg(skew::causeName(k)));
        // a cause no big event of either side had: nothing to compare (the big events row says 0)
        for (skew::Cause k : skew::kAllCauses)
            if (a.bigCauses[size_t(k)] || b.bigCauses[size_t(k)])
                count(tr("big: cause %1").arg(tr(skew::causeLabel(k))), a.bigCauses[size_t(k)], b.bigCauses[size_t(k)], d.bigCauses[size_t(k)],
                      false, tr("Big events whose late arriver was late for this reason (%1)").arg(skew::causeName(k)));
        const QString none = QStringLiteral("\u2014");
        rows_.push_back({tr("median step (NVTX)"), a.hasStepTime ? dur(a.stepMedianNs) : none, b.hasStepTime ? dur(b.stepMedianNs) : none,
                         d.hasStepTime ? signedDur(d.stepMedianNs) : none,
                         tr("Median duration of the NVTX step ranges the group's collectives fall in"), d.hasStepTime ? trend(double(d.stepMedianNs)) : 0});
        count(tr("collectives"), a.collectives, b.collectives, d.collectives, false, tr("Collectives of the group in the window"));
        count(tr("complete"), a.complete, b.complete, d.complete, false, tr("Collectives every rank took part in"));
        for (size_t i = 0; i < d.perRank.size(); ++i) {
            const QString la = QString::fromStdString(c->a->profile.ranks[size_t(d.perRank[i].rankA)].label);
            const QString lb = QString::fromStdString(c->b->profile.ranks[size_t(d.perRank[i].rankB)].label);
            const QString rank = la == lb ? la : la + " / " + lb;
            count(tr("%1: last arrivals").arg(rank), a.perRank[i].lastCount, b.perRank[i].lastCount, d.perRank[i].lastCount, false,
                  tr("Complete collectives where this rank started last"));
        }
        for (size_t i = 0; i < d.perRank.size(); ++i) {
            const QString la = QString::fromStdString(c->a->profile.ranks[size_t(d.perRank[i].rankA)].label);
            const QString lb = QString::fromStdString(c->b->profile.ranks[size_t(d.perRank[i].rankB)].label);
            const QString rank = la == lb ? la : la + " / " + lb;
            time(tr("%1: lateness w/o big").arg(rank), a.perRank[i].meanLatenessExclBigNs, b.perRank[i].meanLatenessExclBigNs,
                 d.perRank[i].meanLatenessExclBigNs, tr("Mean lateness of this rank over complete collectives that are not big"));
        }
    }
    endResetModel();
}

int CompareDeltaModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int CompareDeltaModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CompareDeltaModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= rows_.size()) return {};
    const Row& r = rows_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Figure: return r.figure;
        case A: return r.a;
        case B: return r.b;
        case Delta: return r.d;
        }
        return {};
    case Qt::ToolTipRole: return r.tip;
    case Qt::TextAlignmentRole: return int(index.column() == Figure ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == Delta && r.trend < 0) return QColor(0x1b, 0x7a, 0x2e);
        if (index.column() == Delta && r.trend > 0) return QColor(0xb0, 0x1c, 0x1c);
        return {};
    default: return {};
    }
}

QVariant CompareDeltaModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Figure: return tr("figure");
        case A: return tr("A");
        case B: return tr("B");
        case Delta: return tr("B \u2212 A");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case A: return tr("A: the capture before the change");
        case B: return tr("B: the capture after the change");
        case Delta: return tr("B minus A (green: went down where less is better; red: went up)");
        }
    }
    if (role == Qt::ForegroundRole && (section == A || section == B)) return section == A ? palette::kSideA : palette::kSideB;
    return {};
}

int CompareDeltaModel::rowOf(const QString& figure) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].figure == figure) return int(i);
    return -1;
}

}  // namespace skewui
