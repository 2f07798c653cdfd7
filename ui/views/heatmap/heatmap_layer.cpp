#include "views/heatmap/heatmap_layer.h"

#include <algorithm>
#include <cmath>

#include "common/palette.h"
#include "common/text.h"
#include "scene/view_texts.h"
#include "views/heatmap/heatmap_view.h"

using namespace skew;

namespace skewui {

using namespace palette;

namespace {
constexpr int kPanelW = HeatmapLayer::kPanelW;
}  // namespace

HeatmapLayer::HeatmapLayer(HeatmapView* v) : QCPLayerable(v, QString("main")), v_(v) {}

QRect HeatmapLayer::clipRect() const { return v_->viewport(); }

void HeatmapLayer::draw(QCPPainter* p) {
    const QRect area = v_->axisRect()->rect();
    if (!v_->s_ || v_->group_ < 0) {
        p->setPen(Qt::darkGray);
        p->drawText(area, Qt::AlignCenter, v_->s_ ? QString::fromStdString(heatmapEmptyText()) : QString());
        return;
    }
    const Group& g = v_->s_->analysis.groups[size_t(v_->group_)];
    QCPAxis* x = v_->xAxis;
    const int W = area.width(), H = area.height();
    if (W <= 0 || H <= 0) return;
    HeatmapCells& hc = v_->cells_;
    heatmapCells(v_->s_->profile, v_->s_->analysis, v_->group_, x->range().lower - 0.5, x->range().upper - 0.5, W, hc);
    const Bands b = bands(area, g.width());
    const QImage img = cells(hc, b, W, H);
    p->save();
    p->setClipRect(area);
    p->drawImage(area.topLeft(), img);
    const double p0 = std::max(1.0, std::floor(x->range().lower)), p1 = std::min(double(g.count), std::ceil(x->range().upper));
    drawStepLines(p, area, p0, p1);
    drawBigEvents(p, area, hc, b);
    drawSelection(p, area);
    drawNumbers(p, area, b, p0, p1);
    p->restore();
    drawPanel(p, area, b);
}

HeatmapLayer::Bands HeatmapLayer::bands(const QRect& area, size_t n) const {
    QCPAxis* y = v_->yAxis;
    const int H = area.height();
    Bands b{std::vector<int>(n), std::vector<int>(n)};
    for (size_t s = 0; s < n; ++s) {
        b.top[s] = std::clamp(int(std::lround(y->coordToPixel(double(s) - 0.5))) - area.top(), 0, H);
        b.bottom[s] = std::clamp(int(std::lround(y->coordToPixel(double(s) + 0.5))) - area.top(), 0, H);
        if (b.bottom[s] - b.top[s] > 3) b.bottom[s] -= 1;  // a hairline between ranks when rows are tall
        // under a pixel a rank (hundreds of ranks) still has the pixel row its centre falls in,
        // shared with its neighbours there (cells() draws the latest of them)
        if (b.bottom[s] <= b.top[s] && b.top[s] < H) b.bottom[s] = b.top[s] + 1;
    }
    return b;
}

// one scanline per rank, copied down its band (row-major: the image is written in order)
QImage HeatmapLayer::cells(const HeatmapCells& hc, const Bands& b, int W, int H) const {
    const size_t n = b.top.size();
    const SkewScale& scale = v_->s_->skewScale;  // the run's (docs/analysis.md, Run views): white within noise
    QImage img(W, H, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    uint32_t* bits = reinterpret_cast<uint32_t*>(img.bits());
    const size_t bpl = size_t(img.bytesPerLine() / 4);
    const uint32_t white = qRgb(255, 255, 255), missing = qRgb(0xd0, 0xd0, 0xd0);
    uint32_t lut[256];
    for (int i = 0; i < 256; ++i) lut[i] = lateScale(0.08 + 0.92 * i / 255.0).rgb();
    std::vector<uint32_t> line(static_cast<size_t>(W));
    // ranks that share their first pixel row (rows under a pixel: hundreds of ranks) drawn as one,
    // each column the latest of them (lateness >= 0 above missing, -1, above nothing, -2): a late
    // arriver is never hidden behind a neighbour drawn after it
    for (size_t s = 0, e; s < n; s = e) {
        int bottom = b.bottom[s];
        for (e = s + 1; e < n && b.top[e] == b.top[s]; ++e) bottom = std::max(bottom, b.bottom[e]);
        if (bottom <= b.top[s]) continue;
        for (int xx = 0; xx < W; ++xx) {
            const int64_t* col = hc.lateness.data() + size_t(xx) * n;
            const int64_t l = *std::max_element(col + s, col + e);
            uint32_t c = white;
            if (l == -2) c = 0;
            else if (l < 0) c = missing;
            else if (const double t = scale.position(l); t > 0) c = lut[std::clamp(int(t * 255.0), 0, 255)];
            line[size_t(xx)] = c;
        }
        for (int yy = b.top[s]; yy < bottom; ++yy) std::copy(line.begin(), line.end(), bits + size_t(yy) * bpl);
    }
    return img;
}

// step boundaries, while steps are a few pixels wide (thousands of lines would cover the cells)
void HeatmapLayer::drawStepLines(QCPPainter* p, const QRect& area, double p0, double p1) {
    p->setPen(QPen(QColor(40, 40, 40, 160), 1));
    const auto& spans = v_->stepSpans_;
    auto s0 = std::lower_bound(spans.begin(), spans.end(), p0, [](const HeatmapView::StepSpan& sp, double v) { return sp.last < v; });
    auto s1 = std::upper_bound(s0, spans.end(), p1, [](double v, const HeatmapView::StepSpan& sp) { return v < sp.first; });
    if (s1 - s0 > area.width() / 4) return;
    for (auto it = s0; it < s1; ++it) {
        if (it->first <= 1) continue;
        double xx = v_->xAxis->coordToPixel(it->first - 0.5);
        p->drawLine(QPointF(xx, area.top()), QPointF(xx, area.bottom()));
    }
}

// big events: their late arriver's cell outlined, runs of columns merged, at least 3 px wide
void HeatmapLayer::drawBigEvents(QCPPainter* p, const QRect& area, const HeatmapCells& hc, const Bands& b) {
    const size_t n = b.top.size();
    const int W = area.width();
    p->setPen(QPen(QColor(0, 0, 0), 1.5));
    p->setBrush(Qt::NoBrush);
    for (size_t s = 0; s < n; ++s) {
        int run = -1;
        for (int xx = 0; xx <= W; ++xx) {
            bool on = xx < W && hc.bigLate[size_t(xx) * n + s];
            if (on && run < 0) run = xx;
            if (!on && run >= 0) {
                double a0 = area.left() + run, b0 = area.left() + xx;
                if (b0 - a0 < 3) a0 = (a0 + b0) / 2 - 1.5, b0 = a0 + 3;
                p->drawRect(QRectF(a0 - 0.5, area.top() + b.top[s] - 0.5, b0 - a0 + 1, b.bottom[s] - b.top[s] + 1));
                run = -1;
            }
        }
    }
}

void HeatmapLayer::drawSelection(QCPPainter* p, const QRect& area) {
    const auto& cs = v_->s_->analysis.collectives;
    if (v_->selected_ < 0 || cs[size_t(v_->selected_)].group != v_->group_) return;
    const double c = cs[size_t(v_->selected_)].index;
    double a0 = v_->xAxis->coordToPixel(c - 0.5), b0 = v_->xAxis->coordToPixel(c + 0.5);
    if (b0 - a0 < 3) a0 = (a0 + b0) / 2 - 1.5, b0 = a0 + 3;
    p->setPen(QPen(QColor(0x10, 0x50, 0xa0), 2));
    p->drawRect(QRectF(a0 - 1, area.top() + 1, b0 - a0 + 2, area.height() - 2));
}

// each cell's lateness when a cell is wide enough
void HeatmapLayer::drawNumbers(QCPPainter* p, const QRect& area, const Bands& b, double p0, double p1) {
    const Profile& prof = v_->s_->profile;
    const Analysis& a = v_->s_->analysis;
    const Group& g = a.groups[size_t(v_->group_)];
    QCPAxis* x = v_->xAxis;
    const size_t n = b.top.size();
    const double pxPerColl = area.width() / std::max(1e-9, x->range().size());
    if (!(pxPerColl >= 28 && n > 0 && b.bottom[0] - b.top[0] >= 12)) return;
    const SkewScale& scale = v_->s_->skewScale;
    QFont f = p->font();
    f.setPointSizeF(7);
    p->setFont(f);
    for (uint32_t i = uint32_t(p0); i <= uint32_t(p1); ++i)
        for (size_t s = 0; s < n; ++s) {
            int64_t l = memberLateness(prof, a, g.firstCollective + i - 1, s);
            if (l <= 0) continue;
            QRectF cell(x->coordToPixel(i - 0.5), area.top() + b.top[s], pxPerColl, b.bottom[s] - b.top[s]);
            const double t = scale.position(l);
            p->setPen(t > 0.6 ? Qt::white : QColor(60, 60, 60));
            p->drawText(cell, Qt::AlignCenter, dur(double(l)));
        }
}

// beside the plot: the colour scale, and per rank its last arrivals and mean lateness without big events
void HeatmapLayer::drawPanel(QCPPainter* p, const QRect& area, const Bands& b) {
    const Analysis& a = v_->s_->analysis;
    const Group& g = a.groups[size_t(v_->group_)];
    const int x0 = area.right() + 14;
    QFont f = p->font();
    f.setPointSizeF(8);
    p->setFont(f);
    QFontMetrics fm(f);
    // colour scale
    const SkewScale& scale = v_->s_->skewScale;
    QRectF bar(x0 + 10, area.bottom() + 20, kPanelW - 60, 8);
    for (int i = 0; i < int(bar.width()); ++i)
        p->fillRect(QRectF(bar.left() + i, bar.top(), 1, bar.height()), lateScale(0.08 + 0.92 * i / bar.width()));
    p->fillRect(QRectF(bar.left() - 10, bar.top(), 8, bar.height()), Qt::white);
    p->setPen(QColor(150, 150, 150));
    p->drawRect(QRectF(bar.left() - 10, bar.top(), 8, bar.height()));
    p->setPen(QColor(60, 60, 60));
    // white: within noise (up to the run's noise bound), then the log ramp up to the big threshold
    p->drawText(QPointF(bar.left() - 10, bar.bottom() + 11), QString::fromUtf8("\u2264") + dur(double(scale.lo)));
    QString hs = dur(double(scale.hi));
    p->drawText(QPointF(bar.right() - fm.horizontalAdvance(hs), bar.bottom() + 11), hs);
    p->drawText(QPointF(bar.left() - 10, bar.top() - 4), QObject::tr("colour: lateness; white: within noise"));
    // per rank: last arrivals and mean lateness without big events
    const int cLast = x0, cMean = x0 + 60;
    p->setPen(QColor(60, 60, 60));
    QFont bf = f;
    bf.setBold(true);
    p->setFont(bf);
    p->drawText(QPointF(cLast, area.top() - 4), QObject::tr("last"));
    p->drawText(QPointF(cMean, area.top() - 4), QObject::tr("mean excl. big"));
    p->setFont(f);
    uint32_t maxLast = 1;
    int64_t maxMean = 1;
    for (const auto& rs : g.perRank) maxLast = std::max(maxLast, rs.lastCount), maxMean = std::max(maxMean, rs.meanLatenessExclBigNs);
    for (size_t s = 0; s < g.width(); ++s) {
        const RankStats* rs = nullptr;
        for (const auto& r : g.perRank)
            if (r.rank == g.lanes[s].rank) rs = &r;
        if (!rs || b.bottom[s] <= b.top[s]) continue;
        const double yc = area.top() + (b.top[s] + b.bottom[s]) / 2.0;
        const double bh = std::min(10.0, std::max(2.0, (b.bottom[s] - b.top[s]) * 0.6));
        QColor lastColor = kLate, meanColor = kTransfer;
        lastColor.setAlpha(150);
        meanColor.setAlpha(150);
        p->fillRect(QRectF(cLast, yc - bh / 2, 24.0 * rs->lastCount / maxLast, bh), lastColor);
        p->fillRect(QRectF(cMean, yc - bh / 2, 60.0 * double(rs->meanLatenessExclBigNs) / double(maxMean), bh), meanColor);
        if (b.bottom[s] - b.top[s] >= 9) {
            p->setPen(QColor(30, 30, 30));
            p->drawText(QPointF(cLast + 28, yc + 4), QString::number(rs->lastCount));
            p->drawText(QPointF(cMean + 64, yc + 4), dur(double(rs->meanLatenessExclBigNs)));
        }
    }
}

}  // namespace skewui
