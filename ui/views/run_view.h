#pragma once
// The run views (Timeline, Step map, Heatmap): what the window and `render` do with any of them, so
// that neither dispatches on the view's type. Each is a QWidget that also implements RunView; the
// window keeps them in its tabs, `render --view NAME` creates one by its name (run_view_factory.h).
//
// What `render` does with one, as the viewer would after selecting a collective:
//   view->widget()->resize(w, h); view->setSession(s); view->setSelectedCollective(c);
//   if (!(hasRange && view->setTimeRange(t0, t1))) view->fit();
//   view->exportTo(path, w, h, &error);

#include <QString>
#include <QWidget>

#include "session.h"

namespace skewui {

// What a view shows of its axes (x: time or position, y: rows or steps), kept over a reload of the
// same files (F5, Settings OK) and set again where it still overlaps the reloaded run.
struct RunViewRange {
    bool valid = false;
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
};

class RunView {
public:
    virtual ~RunView() = default;
    virtual QWidget* widget() = 0;

    virtual void setSession(SessionPtr s) = 0;
    // A view that draws from the session's run view indexes (the timeline's level of detail, the step
    // map) shows a session loaded without them yet (Session::viewIndexesPending: the viewer builds them
    // after its first picture) as being prepared, and that session once viewIndexesLoaded() is called
    // after they were filled in. The others show every session at once.
    virtual bool preparing() const { return false; }
    virtual void viewIndexesLoaded() {}
    // What the user asked of a view while it was preparing (Show in Timeline, a search hit), done
    // once its session is in: called after viewIndexesLoaded(), the selection and the range kept
    // over a reload, so that the newer request wins
    virtual void showPendingRequest() {}
    virtual void setSelectedCollective(int collective) = 0;  // -1: none
    virtual int selectedCollective() const = 0;

    // the window's zoom keys: factor < 1 zooms in (the timeline at the mouse pointer, the others about
    // their centre); fit shows the whole run again
    virtual void zoomBy(double factor) = 0;
    virtual void fit() = 0;
    // the visible time range, aligned ns (`render --range`); false: the view has no time axis
    virtual bool setTimeRange(double t0, double t1) {
        (void)t0, (void)t1;
        return false;
    }
    // the time range shown and the run's, aligned ns (after setTimeRange, what the view kept of
    // it); false: the view has no time axis
    virtual bool timeRange(double& t0, double& t1, double& run0, double& run1) const {
        (void)t0, (void)t1, (void)run0, (void)run1;
        return false;
    }

    // the view's ranges before a reload, and set again after it (where they still overlap what the
    // view shows of the reloaded run); the default keeps nothing
    virtual RunViewRange viewRange() const { return {}; }
    virtual void restoreViewRange(const RunViewRange& kept) { (void)kept; }

    // the view at width x height as PNG, SVG or PDF (by the suffix), as the viewer's export and `render`
    virtual bool exportTo(const QString& path, int width, int height, QString* error = nullptr) = 0;

    virtual QString tabTitle() const = 0;    // "Timeline"
    virtual QString tabToolTip() const = 0;  // what the tab shows
    virtual QString viewName() const = 0;    // `render --view` name, and a file name hint: "timeline"
};

// The run view a widget is (a tab's widget), or null. Making one by its name: run_view_factory.h.
inline RunView* asRunView(QWidget* w) { return dynamic_cast<RunView*>(w); }

}  // namespace skewui
