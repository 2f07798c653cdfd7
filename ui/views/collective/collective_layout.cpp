#include "views/collective/collective_layout.h"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/palette.h"
#include "scene/view_texts.h"

namespace skewui {

using namespace skew;

namespace {

// Finds room for a w x h box in a horizontal band, sliding away from an anchor past obstacles.
// The obstacles are kept in horizontal bands of kBand px by the y they cover, so that a query looks
// only at those near its band: with a row label per rank, a scan of them all is quadratic in ranks
// (a 1,000-rank job spent a second of its first picture here, issue 23).
class Placer {
public:
    Placer(const QRectF& bounds, double pad) : bounds_(bounds), pad_(pad), obstacles_(bounds), others_(bounds) {}
    void block(const QRectF& r) {
        if (r.isValid() && r.intersects(bounds_)) obstacles_.add(r);
    }

    // obstacles for every label but the one that names them (the launch line)
    void blockForOthers(const QRectF& r) { others_.add(r); }
    void ignoreOthers(bool on) { ignoreOthers_ = on; }

    // leftmost box starting at or after `anchor` (at most `maxShift` further right)
    std::optional<QRectF> right(double anchor, double top, double w, double h, double maxShift = 1e9) const {
        if (!bandFits(top, h)) return std::nullopt;
        auto iv = intervals(top, h);
        double x = std::max(anchor, bounds_.left());
        for (const auto& [lo, hi] : iv) {
            if (hi <= x) continue;
            if (lo >= x + w) break;
            x = hi;
        }
        if (x + w > bounds_.right() || x - anchor > maxShift) return std::nullopt;
        return QRectF(x, top, w, h);
    }

    // rightmost box ending at or before `anchor`
    std::optional<QRectF> left(double anchor, double top, double w, double h, double maxShift = 1e9) const {
        if (!bandFits(top, h)) return std::nullopt;
        auto iv = intervals(top, h);
        double x1 = std::min(anchor, bounds_.right());
        for (auto it = iv.rbegin(); it != iv.rend(); ++it) {
            if (it->first >= x1) continue;
            if (it->second <= x1 - w) break;
            x1 = it->first;
        }
        if (x1 - w < bounds_.left() || anchor - x1 > maxShift) return std::nullopt;
        return QRectF(x1 - w, top, w, h);
    }

private:
    bool bandFits(double top, double h) const { return top >= bounds_.top() && top + h <= bounds_.bottom(); }

    // obstacles crossing the band as merged, padded x intervals
    std::vector<std::pair<double, double>> intervals(double top, double h) const {
        std::vector<std::pair<double, double>> iv;
        obstacles_.crossing(top, h, pad_, iv);
        if (!ignoreOthers_) others_.crossing(top, h, pad_, iv);
        std::sort(iv.begin(), iv.end());  // (an obstacle of several bands is listed once per band: merged below)
        std::vector<std::pair<double, double>> merged;
        for (const auto& p : iv) {
            if (!merged.empty() && p.first <= merged.back().second) merged.back().second = std::max(merged.back().second, p.second);
            else merged.push_back(p);
        }
        return merged;
    }

    QRectF bounds_;
    // rectangles by the bands of kBand px (from the bounds' top) they cover; those above or below
    // the bounds in the first or last band
    class Bands {
    public:
        explicit Bands(const QRectF& bounds) : top_(bounds.top()), bands_(size_t(std::max(1.0, std::ceil(bounds.height() / kBand) + 1))) {}
        void add(const QRectF& r) {
            rects_.push_back(r);
            for (size_t b = band(r.top()), e = band(r.bottom()); b <= e; ++b) bands_[b].push_back(uint32_t(rects_.size() - 1));
        }
        // the padded x intervals of the rectangles crossing [top, top + h)
        void crossing(double top, double h, double pad, std::vector<std::pair<double, double>>& iv) const {
            for (size_t b = band(top), e = band(top + h); b <= e; ++b)
                for (uint32_t i : bands_[b]) {
                    const QRectF& r = rects_[i];
                    if (r.top() < top + h && r.bottom() > top) iv.emplace_back(r.left() - pad, r.right() + pad);
                }
        }

    private:
        static constexpr double kBand = 16;
        size_t band(double y) const {
            return std::isnan(y) ? 0 : size_t(std::clamp((y - top_) / kBand, 0.0, double(bands_.size() - 1)));
        }
        double top_;
        std::vector<QRectF> rects_;
        std::vector<std::vector<uint32_t>> bands_;
    };

    double pad_;
    Bands obstacles_, others_;
    bool ignoreOthers_ = false;
};

}  // namespace

const PlacedLabel* SceneLayout::label(LabelKind k, int row) const {
    for (const auto& l : labels)
        if (l.kind == k && (row < 0 || l.row == row)) return &l;
    return nullptr;
}

LayoutFonts::LayoutFonts(const QFont& base) : row(base), late(base), launch(base), predecessor(base) {
    row.setPointSizeF(9);
    late.setPointSizeF(9);
    late.setBold(true);
    launch.setPointSizeF(8.5);
    predecessor.setPointSizeF(8);
}

LabelKind rowLabelKind(const CollectiveScene& sc, int row) {
    const SceneRow& r = sc.rows[size_t(row)];
    if (r.missing) return LabelKind::Missing;
    if (r.late) return LabelKind::Late;
    if (r.early) return LabelKind::First;
    return LabelKind::Lateness;
}

QString rowLabelText(const CollectiveScene& sc, int row) { return QString::fromStdString(rowLabel(sc, row)); }

static double boxWidth(const QFont& f, const QString& text) { return QFontMetricsF(f).horizontalAdvance(text) + 4; }
static double boxHeight(const QFont& f) { return std::ceil(QFontMetricsF(f).height()); }

double widestRowLabel(const CollectiveScene& sc, const LayoutFonts& fonts) {
    double w = 0;
    for (size_t i = 0; i < sc.rows.size(); ++i) {
        LabelKind k = rowLabelKind(sc, int(i));
        if (k == LabelKind::Missing) continue;
        w = std::max(w, boxWidth(k == LabelKind::Late ? fonts.late : fonts.row, rowLabelText(sc, int(i))));
    }
    return w;
}

std::pair<double, double> rowRange(int rows, double heightPx, bool launchOnFirstRow, bool predecessorOnLastRow, const LayoutFonts& fonts) {
    const int n = std::max(rows, 1);
    // space above the first row's centre and below the last one's, in rows: half a row of air each
    // side plus the thin lane below; with the launch on the first row, its marker (8 px), line (4 px)
    // and label must fit above the bar; with the predecessor on the last row, its box and its label
    // (1 px gap, 2 px air) below the bar
    const double top = 0.6, bottom = 0.58;
    const double launchPx = 4 + 3 + boxHeight(fonts.launch) + 3, predPx = 1 + boxHeight(fonts.predecessor) + 2;
    bool launchRoom = false, predRoom = false;  // the sides that need more than their air
    double pitch = heightPx / (n - 1 + top + bottom);
    for (int pass = 0; pass < 3; ++pass) {
        // a side given room leaves less pitch, which may make the other side need room too
        launchRoom |= launchOnFirstRow && top * pitch < kMainHalf * pitch + launchPx;
        predRoom |= predecessorOnLastRow && bottom * pitch < (kSubY + kPredHalf) * pitch + predPx;
        const double rowsTop = launchRoom ? kMainHalf : top, rowsBottom = predRoom ? kSubY + kPredHalf : bottom;
        const double fixedPx = (launchRoom ? launchPx : 0) + (predRoom ? predPx : 0);
        pitch = std::max(1.0, (heightPx - fixedPx) / (n - 1 + rowsTop + rowsBottom));
    }
    const double topPx = launchRoom ? kMainHalf * pitch + launchPx : top * pitch;
    const double bottomPx = predRoom ? (kSubY + kPredHalf) * pitch + predPx : bottom * pitch;
    return {-topPx / pitch, (n - 1) + bottomPx / pitch};
}

int readablePlotHeight(int rows, bool launchOnFirstRow, bool predecessorOnLastRow, const LayoutFonts& fonts) {
    const int n = std::clamp(rows, 1, kReadableRows);
    const double pitch = 2.1 * boxHeight(fonts.row);
    int h = int(std::ceil(pitch * n));
    for (; h < 4000; h += 2) {
        auto [r0, r1] = rowRange(n, h, launchOnFirstRow, predecessorOnLastRow, fonts);
        if (h / (r1 - r0) >= pitch) break;
    }
    return h;
}

bool launchOnFirstRow(const CollectiveScene& sc) { return sc.launch.present && sc.launch.row == 0; }

bool predecessorOnLastRow(const CollectiveScene& sc) {
    for (const Bar& b : sc.bars)
        if (b.predecessor && b.row + 1 == int(sc.rows.size())) return true;
    return false;
}

namespace {

bool denseRows(const AxisMapping& m) { return std::abs(m.py(1.0) - m.py(0.0)) < kDenseRowPx; }

// The shapes in pixels: bars (main rows exact, at least 1.5 px wide so a short kernel stays
// visible), the thin lanes at one class per pixel column, the predecessor boxes, and what of each
// the legend must list.
void layoutShapes(const CollectiveScene& sc, const AxisMapping& m, SceneLayout& L) {
    const QRectF plot(m.plot);
    const double left = plot.left(), right = plot.left() + plot.width();
    // rows lower than kDenseRowPx (hundreds of ranks): each main bar whole pixels, at least one, so
    // that the rows do not alias into bands of bars and gaps; the late arriver's 3 px (drawn last);
    // the thin lanes only of the rows a label points at (the late arriver's, the predecessor's)
    const bool dense = denseRows(m);
    std::vector<bool> laneShown(sc.rows.size(), !dense);
    for (const Bar& b : sc.bars)
        if (dense && (b.late || b.predecessor) && size_t(b.row) < laneShown.size()) laneShown[size_t(b.row)] = true;
    L.bars.resize(sc.bars.size());
    for (size_t i = 0; i < sc.bars.size(); ++i) {
        const Bar& b = sc.bars[i];
        // a kernel of a thin lane not drawn: no rectangle (no tooltip, no room taken from labels)
        if (b.sub && size_t(b.row) < laneShown.size() && !laneShown[size_t(b.row)]) continue;
        double a = m.px(b.x0), e = m.px(b.x1);
        double yc = b.sub ? b.row + kSubY : double(b.row), half = b.sub ? kSubHalf : kMainHalf;
        double top = m.py(yc - half), bottom = m.py(yc + half);
        if (b.sub && bottom - top < 2) top = (top + bottom) / 2 - 1, bottom = top + 2;
        if (dense && !b.sub) {
            const double least = b.late ? 3 : 1;
            top = std::floor(std::min(top, (top + bottom - least) / 2));
            bottom = std::max(std::ceil(bottom), top + least);
        }
        L.bars[i] = QRectF(a, top, std::max(b.sub ? 1.0 : 1.5, e - a), bottom - top);
        if (b.predecessor && e >= left && a <= right) L.predecessors.push_back(int(i));
        if (!b.sub && e >= left && a <= right) {
            if (b.kind == KernelClass::NcclWait) (b.late ? L.drawn.lateWait : L.drawn.wait) = true;
            else (b.late ? L.drawn.late : L.drawn.transfer) = true;
        }
    }
    // thin lanes at one class per pixel column
    PixelColumns cols{m.nsAt(left), (m.x1Ns - m.x0Ns) / plot.width(), m.plot.width()};
    for (size_t r = 0; r < sc.rows.size(); ++r) {
        if (!laneShown[r]) continue;
        double top = m.py(r + kSubY - kSubHalf), bottom = m.py(r + kSubY + kSubHalf);
        if (bottom - top < 2) top = (top + bottom) / 2 - 1, bottom = top + 2;
        for (const LaneRun& run : laneRuns(laneColumns(sc, int(r), cols)))
            L.lanes.push_back({QRectF(left + run.first, top, run.last - run.first + 1, bottom - top), run.cls});
    }
    for (int i : L.predecessors) {
        const Bar& b = sc.bars[size_t(i)];
        double a = m.px(b.x0), e = m.px(b.x1);
        double top = m.py(b.row + kSubY - kPredHalf), bottom = m.py(b.row + kSubY + kPredHalf);
        L.predRects.push_back(QRectF(a, top, std::max(2.0, e - a), bottom - top));
        L.drawn.predecessor = true;
    }
    // the legend's lane colours: runs hidden under a predecessor box do not count
    for (const LaneRect& lr : L.lanes) {
        QRectF vis = lr.rect.intersected(plot);
        if (vis.isEmpty()) continue;
        double covered = 0;
        for (const QRectF& pr : L.predRects)
            if (pr.top() <= vis.top() && pr.bottom() >= vis.bottom()) covered += std::max(0.0, std::min(pr.right(), vis.right()) - std::max(pr.left(), vis.left()));
        if (covered >= vis.width()) continue;
        (lr.cls == KernelClass::Gemm ? L.drawn.gemm : lr.cls == KernelClass::OtherNccl ? L.drawn.otherNccl : L.drawn.other) = true;
    }
}

// The late arriver's CPU launch: a dashed line from the launch to the kernel start above its bar,
// a marker at the launch (an arrow at the plot's edge when the launch is outside the view).
void layoutLaunch(const CollectiveScene& sc, const AxisMapping& m, Placer& placer, SceneLayout& L) {
    const LaunchMarker& LM = sc.launch;
    if (!LM.present || LM.row < 0 || size_t(LM.row) >= sc.rows.size()) return;
    const double left = m.plot.left(), right = m.plot.left() + m.plot.width();
    LaunchGeometry& g = L.launch;
    g.shown = true;
    g.row = LM.row;
    g.lineY = m.py(LM.row - kMainHalf) - 4;
    double ax = m.px(LM.apiEnd), kx = m.px(LM.kernelStart);
    g.lineX0 = std::clamp(std::min(ax, kx), left, right);
    g.lineX1 = std::clamp(std::max(ax, kx), left, right);
    if (ax >= left && ax <= right) {
        g.marker << QPointF(ax - 5, g.lineY - 8) << QPointF(ax + 5, g.lineY - 8) << QPointF(ax, g.lineY);
    } else {
        double ex = ax < left ? left + 1 : right - 1, dir = ax < left ? 1 : -1;
        g.marker << QPointF(ex, g.lineY) << QPointF(ex + dir * 9, g.lineY - 5) << QPointF(ex + dir * 9, g.lineY + 5);
    }
    placer.block(g.marker.boundingRect());
    placer.blockForOthers(QRectF(g.lineX0, g.lineY - 1, g.lineX1 - g.lineX0, 2));
    L.drawn.launch = true;
}

// The labels: each takes the first free place among its candidates (Placer), most important first.
class LabelPass {
public:
    LabelPass(const CollectiveScene& sc, const AxisMapping& m, const LayoutFonts& fonts, Placer& placer, SceneLayout& L)
        : sc_(sc), m_(m), fonts_(fonts), placer_(placer), L_(L), left_(m.plot.left()), right_(m.plot.left() + m.plot.width()) {}

    // a rank's label: right of its bar's end (the ends line up, so the labels form a column), else
    // left of its start; on the row, or nudged up towards the gap above the bar (the thin lane is below)
    void rowLabel(int row) {
        PlacedLabel l(rowLabelKind(sc_, row), row, rowLabelText(sc_, row));
        l.font = l.kind == LabelKind::Late ? fonts_.late : fonts_.row;
        l.color = l.kind == LabelKind::Late ? palette::kLate.darker(120)
                  : l.kind == LabelKind::Missing ? QColor(Qt::darkGray) : QColor(60, 60, 60);
        double w = boxWidth(l.font, l.text), h = boxHeight(l.font);
        // on dense rows (hundreds of ranks) a label covers a dozen rows' bars: it may also sit a
        // line above or below its row, clear of the row's own thin lane
        const bool dense = denseRows(m_);
        for (double dy : {0.0, -2.0, -4.0, -6.0, 2.0, dense ? -h - 3 : 0.0, dense ? h + 3 : 0.0}) {
            double top = bandTop(row, h) + dy;
            if (l.kind == LabelKind::Missing) {
                place(l, placer_.right(left_ + 6, top, w, h));
            } else {
                auto [a, e] = rowSpan(row);
                place(l, placer_.right(e + 6, top, w, h));
                place(l, placer_.left(a - 6, top, w, h));
            }
        }
        L_.labels.push_back(l);
    }

    // the launch's label ("CPU launch | API", else "CPU launch"): above its line beside the marker;
    // else on the line (a dimension line's label), nearest the marker; else on the late row left of
    // its bar, else right of it
    void launchLabel() {
        if (!L_.launch.shown) return;
        const LaunchMarker& LM = sc_.launch;
        const LaunchGeometry& g = L_.launch;
        double ax = m_.px(LM.apiEnd);
        QString api = QString::fromStdString(LM.label);
        const QString prefix = QString::fromStdString(
            launchLabelPrefix(ax < left_ ? std::optional<int64_t>(int64_t(m_.nsAt(left_) - LM.apiEnd)) : std::nullopt));
        PlacedLabel l(LabelKind::Launch, g.row);
        l.font = fonts_.launch;
        l.color = palette::kLaunchNccl.darker(120);
        double h = boxHeight(l.font);
        double markerX = ax < left_ ? left_ + 10 : ax > right_ ? right_ - 10 : ax;
        auto [a, e] = rowSpan(g.row);
        placer_.ignoreOthers(true);  // the launch label may sit on its own line
        for (const QString& text : {prefix + "  |  " + api, prefix}) {
            double w = boxWidth(l.font, text);
            double top = g.lineY - 3 - h;
            std::optional<QRectF> r = placer_.right(markerX + 7, top, w, h, 40);
            if (!r) r = placer_.left(markerX - 7, top, w, h, 40);
            for (double dy : {0.0, -3.0, 3.0}) {
                if (r) break;
                r = placer_.right(markerX + 7, g.lineY - h / 2 + dy, w, h);
                if (r && r->right() > g.lineX1 + 1 && g.lineX1 - g.lineX0 > w) r.reset();  // stay on the line when it is long enough
            }
            if (!r) r = placer_.left(a - 6, bandTop(g.row, h), w, h);
            if (!r) r = placer_.right(e + 6, bandTop(g.row, h), w, h);
            if (r) {
                l.text = text;
                place(l, r);
                break;
            }
        }
        placer_.ignoreOthers(false);
        L_.labels.push_back(l);
    }

    // each predecessor's label: below its box, else above it, else beside it in the gap between its
    // row's bar and the next row's (where the thin lane runs), else on the late row just left of the
    // NCCL bar it delayed; where the long text finds no room, the short one ("pred. GEMM")
    void predecessorLabels() {
        for (size_t k = 0; k < L_.predecessors.size(); ++k) {
            const Bar& b = sc_.bars[size_t(L_.predecessors[k])];
            const QRectF& box = L_.predRects[k];
            PlacedLabel l(LabelKind::Predecessor, b.row, QString::fromStdString(predecessorLabel(b.kind, false)));
            l.font = fonts_.predecessor;
            l.color = palette::kPredecessor.darker(160);
            const double h = boxHeight(l.font);
            auto [a, e] = rowSpan(b.row);
            // (the label's box may touch the bars: its text has air above and below within it)
            const double gapTop = m_.py(b.row + kMainHalf);
            const double gapBottom = b.row + 1 < int(sc_.rows.size()) ? m_.py(b.row + 1 - kMainHalf) : m_.plot.bottom() - 1.0;
            const double besideTop = std::clamp(box.center().y() - h / 2, gapTop, std::max(gapTop, gapBottom - h));
            for (bool shortText : {false, true}) {
                const QString text = QString::fromStdString(predecessorLabel(b.kind, shortText));
                const double w = boxWidth(l.font, text);
                std::optional<QRectF> r = placer_.right(std::max(box.left(), left_ + 1), box.bottom() + 1, w, h, 40);
                if (!r) r = placer_.left(std::min(box.right(), right_ - 1), box.bottom() + 1, w, h, 40);
                if (!r) r = placer_.right(std::max(box.left(), left_ + 1), box.top() - 1 - h, w, h, 40);
                if (!r) r = placer_.left(std::min(box.right(), right_ - 1), box.top() - 1 - h, w, h, 40);
                if (!r && gapBottom - gapTop >= h) r = placer_.right(box.right() + 4, besideTop, w, h, 40);
                if (!r && gapBottom - gapTop >= h) r = placer_.left(box.left() - 4, besideTop, w, h, 40);
                if (!r) r = placer_.left(a - 6, bandTop(b.row, h), w, h);
                if (r) {
                    l.text = text;
                    place(l, r);
                    break;
                }
            }
            L_.labels.push_back(l);
        }
    }

private:
    void place(PlacedLabel& l, std::optional<QRectF> r) {
        if (!r || l.shown) return;
        l.rect = *r;
        l.shown = true;
        placer_.block(*r);
    }
    double bandTop(int row, double h) const { return m_.py(double(row)) - h / 2; }
    // the extent of a row's NCCL bar in pixels
    std::pair<double, double> rowSpan(int row) const {
        double a = 1e300, e = -1e300;
        for (size_t i = 0; i < sc_.bars.size() && !sc_.bars[i].sub; ++i)
            if (sc_.bars[i].row == row) a = std::min(a, L_.bars[i].left()), e = std::max(e, L_.bars[i].right());
        return std::make_pair(a, e);
    }

    const CollectiveScene& sc_;
    const AxisMapping& m_;
    const LayoutFonts& fonts_;
    Placer& placer_;
    SceneLayout& L_;
    const double left_, right_;
};

}  // namespace

SceneLayout layoutScene(const CollectiveScene& sc, const AxisMapping& m, const LayoutFonts& fonts) {
    SceneLayout L;
    L.plot = m.plot;
    if (sc.collective < 0 || m.plot.width() <= 0 || m.plot.height() <= 0) return L;
    layoutShapes(sc, m, L);
    Placer placer(QRectF(m.plot).adjusted(1, 1, -1, -1), 3);
    for (const QRectF& r : L.bars) placer.block(r);
    for (const LaneRect& r : L.lanes) placer.block(r.rect);
    for (const QRectF& r : L.predRects) placer.block(r);
    layoutLaunch(sc, m, placer, L);
    // most important first: the late arriver, what made it late (its predecessor for a GPU
    // dependency, else its launch), the other of the two, then the other ranks
    LabelPass labels(sc, m, fonts, placer, L);
    int lateRow = -1;
    for (size_t r = 0; r < sc.rows.size(); ++r)
        if (sc.rows[r].late && !sc.rows[r].missing) lateRow = int(r);
    if (lateRow >= 0) labels.rowLabel(lateRow);
    if (sc.cause == skew::Cause::GpuDependency) {
        labels.predecessorLabels();
        labels.launchLabel();
    } else {
        labels.launchLabel();
        labels.predecessorLabels();
    }
    // on rows a few pixels high a rank's "+93.9 us" would point at no row in particular: only the
    // first arriver's label then
    const bool dense = denseRows(m);
    for (size_t r = 0; r < sc.rows.size(); ++r)
        if (int(r) != lateRow && (!dense || sc.rows[r].early)) labels.rowLabel(int(r));
    return L;
}

}  // namespace skewui
