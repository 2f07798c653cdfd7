#include "heatmap_view.h"

#include <QComboBox>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "report/info_report.h"
#include "run_palette.h"
#include "plot_export.h"

using namespace skew;

namespace skewui {

using namespace palette;

namespace {
QString dur(double ns) { return QString::fromStdString(formatDuration(int64_t(std::llround(ns)))); }
constexpr int kPanelW = 250;
// "AllGather/ReduceScatter": a group's ops, in the title and the group box
QString opNames(const skew::Group& g) {
    QStringList ops;
    for (const auto& [op, n] : g.ops) ops << QString::fromStdString(op);
    return ops.join("/");
}
constexpr double kLo = 1000;  // 1 us: the low end of the colour scale
}  // namespace

// The title: elided at its end to its rectangle, so that the group stays (its full text is the
// tooltip), never wider than the plot; its rectangle leaves room for the group box on the left.
class HeatmapTitle : public QCPTextElement {
public:
    using QCPTextElement::QCPTextElement;
    QString shown() const { return QFontMetrics(mFont).elidedText(mText, Qt::ElideRight, mRect.width()); }
    QRect textRect() const {
        const int w = QFontMetrics(mFont).horizontalAdvance(shown());
        return QRect(mRect.left() + (mRect.width() - w) / 2, mRect.top(), w, mRect.height());
    }
    QSize minimumOuterSizeHint() const override { return {0, QCPTextElement::minimumOuterSizeHint().height()}; }

protected:
    void draw(QCPPainter* p) override {
        p->setFont(mFont);
        p->setPen(QPen(mTextColor));
        p->drawText(mRect, Qt::AlignCenter, shown());
    }
};

class HeatmapLayer : public QCPLayerable {
public:
    explicit HeatmapLayer(HeatmapView* v) : QCPLayerable(v, QString("main")), v_(v) {}

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(false); }
    QRect clipRect() const override { return v_->viewport(); }

    void draw(QCPPainter* p) override {
        const QRect area = v_->axisRect()->rect();
        if (!v_->s_ || v_->group_ < 0) {
            p->setPen(Qt::darkGray);
            p->drawText(area, Qt::AlignCenter, v_->s_ ? QObject::tr("No collectives were matched across ranks.") : QString());
            return;
        }
        const Profile& prof = v_->s_->profile;
        const Analysis& a = v_->s_->analysis;
        const Group& g = a.groups[size_t(v_->group_)];
        QCPAxis* x = v_->xAxis;
        QCPAxis* y = v_->yAxis;
        const int W = area.width(), H = area.height();
        if (W <= 0 || H <= 0) return;
        HeatmapCells& hc = v_->cells_;
        heatmapCells(prof, a, v_->group_, x->range().lower - 0.5, x->range().upper - 0.5, W, hc);
        const double hi = std::max(kLo * 10, double(groupMax_));
        const size_t n = g.width();
        // row bands in pixels (the y axis is reversed: slot 0 at the top)
        std::vector<int> top(n), bottom(n);
        for (size_t s = 0; s < n; ++s) {
            top[s] = std::clamp(int(std::lround(y->coordToPixel(double(s) - 0.5))) - area.top(), 0, H);
            bottom[s] = std::clamp(int(std::lround(y->coordToPixel(double(s) + 0.5))) - area.top(), 0, H);
            if (bottom[s] - top[s] > 3) bottom[s] -= 1;  // a hairline between ranks when rows are tall
        }
        QImage img(W, H, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        uint32_t* bits = reinterpret_cast<uint32_t*>(img.bits());
        const size_t bpl = size_t(img.bytesPerLine() / 4);
        const uint32_t white = qRgb(255, 255, 255), missing = qRgb(0xd0, 0xd0, 0xd0);
        uint32_t lut[256];
        for (int i = 0; i < 256; ++i) lut[i] = lateScale(0.08 + 0.92 * i / 255.0).rgb();
        const double logLo = std::log(kLo), logSpan = std::log(hi / kLo);
        // one scanline per rank, copied down its band (row-major: the image is written in order)
        std::vector<uint32_t> line(static_cast<size_t>(W));
        for (size_t s = 0; s < n; ++s) {
            if (bottom[s] <= top[s]) continue;
            for (int xx = 0; xx < W; ++xx) {
                const int64_t l = hc.lateness[size_t(xx) * n + s];
                uint32_t c = white;
                if (l == -2) c = 0;
                else if (l < 0) c = missing;
                else if (l > 0) c = lut[std::clamp(int((std::log(double(l)) - logLo) / logSpan * 255.0), 0, 255)];
                line[size_t(xx)] = c;
            }
            for (int yy = top[s]; yy < bottom[s]; ++yy) std::copy(line.begin(), line.end(), bits + size_t(yy) * bpl);
        }
        p->save();
        p->setClipRect(area);
        p->drawImage(area.topLeft(), img);
        // step boundaries
        const auto& cs = a.collectives;
        const double p0 = std::max(1.0, std::floor(x->range().lower)), p1 = std::min(double(g.count), std::ceil(x->range().upper));
        const double pxPerColl = W / std::max(1e-9, x->range().size());
        // step boundaries, while steps are a few pixels wide (thousands of lines would cover the cells)
        p->setPen(QPen(QColor(40, 40, 40, 160), 1));
        const auto& spans = v_->stepSpans_;
        auto s0 = std::lower_bound(spans.begin(), spans.end(), p0, [](const HeatmapView::StepSpan& sp, double v) { return sp.last < v; });
        auto s1 = std::upper_bound(s0, spans.end(), p1, [](double v, const HeatmapView::StepSpan& sp) { return v < sp.first; });
        if (s1 - s0 <= W / 4)
            for (auto it = s0; it < s1; ++it) {
                if (it->first <= 1) continue;
                double xx = x->coordToPixel(it->first - 0.5);
                p->drawLine(QPointF(xx, area.top()), QPointF(xx, area.bottom()));
            }
        // big events: their late arriver's cell outlined, runs of columns merged, at least 3 px wide
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
                    p->drawRect(QRectF(a0 - 0.5, area.top() + top[s] - 0.5, b0 - a0 + 1, bottom[s] - top[s] + 1));
                    run = -1;
                }
            }
        }
        // the selected collective
        if (v_->selected_ >= 0 && cs[size_t(v_->selected_)].group == v_->group_) {
            const double c = cs[size_t(v_->selected_)].index;
            double a0 = x->coordToPixel(c - 0.5), b0 = x->coordToPixel(c + 0.5);
            if (b0 - a0 < 3) a0 = (a0 + b0) / 2 - 1.5, b0 = a0 + 3;
            p->setPen(QPen(QColor(0x10, 0x50, 0xa0), 2));
            p->drawRect(QRectF(a0 - 1, area.top() + 1, b0 - a0 + 2, H - 2));
        }
        // collective numbers when a cell is wide enough
        if (pxPerColl >= 28 && n > 0 && bottom[0] - top[0] >= 12) {
            QFont f = p->font();
            f.setPointSizeF(7);
            p->setFont(f);
            for (uint32_t i = uint32_t(p0); i <= uint32_t(p1); ++i)
                for (size_t s = 0; s < n; ++s) {
                    int64_t l = memberLateness(prof, a, g.firstCollective + i - 1, s);
                    if (l <= 0) continue;
                    QRectF cell(x->coordToPixel(i - 0.5), area.top() + top[s], pxPerColl, bottom[s] - top[s]);
                    double t = logPos(double(l), kLo, hi);
                    p->setPen(t > 0.6 ? Qt::white : QColor(60, 60, 60));
                    p->drawText(cell, Qt::AlignCenter, dur(double(l)));
                }
        }
        p->restore();
        drawPanel(p, area, top, bottom);
    }

private:
    void drawPanel(QCPPainter* p, const QRect& area, const std::vector<int>& top, const std::vector<int>& bottom) {
        const Analysis& a = v_->s_->analysis;
        const Group& g = a.groups[size_t(v_->group_)];
        const int x0 = area.right() + 14;
        QFont f = p->font();
        f.setPointSizeF(8);
        p->setFont(f);
        QFontMetrics fm(f);
        // colour scale
        const double hi = std::max(kLo * 10, double(groupMax_));
        QRectF bar(x0 + 10, area.bottom() + 20, kPanelW - 60, 8);
        for (int i = 0; i < int(bar.width()); ++i)
            p->fillRect(QRectF(bar.left() + i, bar.top(), 1, bar.height()), lateScale(0.08 + 0.92 * i / bar.width()));
        p->fillRect(QRectF(bar.left() - 10, bar.top(), 8, bar.height()), Qt::white);
        p->setPen(QColor(150, 150, 150));
        p->drawRect(QRectF(bar.left() - 10, bar.top(), 8, bar.height()));
        p->setPen(QColor(60, 60, 60));
        p->drawText(QPointF(bar.left() - 9, bar.bottom() + 11), QObject::tr("0"));
        p->drawText(QPointF(bar.left() + 4, bar.bottom() + 11), QObject::tr("1 us"));
        QString hs = dur(hi);
        p->drawText(QPointF(bar.right() - fm.horizontalAdvance(hs), bar.bottom() + 11), hs);
        p->drawText(QPointF(bar.left() - 10, bar.top() - 4), QObject::tr("colour: lateness (log scale)"));
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
            if (!rs || bottom[s] <= top[s]) continue;
            const double yc = area.top() + (top[s] + bottom[s]) / 2.0;
            const double bh = std::min(10.0, std::max(2.0, (bottom[s] - top[s]) * 0.6));
            p->fillRect(QRectF(cLast, yc - bh / 2, 24.0 * rs->lastCount / maxLast, bh), QColor(0xd6, 0x3c, 0x2f, 150));
            p->fillRect(QRectF(cMean, yc - bh / 2, 60.0 * double(rs->meanLatenessExclBigNs) / double(maxMean), bh), QColor(0x2f, 0x6f, 0xb5, 150));
            if (bottom[s] - top[s] >= 9) {
                p->setPen(QColor(30, 30, 30));
                p->drawText(QPointF(cLast + 28, yc + 4), QString::number(rs->lastCount));
                p->drawText(QPointF(cMean + 64, yc + 4), dur(double(rs->meanLatenessExclBigNs)));
            }
        }
    }

public:
    int64_t groupMax_ = 1;

private:
    HeatmapView* v_;
};

HeatmapView::HeatmapView(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 200);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
    axisRect()->setMargins(QMargins(0, 0, kPanelW, 0));
    axisRect()->setMinimumMargins(QMargins(0, 0, 0, 48));  // room for the colour scale below the panel
    xAxis->setLabel(tr("collective (in order; lines: step boundaries)"));
    xAxis->grid()->setVisible(false);
    yAxis->grid()->setVisible(false);
    yAxis->setRangeReversed(true);
    yAxis->setSubTicks(false);
    rankTicker_.reset(new QCPAxisTickerText);
    yAxis->setTicker(rankTicker_);
    stepTicker_.reset(new QCPAxisTickerText);
    xAxis2->setVisible(true);
    xAxis2->setTicker(stepTicker_);
    xAxis2->setSubTicks(false);
    xAxis2->setTickLength(0, 0);
    xAxis2->setTickLabelFont(QFont(font().family(), 8));
    auto fixed = QSharedPointer<QCPAxisTickerFixed>::create();
    fixed->setTickStep(1.0);
    fixed->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(fixed);
    plotLayout()->insertRow(0);
    title_ = new HeatmapTitle(this, QString(), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    layer_ = new HeatmapLayer(this);
    groupBox_ = new QComboBox(this);
    groupBox_->setToolTip(tr("The group (communicator) the heatmap shows; selecting a collective of another group switches too"));
    groupBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    groupBox_->hide();
    connect(groupBox_, &QComboBox::activated, this, [this](int i) {
        if (i != group_) setGroup(i);
    });
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        xAxis2->setRange(r);
        updateStepTicks();
        if (group_ < 0) return;
        const double n = s_->analysis.groups[size_t(group_)].count;
        QCPRange c = r;
        if (c.size() < 3) c = QCPRange(c.center() - 1.5, c.center() + 1.5);
        if (c.size() > n + 1) c = QCPRange(0.5 - 0.5, n + 0.5 + 0.5);
        if (c.lower < 0) c = QCPRange(0, c.size());
        if (c.upper > n + 1) c = QCPRange(n + 1 - c.size(), n + 1);
        if (c != r) xAxis->setRange(c);
    });
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { pressPos_ = e->position(); });
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons()) return;
        QString t = tooltipAt(e->position());
        if (t.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), t, this);
    });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if ((e->position() - pressPos_).manhattanLength() > 3 || e->button() != Qt::LeftButton) return;
        auto [c, s] = cellAt(e->position());
        if (c < 0) return;
        setSelectedCollective(c);
        emit collectiveClicked(c);
        const Collective& col = s_->analysis.collectives[size_t(c)];
        uint32_t k = s_->analysis.slotKernel(col, size_t(s));
        const GroupSlot& gl = s_->analysis.groups[size_t(col.group)].lanes[size_t(s)];
        if (k != skew::kMissing) emit kernelClicked(gl.rank, gl.lane, k);
    });
    setSession(nullptr);
}

HeatmapView::~HeatmapView() = default;

void HeatmapView::setSession(SessionPtr s) {
    s_ = std::move(s);
    selected_ = -1;
    group_ = -1;
    fillGroupBox();
    int best = -1;
    if (s_)
        for (size_t g = 0; g < s_->analysis.groups.size(); ++g)
            if (best < 0 || s_->analysis.groups[g].count > s_->analysis.groups[size_t(best)].count) best = int(g);
    setGroup(best);
}

void HeatmapView::fillGroupBox() {
    groupBox_->clear();
    const size_t n = s_ ? s_->analysis.groups.size() : 0;
    for (size_t g = 0; g < n; ++g) {
        const Group& grp = s_->analysis.groups[g];
        groupBox_->addItem(tr("group %1: %2 (%3)").arg(g).arg(opNames(grp)).arg(grp.count));
    }
    groupBox_->setVisible(n > 1);
    // the title row holds the box (in exports too, so that the viewer's export and `render` agree)
    const QSize hint = groupBox_->sizeHint();
    title_->setMargins(n > 1 ? QMargins(hint.width() + 12, 2, 12, 2) : QMargins(2, 2, 2, 2));
    title_->setMinimumSize(0, n > 1 ? hint.height() + 4 : 0);
    placeGroupBox();
}

void HeatmapView::placeGroupBox() {
    const QSize hint = groupBox_->sizeHint();
    groupBox_->setGeometry(6, 2, hint.width(), hint.height());
}

void HeatmapView::resizeEvent(QResizeEvent* e) {
    QCustomPlot::resizeEvent(e);
    placeGroupBox();
}

QString HeatmapView::title() const { return title_->text(); }
QString HeatmapView::shownTitle() const { return title_->shown(); }
QRect HeatmapView::titleTextRect() const { return title_->textRect(); }

void HeatmapView::setGroup(int group) {
    group_ = (s_ && group >= 0 && size_t(group) < s_->analysis.groups.size()) ? group : -1;
    if (group_ >= 0 && groupBox_->currentIndex() != group_) groupBox_->setCurrentIndex(group_);
    updateAxes();
    resetZoom();
}

void HeatmapView::updateAxes() {
    rankTicker_->clear();
    stepTicker_->clear();
    layer_->groupMax_ = 1;
    if (group_ < 0) {
        title_->setText(tr("Lateness heatmap"));
        return;
    }
    const Analysis& a = s_->analysis;
    const Group& g = a.groups[size_t(group_)];
    for (size_t s = 0; s < g.width(); ++s) rankTicker_->addTick(double(s), QString::fromStdString(s_->profile.ranks[size_t(g.lanes[s].rank)].label));
    // where each step's collectives begin and end (labels are placed per zoom, see updateStepTicks)
    stepSpans_.clear();
    uint32_t first = 1;
    for (uint32_t i = 1; i <= g.count; ++i) {
        uint32_t st = a.collectives[g.firstCollective + i - 1].step;
        bool last = i == g.count || a.collectives[g.firstCollective + i].step != st;
        if (!last) continue;
        if (st) stepSpans_.push_back({first, i, st});
        first = i + 1;
    }
    for (uint32_t i = 0; i < g.count; ++i)
        for (size_t s = 0; s < g.width(); ++s) layer_->groupMax_ = std::max(layer_->groupMax_, memberLateness(s_->profile, a, g.firstCollective + i, s));
    const QString which = a.groups.size() > 1 ? tr("group %1 of %2").arg(group_).arg(a.groups.size()) : tr("group %1").arg(group_);
    title_->setText(tr("Lateness heatmap  \u00B7  %1 (%2)  \u00B7  %3 collectives \u00D7 %4 ranks  \u00B7  outlined: big events (start skew > %5)")
                        .arg(which)
                        .arg(opNames(g))
                        .arg(g.count)
                        .arg(g.width())
                        .arg(dur(double(a.options.bigSkewNs))));
}

void HeatmapView::updateStepTicks() {
    stepTicker_->clear();
    // a label per step when there is room, else every k-th step (a few thousand labels would be unreadable and slow)
    const QCPRange r = xAxis->range();
    auto lo = std::lower_bound(stepSpans_.begin(), stepSpans_.end(), r.lower, [](const StepSpan& s, double v) { return s.last + 0.5 < v; });
    auto hi = std::upper_bound(lo, stepSpans_.end(), r.upper, [](double v, const StepSpan& s) { return v < s.first - 0.5; });
    // thinned by count, not by pixels, so that an export at another size labels the same steps
    const size_t visible = size_t(hi - lo);
    const size_t every = visible <= 12 ? 1 : size_t(std::ceil(double(visible) / 30.0));
    for (auto it = lo; it < hi; ++it)
        if (every == 1 || it->step % every == 0)
            stepTicker_->addTick((it->first + it->last) / 2.0, every == 1 ? tr("step %1").arg(it->step) : QString::number(it->step));
}

void HeatmapView::resetZoom() {
    const double n = group_ >= 0 ? s_->analysis.groups[size_t(group_)].count : 1;
    const double rows = group_ >= 0 ? double(s_->analysis.groups[size_t(group_)].width()) : 1;
    yAxis->setRange(-0.5, rows - 0.5);
    xAxis->setRange(0.5, n + 0.5);
    replot();
}

void HeatmapView::setSelectedCollective(int c) {
    if (!s_ || c < 0 || size_t(c) >= s_->analysis.collectives.size()) {
        selected_ = -1;
        replot();
        return;
    }
    selected_ = c;
    const Collective& col = s_->analysis.collectives[size_t(c)];
    if (col.group != group_) {
        setGroup(col.group);
        return;
    }
    // off screen: pan to it, keeping the zoom
    if (col.index < xAxis->range().lower || col.index > xAxis->range().upper) {
        double half = xAxis->range().size() / 2;
        xAxis->setRange(col.index - half, col.index + half);
    }
    replot();
}

QPointF HeatmapView::cellCenter(int collective, int slot) const {
    if (!s_ || collective < 0) return {-1, -1};
    const Collective& c = s_->analysis.collectives[size_t(collective)];
    return {xAxis->coordToPixel(double(c.index)), yAxis->coordToPixel(double(slot))};
}

std::pair<int, int> HeatmapView::cellAt(const QPointF& pos) const {
    if (!s_ || group_ < 0 || !axisRect()->rect().contains(pos.toPoint())) return {-1, -1};
    const Group& g = s_->analysis.groups[size_t(group_)];
    int s = int(std::lround(yAxis->pixelToCoord(pos.y())));
    if (s < 0 || size_t(s) >= g.width()) return {-1, -1};
    // the column under the point, as drawn: its collective holding the maximum for this rank
    const int col = int(std::floor(pos.x())) - axisRect()->rect().left();
    HeatmapCells one;
    const double per = xAxis->range().size() / std::max(1, axisRect()->width());
    const double p0 = xAxis->range().lower - 0.5 + per * col;
    heatmapCells(s_->profile, s_->analysis, group_, p0, p0 + per, 1, one);
    uint32_t c = one.collective[size_t(s)];
    if (c == skew::kMissing) return {-1, -1};
    return {int(c), s};
}

QString HeatmapView::tooltipAt(const QPointF& pos) const {
    if (title_->outerRect().contains(pos.toPoint()) && title_->shown() != title_->text()) return title_->text();
    auto [ci, slot] = cellAt(pos);
    if (ci < 0) return {};
    const Analysis& a = s_->analysis;
    const Collective& c = a.collectives[size_t(ci)];
    const int rank = a.groups[size_t(c.group)].lanes[size_t(slot)].rank;
    const int64_t l = memberLateness(s_->profile, a, uint32_t(ci), size_t(slot));
    const double per = xAxis->range().size() / std::max(1, axisRect()->width());
    QString t = tr("<b>%1</b> in group %2 #%3 %4%5<br>lateness %6%7")
                    .arg(QString::fromStdString(s_->profile.ranks[size_t(rank)].label))
                    .arg(c.group)
                    .arg(c.index)
                    .arg(opName(c.op), c.step ? tr(" (step %1)").arg(c.step) : QString())
                    .arg(l < 0 ? tr("- (no kernel: partial collective)") : dur(double(l)),
                         slot == c.lateSlot ? tr(" \u00B7 <b>late arriver</b>") : slot == c.earlySlot ? tr(" \u00B7 first") : QString());
    if (c.big) t += tr("<br><b>big event</b>: start skew %1").arg(dur(double(c.startSkew())));
    if (per > 1) t += tr("<br><i>this pixel merges %1 collectives; shown: the largest lateness</i>").arg(int(std::ceil(per)));
    return t;
}

void HeatmapView::zoomBy(double factor) {
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
        if (axisRect()->rangeZoom().testFlag(o))
            for (QCPAxis* ax : axisRect()->rangeZoomAxes(o)) ax->scaleRange(factor, ax->range().center());
    replot();
}

void HeatmapView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(0.8); return;
    case Qt::Key_Minus: zoomBy(1.25); return;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); return;
    default: QCustomPlot::keyPressEvent(e);
    }
}

bool HeatmapView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(this, path, width, height, error);
}

}  // namespace skewui
