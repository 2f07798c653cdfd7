#include "window/run_view_tabs.h"

#include "views/collective/collective_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"

namespace skewui {

RunViewTabs::RunViewTabs(QWidget* parent) : QTabWidget(parent) {
    collective_ = new CollectiveView;
    collective_->setMinimumHeight(300);
    timeline_ = new TimelineView;
    stepMap_ = new StepMapView;
    heatmap_ = new HeatmapView;
    setDocumentMode(true);
    // a compact tab bar: every pixel it takes is the collective view's
    setStyleSheet("QTabBar::tab { padding: 2px 10px; border-bottom: 2px solid transparent; color: #555; }"
                  "QTabBar::tab:selected { border-bottom: 2px solid #2f6fb5; color: #10305f; }");
    addTab(collective_, tr("Collective"));
    addTab(timeline_, tr("Timeline"));
    addTab(stepMap_, tr("Step map"));
    addTab(heatmap_, tr("Heatmap"));
    setTabToolTip(0, tr("The selected collective, rank by rank"));
    setTabToolTip(1, tr("Every rank and stream over the whole run"));
    setTabToolTip(2, tr("Where in the step the collectives and big late arrivals fall"));
    setTabToolTip(3, tr("Each rank's lateness in every collective"));

    // selection: any view selects in the table (and so in every other view) through the window
    connect(collective_, &CollectiveView::barClicked, this, &RunViewTabs::kernelClicked);
    connect(timeline_, &TimelineView::collectiveClicked, this, &RunViewTabs::collectiveClicked);
    connect(timeline_, &TimelineView::kernelClicked, this, &RunViewTabs::kernelClicked);
    connect(stepMap_, &StepMapView::collectiveClicked, this, &RunViewTabs::collectiveClicked);
    connect(stepMap_, &StepMapView::settingsRequested, this, &RunViewTabs::settingsRequested);
    connect(heatmap_, &HeatmapView::collectiveClicked, this, &RunViewTabs::collectiveClicked);
    connect(heatmap_, &HeatmapView::kernelClicked, this, &RunViewTabs::kernelClicked);
}

void RunViewTabs::setSession(SessionPtr s) {
    timeline_->setSession(s);
    stepMap_->setSession(s);
    heatmap_->setSession(s);
}

void RunViewTabs::setSelectedCollective(int collective) {
    timeline_->setSelectedCollective(collective);
    stepMap_->setSelectedCollective(collective);
    heatmap_->setSelectedCollective(collective);
}

bool RunViewTabs::showsCollective() const { return currentWidget() == collective_; }

void RunViewTabs::zoomShown(double factor) {
    QWidget* v = currentWidget();
    if (v == timeline_) timeline_->zoomAtPointer(factor);
    else if (v == stepMap_) stepMap_->zoomBy(factor);
    else if (v == heatmap_) heatmap_->zoomBy(factor);
    else collective_->zoomBy(factor);
}

void RunViewTabs::fitShown() {
    QWidget* v = currentWidget();
    if (v == timeline_) timeline_->fit();
    else if (v == stepMap_) stepMap_->resetZoom();
    else if (v == heatmap_) heatmap_->resetZoom();
    else collective_->resetZoom();
}

bool RunViewTabs::exportShownRunView(const QString& path, int w, int h, QString* error) {
    QWidget* v = currentWidget();
    if (v == timeline_) return timeline_->exportTo(path, w, h, error);
    if (v == stepMap_) return stepMap_->exportTo(path, w, h, error);
    if (v == heatmap_) return heatmap_->exportTo(path, w, h, error);
    if (error) *error = tr("no view to export");
    return false;
}

}  // namespace skewui
