#include "skew_cdf_chart.h"

#include <algorithm>
#include <cmath>

#include "report/info_report.h"
#include "timeline/run_maps.h"

namespace skewui {

namespace {

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
    setMinimumSize(120, 160);  // explicit: the plot layout's own hint would widen the Ranks tab (and the window's right side)
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<DurationLogTicker>::create();
    ticker->setLogBase(10);
    ticker->setTickCount(4);
    xAxis->setTicker(ticker);
    xAxis->setLabel(tr("skew per collective (log scale)"));
    yAxis->setLabel(tr("fraction \u2264 x"));
    yAxis->setRange(0, 1.02);
    start_ = addGraph();
    start_->setName(tr("start skew"));
    start_->setPen(QPen(QColor(0xd6, 0x3c, 0x2f), 2));
    start_->setLineStyle(QCPGraph::lsStepLeft);
    end_ = addGraph();
    end_->setName(tr("end skew"));
    end_->setPen(QPen(QColor(0x2f, 0x6f, 0xb5), 2));
    end_->setLineStyle(QCPGraph::lsStepLeft);
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);  // CDFs leave the top left empty
}

void SkewCdfChart::setGroup(SessionPtr s, int group) {
    start_->data()->clear();
    end_->data()->clear();
    if (!s || group < 0 || size_t(group) >= s->analysis.groups.size()) {
        replot();
        return;
    }
    auto starts = skew::sortedSkews(s->analysis, group, false), ends = skew::sortedSkews(s->analysis, group, true);
    // zero skews cannot sit on a log axis: they are drawn at the left edge
    double lo = 1e18, hi = 1;
    for (const auto* v : {&starts, &ends})
        for (int64_t x : *v)
            if (x > 0) lo = std::min(lo, double(x)), hi = std::max(hi, double(x));
    if (lo > hi) lo = 1, hi = 10;
    lo = std::pow(10, std::floor(std::log10(lo)));
    hi = std::pow(10, std::ceil(std::log10(hi)));
    auto fill = [&](QCPGraph* gr, const std::vector<int64_t>& v, const QString& name) {
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
        gr->setName(tr("%1, p50 %2").arg(name, QString::fromStdString(skew::formatDuration(int64_t(std::llround(p50))))));
    };
    fill(start_, starts, tr("starts"));
    fill(end_, ends, tr("ends"));
    xAxis->setRange(lo, hi);
    replot();
}

}  // namespace skewui
