// The main window's run views: the "Collective", "Timeline", "Step map" and "Heatmap" tabs and the
// skew distributions on the Ranks tab, and how their selection follows MainWindow::selectCollective
// both ways. Kept apart from main_window.cpp so that the two grow without stepping on each other.

#include <QSplitter>
#include <QTabWidget>

#include "collective_view.h"
#include "compare_view.h"
#include "heatmap_view.h"
#include "main_window.h"
#include "skew_cdf_chart.h"
#include "stepmap_view.h"
#include "timeline_view.h"

namespace skewui {

QWidget* MainWindow::buildRunViews(QWidget* collectiveView, QSplitter* ranksBox) {
    timeline_ = new TimelineView;
    stepMap_ = new StepMapView;
    heatmap_ = new HeatmapView;
    viewTabs_ = new QTabWidget;
    viewTabs_->setDocumentMode(true);
    // a compact tab bar: every pixel it takes is the collective view's
    viewTabs_->setStyleSheet("QTabBar::tab { padding: 2px 10px; border-bottom: 2px solid transparent; color: #555; }"
                             "QTabBar::tab:selected { border-bottom: 2px solid #2f6fb5; color: #10305f; }");
    viewTabs_->addTab(collectiveView, tr("Collective"));
    viewTabs_->addTab(timeline_, tr("Timeline"));
    viewTabs_->addTab(stepMap_, tr("Step map"));
    viewTabs_->addTab(heatmap_, tr("Heatmap"));
    viewTabs_->setTabToolTip(0, tr("The selected collective, rank by rank"));
    viewTabs_->setTabToolTip(1, tr("Every rank and stream over the whole run"));
    viewTabs_->setTabToolTip(2, tr("Where in the step the collectives and big late arrivals fall"));
    viewTabs_->setTabToolTip(3, tr("Each rank's lateness in every collective"));

    // the skew distributions share the chart's place on the Ranks tab (a third pane would widen it)
    skewCdf_ = new SkewCdfChart;
    if (ranksBox->count() >= 2) {
        QWidget* chart = ranksBox->widget(1);
        auto* charts = new QTabWidget;
        charts->setDocumentMode(true);
        charts->setStyleSheet("QTabBar::tab { padding: 1px 8px; }");
        ranksBox->replaceWidget(1, charts);
        charts->addTab(chart, tr("Lateness by rank"));
        charts->addTab(skewCdf_, tr("Start/end skew CDF"));
        charts->setTabToolTip(1, tr("Start and end skew distributions of the group: ends cluster, starts do not"));
    } else {
        ranksBox->addWidget(skewCdf_);
    }

    // selection: any view selects in the table (and so in every other view) through selectCollective
    connect(timeline_, &TimelineView::collectiveClicked, this, qOverload<int>(&MainWindow::selectCollective));
    connect(timeline_, &TimelineView::kernelClicked, this, &MainWindow::onBarClicked);
    connect(stepMap_, &StepMapView::collectiveClicked, this, qOverload<int>(&MainWindow::selectCollective));
    connect(stepMap_, &StepMapView::settingsRequested, this, &MainWindow::editSettings);
    connect(heatmap_, &HeatmapView::collectiveClicked, this, qOverload<int>(&MainWindow::selectCollective));
    connect(heatmap_, &HeatmapView::kernelClicked, this, &MainWindow::onBarClicked);
    return viewTabs_;
}

void MainWindow::setRunViewsSession() {
    timeline_->setSession(session_);
    stepMap_->setSession(session_);
    heatmap_->setSession(session_);  // the skew CDF follows the Ranks tab's group (updateRanksChart)
}

void MainWindow::selectInRunViews(int collective) {
    timeline_->setSelectedCollective(collective);
    stepMap_->setSelectedCollective(collective);
    heatmap_->setSelectedCollective(collective);
}

void MainWindow::zoomShownView(double factor) {
    if (inCompareMode()) {
        compareView_->zoomCollectives(factor);
        return;
    }
    QWidget* v = viewTabs_->currentWidget();
    if (v == timeline_) timeline_->zoomAtPointer(factor);
    else if (v == stepMap_) stepMap_->zoomBy(factor);
    else if (v == heatmap_) heatmap_->zoomBy(factor);
    else view_->zoomBy(factor);
}

void MainWindow::fitShownView() {
    if (inCompareMode()) {
        compareView_->fitCollectives();
        return;
    }
    QWidget* v = viewTabs_->currentWidget();
    if (v == timeline_) timeline_->fit();
    else if (v == stepMap_) stepMap_->resetZoom();
    else if (v == heatmap_) heatmap_->resetZoom();
    else view_->resetZoom();
}

bool MainWindow::exportRunView(const QString& path, int w, int h, QString* error) {
    if (!session_) {
        if (error) *error = tr("no exports are open");
        return false;
    }
    QWidget* v = viewTabs_->currentWidget();
    if (v == timeline_) return timeline_->exportTo(path, w, h, error);
    if (v == stepMap_) return stepMap_->exportTo(path, w, h, error);
    if (v == heatmap_) return heatmap_->exportTo(path, w, h, error);
    if (error) *error = tr("no view to export");
    return false;
}

}  // namespace skewui
