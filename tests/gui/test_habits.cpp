// GUI tests of the habits Nsight Systems and Perfetto users bring (issue 24): the tabs' keys, F5
// keeping the zoom, W/A/S/D in every time view, the timeline's wheel, Ctrl+F search, Show in
// Timeline and Back. Each key is pressed on the real widgets (offscreen) and checked by what the
// views then show, with values worked out from the run or the generator's truth.

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include "gui_util.h"
#include "views/collective/collective_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/main_window.h"
#include "window/run_view_tabs.h"
#include "window/settings.h"
#include "window/view_navigation.h"

using namespace skewui;
using namespace guitest;

namespace {

// Ctrl+1..5 show the tabs in order, wherever the keys are (here the table), and the View menu
// lists them with their keys.
TEST(Habits, CtrlDigitsShowTheTabs) {
    DemoWindow d;
    MainWindow& w = d.w;
    QTabWidget* tabs = w.viewTabs();
    ASSERT_EQ(tabs->count(), 5);
    QMenu* view = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->text() == "&View") view = a->menu();
    ASSERT_TRUE(view);
    const QStringList titles = {"Collective", "Timeline", "Step map", "Heatmap", "What-if"};
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(view->actions()[i]->text(), titles[i]);
        EXPECT_EQ(view->actions()[i]->shortcut(), QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    const int order[] = {3, 1, 4, 2, 0};
    for (int i : order) {
        w.table()->setFocus();
        QTest::keyClick(w.table(), Qt::Key(Qt::Key_1 + i), Qt::ControlModifier);
        EXPECT_EQ(tabs->currentIndex(), i);
        EXPECT_EQ(tabs->tabText(i), titles[i]);
        EXPECT_EQ(QApplication::focusWidget(), tabs->widget(i)) << i;  // W/A/S/D act there at once
    }
}

// F5 keeps what each view shows: the timeline's range and rows' scroll, the step map's and the
// heatmap's zoom, the same collective; a kept range outside the run leaves the fit.
TEST(Habits, ReloadKeepsTheZoom) {
    DemoWindow d;
    MainWindow& w = d.w;
    const int shownBefore = w.currentCollective();
    TimelineView* tl = w.timeline();
    const double run0 = double(w.session()->timeline.start()), run1 = double(w.session()->timeline.end()), run = run1 - run0;
    QTest::keyClick(w.table(), Qt::Key_2, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), tl);
    tl->setRange(run0 + run * 0.3, run0 + run * 0.35);
    tl->scrollRows(60);
    const double t0 = tl->rangeStart(), t1 = tl->rangeEnd();
    const int scroll = tl->layout().scroll();
    ASSERT_NEAR(t0, run0 + run * 0.3, 1e-3);
    ASSERT_GT(scroll, 0);
    StepMapView* sm = w.stepMap();
    sm->zoomBy(0.5);
    const QCPRange smX = sm->xAxis->range(), smY = sm->yAxis->range();
    HeatmapView* hm = w.heatmap();
    hm->zoomBy(0.5);
    const QCPRange hmX = hm->xAxis->range();
    // the timeline and the step map show the reloaded run once their indexes are in (after its
    // first picture), in the ranges kept
    QSignalSpy loaded(&w, &MainWindow::viewIndexesLoaded);
    QTest::keyClick(tl, Qt::Key_F5);
    ASSERT_TRUE(waitLoaded(loaded));
    EXPECT_EQ(w.currentCollective(), shownBefore);
    EXPECT_EQ(w.viewTabs()->currentWidget(), tl);
    EXPECT_NEAR(tl->rangeStart(), t0, 1e-3);  // (the range set again: the same to rounding)
    EXPECT_NEAR(tl->rangeEnd(), t1, 1e-3);
    EXPECT_EQ(tl->layout().scroll(), scroll);
    EXPECT_EQ(sm->xAxis->range(), smX);
    EXPECT_EQ(sm->yAxis->range(), smY);
    EXPECT_EQ(hm->xAxis->range(), hmX);
    // a kept range that no longer overlaps the run: the view stays fitted
    tl->fit();
    tl->restoreViewRange(RunViewRange{true, run1 + run, run1 + 2 * run, 0, 0});
    EXPECT_EQ(tl->rangeStart(), run0);
    EXPECT_EQ(tl->rangeEnd(), run1);
}

// W/S zoom and A/D pan in every time view (the timeline's own test: RunViews.TimelineNavigation):
// the step map, the heatmap, the What-if view and the collective view, by the keys' factors.
TEST(Habits, WasdInEveryTimeView) {
    DemoWindow d;
    MainWindow& w = d.w;
    struct Plot {
        int tab;
        QCustomPlot* plot;
        QCPAxis* x;
    };
    const Plot plots[] = {{0, w.view(), w.view()->xAxis},
                          {2, w.stepMap(), w.stepMap()->xAxis},
                          {3, w.heatmap(), w.heatmap()->xAxis},
                          {4, static_cast<QCustomPlot*>(w.viewTabs()->widget(4)), static_cast<QCustomPlot*>(w.viewTabs()->widget(4))->axisRect()->axis(QCPAxis::atBottom)}};
    for (const Plot& p : plots) {
        SCOPED_TRACE(w.viewTabs()->tabText(p.tab).toStdString());
        QTest::keyClick(w.table(), Qt::Key(Qt::Key_1 + p.tab), Qt::ControlModifier);
        ASSERT_EQ(QApplication::focusWidget(), p.plot);
        const QCPRange fit = p.x->range();
        ASSERT_GT(fit.size(), 0);
        QTest::keyClick(p.plot, Qt::Key_W);  // a half a press, as Nsight Systems' W
        EXPECT_NEAR(p.x->range().size(), fit.size() * 0.5, fit.size() * 1e-9);
        EXPECT_NEAR(p.x->range().center(), fit.center(), fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_W);
        const QCPRange in = p.x->range();
        EXPECT_NEAR(in.size(), fit.size() * 0.25, fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_D);
        EXPECT_NEAR(p.x->range().lower, in.lower + in.size() * 0.15, fit.size() * 1e-9);
        EXPECT_NEAR(p.x->range().size(), in.size(), fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_A);
        EXPECT_NEAR(p.x->range().lower, in.lower, fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_Right);  // the arrows pan as A/D do
        EXPECT_NEAR(p.x->range().lower, in.lower + in.size() * 0.15, fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_Left);
        EXPECT_NEAR(p.x->range().lower, in.lower, fit.size() * 1e-9);
        QTest::keyClick(p.plot, Qt::Key_S);
        EXPECT_NEAR(p.x->range().size(), fit.size() * 0.5, fit.size() * 1e-9);
    }
}

QWheelEvent wheel(QWidget* v, QPointF at, int dy, Qt::KeyboardModifiers m) {
    return QWheelEvent(at, v->mapToGlobal(at), QPoint(), QPoint(0, dy), Qt::NoButton, m, Qt::NoScrollPhase, false);
}

// The timeline's wheel as in Nsight Systems: it scrolls the rows (3 lanes a notch), Ctrl+wheel zooms
// at the cursor, Shift+wheel pans; the preference (Settings) makes the wheel zoom and Shift+wheel
// scroll the rows; the window applies it when the settings are accepted.
TEST(Habits, TimelineWheelAsNsightOrAsPreferred) {
    TimelineView v;
    v.resize(1200, 400);
    v.show();
    v.setSession(skew::loadSession({demo().path}, {}, {}));
    ASSERT_FALSE(v.wheelZooms());
    const double full = v.rangeEnd() - v.rangeStart(), run0 = v.rangeStart();
    const QRect area = v.rowsArea();
    ASSERT_GT(v.layout().contentHeight(), area.height() + 3 * 18);  // room to scroll a notch
    const QPointF at(area.left() + area.width() * 0.3, area.top() + 20);
    auto send = [&](int dy, Qt::KeyboardModifiers m) {
        QWheelEvent e = wheel(&v, at, dy, m);
        QApplication::sendEvent(&v, &e);
    };
    send(-120, Qt::NoModifier);  // a notch down: the rows scroll by three lanes, the range stays
    EXPECT_EQ(v.layout().scroll(), 54);
    EXPECT_EQ(v.rangeStart(), run0);
    EXPECT_EQ(v.rangeEnd() - v.rangeStart(), full);
    send(120, Qt::NoModifier);
    EXPECT_EQ(v.layout().scroll(), 0);
    const double t = v.timeAtX(at.x());
    send(120, Qt::ControlModifier);  // zooms in at the cursor
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), full * 0.8, full * 1e-9);
    EXPECT_NEAR(v.timeAtX(at.x()), t, full * 1e-9);
    EXPECT_EQ(v.layout().scroll(), 0);
    const double start = v.rangeStart();
    send(-120, Qt::ShiftModifier);  // pans later by a tenth of the view
    EXPECT_NEAR(v.rangeStart(), start + full * 0.8 * 0.1, full * 1e-9);
    EXPECT_EQ(v.layout().scroll(), 0);
    // the preference: the wheel zooms, Shift+wheel scrolls the rows
    v.setWheelZooms(true);
    v.fit();
    send(120, Qt::NoModifier);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), full * 0.8, full * 1e-9);
    EXPECT_NEAR(v.timeAtX(at.x()), t, full * 1e-9);
    send(-120, Qt::ShiftModifier);
    EXPECT_EQ(v.layout().scroll(), 54);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), full * 0.8, full * 1e-9);

    // Analysis > Settings holds the preference; OK applies it to the window's timeline and keeps it
    MainWindow w;
    w.show();
    ASSERT_FALSE(w.timeline()->wheelZooms());
    QTimer::singleShot(100, [] {
        auto* d = qobject_cast<SettingsDialog*>(QApplication::activeModalWidget());
        if (!d) return;
        d->wheelZooms()->setChecked(true);
        d->accept();
    });
    w.editSettings();
    EXPECT_TRUE(w.timeline()->wheelZooms());
    EXPECT_TRUE(timelineWheelZooms());
    MainWindow again;  // the next start
    EXPECT_TRUE(again.timeline()->wheelZooms());
}

}  // namespace
