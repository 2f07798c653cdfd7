// GUI tests of Ctrl+F search and Show in Timeline with Back (issue 24, Nsight Systems' habits): keys
// pressed and context menus triggered on the real widgets (offscreen), checked by what the views
// show against the demo generator's truth (its collectives, members, correlation ids, late arrivers).

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "gui_util.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/details_tabs.h"
#include "window/main_window.h"
#include "window/search_bar.h"
#include "window/view_navigation.h"

using namespace skewui;
using namespace guitest;

namespace {

// the truth's first start and last end of a collective's members
std::pair<double, double> truthSpan(const skewgen::TruthCollective& tc) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.endNs);
    return {double(lo), double(hi)};
}

// the timeline's range after Show in Timeline of [a, b) with `margin` spans each side
void expectRange(const TimelineView* tl, double a, double b, double margin) {
    const double span = std::max(b - a, 1000.0);
    EXPECT_NEAR(tl->rangeStart(), a - margin * span, 1.0);
    EXPECT_NEAR(tl->rangeEnd(), b + margin * span, 1.0);
}

void typeQuery(QLineEdit* field, const QString& q) {
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, q);
}

// Ctrl+F opens the find bar with the keys in it; "#3" finds the third collective of each group in
// time order: Enter and F3 go to the next, Shift+Enter and Shift+F3 to the previous (wrapping),
// each selected and zoomed in the timeline as F does; a correlation id finds its kernels, the first
// shown outlined in the timeline and in Details; Escape closes; Back returns to where it started.
TEST(HabitsNav, FindBarSearchesAndShowsEachHit) {
    DemoWindow d;
    MainWindow& w = d.w;
    ViewNavigation* nav = w.navigation();
    SearchBar* bar = nav->searchBar();
    TimelineView* tl = w.timeline();
    const int startCollective = w.currentCollective();
    ASSERT_EQ(w.viewTabs()->currentIndex(), 0);
    ASSERT_FALSE(bar->isVisible());
    QTest::keyClick(w.table(), Qt::Key_F, Qt::ControlModifier);
    ASSERT_TRUE(bar->isVisible());
    ASSERT_EQ(QApplication::focusWidget(), bar->field());
    // the truth's third collectives, by their first start
    std::vector<std::pair<double, const skewgen::TruthCollective*>> third;
    for (const auto& tc : demo().result.collectives)
        if (tc.index == 3) third.emplace_back(truthSpan(tc).first, &tc);
    std::sort(third.begin(), third.end());
    ASSERT_EQ(third.size(), 2u);  // FSDP and AllReduce
    auto expectShown = [&](size_t i) {
        const auto& tc = *third[i].second;
        EXPECT_EQ(w.currentCollective(), collectiveOf(w, tc.group, uint32_t(tc.index)));
        EXPECT_EQ(w.viewTabs()->currentWidget(), tl);
        EXPECT_EQ(tl->selectedCollective(), w.currentCollective());
        const auto [a, b] = truthSpan(tc);
        expectRange(tl, a, b, 0.25);
        EXPECT_EQ(bar->countText(), QString("%1 of 2").arg(i + 1));
    };
    QTest::keyClicks(bar->field(), "#3");
    QTest::keyClick(bar->field(), Qt::Key_Return);
    expectShown(0);
    EXPECT_EQ(QApplication::focusWidget(), bar->field());  // Enter goes on
    QTest::keyClick(bar->field(), Qt::Key_Return);
    expectShown(1);
    QTest::keyClick(bar->field(), Qt::Key_Return);  // wraps
    expectShown(0);
    QTest::keyClick(bar->field(), Qt::Key_Return, Qt::ShiftModifier);
    expectShown(1);
    QTest::keyClick(tl, Qt::Key_F3);
    expectShown(0);
    QTest::keyClick(tl, Qt::Key_F3, Qt::ShiftModifier);
    expectShown(1);
    EXPECT_EQ(nav->historySize(), 1u);  // the search remembered where it started, once

    // a correlation id: the late arriver of step 2's planted late collective
    const skewgen::TruthLate& late = demo().result.late[1];
    const skewgen::TruthCollective* tc = nullptr;
    for (const auto& c : demo().result.collectives)
        if (c.group == late.group && c.index == late.index) tc = &c;
    ASSERT_TRUE(tc);
    const uint32_t corr = tc->members[0].correlationId;
    std::vector<skewgen::TruthMember> members;
    for (const auto& c : demo().result.collectives)
        for (const auto& m : c.members)
            if (m.correlationId == corr) members.push_back(m);
    std::sort(members.begin(), members.end(), [](const auto& x, const auto& y) { return x.startNs < y.startNs; });
    ASSERT_EQ(members.size(), 7u);  // every rank launches the same sequence
    bar->field()->setFocus();
    typeQuery(bar->field(), QString::number(corr));
    QTest::keyClick(bar->field(), Qt::Key_Return);
    EXPECT_EQ(bar->countText(), "1 of 7");
    const TimelineHighlight& h = tl->highlight();
    ASSERT_TRUE(h.valid());
    EXPECT_EQ(h.start, double(members[0].startNs));
    EXPECT_EQ(h.end, double(members[0].endNs));
    EXPECT_EQ(demo().result.specOrder[size_t(h.rank)], members[0].rank);
    const DetailsTabs::Shown& shown = w.detailsTabs()->shownKernel();
    EXPECT_EQ(shown.rank, h.rank);
    EXPECT_EQ(shown.lane, h.lane);
    EXPECT_EQ(shown.kernel, h.kernel);
    EXPECT_EQ(w.currentCollective(), collectiveOf(w, late.group, uint32_t(late.index)));
    expectRange(tl, h.start, h.end, 2.0);
    // the kernel's row is in view
    const QRect row = tl->rowRect(tl->rowOf(h.rank, h.lane));
    EXPECT_TRUE(tl->rowsArea().contains(row.center()));
    // Escape closes; Back returns to the Collective tab, the collective and the whole run
    QTest::keyClick(bar->field(), Qt::Key_Escape);
    EXPECT_FALSE(bar->isVisible());
    QTest::keyClick(tl, Qt::Key_Left, Qt::AltModifier);
    EXPECT_EQ(w.viewTabs()->currentIndex(), 0);
    EXPECT_EQ(w.currentCollective(), startCollective);
    EXPECT_NEAR(tl->rangeStart(), double(w.session()->timeline.start()), 1e-3);
    EXPECT_NEAR(tl->rangeEnd(), double(w.session()->timeline.end()), 1e-3);
    EXPECT_FALSE(tl->highlight().valid());
    EXPECT_EQ(nav->historySize(), 0u);
    EXPECT_FALSE(nav->back());
    // no match says so
    QTest::keyClick(w.table(), Qt::Key_F, Qt::ControlModifier);
    typeQuery(bar->field(), "no such kernel");
    QTest::keyClick(bar->field(), Qt::Key_Return);
    EXPECT_EQ(bar->countText(), "no match");
    EXPECT_EQ(w.currentCollective(), startCollective);
}

void trigger(QMenu* m) {
    ASSERT_TRUE(m);
    std::unique_ptr<QMenu> owned(m);
    QAction* last = m->actions().back();
    EXPECT_EQ(last->text(), "Show in Timeline");
    EXPECT_TRUE(last->isEnabled());
    last->trigger();
}

// Show in Timeline from a table row, a step-map marker, a heatmap cell, Details (its menu and
// Ctrl+T): each time the Timeline tab zoomed on it and marked; Alt+Left walks back through them.
TEST(HabitsNav, ShowInTimelineAndBack) {
    DemoWindow d;
    MainWindow& w = d.w;
    ViewNavigation* nav = w.navigation();
    TimelineView* tl = w.timeline();
    const double run0 = double(w.session()->timeline.start()), run1 = double(w.session()->timeline.end());
    const int c0 = w.currentCollective();
    // a table row's menu: the collective, zoomed as F does
    const int row = tableRow(w, 0, 12);
    ASSERT_GE(row, 0);
    w.table()->scrollTo(w.filter()->index(row, 0));
    trigger(nav->tableMenu(w.table()->visualRect(w.filter()->index(row, 1)).center()));
    const int c12 = collectiveOf(w, 0, 12);
    EXPECT_EQ(w.currentCollective(), c12);
    EXPECT_EQ(w.viewTabs()->currentWidget(), tl);
    EXPECT_EQ(tl->selectedCollective(), c12);
    for (const auto& tc : demo().result.collectives)
        if (tc.group == 0 && tc.index == 12) expectRange(tl, truthSpan(tc).first, truthSpan(tc).second, 0.25);
    const double afterTable0 = tl->rangeStart(), afterTable1 = tl->rangeEnd();
    // a step-map marker: the planted late collective of step 4
    const skewgen::TruthLate& late = demo().result.late[3];
    const int cl = collectiveOf(w, late.group, uint32_t(late.index));
    QTest::keyClick(tl, Qt::Key_3, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), w.stepMap());
    w.stepMap()->replot();
    const QPoint at = w.stepMap()->collectivePos(cl).toPoint();
    ASSERT_EQ(w.stepMap()->collectiveAt(at), cl);
    trigger(nav->stepMapMenu(at));
    EXPECT_EQ(w.currentCollective(), cl);
    EXPECT_EQ(w.viewTabs()->currentWidget(), tl);
    // a heatmap cell: that rank's member kernel, outlined and in Details
    QTest::keyClick(tl, Qt::Key_4, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), w.heatmap());
    w.heatmap()->replot();
    const skew::Collective& col = w.session()->analysis.collectives[size_t(cl)];
    const QPoint cell = w.heatmap()->cellCenter(cl, col.lateSlot).toPoint();
    ASSERT_EQ(w.heatmap()->cellAt(cell), std::make_pair(cl, col.lateSlot));
    trigger(nav->heatmapMenu(cell));
    const skewgen::TruthCollective* tc = nullptr;
    for (const auto& c : demo().result.collectives)
        if (c.group == late.group && c.index == late.index) tc = &c;
    ASSERT_TRUE(tc);
    const skewgen::TruthMember* lateMember = nullptr;
    for (const auto& m : tc->members)
        if (m.rank == late.planted.rank) lateMember = &m;
    ASSERT_TRUE(lateMember);
    EXPECT_EQ(tl->highlight().start, double(lateMember->startNs));
    EXPECT_EQ(demo().result.specOrder[size_t(tl->highlight().rank)], late.planted.rank);
    expectRange(tl, double(lateMember->startNs), double(lateMember->endNs), 2.0);
    EXPECT_EQ(w.detailsTabs()->shownKernel().kernel, tl->highlight().kernel);
    // Details: its menu, and Ctrl+T with the Details tab up, show the kernel it shows
    tl->fit();
    tl->clearHighlight();
    w.tabs()->setCurrentWidget(w.details());
    trigger(nav->detailsMenu(QPoint(5, 5)));
    EXPECT_EQ(tl->highlight().start, double(lateMember->startNs));
    expectRange(tl, double(lateMember->startNs), double(lateMember->endNs), 2.0);
    tl->fit();
    QTest::keyClick(w.table(), Qt::Key_T, Qt::ControlModifier);
    expectRange(tl, double(lateMember->startNs), double(lateMember->endNs), 2.0);
    EXPECT_EQ(nav->historySize(), 5u);
    // Back, Back: the whole run (Details' Show in Timeline left it fitted) twice, then the heatmap's
    // place, the step map's, the table's, the start
    for (int i = 0; i < 2; ++i) {
        QTest::keyClick(tl, Qt::Key_Left, Qt::AltModifier);
        EXPECT_NEAR(tl->rangeStart(), run0, 1e-3);
        EXPECT_NEAR(tl->rangeEnd(), run1, 1e-3);
    }
    QTest::keyClick(tl, Qt::Key_Left, Qt::AltModifier);  // before the heatmap's: on the heatmap tab
    EXPECT_EQ(w.viewTabs()->currentWidget(), w.heatmap());
    QTest::keyClick(w.heatmap(), Qt::Key_Left, Qt::AltModifier);  // before the step map's
    EXPECT_EQ(w.viewTabs()->currentWidget(), w.stepMap());
    EXPECT_EQ(w.currentCollective(), c12);
    EXPECT_NEAR(tl->rangeStart(), afterTable0, 1e-3);
    EXPECT_NEAR(tl->rangeEnd(), afterTable1, 1e-3);
    QTest::keyClick(w.stepMap(), Qt::Key_Left, Qt::AltModifier);  // before the table's: the start
    EXPECT_EQ(w.viewTabs()->currentIndex(), 0);
    EXPECT_EQ(w.currentCollective(), c0);
    EXPECT_NEAR(tl->rangeStart(), run0, 1e-3);
    EXPECT_NEAR(tl->rangeEnd(), run1, 1e-3);
    EXPECT_EQ(nav->historySize(), 0u);
    // the View menu lists the keys
    EXPECT_EQ(nav->showInTimelineAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T));
    EXPECT_EQ(nav->backAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
}

}  // namespace
