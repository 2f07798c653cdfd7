#include "views/timeline/timeline_markers.h"

#include <QFontMetrics>

#include <algorithm>
#include <functional>

#include "common/text.h"

using namespace skew;

namespace skewui {

int laneOfSlot(const Analysis& a, int collective, int slot, int& rank) {
    const Collective& c = a.collectives[size_t(collective)];
    const GroupSlot& gl = a.groups[size_t(c.group)].lanes[size_t(slot)];
    rank = gl.rank;
    return gl.lane;
}

std::vector<int> thinnedGroups(const TimelineState& st) {
    std::vector<int> out;
    if (!st.s.timeline.valid()) return out;
    for (size_t gi = 0; gi < st.s.analysis.groups.size(); ++gi) {
        auto [lo, hi] = st.s.timeline.collectivesIn(int(gi), st.t0(), st.t1());
        if (hi - lo > uint32_t(st.f.rows.width() / 10)) out.push_back(int(gi));
    }
    return out;
}

std::vector<TimelineMarker> timelineMarkers(const TimelineState& st) {
    std::vector<TimelineMarker> out;
    const TimelineIndex& ix = st.s.timeline;
    const Analysis& a = st.s.analysis;
    const QRect& ra = st.f.rows;
    auto add = [&](uint32_t ci, bool big) {
        const Collective& c = a.collectives[ci];
        if (c.lateSlot < 0 || c.startSkew() <= 0) return;
        int rank;
        int lane = laneOfSlot(a, int(ci), c.lateSlot, rank);
        int row = st.layout.rowOf(rank, lane);
        if (row < 0) return;
        double x = st.x(double(c.maxStart));
        double top = st.rowTop(row);
        if (x < ra.left() - 8 || x > ra.right() + 8 || top + 8 < ra.top() || top > ra.bottom()) return;
        double hw = big ? 6 : 3.5;
        out.push_back({QRectF(x - hw - 1, top - 1, 2 * hw + 2, hw * 1.3 + 3), int(ci), row, x, big});
    };
    const std::vector<int> thinned = thinnedGroups(st);
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        if (std::find(thinned.begin(), thinned.end(), int(gi)) != thinned.end()) continue;  // too dense: big events only
        auto [lo, hi] = ix.collectivesIn(int(gi), st.t0(), st.t1());
        for (uint32_t i = lo; i < hi; ++i) {
            uint32_t ci = ix.collectivesByStart(int(gi))[i];
            if (!a.collectives[ci].big) add(ci, false);
        }
    }
    for (uint32_t ci : ix.bigCollectives()) add(ci, true);  // big events at any zoom
    std::stable_sort(out.begin(), out.end(), [](const TimelineMarker& x, const TimelineMarker& y) { return x.r.left() < y.r.left(); });
    return out;
}

std::vector<TimelineMarkerLabel> placeMarkerLabels(const std::vector<TimelineMarker>& mks, const QRect& area,
                                                   const std::function<int64_t(int)>& skewNs,
                                                   const std::function<double(const QString&)>& textWidth) {
    // the big markers, largest start skew first (then left first): the larger event keeps its label
    std::vector<size_t> order;
    for (size_t i = 0; i < mks.size(); ++i)
        if (mks[i].big) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return skewNs(mks[a].collective) > skewNs(mks[b].collective); });
    // each kept label reserves room for a count, so that adding it never makes labels overlap
    const double reserve = textWidth(QStringLiteral(" \u00D799"));
    struct Kept {
        TimelineMarkerLabel label;
        QRectF room;  // the box with the count's room on the side away from the marker
        bool right;
        int count;
    };
    std::vector<Kept> kept;
    auto covered = [&](const QRectF& box, int collective) {
        int n = 0;
        auto it = std::lower_bound(mks.begin(), mks.end(), box.left() - 20, [](const TimelineMarker& m, double x) { return m.r.left() < x; });
        for (; it != mks.end() && it->r.left() <= box.right(); ++it)
            if (it->collective != collective && it->r.intersects(box)) ++n;
        return n;
    };
    for (size_t i : order) {
        const TimelineMarker& mk = mks[i];
        const QString text = "+" + dur(double(skewNs(mk.collective)));
        const double top = mk.r.top() + 1, w = textWidth(text) + 6;
        const QRectF right(mk.x + 7, top - 1, w, 13), left(mk.x - 7 - w, top - 1, w, 13);
        const bool useLeft = right.right() + reserve > area.right() ||
                             (left.left() - reserve >= area.left() && covered(left, mk.collective) < covered(right, mk.collective));
        const QRectF box = useLeft ? left : right;
        const QRectF room = useLeft ? box.adjusted(-reserve, 0, 0, 0) : box.adjusted(0, 0, reserve, 0);
        auto hit = std::find_if(kept.begin(), kept.end(), [&](const Kept& k) { return k.room.intersects(room); });
        if (hit != kept.end()) {
            ++hit->count;  // merged: the kept label counts it
            continue;
        }
        kept.push_back({{box, text, mk.collective, 1}, room, !useLeft, 1});
    }
    std::vector<TimelineMarkerLabel> out;
    for (Kept& k : kept) {
        if (k.count > 1) {
            // "+45.24 ms ×3": the largest of 3 big events whose labels would overlap here
            k.label.text += QStringLiteral(" \u00D7") + (k.count > 99 ? QStringLiteral("99+") : QString::number(k.count));
            const double w = textWidth(k.label.text) + 6;
            if (k.right) k.label.box.setWidth(w);
            else k.label.box.setLeft(k.label.box.right() - w);
            k.label.count = k.count;
        }
        out.push_back(k.label);
    }
    std::sort(out.begin(), out.end(), [](const TimelineMarkerLabel& a, const TimelineMarkerLabel& b) { return a.box.left() < b.box.left(); });
    return out;
}

std::vector<TimelineMarkerLabel> markerLabels(const TimelineState& st, const std::vector<TimelineMarker>& mks) {
    const QFontMetrics fm(st.text.font(TimelineText::SmallBold));
    const Analysis& a = st.s.analysis;
    return placeMarkerLabels(
        mks, st.f.rows, [&](int c) { return a.collectives[size_t(c)].startSkew(); },
        [&](const QString& t) { return double(fm.horizontalAdvance(t)); });
}

}  // namespace skewui
