#include "window/run_view_tabs.h"

#include "views/collective/collective_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/run_view_factory.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "views/whatif/whatif_view.h"

namespace skewui {

RunViewTabs::RunViewTabs(QWidget* parent) : QTabWidget(parent) {
    collective_ = new CollectiveView;
    collective_->setFloorHeight(300, true);
    setDocumentMode(true);
    // a compact tab bar: every pixel it takes is the collective view's
    setStyleSheet("QTabBar::tab { padding: 2px 10px; border-bottom: 2px solid transparent; color: #555; }"
                  "QTabBar::tab:selected { border-bottom: 2px solid #2f6fb5; color: #10305f; }");
    addTab(collective_, tr("Collective"));
    setTabToolTip(0, tr("The selected collective, rank by rank"));
    connect(collective_, &CollectiveView::barClicked, this, &RunViewTabs::kernelClicked);

    // selection: any view selects in the table (and so in every other view) through the window; a
    // run view has the signals it can send (the step map opens no kernel, only it asks for settings)
    for (const std::string& name : runViewNames()) {
        RunView* v = createRunView(name);
        QWidget* w = v->widget();
        runViews_.push_back(v);
        setTabToolTip(addTab(w, v->tabTitle()), v->tabToolTip());
        const QMetaObject* mo = w->metaObject();
        auto has = [mo](const char* signature) { return mo->indexOfSignal(QMetaObject::normalizedSignature(signature)) >= 0; };
        if (has("collectiveClicked(int)"))
            connect(w, SIGNAL(collectiveClicked(int)), this, SIGNAL(collectiveClicked(int)));
        if (has("kernelClicked(int,int,quint32)"))
            connect(w, SIGNAL(kernelClicked(int,int,quint32)), this, SIGNAL(kernelClicked(int,int,quint32)));
        if (has("settingsRequested()"))
            connect(w, SIGNAL(settingsRequested()), this, SIGNAL(settingsRequested()));
    }
}

template <typename View>
View* RunViewTabs::runView() const {
    for (RunView* v : runViews_)
        if (auto* w = dynamic_cast<View*>(v)) return w;
    return nullptr;
}
TimelineView* RunViewTabs::timeline() const { return runView<TimelineView>(); }
StepMapView* RunViewTabs::stepMap() const { return runView<StepMapView>(); }
HeatmapView* RunViewTabs::heatmap() const { return runView<HeatmapView>(); }
WhatIfView* RunViewTabs::whatIf() const { return runView<WhatIfView>(); }

RunView* RunViewTabs::shownRunView() const { return asRunView(currentWidget()); }

void RunViewTabs::setSession(SessionPtr s, bool keepRanges) {
    kept_.assign(runViews_.size(), RunViewRange{});
    keptWhilePreparing_.clear();
    selected_ = -1;
    for (size_t i = 0; i < runViews_.size(); ++i) {
        if (keepRanges) kept_[i] = runViews_[i]->viewRange();
        runViews_[i]->setSession(s);
    }
}

void RunViewTabs::whatIfLoaded() {
    if (WhatIfView* v = whatIf()) v->refresh();
    if (TimelineView* t = timeline()) t->whatIfLoaded();  // an ideal schedule waiting for it starts
}

void RunViewTabs::restoreKeptRanges() {
    for (size_t i = 0; i < runViews_.size() && i < kept_.size(); ++i) runViews_[i]->restoreViewRange(kept_[i]);
    keptWhilePreparing_ = std::move(kept_);  // restored in the views preparing when their session comes
    kept_.clear();
}

void RunViewTabs::viewIndexesLoaded() {
    for (size_t i = 0; i < runViews_.size(); ++i) {
        RunView* v = runViews_[i];
        if (!v->preparing()) continue;
        v->viewIndexesLoaded();
        v->setSelectedCollective(selected_);
        if (i < keptWhilePreparing_.size()) v->restoreViewRange(keptWhilePreparing_[i]);
        v->showPendingRequest();
    }
    keptWhilePreparing_.clear();
}

void RunViewTabs::setSelectedCollective(int collective) {
    selected_ = collective;
    for (RunView* v : runViews_) v->setSelectedCollective(collective);
}

bool RunViewTabs::showsCollective() const { return currentWidget() == collective_; }

QString RunViewTabs::shownViewName() const {
    const RunView* v = shownRunView();
    return v ? v->viewName() : QStringLiteral("collective");
}

void RunViewTabs::zoomShown(double factor) {
    if (RunView* v = shownRunView()) v->zoomBy(factor);
    else collective_->zoomBy(factor);
}

void RunViewTabs::fitShown() {
    if (RunView* v = shownRunView()) v->fit();
    else collective_->resetZoom();
}

bool RunViewTabs::exportShownRunView(const QString& path, int w, int h, QString* error) {
    if (RunView* v = shownRunView()) return v->exportTo(path, w, h, error);
    if (error) *error = tr("no view to export");
    return false;
}

}  // namespace skewui
