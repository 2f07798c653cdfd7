#include "views/timeline/timeline_hits.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "report/format.h"
#include "scene/view_texts.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_raster.h"

using namespace skew;

namespace skewui {

namespace {

// the launch call nearest to t (within the slack) of a rank's CPU row
void hitLaunch(const TimelineState& st, const TimelineRow& r, double t, double slack, TimelineHit& h) {
    const Rank& rank = st.s.profile.ranks[size_t(r.rank)];
    double best = slack;
    st.s.timeline.forEachLaunch(r.rank, t - slack, t + slack, [&](int lane, uint32_t k) {
        const KernelLane& kl = rank.lanes[size_t(lane)];
        double s = double(kl.launchStart(k)), e = double(kl.launchEnd(k));
        double d = t < s ? s - t : t > e ? t - e : 0;
        if (d <= best) {
            best = d;
            h.kind = TimelineHit::Launch;
            h.rank = r.rank;
            h.lane = lane;
            h.index = k;
        }
    });
}

}  // namespace

TimelineHit timelineHitTest(const TimelineState& st, const QPointF& pos) {
    TimelineHit h;
    const TimelineFrame& f = st.f;
    const std::vector<TimelineRow>& rows = st.rows();
    if (pos.x() < f.gutter && pos.y() >= f.rows.top() && pos.y() <= f.rows.bottom()) {
        int i = st.rowAt(int(pos.y()));
        if (i >= 0 && rows[size_t(i)].kind == TimelineRow::Header) {
            h.kind = TimelineHit::Header;
            h.rank = rows[size_t(i)].rank;
        }
        return h;
    }
    if (!f.rows.contains(pos.toPoint())) return h;
    // markers first (they sit on top); sorted by x
    const std::vector<TimelineMarker> mks = timelineMarkers(st);
    auto it = std::lower_bound(mks.begin(), mks.end(), pos.x() - 20, [](const TimelineMarker& m, double x) { return m.r.left() < x; });
    for (; it != mks.end() && it->r.left() <= pos.x(); ++it)
        if (it->r.contains(pos)) {
            h.kind = TimelineHit::Marker;
            h.collective = it->collective;
            const Collective& c = st.s.analysis.collectives[size_t(it->collective)];
            h.lane = laneOfSlot(st.s.analysis, it->collective, c.lateSlot, h.rank);
            h.index = st.s.analysis.slotKernel(c, size_t(c.lateSlot));
            return h;
        }
    int i = st.rowAt(int(pos.y()));
    if (i < 0) return h;
    const TimelineRow& r = rows[size_t(i)];
    const double t = st.timeAtX(pos.x());
    const double slack = 2.0 * (st.t1() - st.t0()) / std::max(1, f.rows.width());
    const TimelineIndex& ix = st.s.timeline;
    if (r.kind == TimelineRow::Lane) {
        int64_t k = ix.kernelAt(r.rank, r.lane, t, slack);
        if (k >= 0) {
            h.kind = TimelineHit::Kernel;
            h.rank = r.rank;
            h.lane = r.lane;
            h.index = k;
            h.collective = int(ix.collectiveOf(r.rank, r.lane, uint32_t(k)));
        }
    } else if (r.kind == TimelineRow::Cpu) {
        hitLaunch(st, r, t, slack, h);
    } else if (r.kind == TimelineRow::Header) {
        h.kind = TimelineHit::Header;
        h.rank = r.rank;
    }
    return h;
}

namespace {

QString kernelTip(const TimelineState& st, int rank, int lane, int64_t k) {
    const Profile& prof = st.s.profile;
    const TimelineIndex& ix = st.s.timeline;
    const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(lane)];
    QString name = QString::fromStdString(prof.strings.str(kl.name[size_t(k)]));
    if (name.size() > 160) name = name.left(157) + "...";
    const QString shortName = QString::fromStdString(kernelBaseName(prof.strings.str(kl.name[size_t(k)])));
    QString t = QString("<b>%1</b>%2<br>%3 \u00B7 stream %4<br>start %5 \u00B7 duration %6")
                    .arg(shortName.toHtmlEscaped(), name == shortName ? QString() : "<br>" + name.toHtmlEscaped(),
                         QString::fromStdString(prof.ranks[size_t(rank)].label))
                    .arg(kl.stream)
                    .arg(tickLabel(double(kl.start[size_t(k)]), 1))
                    .arg(dur(double(kl.end(size_t(k)) - kl.start[size_t(k)])));
    int64_t ci = ix.collectiveOf(rank, lane, uint32_t(k));
    if (ci >= 0) {
        const Collective& c = st.s.analysis.collectives[size_t(ci)];
        t += QString("<br>collective group %1 #%2 %3 \u00B7 start skew %4").arg(c.group).arg(c.index).arg(opName(c.op)).arg(dur(double(c.startSkew())));
        if (auto m = memberOfKernel(prof, st.s.analysis, c, rank, lane, uint32_t(k)))
            t += QString("<br>lateness %1 \u00B7 waited %2%3")
                     .arg(m->latenessNs == 0 ? QObject::tr("0 (first)") : "+" + dur(double(m->latenessNs)))
                     .arg(dur(double(ix.waitNs(rank, lane, uint32_t(k)))))
                     .arg(int(m->slot) == c.lateSlot ? QObject::tr(" \u00B7 <b>late arriver</b>") : QString());
    }
    return t;
}

QString markerTip(const TimelineState& st, const TimelineHit& h) {
    const Collective& c = st.s.analysis.collectives[size_t(h.collective)];
    return QObject::tr("<b>late arriver %1</b> +%2<br>group %3 #%4 %5 \u00B7 cause %6%7")
        .arg(QString::fromStdString(st.s.profile.ranks[size_t(h.rank)].label), dur(double(c.startSkew())))
        .arg(c.group)
        .arg(c.index)
        .arg(opName(c.op), causeLabel(c.cause), c.big ? QObject::tr(" \u00B7 <b>big event</b>") : QString());
}

QString launchTip(const TimelineState& st, const TimelineHit& h) {
    const KernelLane& kl = st.s.profile.ranks[size_t(h.rank)].lanes[size_t(h.lane)];
    const uint32_t k = uint32_t(h.index);
    bool nccl = st.s.timeline.ncclLaunch(h.rank, h.lane, k);
    return QObject::tr("<b>%1</b>%2<br>thread %3 \u00B7 start %4 \u00B7 %5<br>correlation id %6")
        .arg(QString::fromStdString(st.s.profile.strings.str(kl.launchApi[k])), nccl ? QObject::tr(" (NCCL kernel launch)") : QString())
        .arg(kl.launchTid[k])
        .arg(tickLabel(double(kl.launchStart(k)), 1), dur(double(kl.launchDuration[k])))
        .arg(kl.correlationId[k]);
}

// what the pixel column under the cursor merges, when it merges several kernels
QString mergedTip(const TimelineState& st, const TimelineRow& r, double x) {
    if (!(r.kind == TimelineRow::Lane || (r.kind == TimelineRow::Header && st.collapsed(r.rank)))) return {};
    const TimelineFrame& f = st.f;
    const double npp = (st.t1() - st.t0()) / std::max(1, f.rows.width());
    const int col = int(std::floor((x - f.rows.left())));
    const double ca = st.t0() + col * npp, cb = ca + npp;
    ColumnSum cs;
    if (r.kind == TimelineRow::Lane) {
        cs = st.s.timeline.range(r.rank, r.lane, ca, cb);
    } else {
        for (int l : st.s.timeline.laneOrder(r.rank)) {
            ColumnSum one = st.s.timeline.range(r.rank, l, ca, cb);
            for (int w = 0; w < kKernelClasses; ++w) cs.ns[w] += one.ns[w];
            cs.kernels += one.kernels;
        }
    }
    if (cs.kernels <= 1) return {};
    QStringList parts;
    for (KernelClass w : kStackOrder)
        if (cs.ns[int(w)] > 0) parts << QString("%1 %2%").arg(QString::fromStdString(kernelClassName(w))).arg(100.0 * cs.ns[int(w)] / npp, 0, 'f', 0);
    return QObject::tr("<i>%1 kernels in this pixel (%2): %3</i>").arg(cs.kernels).arg(dur(npp), parts.join(", "));
}

}  // namespace

QString timelineToolTip(const TimelineState& st, const QPointF& pos) {
    if (!st.s.timeline.valid()) return {};
    const TimelineFrame& f = st.f;
    if (f.overview.contains(pos.toPoint())) return st.strip.tooltip(f.overview, pos.x());
    if (keyRect(f).contains(pos)) return st.strip.keyTooltip();
    if (f.ruler.contains(pos.toPoint())) {
        QString t = tickLabel(st.timeAtX(pos.x()), (st.t1() - st.t0()) / std::max(1, f.rows.width()));
        if (st.zoom.hasMeasure()) t += QObject::tr("\nmeasured: %1").arg(dur(st.zoom.measureEnd() - st.zoom.measureStart()));
        return t + QObject::tr("\ndrag to zoom to a range");
    }
    const TimelineHit h = timelineHitTest(st, pos);
    if (h.kind == TimelineHit::Marker) return markerTip(st, h);
    if (h.kind == TimelineHit::Header && pos.x() < f.gutter)
        return QObject::tr("click to %1 %2").arg(st.collapsed(h.rank) ? QObject::tr("expand") : QObject::tr("collapse"),
                                                 QString::fromStdString(st.s.profile.ranks[size_t(h.rank)].label));
    int i = st.rowAt(int(pos.y()));
    if (i < 0 || pos.x() < f.rows.left()) return {};
    const QString merged = mergedTip(st, st.rows()[size_t(i)], pos.x());
    if (h.kind == TimelineHit::Kernel) return kernelTip(st, h.rank, h.lane, h.index) + (merged.isEmpty() ? QString() : "<br>" + merged);
    if (h.kind == TimelineHit::Launch) return launchTip(st, h);
    return merged;
}

}  // namespace skewui
