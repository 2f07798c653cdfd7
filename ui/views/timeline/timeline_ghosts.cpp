// The what-if's ideal schedule over the timeline's rows (ghost bars): each kernel where the ideal
// replay puts it (docs/analysis.md, What-if), as an outlined band in the lower part of its row, so
// that the captured kernel stays readable above it and the user sees what moves. Drawn while a
// row's kernels in view are few enough to tell apart; denser rows are left out and the legend says
// to zoom in.

#include <QObject>
#include <QPainter>

#include <algorithm>

#include "common/palette.h"
#include "views/timeline/timeline_passes.h"

using namespace skew;

namespace skewui {

namespace {

// more ideal kernels than this per pixel of a row's width: the row is too dense to draw them
constexpr double kMaxPerPx = 0.5;

template <typename F>
void forEachIdealRow(const TimelineState& st, F&& f) {
    const QRect& ra = st.f.rows;
    const std::vector<TimelineRow>& rows = st.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& r = rows[i];
        if (r.kind != TimelineRow::Lane || st.collapsed(r.rank)) continue;
        const double top = st.rowTop(int(i));
        if (top + r.h < ra.top() || top > ra.bottom()) continue;
        const auto [first, last] = st.ideal->kernelsIn(r.rank, r.lane, st.t0(), st.t1());
        f(r, top, first, last, double(last - first) > kMaxPerPx * ra.width());
    }
}

}  // namespace

bool idealTooDense(const TimelineState& st) {
    bool dense = false;
    if (st.ideal && !st.ideal->empty()) forEachIdealRow(st, [&](const TimelineRow&, double, uint32_t, uint32_t, bool d) { dense |= d; });
    return dense;
}

void paintIdealSchedule(QPainter& p, const TimelineState& st) {
    if (!st.ideal || st.ideal->empty()) return;
    std::vector<QRectF> boxes;
    forEachIdealRow(st, [&](const TimelineRow& r, double top, uint32_t first, uint32_t last, bool dense) {
        if (dense) return;
        const double y = top + r.h * 0.6, h = std::max(3.0, r.h * 0.4 - 1);
        for (uint32_t k = first; k < last; ++k) {
            int64_t a = 0, b = 0;
            if (!st.ideal->at(r.rank, r.lane, k, a, b)) continue;
            const double xa = st.x(double(a)), xb = std::max(xa + 2, st.x(double(b)));
            // kernels narrower than a few pixels that touch are one outline; wider ones keep their own
            QRectF* last = boxes.empty() || boxes.back().top() != y ? nullptr : &boxes.back();
            if (last && xa <= last->right() + 0.5 && (xb - xa < 3 || last->width() < 3))
                last->setRight(std::max(last->right(), xb));
            else
                boxes.emplace_back(xa, y, xb - xa, h);
        }
    });
    p.setPen(QPen(palette::kIdeal, 1));
    p.setBrush(QColor(palette::kIdeal.red(), palette::kIdeal.green(), palette::kIdeal.blue(), 70));
    p.drawRects(boxes.data(), int(boxes.size()));
}

QString idealLegendText(const TimelineState& st) {
    if (st.idealPending) return QObject::tr("ideal schedule: computing\u2026");
    if (!st.ideal) return {};
    if (st.ideal->empty()) return QObject::tr("no ideal schedule: %1").arg(QString::fromStdString(st.ideal->why));
    return idealTooDense(st) ? QObject::tr("ideal schedule (zoom in to see it)") : QObject::tr("ideal schedule (what-if)");
}

}  // namespace skewui
