#include "views/heatmap/heatmap_view.h"
#include "views/rank_ticker.h"

#include <QComboBox>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "common/deferred_replot.h"
#include "common/view_export.h"
#include "report/format.h"
#include "scene/view_texts.h"
#include "views/heatmap/heatmap_layer.h"
#include "views/plot_keys.h"

using namespace skew;

namespace skewui {

namespace {
constexpr int kPanelW = HeatmapLayer::kPanelW;
}  // namespace

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
    rankTicker_.reset(new RankTicker(yAxis));  // thinned when the rows are lower than a label
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
        groupBox_->addItem(QString::fromStdString(heatmapGroupItem(s_->analysis, int(g))));
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
    title_->setText(QString::fromStdString(heatmapTitle(a, group_)));
    // the key to the lines only where there are lines (a capture without steps has none)
    xAxis->setLabel(stepSpans_.empty() ? tr("collective (in order)") : tr("collective (in order; lines: step boundaries)"));
    // the step labels now, not on the next range change: a reload that fits the same range (F5,
    // Settings OK) changes no range, and the labels cleared above would stay away
    updateStepTicks();
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
    replotWhenShown(this);
}

void HeatmapView::setSelectedCollective(int c) {
    if (!s_ || c < 0 || size_t(c) >= s_->analysis.collectives.size()) {
        selected_ = -1;
        replotWhenShown(this);
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
    replotWhenShown(this);
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

void HeatmapView::zoomBy(double factor) { zoomAboutCentre(this, factor); }

void HeatmapView::keyPressEvent(QKeyEvent* e) {
    if (!zoomKey(e, *this, this)) QCustomPlot::keyPressEvent(e);
}

bool HeatmapView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(this, path, width, height, error);
}

}  // namespace skewui
