#include "views/stepmap/stepmap_view.h"

#include <QPushButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "common/deferred_replot.h"
#include "common/text.h"
#include "common/view_export.h"
#include "report/format.h"
#include "scene/view_texts.h"
#include "views/stepmap/stepmap_layer.h"
#include "views/elided_title.h"
#include "views/plot_keys.h"

using namespace skew;

namespace skewui {

StepMapView::StepMapView(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 200);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(tr("offset in step (ms)"));
    yAxis->setLabel(tr("step"));
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setSubTicks(false);
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(1.0);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // whole steps, thinned out when there are many
    yAxis->setTicker(steps);
    // as many step labels as fit a line apart: every step of a 12-step run at 1024x700 (the ticker's
    // own count of about 5 labelled every third, and the big event's step had none)
    connect(this, &QCustomPlot::beforeReplot, this, [this, steps] {
        const int line = QFontMetrics(yAxis->tickLabelFont()).height() + 2;
        steps->setTickCount(std::max(2, axisRect()->height() / line));
    });
    xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 25)));
    plotLayout()->insertRow(0);
    title_ = new ElidedTitle(this, QString(), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    layer_ = new StepMapLayer(this);
    settings_ = new QPushButton(tr("Set the step pattern..."), this);
    settings_->hide();
    connect(settings_, &QPushButton::clicked, this, &StepMapView::settingsRequested);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { pressPos_ = e->position(); });
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons()) return;
        QString t = title_->outerRect().contains(e->position().toPoint()) && title_->shown() != title_->text() ? title_->text() : tooltipAt(e->position());
        if (t.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), t, this);
    });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if ((e->position() - pressPos_).manhattanLength() > 3 || e->button() != Qt::LeftButton) return;
        int c = collectiveAt(e->position());
        if (c < 0) return;
        setSelectedCollective(c);
        emit collectiveClicked(c);
    });
    setSession(nullptr);
}

StepMapView::~StepMapView() = default;

void StepMapView::setSession(SessionPtr s) {
    preparing_ = s && s->viewIndexesPending ? std::move(s) : nullptr;
    s_ = std::move(s);  // null while preparing
    selected_ = -1;
    onlyGroup_ = -1;
    side_.clear();
    rebuild(-1);
}

void StepMapView::viewIndexesLoaded() {
    if (preparing_ && !preparing_->viewIndexesPending) setSession(std::move(preparing_));
}

void StepMapView::setGroupSession(SessionPtr s, int group, const QString& side) {
    preparing_ = nullptr;  // the compare view's sides build their own map
    s_ = std::move(s);
    selected_ = -1;
    onlyGroup_ = std::max(0, group);
    side_ = side;
    rebuild(-1);
}

void StepMapView::rebuild(int preferredGroup) {
    // the run's own map was built with the session, off the UI thread
    map_ = !s_                   ? StepMap{}
           : !side_.isEmpty()    ? buildGroupStepMap(s_->profile, s_->analysis, onlyGroup_)
           : preferredGroup < 0  ? s_->stepMap
                                 : buildStepMap(s_->profile, s_->analysis, preferredGroup);
    layer_->setScale(s_ ? s_->skewScale : SkewScale{});
    // a side of the compare view: short, the group is the pair's
    title_->setText(!side_.isEmpty() ? QString::fromStdString(stepMapSideTitle(map_, side_.toStdString()))
                    : preparing_     ? QString::fromStdString(preparingViewText("step map"))
                    : !s_            ? tr("Step map")
                                     : QString::fromStdString(stepMapTitle(map_, s_->analysis)));
    settings_->setVisible(s_ && map_.empty());
    xAxis->setVisible(!map_.empty());
    yAxis->setVisible(!map_.empty());
    placeButton();
    fitLegend(width());
    resetZoom();
}

// the legend's strip above the plot, its lines for a view `viewWidth` wide; room on the right for
// the last tick label. The plot's width is estimated from the left margin last laid out (at least
// 60 px: the step numbers and the axis label), on the narrow side, so that the lines reserved hold it.
void StepMapView::fitLegend(int viewWidth) {
    const int left = std::max(60, axisRect()->margins().left() + 8);
    legendLines_ = layer_->legendLines(viewWidth - left - 16, font());
    axisRect()->setMinimumMargins(QMargins(0, StepMapLayer::kStrip * std::max(side_.isEmpty() ? 0 : 1, legendLines_), 16, 0));
}

QRectF StepMapView::legendRect() const { return layer_->legendRect(); }
bool StepMapView::legendShowsTickKey() const { return layer_->legendTickKey(); }
size_t StepMapView::legendRanks() const { return layer_->legendRanks(); }
QString StepMapView::shownTitle() const { return title_->shown(); }
QRect StepMapView::titleTextRect() const { return title_->textRect(); }

void StepMapView::resetZoom() {
    double span = std::max(1.0, double(std::max(map_.spanNs, fitSpanNs_)) / 1e6);
    xAxis->setRange(-span * 0.02, span * 1.06);
    yAxis->setRange(0.4, std::max(1.0, double(map_.steps)) + 0.6);
    replotWhenShown(this);
}

void StepMapView::setSelectedCollective(int c) {
    selected_ = (s_ && c >= 0 && size_t(c) < s_->analysis.collectives.size()) ? c : -1;
    // inferred steps number each group apart: show the selected collective's group when it has steps
    if (selected_ >= 0 && map_.source == skew::StepSource::Inferred && side_.isEmpty()) {
        const int g = s_->analysis.collectives[size_t(selected_)].group;
        if (g != map_.groups[0] && s_->analysis.groups[size_t(g)].stepsSource == skew::StepSource::Inferred) rebuild(g);
    }
    replotWhenShown(this);
}

double StepMapView::markerRadius(uint32_t item) const {
    const Collective& c = s_->analysis.collectives[map_.items[item].collective];
    double f = map_.maxBigLatenessNs > 0 ? std::sqrt(double(c.startSkew()) / double(map_.maxBigLatenessNs)) : 1;
    return 5 + 8 * f;
}

QPointF StepMapView::collectivePos(int collective) const {
    if (!s_ || collective < 0) return {-1, -1};
    const Collective& c = s_->analysis.collectives[size_t(collective)];
    return {xAxis->coordToPixel(double(c.offsetInStepNs) / 1e6), yAxis->coordToPixel(double(c.step))};
}

int StepMapView::collectiveAt(const QPointF& pos) const {
    if (!s_ || map_.empty() || !axisRect()->rect().contains(pos.toPoint())) return -1;
    // big markers first (they are drawn on top), nearest within its radius
    int best = -1;
    double bestD = 1e9;
    for (uint32_t bi : map_.big) {
        const auto& it = map_.items[bi];
        QPointF cp(xAxis->coordToPixel(double(it.offsetNs) / 1e6), yAxis->coordToPixel(double(it.step)));
        double d = std::hypot(cp.x() - pos.x(), cp.y() - pos.y());
        if (d <= markerRadius(bi) + 2 && d < bestD) bestD = d, best = int(it.collective);
    }
    if (best >= 0) return best;
    // else the nearest tick on the step row under the cursor, within 4 px
    double step = std::round(yAxis->pixelToCoord(pos.y()));
    if (std::fabs(yAxis->coordToPixel(step) - pos.y()) > std::max(6.0, std::fabs(yAxis->coordToPixel(1) - yAxis->coordToPixel(0)) / 2)) return -1;
    double off = xAxis->pixelToCoord(pos.x()) * 1e6;
    double slack = 4 * xAxis->range().size() * 1e6 / std::max(1, axisRect()->width());
    int64_t i = nearestStepItem(map_, uint32_t(std::max(0.0, step)), off, slack);
    return i < 0 ? -1 : int(map_.items[size_t(i)].collective);
}

QString StepMapView::tooltipAt(const QPointF& pos) const {
    int ci = collectiveAt(pos);
    if (ci < 0) return {};
    const Analysis& a = s_->analysis;
    const Collective& c = a.collectives[size_t(ci)];
    QString late = c.lateSlot >= 0 ? QString::fromStdString(s_->profile.ranks[size_t(a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank)].label)
                                   : QString();
    return tr("<b>group %1 #%2 %3</b>%4<br>step %5, offset %6<br>start skew %7 \u00B7 late arriver %8 \u00B7 cause %9")
        .arg(c.group)
        .arg(c.index)
        .arg(opName(c.op), c.big ? tr(" \u00B7 <b>big event</b>") : QString())
        .arg(c.step)
        .arg(dur(double(c.offsetInStepNs)), dur(double(c.startSkew())), late, causeLabel(c.cause));
}

void StepMapView::zoomBy(double factor) { zoomAboutCentre(this, factor); }

void StepMapView::keyPressEvent(QKeyEvent* e) {
    if (!zoomKey(e, *this, this)) QCustomPlot::keyPressEvent(e);
}

void StepMapView::resizeEvent(QResizeEvent* e) {
    fitLegend(e->size().width());
    QCustomPlot::resizeEvent(e);
    placeButton();
}

void StepMapView::placeButton() {
    QSize hint = settings_->sizeHint();
    settings_->setGeometry((width() - hint.width()) / 2, height() / 2 + 30, hint.width(), hint.height());
}

bool StepMapView::exportTo(const QString& path, int width, int height, QString* error) {
    fitLegend(width);  // the legend's lines for the export's width, then the screen's again
    const bool ok = exportPlot(this, path, width, height, error);
    fitLegend(this->width());
    replotWhenShown(this);
    return ok;
}

}  // namespace skewui
