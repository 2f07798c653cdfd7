#include "views/compare/compare_rank_bars.h"

#include <algorithm>

#include "common/rank_labels.h"
#include "common/palette.h"

namespace skewui {

CompareRankBars::CompareRankBars(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(160, 160);  // explicit: the layout's own hint would widen the compare view
    lastRect_ = axisRect();
    latRect_ = new QCPAxisRect(this);
    plotLayout()->addElement(1, 0, latRect_);
    // the legend above both charts, never over a bar
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setFont(QFont(font().family(), 8));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    // each chart named on a line above it, not along its y axis: a low chart (1024x700) squeezed
    // "mean lateness without big" into a rotated label taller than the chart
    QFont head(font().family(), 8, QFont::Bold);
    lastTitle_ = new QCPTextElement(this, tr("last arrivals"), head);
    latTitle_ = new QCPTextElement(this, tr("mean lateness without big events"), head);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, lastTitle_);
    plotLayout()->setRowStretchFactor(1, 0.001);
    plotLayout()->insertRow(3);
    plotLayout()->addElement(3, 0, latTitle_);
    plotLayout()->setRowStretchFactor(3, 0.001);
    for (QCPTextElement* t : {lastTitle_, latTitle_}) t->setMargins(QMargins(2, 3, 2, 0));
    // both charts' plot areas line up: one margin group for their left sides
    auto* margins = new QCPMarginGroup(this);
    lastRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    latRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    QFont small(font().family(), 8);
    for (QCPAxisRect* r : {lastRect_, latRect_}) {
        r->axis(QCPAxis::atBottom)->grid()->setVisible(false);
        r->axis(QCPAxis::atBottom)->setSubTicks(false);
        r->axis(QCPAxis::atBottom)->setTickLength(0, 0);
        r->axis(QCPAxis::atLeft)->setLabelFont(small);
        r->axis(QCPAxis::atLeft)->setTickLabelFont(small);
        r->axis(QCPAxis::atBottom)->setTickLabelFont(small);
    }
    lastRect_->axis(QCPAxis::atBottom)->setTickLabels(false);  // the ranks are named once, under the lower chart
    lastRect_->axis(QCPAxis::atLeft)->setLabel(tr("count"));
    auto make = [&](QCPAxisRect* r, const QColor& c, const QString& name) {
        auto* b = new QCPBars(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
        b->setName(name);
        b->setBrush(c);
        b->setPen(Qt::NoPen);
        b->setWidth(0.38);
        return b;
    };
    lastA_ = make(lastRect_, palette::kSideA, tr("A (before)"));
    lastB_ = make(lastRect_, palette::kSideB, tr("B (after)"));
    latA_ = make(latRect_, palette::kSideA, QString());
    latB_ = make(latRect_, palette::kSideB, QString());
    latA_->removeFromLegend();
    latB_->removeFromLegend();
    auto* g1 = new QCPBarsGroup(this);
    auto* g2 = new QCPBarsGroup(this);
    lastA_->setBarsGroup(g1);
    lastB_->setBarsGroup(g1);
    latA_->setBarsGroup(g2);
    latB_->setBarsGroup(g2);
}

void CompareRankBars::setPair(CompareSessionPtr c, int pair) {
    labels_.clear();
    for (QCPBars* b : {lastA_, lastB_, latA_, latB_}) b->data()->clear();
    if (!c || pair < 0 || size_t(pair) >= c->comparison.pairs.size()) {
        replot();
        return;
    }
    const skew::GroupPair& p = c->comparison.pairs[size_t(pair)];
    const auto& va = p.valuesA.perRank;
    const auto& vb = p.valuesB.perRank;
    const size_t n = std::min(va.size(), vb.size());
    int64_t maxLat = 0;
    for (size_t i = 0; i < n; ++i) maxLat = std::max({maxLat, va[i].meanLatenessExclBigNs, vb[i].meanLatenessExclBigNs});
    // the unit that keeps the axis' numbers short
    const bool us = maxLat < 1'000'000;
    const double unit = us ? 1e3 : 1e6;
    latRect_->axis(QCPAxis::atLeft)->setLabel(us ? tr("(us)") : tr("(ms)"));
    QVector<double> keys, la, lb, ma, mb;
    for (size_t i = 0; i < n; ++i) {
        keys << double(i);
        la << double(va[i].lastCount);
        lb << double(vb[i].lastCount);
        ma << double(va[i].meanLatenessExclBigNs) / unit;
        mb << double(vb[i].meanLatenessExclBigNs) / unit;
        const QString a = QString::fromStdString(c->a->profile.ranks[size_t(va[i].rankA)].label);
        const QString b = QString::fromStdString(c->b->profile.ranks[size_t(vb[i].rankB)].label);
        labels_ << (a == b ? a : a + " / " + b);
    }
    lastA_->setData(keys, la, true);
    lastB_->setData(keys, lb, true);
    latA_->setData(keys, ma, true);
    latB_->setData(keys, mb, true);
    for (QCPAxisRect* r : {lastRect_, latRect_}) {
        r->axis(QCPAxis::atBottom)->setRange(-0.6, double(n) - 0.4);
        QCPAxis* y = r->axis(QCPAxis::atLeft);
        y->rescale();
        y->setRangeLower(0);
        y->setRangeUpper(std::max(r == lastRect_ ? 1.0 : 0.001, y->range().upper * 1.12));
    }
    layoutTicks();
}

void CompareRankBars::resizeEvent(QResizeEvent* e) {
    QCustomPlot::resizeEvent(e);
    if (labels_.isEmpty()) return;
    replot();  // the axis rects at the new size first: the labels are fitted to their width
    layoutTicks();
}

void CompareRankBars::layoutTicks() {
    // the lower chart's name on two lines when one is wider than the chart
    const QString lat = tr("mean lateness without big events");
    latTitle_->setText(QFontMetrics(latTitle_->font()).horizontalAdvance(lat) <= width() - 8 ? lat : tr("mean lateness\nwithout big events"));
    // the legend's two entries side by side when they fit the width, else one above the other (a
    // narrow chart cut "A (before" at its edge)
    legend->setWrap(0);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    if (legend->minimumOuterSizeHint().width() > width() - 4) {
        legend->setWrap(1);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
    // horizontal labels when they fit under their bars, else upright and elided in the middle
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto plain = QSharedPointer<QCPAxisTickerText>::create();
    QCPAxis* x = latRect_->axis(QCPAxis::atBottom);
    QFontMetrics fm(x->tickLabelFont());
    const int n = std::max(1, int(labels_.size()));
    const int plotW = latRect_->width() > 0 ? latRect_->width() : width() - 70;
    const double pitch = double(std::max(plotW, 1)) / (n + 0.2);
    int widest = 0;
    for (const QString& l : labels_) widest = std::max(widest, fm.horizontalAdvance(l));
    const bool upright = widest + 6 > pitch;
    const int maxW = upright ? std::max(40, height() / 4) : int(pitch) - 6;
    const RankLabelElider elider(labels_);  // keeping what tells the files apart
    for (int i = 0; i < labels_.size(); ++i) {
        ticker->addTick(double(i), elider.elide(labels_[i], fm, maxW));
        plain->addTick(double(i), QString());
    }
    x->setTicker(ticker);
    x->setTickLabelRotation(upright ? 90 : 0);
    lastRect_->axis(QCPAxis::atBottom)->setTicker(plain);
    replot();
}

}  // namespace skewui
