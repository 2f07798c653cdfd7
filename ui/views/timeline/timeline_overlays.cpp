// The passes over the timeline's rows, after the body image: kernel names, the selected collective,
// lines to the CPU launches, the late-arrival markers and their labels, what Show in Timeline or the
// search marked, the measured range and the
// hover line. Clipped to the rows area.

#include <QFontMetricsF>
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

// each kernel's name once kernels are wide enough (their outlines are in the body): where it is
// drawn, the box its text covers, and whether it is dark text (on the light classes)
struct KernelName {
    QRectF at, ink;
    QString name;
    bool dark;
};

std::vector<KernelName> kernelNames(const TimelineState& st) {
    std::vector<KernelName> out;
    const TimelineIndex& ix = st.s.timeline;
    const Profile& prof = st.s.profile;
    const QRect& ra = st.f.rows;
    const double t0 = st.t0(), t1 = st.t1();
    const double nsPerPx = (t1 - t0) / std::max(1, ra.width());
    auto timeAt = [&](double x) { return t0 + (x - ra.left()) * nsPerPx; };
    const QFontMetricsF fm(st.text.font(Font::Small));
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
            // a member's name starts on its waiting part if it waited
            KernelClass w = ix.kernelClass(r.rank, r.lane, k);
            if (w == KernelClass::NcclTransfer && timeAt(tr.left()) < double(kl.start[k] + ix.waitNs(r.rank, r.lane, k))) w = KernelClass::NcclWait;
            QString name = st.text.elidedName(prof.strings, kl.name[k], int(tr.width()));
            if (name.isEmpty()) continue;
            const double h = fm.height();
            const QRectF ink(tr.left() - 2, tr.center().y() - h / 2 - 1, fm.horizontalAdvance(name) + 4, h + 2);  // (a pixel of air: aliased lines)
            out.push_back({tr, ink, name, w == KernelClass::Other || w == KernelClass::NcclWait});
        }
    }
    return out;
}

void paintKernelNames(QPainter& p, const TimelineState& st, const std::vector<KernelName>& names) {
    for (const KernelName& n : names) {
        p.setPen(n.dark ? QColor(30, 30, 30) : QColor(255, 255, 255));
        st.text.draw(p, n.at, n.name, Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
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

// the parts of `l` outside every box of `boxes` (clipped as Liang-Barsky clips a segment to a box)
void clipAround(const QLineF& l, const std::vector<QRectF>& boxes, std::vector<QLineF>& out) {
    std::vector<std::pair<double, double>> cut;  // parameter ranges inside a box
    const double dx = l.dx(), dy = l.dy();
    const QRectF span = QRectF(l.p1(), l.p2()).normalized();
    for (const QRectF& b : boxes) {
        if (b.right() < span.left() || b.left() > span.right() || b.bottom() < span.top() || b.top() > span.bottom()) continue;
        double lo = 0, hi = 1;
        const double ps[] = {-dx, dx, -dy, dy}, qs[] = {l.x1() - b.left(), b.right() - l.x1(), l.y1() - b.top(), b.bottom() - l.y1()};
        bool inside = true;
        for (int i = 0; i < 4 && inside; ++i) {
            if (ps[i] == 0) inside = qs[i] >= 0;
            else if (ps[i] < 0) lo = std::max(lo, qs[i] / ps[i]);
            else hi = std::min(hi, qs[i] / ps[i]);
        }
        if (inside && lo < hi) cut.push_back({lo, hi});
    }
    std::sort(cut.begin(), cut.end());
    double from = 0;
    for (const auto& [a, b] : cut) {
        if (a > from) out.emplace_back(l.pointAt(from), l.pointAt(a));
        from = std::max(from, b);
    }
    if (from < 1) out.emplace_back(l.pointAt(from), l.p2());
}

// lines from NCCL kernels to their CPU launches, when few collectives are in view (and for the
// selection), broken where they would cross a kernel's name (review defect 15)
std::vector<QLineF> launchLines(const TimelineState& st, const std::vector<QRectF>& nameBoxes) {
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
                clipAround(QLineF(from, to), nameBoxes, lines);
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
    return lines;
}

// aliased and opaque, drawn in one call (blended antialiased lines cost milliseconds)
void paintLaunchLines(QPainter& p, const std::vector<QLineF>& lines) {
    p.setPen(QPen(QColor::fromRgb(kLaunchLine), 1));
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

namespace {

std::vector<QRectF> nameBoxes(const std::vector<KernelName>& names) {
    std::vector<QRectF> out;
    for (const KernelName& n : names) out.push_back(n.ink);
    return out;
}

}  // namespace

LaunchLines timelineLaunchLines(const TimelineState& st) {
    LaunchLines out;
    out.names = nameBoxes(kernelNames(st));
    out.lines = launchLines(st, out.names);
    return out;
}

void paintTimelineOverlays(QPainter& p, const TimelineState& st) {
    p.save();
    p.setClipRect(st.f.rows);
    const std::vector<KernelName> names = kernelNames(st);
    paintKernelNames(p, st, names);
    paintIdealSchedule(p, st);
    paintSelection(p, st);
    paintLaunchLines(p, launchLines(st, nameBoxes(names)));
    paintMarkers(p, st);
    paintHighlight(p, st);
    paintMeasure(p, st);
    p.restore();
}

}  // namespace skewui
