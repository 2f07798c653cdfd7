#pragma once
// The views' tabs above the bottom pane: "Collective" (the selected collective, rank by rank),
// "Timeline", "Step map" and "Heatmap" (the run views). They follow the window's selection, and a
// click in any of them selects (collectiveClicked) or opens a kernel's details (kernelClicked); zoom,
// fit and export act on the tab shown.

#include <QTabWidget>

#include <vector>

#include "session.h"
#include "views/run_view.h"

namespace skewui {

class CollectiveView;
class RunView;
class HeatmapView;
class StepMapView;
class TimelineView;
class WhatIfView;

class RunViewTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit RunViewTabs(QWidget* parent = nullptr);

    // the run views (the collective view gets its scene per selection); with keepRanges (a reload of
    // the same files) what each shows is kept, for restoreKeptRanges once the selection is set again
    void setSession(SessionPtr s, bool keepRanges = false);
    void whatIfLoaded();  // the session's what-if came in after setSession: the What-if view draws it
    // the session's run view indexes came in after setSession (the first picture did not wait for
    // them): the views that were preparing show it, with the selection and the range a reload kept
    void viewIndexesLoaded();
    void restoreKeptRanges();  // F5 keeps the zoom: each view's range again, where it still overlaps the run
    void setSelectedCollective(int collective);  // in the run views
    bool showsCollective() const;            // the Collective tab is the one shown
    QString shownViewName() const;           // the tab shown as `render --view` names it: collective, timeline, ...
    void zoomShown(double factor);           // Navigate > Zoom In / Zoom Out on the tab shown
    void fitShown();                         // Navigate > Fit View: the collective, the whole run, every step, every collective
    // exports the run view shown (not the collective view, whose export leaves out its highlight: the window's)
    bool exportShownRunView(const QString& path, int w, int h, QString* error);

    CollectiveView* collective() const { return collective_; }
    const std::vector<RunView*>& runViews() const { return runViews_; }  // in tab order, after the collective view
    // the run view of a `render --view` name, by its class (tests and the window's accessors)
    TimelineView* timeline() const;
    StepMapView* stepMap() const;
    HeatmapView* heatmap() const;
    WhatIfView* whatIf() const;

signals:
    void collectiveClicked(int collective);
    void kernelClicked(int rank, int lane, quint32 kernel);
    void settingsRequested();  // the step map's "no steps found" link

private:
    RunView* shownRunView() const;  // null when the Collective tab is shown
    template <typename View>
    View* runView() const;

    CollectiveView* collective_ = nullptr;
    std::vector<RunView*> runViews_;
    std::vector<RunViewRange> kept_;  // per run view, between setSession and restoreKeptRanges
    std::vector<RunViewRange> keptWhilePreparing_;  // per run view, until viewIndexesLoaded
    int selected_ = -1;  // the collective selected in the run views
};

}  // namespace skewui
