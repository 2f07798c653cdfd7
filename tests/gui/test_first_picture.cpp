// The order of an open (issue 25, first picture): the window draws the collective view as soon as
// the session is loaded and analysed, while the run views' indexes (the timeline's level of detail,
// the step map: hidden tabs) and then the what-if (the replay of the capture, seconds on a
// big one) are computed after it in the background: the timeline and the step map show the run once
// their indexes are in, as a one-go load shows it; the What-if view and the answers say it is being
// computed, then fill in when it arrives. A reload or the window's end while it is pending drops it:
// nothing is shown on another capture, nothing crashes. The load controller's hook holds the
// what-if's job (a slow what-if), so that the pending state is seen for sure.
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "gui_util.h"
#include "session.h"
#include "views/collective/collective_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "views/whatif/whatif_view.h"
#include "window/load_controller.h"
#include "window/run_view_tabs.h"
#include "window/view_navigation.h"

using namespace skewui;
using namespace guitest;

namespace {

// holds the first what-if job in the hook until released (counted: how many jobs reached it). Its
// state is shared with the hook, and it releases them when it goes: declared after the window, it
// goes first, so that a failed assertion never leaves the window's end waiting on a held job.
struct Gate {
    struct State {
        std::atomic<bool> hold{true};
        std::atomic<int> entered{0};
    };
    std::shared_ptr<State> state = std::make_shared<State>();
    ~Gate() { release(); }
    void release() { state->hold = false; }
    int entered() const { return state->entered.load(); }
    // the what-if's job, or (viewIndexes) the run views' indexes' job
    void install(MainWindow& w, bool viewIndexes = false) {
        // only the first job is held: Qt's raster engine paints with the global pool's threads too,
        // so that holding both of a 2-core machine's would stop the window's paints
        auto hook = [st = state](const std::atomic<bool>& cancelled) {
            if (++st->entered > 1) return;
            while (st->hold.load() && !cancelled.load()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        };
        if (viewIndexes) w.loads()->setViewIndexesHook(hook);
        else w.loads()->setWhatIfHook(hook);
    }
};

// counts the paints of a widget
struct PaintCounter : QObject {
    int paints = 0;
    explicit PaintCounter(QWidget* w) { w->installEventFilter(this); }
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Paint) ++paints;
        return false;
    }
};

// runs `first` at the first paint of a widget that `ready` allows
struct FirstPaint : QObject {
    std::function<bool()> ready;
    bool done = false;
    FirstPaint(QWidget* w, std::function<bool()> r) : ready(std::move(r)) { w->installEventFilter(this); }
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Paint && !done) done = ready();
        return false;
    }
};

bool waitFor(const std::function<bool()>& until, int ms = 60000) {
    for (int i = 0; i < ms / 10 && !until(); ++i) QTest::qWait(10);
    return until();
}

// the demo analysed in one go (what `analyze` and `render` do): the what-if the window must show
const skew::Session& reference() {
    static SessionPtr s = skew::loadSession({demo().path}, {}, {});
    return *s;
}

// the planted 55 ms ReduceScatter, 0:102, the biggest start skew: the collective the window opens on
constexpr int kWorstGroup = 0;
constexpr uint32_t kWorstIndex = 102;

}  // namespace

TEST(FirstPicture, CollectiveViewIsDrawnWhileTheWhatIfIsPendingThenTheWhatIfFillsIn) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    Gate gate;
    gate.install(w);
    PaintCounter painted(w.view());
    QSignalSpy loaded(&w, &MainWindow::sessionLoaded), whatIf(&w, &MainWindow::whatIfLoaded);
    w.openFiles({demoPath()});
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() && gate.entered() == 1; }));
    QTest::qWait(50);  // events after the swap: the pictures' paints

    // the first picture is there, the what-if is not
    ASSERT_TRUE(w.whatIfPending());
    EXPECT_TRUE(w.session()->analysis.whatIf.pending);
    EXPECT_TRUE(whatIf.isEmpty());
    const skew::CollectiveScene& sc = w.view()->scene();
    EXPECT_EQ(sc.collective, collectiveOf(w, kWorstGroup, kWorstIndex));
    EXPECT_EQ(sc.rows.size(), demo().result.rankLabels.size());  // the FSDP group: all 7 ranks
    EXPECT_FALSE(sc.bars.empty());
    EXPECT_GT(painted.paints, 0);
    WhatIfView* v = w.runViewTabs()->whatIf();
    ASSERT_NE(v, nullptr);
    EXPECT_TRUE(v->scene().empty());
    EXPECT_NE(v->subtitle().indexOf("Computing the what-if"), -1) << v->subtitle().toStdString();
    EXPECT_NE(w.findings()->toPlainText().indexOf("What-if: computing"), -1);
    EXPECT_EQ(w.findings()->toPlainText().indexOf("Without the late arrivals"), -1);
    // a report saved now would miss the what-if: refused, saying why
    QTemporaryDir dir;
    const QString report = dir.filePath("report.json");
    QString error;
    EXPECT_FALSE(w.exportReport(report, &error));
    EXPECT_NE(error.indexOf("still being computed"), -1) << error.toStdString();
    EXPECT_FALSE(QFileInfo::exists(report));

    // released: it arrives once, and shows what the one-go analysis has
    gate.release();
    ASSERT_TRUE(waitFor([&] { return !whatIf.isEmpty(); }));
    EXPECT_EQ(whatIf.count(), 1);
    EXPECT_FALSE(w.whatIfPending());
    const skew::Analysis& a = w.session()->analysis;
    EXPECT_FALSE(a.whatIf.pending);
    EXPECT_EQ(int(v->scene().steps.size()), demo().result.steps);  // the generator's 5 steps
    EXPECT_EQ(a.whatIf.steps.size(), reference().analysis.whatIf.steps.size());
    for (size_t i = 0; i < a.whatIf.steps.size() && i < reference().analysis.whatIf.steps.size(); ++i) {
        EXPECT_EQ(a.whatIf.steps[i].capturedNs, reference().analysis.whatIf.steps[i].capturedNs);
        EXPECT_EQ(a.whatIf.steps[i].idealNs, reference().analysis.whatIf.steps[i].idealNs);
    }
    EXPECT_EQ(a.whatIf.ideal, reference().analysis.whatIf.ideal);
    EXPECT_EQ(a.warnings, reference().analysis.warnings);  // the what-if's warnings too, in the same order
    EXPECT_EQ(w.findings()->toPlainText().indexOf("What-if: computing"), -1);
    EXPECT_NE(w.findings()->toPlainText().indexOf("Without the late arrivals"), -1);
    EXPECT_EQ(w.view()->scene().collective, collectiveOf(w, kWorstGroup, kWorstIndex));  // the selection stays
    EXPECT_TRUE(w.exportReport(report, &error)) << error.toStdString();
}

TEST(FirstPicture, ReloadWhileTheWhatIfIsPendingShowsOnlyTheNewCapturesWhatIf) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    Gate gate;
    gate.install(w);
    QSignalSpy loaded(&w, &MainWindow::sessionLoaded), whatIf(&w, &MainWindow::whatIfLoaded);
    w.openFiles({demoPath()});
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() && gate.entered() == 1; }));
    const SessionPtr first = w.session();
    w.reload();  // cancels the first what-if, held in the hook
    ASSERT_TRUE(waitFor([&] { return loaded.count() == 2; }));
    const SessionPtr second = w.session();
    ASSERT_NE(first, second);
    gate.release();  // the cancelled job goes on and stops; the new one arrives
    ASSERT_TRUE(waitFor([&] { return !whatIf.isEmpty(); }));
    QThreadPool::globalInstance()->waitForDone(60000);
    QTest::qWait(50);
    EXPECT_EQ(whatIf.count(), 1);
    EXPECT_TRUE(first->analysis.whatIf.pending);  // never filled in: it was not shown any more
    EXPECT_FALSE(second->analysis.whatIf.pending);
    EXPECT_EQ(w.session(), second);
    EXPECT_EQ(int(w.runViewTabs()->whatIf()->scene().steps.size()), demo().result.steps);
    EXPECT_EQ(second->analysis.warnings, reference().analysis.warnings);
}

TEST(FirstPicture, FailedOpenResumesTheShownCapturesWhatIf) {
    MainWindow w;
    w.resize(1600, 900);
    Gate gate;
    gate.install(w);
    QSignalSpy loaded(&w, &MainWindow::sessionLoaded), whatIf(&w, &MainWindow::whatIfLoaded), failed(&w, &MainWindow::loadFailed);
    w.openFiles({demoPath()});
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() && gate.entered() == 1; }));
    const SessionPtr shown = w.session();
    w.openFiles({"/nonexistent/rank0.sqlite"});  // cancels the what-if; ends without a capture: the one shown stays
    ASSERT_TRUE(waitFor([&] { return !failed.isEmpty(); }));
    gate.release();
    ASSERT_TRUE(waitFor([&] { return !whatIf.isEmpty(); }));
    EXPECT_EQ(w.session(), shown);
    EXPECT_FALSE(shown->analysis.whatIf.pending);
    EXPECT_EQ(int(w.runViewTabs()->whatIf()->scene().steps.size()), demo().result.steps);
}

TEST(FirstPicture, ClosingTheWindowWhileTheWhatIfIsPendingDropsIt) {
    SessionPtr kept;
    std::shared_ptr<Gate::State> held;
    {
        auto w = std::make_unique<MainWindow>();
        w->resize(1600, 900);
        w->show();
        Gate gate;
        gate.install(*w);
        held = gate.state;
        QSignalSpy loaded(w.get(), &MainWindow::sessionLoaded);
        w->openFiles({demoPath()});
        ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() && gate.entered() == 1; }));
        kept = w->session();
        w->close();
        // the window goes with its job held in the hook: its end cancels the job, which lets go
        // (the gate is never released), and the workers' end waits for it
        w.reset();
        EXPECT_TRUE(held->hold.load());
    }
    QTest::qWait(50);
    EXPECT_TRUE(kept->analysis.whatIf.pending);  // nothing filled in after the window went
    EXPECT_EQ(kept.use_count(), 1);             // the job let the session go
}

TEST(FirstPicture, RunViewsGetTheirIndexesAfterTheFirstPictureThenShowTheRunAsAOneGoLoad) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    Gate gate;  // the what-if held: the indexes come in before it
    gate.install(w);
    bool pendingAtPicture = false, preparingAtPicture = false;
    int pictured = -2;
    FirstPaint picture(w.view(), [&] {
        if (!w.session()) return false;
        pendingAtPicture = w.viewIndexesPending() && w.session()->viewIndexesPending;
        preparingAtPicture = w.timeline()->preparing() && w.stepMap()->preparing();
        pictured = w.view()->scene().collective;
        return true;
    });
    QSignalSpy indexes(&w, &MainWindow::viewIndexesLoaded);
    w.openFiles({demoPath()});
    ASSERT_TRUE(waitFor([&] { return !indexes.isEmpty() && gate.entered() == 1; }));
    const int worst = collectiveOf(w, kWorstGroup, kWorstIndex);
    // the first picture: the collective, drawn while the run views still waited for their indexes
    ASSERT_TRUE(picture.done);
    EXPECT_EQ(pictured, worst);
    EXPECT_TRUE(pendingAtPicture);
    EXPECT_TRUE(preparingAtPicture);
    EXPECT_EQ(indexes.count(), 1);
    EXPECT_FALSE(w.viewIndexesPending());
    EXPECT_TRUE(w.whatIfPending());  // after the indexes

    // the timeline: the run of a one-go load, the same rows and pixels, the selection on the worst collective
    const skew::Session& r = reference();
    TimelineView* tl = w.timeline();
    w.viewTabs()->setCurrentWidget(tl);
    QTest::qWait(50);
    EXPECT_FALSE(tl->preparing());
    ASSERT_TRUE(r.timeline.valid());
    EXPECT_EQ(w.session()->timeline.start(), r.timeline.start());
    EXPECT_EQ(w.session()->timeline.end(), r.timeline.end());
    double t0 = 0, t1 = 0, run0 = 0, run1 = 0;
    ASSERT_TRUE(tl->timeRange(t0, t1, run0, run1));
    EXPECT_EQ(run0, double(r.timeline.start()));
    EXPECT_EQ(run1, double(r.timeline.end()));
    EXPECT_EQ(tl->selectedCollective(), worst);
    TimelineView oneGo;
    oneGo.resize(tl->size());
    oneGo.setSession(std::shared_ptr<const skew::Session>(std::shared_ptr<const skew::Session>{}, &r));
    oneGo.setSelectedCollective(worst);
    oneGo.setRange(t0, t1);
    EXPECT_EQ(tl->rows().size(), oneGo.rows().size());
    EXPECT_TRUE(tl->render(tl->size()) == oneGo.render(tl->size())) << "the timeline differs from a one-go load's";
    // the step map: the generator's 5 steps, every collective placed as in the one-go load
    StepMapView* sm = w.stepMap();
    EXPECT_FALSE(sm->preparing());
    EXPECT_EQ(int(sm->map().steps), demo().result.steps);
    EXPECT_EQ(sm->map().items.size(), r.stepMap.items.size());
    EXPECT_EQ(sm->map().spanNs, r.stepMap.spanNs);
    EXPECT_EQ(sm->selectedCollective(), worst);
    gate.release();
    ASSERT_TRUE(waitFor([&] { return !w.whatIfPending(); }));
}

// Show in Timeline (or a search hit) while the Timeline is still preparing (its indexes come after
// the first picture): the kernel is marked and zoomed on once they are in, over the fit a new
// session gets; Back before they are in drops the request.
TEST(FirstPicture, ShowInTimelineWhileTheTimelinePreparesIsDoneWhenItIsIn) {
    for (const bool back : {false, true}) {
        SCOPED_TRACE(back ? "Back before the indexes" : "Show in Timeline");
        MainWindow w;
        w.resize(1600, 900);
        w.show();
        Gate gate;
        gate.install(w, true);
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded), indexes(&w, &MainWindow::viewIndexesLoaded);
        w.openFiles({demoPath()});
        ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() && gate.entered() == 1; }));
        TimelineView* tl = w.timeline();
        ASSERT_TRUE(tl->preparing());
        // the 20th kernel of rank 1's first stream (the demo's rank 0 was not captured)
        const skew::KernelLane& kl = w.session()->profile.ranks[1].lanes[0];
        ASSERT_GT(kl.size(), 20u);
        w.navigation()->showKernel(-1, 1, 0, 20);
        EXPECT_EQ(w.viewTabs()->currentWidget(), tl);
        if (back) {
            EXPECT_TRUE(w.navigation()->back());
        }
        gate.release();
        ASSERT_TRUE(waitFor([&] { return !indexes.isEmpty(); }));
        QTest::qWait(20);
        EXPECT_FALSE(tl->preparing());
        double t0 = 0, t1 = 0, run0 = 0, run1 = 0;
        ASSERT_TRUE(tl->timeRange(t0, t1, run0, run1));
        if (back) {  // the whole run, as a new session is shown
            EXPECT_FALSE(tl->highlight().valid());
            EXPECT_EQ(t0, run0);
            EXPECT_EQ(t1, run1);
            continue;
        }
        const TimelineHighlight& h = tl->highlight();
        ASSERT_TRUE(h.valid());
        EXPECT_EQ(h.rank, 1);
        EXPECT_EQ(h.lane, 0);
        EXPECT_EQ(h.kernel, 20u);
        // the kernel a fifth of the view (margin 2 on each side of its span, at least 1 us)
        const double span = std::max(double(kl.end(20) - kl.start[20]), 1000.0);
        EXPECT_DOUBLE_EQ(t0, double(kl.start[20]) - 2 * span);
        EXPECT_DOUBLE_EQ(t1, double(kl.end(20)) + 2 * span);
    }
}
