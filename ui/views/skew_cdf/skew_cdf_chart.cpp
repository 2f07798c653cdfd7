#include "views/skew_cdf/skew_cdf_chart.h"

#include <algorithm>
#include <cmath>

#include "common/deferred_replot.h"
#include "report/info_report.h"
#include "common/palette.h"
#include "common/text.h"
#include "timeline/run_maps.h"

namespace skewui {

namespace {

constexpr int kShortChartPx = 220;  // lower than this: the legend on one line of short names when two would not fit

// log ticks labelled as short durations ("10 us", "1 ms")
class DurationLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        if (tick < 1e3) return QString("%1 ns").arg(tick, 0, 'g', 3);
        if (tick < 1e6) return QString("%1 us").arg(tick / 1e3, 0, 'g', 3);
        if (tick < 1e9) return QString("%1 ms").arg(tick / 1e6, 0, 'g', 3);
        return QString("%1 s").arg(tick / 1e9, 0, 'g', 3);
    }
};

}  // namespace

SkewCdfChart::SkewCdfChart(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(120, 90);  // explicit: the plot layout's own hint would widen the Ranks tab (and the window's right side), and make the bottom pane taller
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<DurationLogTicker>::create();
    ticker->setLogBase(10);
    ticker->setTickCount(4);
    xAxis->setTicker(ticker);
    xAxis->setLabel(tr("skew per collective (log scale)"));
    yAxis->setLabel(tr("fraction \u2264 x"));
    yAxis->setRange(0, 1.02);
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    start_ = addGraph();
    start_->setName(tr("start skew"));
    start_->setPen(QPen(palette::kLate, 2));
    start_->setLineStyle(QCPGraph::lsStepLeft);
    end_ = addGraph();
    end_->setName(tr("end skew"));
    end_->setPen(QPen(palette::kTransfer, 2));
    end_->setLineStyle(QCPGraph::lsStepLeft);
    startB_ = addGraph();
    startB_->setLineStyle(QCPGraph::lsStepLeft);
    endB_ = addGraph();
    endB_->setLineStyle(QCPGraph::lsStepLeft);
    startB_->setVisible(false);
    endB_->setVisible(false);
    startB_->removeFromLegend();
    endB_->removeFromLegend();
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);  // CDFs leave the top left empty
    // any replot draws the group set last, also one asked for while the chart is hidden
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        showPending();
        fitTicks();
    });
}

QString SkewCdfChart::title() const {
    showPending();
    return fullTitle_;
}

// The title on one line when it fits the chart, else broken before its " vs " (a comparison's two
// groups on two lines) or at its colon: never wider than the chart (a centred title wider than a
// narrow chart was cut at both ends: review defect 13).
void SkewCdfChart::fitTitle() {
    const QFontMetrics fm(title_->font());
    QString t = fullTitle_;
    if (fm.horizontalAdvance(t) > width() - 8) {
        for (const QString& at : {QStringLiteral(" vs "), QStringLiteral(": ")}) {
            const int i = t.indexOf(at);
            if (i < 0) continue;
            t = at == QStringLiteral(" vs ") ? t.left(i) + "\n" + t.mid(i + 1) : t.left(i + 1) + "\n" + t.mid(i + 2);
            break;
        }
    }
    title_->setText(t);
}

// As many decades labelled as fit side by side: every decade, else every second, fifth...
// (QCPAxisTickerLog's tick count; at a narrow width "100 ns1 us10 us" ran together).
void SkewCdfChart::fitTicks() {
    auto* ticker = static_cast<QCPAxisTickerLog*>(xAxis->ticker().data());
    const QCPRange r = xAxis->range();
    if (r.lower <= 0 || r.upper <= r.lower) return;
    const int decades = std::max(1, int(std::lround(std::log10(r.upper / r.lower))));
    const QFontMetrics fm(xAxis->tickLabelFont());
    const int label = fm.horizontalAdvance(QStringLiteral("100 us")) + 10;
    const QMargins m = axisRect()->margins();
    const int plotW = std::max(1, width() - m.left() - m.right());
    // labels centred on their ticks: n labels need (n - 1) pitches plus one label's width
    const int fit = std::max(1, (plotW - label) / label);  // pitches that fit
    int step = 1;
    for (int s : {1, 2, 5, 10, 20, 50}) {
        step = s;
        if (decades / s <= fit) break;
    }
    ticker->setTickCount(std::max(1, decades / step));
    // the fraction axis: ticks at least two labels apart (in the Ranks tab of a 700 px window the
    // plot is some 60 px high, and "0 0.2 0.4 0.6 0.8 1" printed over each other): 0, 0.5, 1 or 0, 1
    const int labelH = QFontMetrics(yAxis->tickLabelFont()).height();
    const int plotH = std::max(1, axisRect()->height());
    yAxis->ticker()->setTickCount(std::clamp(plotH / (2 * labelH), 1, 5));
}

// The legend goes above the plot, where no curve is: curves can rise anywhere (the end skews' curve
// of one capture rises at the left, under a legend in the top left: review defect 9; a start curve
// far right has its foot in the bottom right). Two columns when they fit the width. (Inside the plot,
// top left, is kept for a chart that asks for it.)
void SkewCdfChart::placeLegend(bool above) {
    if (above == legendAbove()) return;
    if (legend->layout()) legend->layout()->take(legend);
    if (above) {  // under the title (row 0), above the axis rect
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, legend);
        plotLayout()->setRowStretchFactor(1, 0.001);
        legend->setBorderPen(Qt::NoPen);
        legend->setMargins(QMargins(4, 2, 4, 0));
        legend->setIconSize(22, 10);
    } else {
        plotLayout()->simplify();  // the legend's row, now empty
        axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
        legend->setWrap(0);
        legend->setFillOrder(QCPLegend::foRowsFirst, true);
        legend->setBorderPen(QPen(Qt::black));
        legend->setMargins(QMargins(7, 5, 7, 4));
        legend->setIconSize(32, 18);
    }
}

// Above the plot: the pairs side by side when two columns fit the width, else one entry per row.
// The names with their medians when they fit, else the names alone (the medians are in the Ranks
// tab's table and the compare view's delta table).
void SkewCdfChart::fitLegend() {
    if (!legendAbove()) return;
    // two entries (one capture) on two lines before short names; four (a comparison) on two lines of
    // short names before four lines of long ones: the plot keeps its height
    const bool few = names_.size() <= 2;
    // in a short chart (the Ranks tab of a 700 px window) one line of short names before two lines
    // of long ones: two lines left the plot no height, and their entries ran into each other
    const bool shortChart = height() < kShortChartPx;
    const std::pair<int, bool> tries[] = {{2, true}, {few && !shortChart ? 1 : 2, few && !shortChart}, {2, false}, {1, false}};
    for (auto [columns, full] : tries) {
        for (const auto& [g, longName, shortName] : names_) g->setName(full ? longName : shortName);
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
        if (legend->minimumOuterSizeHint().width() <= width() - 4) break;
    }
}

void SkewCdfChart::resizeEvent(QResizeEvent* e) {
    QCustomPlot::resizeEvent(e);
    if (!fullTitle_.isEmpty()) fitTitle();
    if (legendAbove()) fitLegend();
    replotWhenShown(this);
}

bool SkewCdfChart::legendAbove() const { return legend->layout() == plotLayout(); }

void SkewCdfChart::setGroup(SessionPtr s, int group) {
    pending_ = Pending{std::move(s), group};
    if (isVisible() || !window()->isVisible()) showPending();  // else when shown
}

void SkewCdfChart::showPending() const {
    if (!pending_) return;
    const Pending p = std::move(*pending_);
    pending_.reset();
    const_cast<SkewCdfChart*>(this)->showGroup(p.s, p.group);
}

void SkewCdfChart::showEvent(QShowEvent* e) {
    showPending();
    QCustomPlot::showEvent(e);
}

void SkewCdfChart::showGroup(const SessionPtr& s, int group) {
    start_->setPen(QPen(palette::kLate, 2));
    end_->setPen(QPen(palette::kTransfer, 2));
    placeLegend(true);
    startB_->setVisible(false);
    endB_->setVisible(false);
    startB_->removeFromLegend();
    endB_->removeFromLegend();
    startB_->data()->clear();
    endB_->data()->clear();
    if (!s || group < 0 || size_t(group) >= s->analysis.groups.size()) {
        start_->data()->clear();
        end_->data()->clear();
        setTitle(QString());
        replotWhenShown(this);
        return;
    }
    setTitle(tr("Group %1: %2 complete collectives").arg(group).arg(s->analysis.groups[size_t(group)].complete));
    fill({{start_, skew::sortedSkews(s->analysis, group, false)}, {end_, skew::sortedSkews(s->analysis, group, true)}},
         {tr("starts"), tr("ends")});
}

void SkewCdfChart::setComparison(SessionPtr a, int ga, SessionPtr b, int gb) {
    using namespace palette;
    pending_.reset();
    // A wider and under B: where the two captures agree, B's curve runs inside A's
    start_->setPen(QPen(kSideA, 3.5));
    end_->setPen(QPen(kSideA, 3.5, Qt::DashLine));
    startB_->setPen(QPen(kSideB, 1.6));
    endB_->setPen(QPen(kSideB, 1.6, Qt::DashLine));
    startB_->setVisible(true);
    endB_->setVisible(true);
    placeLegend(true);
    for (QCPGraph* g : {start_, end_, startB_, endB_}) {
        g->data()->clear();
        g->removeFromLegend();
    }
    if (!a || !b || ga < 0 || gb < 0 || size_t(ga) >= a->analysis.groups.size() || size_t(gb) >= b->analysis.groups.size()) {
        setTitle(QString());
        replotWhenShown(this);
        return;
    }
    setTitle(tr("A group %1 (%2 complete) vs B group %3 (%4)")
                        .arg(ga)
                        .arg(a->analysis.groups[size_t(ga)].complete)
                        .arg(gb)
                        .arg(b->analysis.groups[size_t(gb)].complete));
    // the legend in the order A start, B start, A end, B end: the pairs to compare sit together
    fill({{start_, skew::sortedSkews(a->analysis, ga, false)}, {startB_, skew::sortedSkews(b->analysis, gb, false)},
          {end_, skew::sortedSkews(a->analysis, ga, true)}, {endB_, skew::sortedSkews(b->analysis, gb, true)}},
         {tr("A start"), tr("B start"), tr("A end"), tr("B end")});
}

void SkewCdfChart::fill(const std::vector<std::pair<QCPGraph*, std::vector<int64_t>>>& curves, const QStringList& names) {
    names_.clear();
    // zero skews cannot sit on a log axis: they are drawn at the left edge
    double lo = 1e18, hi = 1;
    for (const auto& [g, v] : curves)
        for (int64_t x : v)
            if (x > 0) lo = std::min(lo, double(x)), hi = std::max(hi, double(x));
    if (lo > hi) lo = 1, hi = 10;
    lo = std::pow(10, std::floor(std::log10(lo)));
    hi = std::pow(10, std::ceil(std::log10(hi)));
    for (size_t k = 0; k < curves.size(); ++k) {
        QCPGraph* gr = curves[k].first;
        const std::vector<int64_t>& v = curves[k].second;
        QVector<double> xs, ys;
        xs << lo;
        ys << 0;
        for (size_t i = 0; i < v.size(); ++i) {
            xs << std::max(lo, double(v[i]));
            ys << double(i + 1) / double(v.size());
        }
        xs << hi;
        ys << 1;
        gr->setData(xs, ys, true);
        double p50 = v.empty() ? 0 : skew::percentileSorted(v, 50);
        gr->setName(tr("%1, p50 %2").arg(names[int(k)], dur(p50)));
        gr->addToLegend();
        names_.push_back({gr, gr->name(), names[int(k)]});
    }
    xAxis->setRange(lo, hi);
    fitLegend();
    replotWhenShown(this);
}

}  // namespace skewui
