#include "views/timeline/timeline_markers.h"

#include <QFontMetrics>

#include <algorithm>

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

std::vector<TimelineMarkerLabel> markerLabels(const TimelineState& st, const std::vector<TimelineMarker>& mks) {
    std::vector<TimelineMarkerLabel> out;
    const QRect& ra = st.f.rows;
    const QFontMetrics fm(st.text.font(TimelineText::SmallBold));
    double lastLabel = -1e9;
    int lastLabelRow = -1;
    for (const TimelineMarker& mk : mks) {
        if (!mk.big || (mk.row == lastLabelRow && mk.x - lastLabel < 60)) continue;
        const QString text = "+" + dur(double(st.s.analysis.collectives[size_t(mk.collective)].startSkew()));
        const double top = mk.r.top() + 1, w = fm.horizontalAdvance(text) + 6;
        const QRectF right(mk.x + 7, top - 1, w, 13), left(mk.x - 7 - w, top - 1, w, 13);
        auto covered = [&](const QRectF& box) {
            int n = 0;
            auto it = std::lower_bound(mks.begin(), mks.end(), box.left() - 20, [](const TimelineMarker& m, double x) { return m.r.left() < x; });
            for (; it != mks.end() && it->r.left() <= box.right(); ++it)
                if (it->collective != mk.collective && it->r.intersects(box)) ++n;
            return n;
        };
        QRectF box = right;
        if (right.right() > ra.right() || (left.left() >= ra.left() && covered(left) < covered(right))) box = left;
        out.push_back({box, text, mk.collective});
        lastLabel = mk.x;
        lastLabelRow = mk.row;
    }
    return out;
}

}  // namespace skewui
