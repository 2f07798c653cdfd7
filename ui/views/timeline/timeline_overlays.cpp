// The passes over the timeline's rows, after the body image: kernel names, the selected collective,
// lines to the CPU launches, the late-arrival markers and their labels, what Show in Timeline or the
// search marked, the measured range and the
// hover line. Clipped to the rows area.

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "common/palette.h"
#include "common/text.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_passes.h"

using namespace skew;

namespace skewui {

using namespace palette;
using Font = TimelineText::FontKind;

namespace {

// each kernel's name once kernels are wide enough (their outlines are in the body)
void paintKernelNames(QPainter& p, const TimelineState& st) {
    const TimelineIndex& ix = st.s.timeline;
    const Profile& prof = st.s.profile;
    const QRect& ra = st.f.rows;
    const double t0 = st.t0(), t1 = st.t1();
    const double nsPerPx = (t1 - t0) / std::max(1, ra.width());
    auto timeAt = [&](double x) { return t0 + (x - ra.left()) * nsPerPx; };
    const std::vector<TimelineRow>& rows = st.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& r = rows[i];
        if (r.kind != TimelineRow::Lane) continue;
        double top = st.rowTop(int(i));
        if (top + r.h < ra.top() || top > ra.bottom()) continue;
        auto [first, last] = ix.kernelsIn(r.rank, r.lane, t0, t1);
        if (last - first > uint32_t(ra.width() / 4)) continue;
        const KernelLane& kl = prof.ranks[size_t(r.rank)].lanes[size_t(r.lane)];
        for (uint32_t k = first; k < last; ++k) {
            double xa = st.x(double(kl.start[k])), xb = st.x(double(kl.end(k)));
            if (xb - xa < 44) continue;
            QRectF box(xa, top + 2, xb - xa, r.h - 3);
            QRectF tr = box.intersected(QRectF(ra)).adjusted(3, 0, -2, 0);
            // dark text on the light classes; a member's name starts on its waiting part if it waited
            KernelClass w = ix.kernelClass(r.rank, r.lane, k);
            if (w == KernelClass::NcclTransfer && timeAt(tr.left()) < double(kl.start[k] + ix.waitNs(r.rank, r.lane, k))) w = KernelClass::NcclWait;
            p.setPen(w == KernelClass::Other || w == KernelClass::NcclWait ? QColor(30, 30, 30) : QColor(255, 255, 255));
            QString name = st.text.elidedName(prof.strings, kl.name[k], int(tr.width()));
            if (!name.isEmpty()) st.text.draw(p, tr, name, Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
}

// the selected collective: a band over its ranks, members outlined
void paintSelection(QPainter& p, const TimelineState& st) {
    if (st.selected < 0) return;
    const Analysis& a = st.s.analysis;
    const Profile& prof = st.s.profile;
    const std::vector<TimelineRow>& rows = st.rows();
    const Collective& c = a.collectives[size_t(st.selected)];
    const Group& g = a.groups[size_t(c.group)];
    double xa = st.x(double(c.minStart)), xb = st.x(double(c.maxEnd));
    if (xb - xa < 3) {
        double m = (xa + xb) / 2;
        xa = m - 1.5, xb = m + 1.5;
    }
    for (size_t s = 0; s < g.width(); ++s) {
        int rank = g.lanes[s].rank;
        // the rank's block: its header to its CPU row
        double top = 1e9, bottom = -1e9;
        const auto [first, end] = st.layout.rankRows(rank);
        for (int i = first; i < end; ++i) top = std::min(top, st.rowTop(i)), bottom = std::max(bottom, st.rowTop(i) + rows[size_t(i)].h);
        // (its tint is in the body image, behind the kernels)
        p.setPen(QPen(kSelect.darker(120), 1));
        p.drawLine(QPointF(xa, top), QPointF(xa, bottom));
        p.drawLine(QPointF(xb, top), QPointF(xb, bottom));
        uint32_t k = a.slotKernel(c, s);
        int row = st.layout.rowOf(rank, g.lanes[s].lane);
        if (k == kMissing || row < 0) continue;
        const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(g.lanes[s].lane)];
        double ka = st.x(double(kl.start[k])), kb = std::max(ka + 2, st.x(double(kl.end(k))));
        bool late = int(s) == c.lateSlot;
        p.setPen(QPen(late ? kLate : QColor(0x10, 0x30, 0x60), late ? 2 : 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(ka, st.rowTop(row) + 1, kb - ka, rows[size_t(row)].h - 2));
    }
}

// what Show in Timeline or the search marked: the kernel outlined thick, a span between two lines
// (over its rank's CPU row, or every row)
void paintHighlight(QPainter& p, const TimelineState& st) {
    const TimelineHighlight& h = st.highlight;
    if (!h.valid()) return;
    double xa = st.x(h.start), xb = std::max(xa + 3, st.x(h.end));
    const QColor ink(0xd0, 0x10, 0xa0);
    p.setBrush(Qt::NoBrush);
    const int row = h.rank < 0 ? -1 : h.lane >= 0 ? st.layout.rowOf(h.rank, h.lane) : st.layout.cpuRowOf(h.rank);
    if (row >= 0) {
        const double top = st.rowTop(row), hgt = st.rows()[size_t(row)].h;
        p.setPen(QPen(ink, 3));
        p.drawRect(QRectF(xa - 2, top - 1, xb - xa + 4, hgt + 1));
        return;
    }
    p.setPen(QPen(ink, 2, Qt::DashLine));
    p.drawLine(QPointF(xa, st.f.rows.top()), QPointF(xa, st.f.rows.bottom()));
    p.drawLine(QPointF(xb, st.f.rows.top()), QPointF(xb, st.f.rows.bottom()));
}

// lines from NCCL kernels to their CPU launches, when few collectives are in view (and for the
// selection): aliased and opaque, drawn in one call (blended antialiased lines cost milliseconds)
void paintLaunchLines(QPainter& p, const TimelineState& st) {
    const TimelineIndex& ix = st.s.timeline;
    const Analysis& a = st.s.analysis;
    const Profile& prof = st.s.profile;
    const QRect& ra = st.f.rows;
    const double t0 = st.t0(), t1 = st.t1();
    std::vector<QLineF> lines;
    uint32_t inView = 0;
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        auto [lo, hi] = ix.collectivesIn(int(gi), t0, t1);
        inView += hi - lo;
    }
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        const Group& g = a.groups[gi];
        auto [lo, hi] = ix.collectivesIn(int(gi), t0, t1);
        const bool zoomed = inView <= 40;
        for (size_t s = 0; s < g.width(); ++s) {
            const int rank = g.lanes[s].rank, lane = g.lanes[s].lane;
            const int row = st.layout.rowOf(rank, lane), cpu = st.layout.cpuRowOf(rank);
            if (row < 0 || cpu < 0 || st.collapsed(rank)) continue;
            const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(lane)];
            auto line = [&](uint32_t k) {
                if (!kl.hasLaunch(k)) return;
                QPointF from(st.x(double(kl.launchEnd(k))), st.rowTop(cpu) + 1),
                    to(st.x(double(kl.start[k])), st.rowTop(row) + st.rows()[size_t(row)].h - 1);
                if (from.x() < ra.left() - 1 && to.x() < ra.left() - 1) return;
                lines.emplace_back(from, to);
            };
            if (zoomed) {
                for (uint32_t i = lo; i < hi; ++i) {
                    const Collective& c = a.collectives[ix.collectivesByStart(int(gi))[i]];
                    uint32_t k = a.slotKernel(c, s);
                    if (k != kMissing) line(k);
                }
            } else if (st.selected >= 0 && a.collectives[size_t(st.selected)].group == int(gi)) {
                uint32_t k = a.slotKernel(a.collectives[size_t(st.selected)], s);
                if (k != kMissing) line(k);
            }
        }
    }
    p.setPen(QPen(QColor(0xa5, 0x7d, 0xc6), 1));
    p.drawLines(lines.data(), int(lines.size()));
}

// late arrivers: every one when collectives are far enough apart, big events always; the labels
// after every marker, so that no marker is painted over a label
void paintMarkers(QPainter& p, const TimelineState& st) {
    p.setRenderHint(QPainter::Antialiasing, true);
    const std::vector<TimelineMarker> mks = timelineMarkers(st);
    for (const TimelineMarker& mk : mks) {
        QPolygonF tri;
        const double hw = mk.big ? 6 : 3.5, top = mk.r.top() + 1;
        tri << QPointF(mk.x - hw, top) << QPointF(mk.x + hw, top) << QPointF(mk.x, top + hw * 1.3);
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(mk.big ? kLate : kLateSmall);
        p.drawPolygon(tri);
    }
    for (const TimelineMarkerLabel& l : markerLabels(st, mks)) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 225));
        p.drawRoundedRect(l.box, 2, 2);
        p.setPen(kLate.darker(130));
        st.text.draw(p, l.box, l.text, Font::SmallBold, Qt::AlignHCenter | Qt::AlignVCenter);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

// the measured range (over the rows while it is narrower than the view; the ruler always shows it)
// and the hover line
void paintMeasure(QPainter& p, const TimelineState& st) {
    const QRect& ra = st.f.rows;
    const double ma = st.zoom.measureStart(), mb = st.zoom.measureEnd();
    if (st.zoom.hasMeasure() && st.x(mb) - st.x(ma) < 0.9 * ra.width()) {
        double xa = st.x(ma), xb = st.x(mb);
        p.fillRect(QRectF(xa, ra.top(), std::max(1.0, xb - xa), ra.height()), QColor(0x10, 0x60, 0xc0, 28));
        p.setPen(QPen(QColor(0x10, 0x60, 0xc0), 1, Qt::DashLine));
        p.drawLine(QPointF(xa, ra.top()), QPointF(xa, ra.bottom()));
        p.drawLine(QPointF(xb, ra.top()), QPointF(xb, ra.bottom()));
    }
    if (st.hoverX >= ra.left() && st.hoverX <= ra.right()) {
        p.setPen(QPen(QColor(40, 40, 40, 120), 1));
        p.drawLine(QPointF(st.hoverX, ra.top()), QPointF(st.hoverX, ra.bottom()));
    }
}

}  // namespace

void paintTimelineOverlays(QPainter& p, const TimelineState& st) {
    p.save();
    p.setClipRect(st.f.rows);
    paintKernelNames(p, st);
    paintIdealSchedule(p, st);
    paintSelection(p, st);
    paintLaunchLines(p, st);
    paintMarkers(p, st);
    paintHighlight(p, st);
    paintMeasure(p, st);
    p.restore();
}

}  // namespace skewui
