#include "window/ranks_panel.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <cmath>

#include "common/deferred_replot.h"
#include "views/rank_ticker.h"
#include "models/ranks_model.h"
#include "qcustomplot.h"
#include "common/rank_labels.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "window/collectives_pane.h"

namespace skewui {

RanksPanel::RanksPanel(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
    model_ = new RanksModel(this);
    table_ = new QTableView;
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    rankLabels_ = new RankLabelDelegate(table_);
    table_->setItemDelegateForColumn(RanksModel::Rank, rankLabels_);
    chart_ = new QCustomPlot;
    chart_->setMinimumHeight(110);  // the bottom pane's minimum, with the tab bars: see PaneProportions
    // the legend above the bars, never over them
    chart_->legend->setVisible(true);
    chart_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    chart_->legend->setBorderPen(Qt::NoPen);
    chart_->legend->setIconSize(14, 10);  // small swatches: the legend's width is the chart's minimum, beside the table
    chart_->plotLayout()->insertRow(0);
    chart_->plotLayout()->addElement(0, 0, chart_->legend);
    chart_->plotLayout()->setRowStretchFactor(0, 0.001);
    chart_->installEventFilter(this);
    addWidget(table_);
    addWidget(chart_);
    setStretchFactor(0, 1);
    setStretchFactor(1, 1);
    // the skew distributions share the chart's place (a third pane would widen the tab)
    skewCdf_ = new SkewCdfChart;
    auto* charts = new QTabWidget;
    charts->setDocumentMode(true);
    charts->setStyleSheet("QTabBar::tab { padding: 1px 8px; }");
    replaceWidget(1, charts);
    charts->addTab(chart_, tr("Lateness by rank"));
    charts->addTab(skewCdf_, tr("Start/end skew CDF"));
    charts->setTabToolTip(1, tr("Start and end skew distributions of the group: ends cluster, starts do not"));
    connect(this, &QSplitter::splitterMoved, this, [this] { moved_ = true; });
}

void RanksPanel::setGroup(SessionPtr s, int g) {
    const bool same = g == group_ && shownFor_ == s.get();
    group_ = g;
    shownFor_ = s.get();
    if (same) return;
    session_ = s;
    skewCdf_->setGroup(s, g);  // the distributions of the same group, named in their title
    model_->setSession(s, std::max(g, 0));
    if (s) rankLabels_->setElider(RankLabelElider::of(s->profile));
    sizeColumns();
    chart_->clearPlottables();
    if (g < 0) {
        replotWhenShown(chart_);
        return;
    }
    drawLateness(*s, g);
}

// Two bars per rank: the mean lateness, and the same without the big events.
void RanksPanel::drawLateness(const skew::Session& s, int g) {
    const skew::Group& grp = s.analysis.groups[size_t(g)];
    QVector<double> keys, all, rest;
    labels_.clear();
    for (size_t i = 0; i < grp.perRank.size(); ++i) {
        keys << double(i);
        all << grp.perRank[i].meanLatenessNs / 1e6;
        rest << grp.perRank[i].meanLatenessExclBigNs / 1e6;
        labels_ << QString::fromStdString(s.profile.ranks[size_t(grp.perRank[i].rank)].label);
    }
    auto* b1 = new QCPBars(chart_->xAxis, chart_->yAxis);
    b1->setName(tr("mean lateness"));
    b1->setBrush(QColor(0xd6, 0x3c, 0x2f, 200));
    b1->setPen(Qt::NoPen);
    auto* b2 = new QCPBars(chart_->xAxis, chart_->yAxis);
    b2->setName(tr("excluding big events"));
    b2->setBrush(QColor(0x2f, 0x6f, 0xb5, 200));
    b2->setPen(Qt::NoPen);
    auto* bg = new QCPBarsGroup(chart_);
    b1->setWidth(0.35);
    b2->setWidth(0.35);
    b1->setBarsGroup(bg);
    b2->setBarsGroup(bg);
    b1->setData(keys, all);
    b2->setData(keys, rest);
    chart_->xAxis->setRange(-0.6, double(keys.size()) - 0.4);
    chart_->yAxis->setLabel(tr("ms"));
    chart_->yAxis->rescale();
    chart_->yAxis->setRangeLower(0);
    chart_->yAxis->setRangeUpper(std::max(0.001, chart_->yAxis->range().upper * 1.1));
    layoutTicks();
}

int RanksPanel::labelStride(double pitch, int thickness) {
    if (pitch >= thickness) return 1;
    // thinned: named ranks 4 px apart at least (upright labels that touch read as one black band, as
    // on 1,024 ranks), by the rank axes' round step (every 20th: rank 0, 20, 40...)
    return RankTicker::labelEvery(1.0, std::max(pitch, 0.01), thickness + 4);
}

void RanksPanel::layoutTicks() {
    // every rank's label is drawn: horizontal when they fit under their bars, else upright and
    // elided in the middle (QCustomPlot leaves out a label that would cross the widget's edge)
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QFontMetrics fm(chart_->xAxis->tickLabelFont());
    int n = std::max(1, int(labels_.size()));
    int plotW = chart_->axisRect()->width() > 0 ? chart_->axisRect()->width() : chart_->width() - 60;
    double pitch = double(std::max(plotW, 1)) / (n + 0.2);
    int widest = 0;
    for (const QString& l : labels_) widest = std::max(widest, fm.horizontalAdvance(l));
    // too wide for their bars: elided in the middle to the bar pitch, or upright when the pitch is
    // too narrow for a readable piece (many ranks), elided to a third of the chart's height
    bool upright = widest + 8 > pitch && pitch < 64;
    int maxW = upright ? std::max(40, chart_->height() / 3) : int(pitch) - 8;
    const RankLabelElider elider = session_ ? RankLabelElider::of(session_->profile) : RankLabelElider();
    // upright labels, each as thick as the font's ascent (what their letters fill: 16 ranks at
    // 1024x700 are 13 px apart and all legible): closer than that (hundreds of ranks) they would
    // print over each other into a black band, so every k-th rank is named, from the first
    const int every = upright ? labelStride(pitch, fm.ascent()) : 1;
    for (int i = 0; i < labels_.size(); i += every) ticker->addTick(double(i), elider.elide(labels_[i], fm, maxW));
    chart_->xAxis->setTicker(ticker);
    chart_->xAxis->setTickLabelRotation(upright ? 90 : 0);
    // a short chart (a small window's bottom pane) with fewer value ticks, so that their labels do not touch
    chart_->yAxis->ticker()->setTickCount(chart_->axisRect()->height() < 80 ? 3 : 5);
    replotWhenShown(chart_);
}

void RanksPanel::sizeColumns() {
    // to their content, the rank labels capped as in the collectives table (elided keeping what
    // tells the files apart), so that the numbers stay in view
    if (!isVisible()) {
        columnsStale_ = true;
        return;
    }
    columnsStale_ = false;
    table_->resizeColumnsToContents();
    const int cap = CollectivesPane::rankColumnCap(QFontMetrics(table_->font()));
    if (table_->columnWidth(RanksModel::Rank) > cap) table_->setColumnWidth(RanksModel::Rank, cap);
    sizeTable();
}

void RanksPanel::sizeTable() {
    // the splitter alone sized the table from the tab's first, hidden, layout (70 px at 1024x700)
    if (moved_ || !isVisible() || count() < 2) return;
    const int total = width() - handleWidth();
    int want = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < RanksModel::ColumnCount; ++c) want += table_->columnWidth(c);
    const int table = std::min(want, total * 60 / 100);
    setSizes({table, total - table});
}

bool RanksPanel::event(QEvent* e) {
    // before the splitter lays out its panes for the new size, as an event filter would
    if (e->type() == QEvent::Show && columnsStale_) sizeColumns();  // (sizes the table too)
    else if (e->type() == QEvent::Resize || e->type() == QEvent::Show) sizeTable();
    return QSplitter::event(e);
}

bool RanksPanel::eventFilter(QObject* o, QEvent* e) {
    if (o == chart_ && e->type() == QEvent::Resize && !labels_.isEmpty()) QTimer::singleShot(0, this, &RanksPanel::layoutTicks);
    return QSplitter::eventFilter(o, e);
}

}  // namespace skewui
