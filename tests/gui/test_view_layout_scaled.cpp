// The main window at Qt scale factor 1.5 on a 1920x1080 screen (1280x720 logical pixels), with
// default splitters: the collective plot itself (its axis rectangle, not the whole view with its
// title, why-lines, axis and legend) gets more height than the bottom pane, the table less width
// than the view, every label stays inside the plot and off the bars it does not name, long titles
// elide with the full text as tooltip, the legend wraps instead of losing entries. Runs in its own
// executable: the scale factor is set before QApplication starts (gui_main.cpp).

#include <QApplication>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QWindow>

#include <gtest/gtest.h>

#include <iostream>

#include "views/collective/collective_view.h"
#include "gui_util.h"
#include "layout_checks.h"

using namespace skewui;
using namespace guitest;

namespace {

// 1920x1080 device pixels at factor 1.5
constexpr int kW = 1280, kH = 720;

struct Case {
    int group;
    uint32_t index;
};

// the plot's rectangle against the bottom pane and the table, with the numbers in the log
void checkShares(MainWindow& w, const std::string& what) {
    const int plotH = w.view()->axisRect()->rect().height();
    std::cout << what << ": plot " << w.view()->axisRect()->rect().width() << "x" << plotH << " logical px (view "
              << w.view()->height() << " high), bottom pane " << w.tabs()->height() << " high, table " << w.table()->width()
              << " wide (bottom pane at least " << w.tabs()->minimumSizeHint().height() << ")\n";
    EXPECT_GT(plotH, w.tabs()->height()) << what;
    EXPECT_GT(w.view()->width(), w.table()->width()) << what;
}

// The title is whole when it fits the title's line (the view's font family, 11 pt bold, inside 8 px
// margins each side), with no tooltip; else it is elided in the middle, with the whole text as
// tooltip. Returns whether it is elided, so that a run can say both cases were seen.
bool checkTitle(const CollectiveView& v) {
    const QFontMetrics fm(QFont(v.font().family(), 11, QFont::Bold));
    const int line = v.titleRect().width() - 16;
    EXPECT_FALSE(v.titleText().isEmpty());
    const bool fits = fm.horizontalAdvance(v.titleText()) <= line;
    if (fits) {
        EXPECT_EQ(v.titleShown(), v.titleText());
        EXPECT_EQ(v.toolTipAt(v.titleRect().center()), QString());
        return false;
    }
    EXPECT_NE(v.titleShown(), v.titleText());
    EXPECT_TRUE(v.titleShown().contains(QChar(0x2026))) << v.titleShown().toStdString();
    EXPECT_LE(fm.horizontalAdvance(v.titleShown()), line) << v.titleShown().toStdString();
    EXPECT_EQ(v.toolTipAt(v.titleRect().center()), v.titleText());
    return true;
}

TEST(ViewLayoutScaled, ScaleFactorIsOneAndAHalf) {
    MainWindow w;
    w.resize(kW, kH);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    EXPECT_DOUBLE_EQ(w.devicePixelRatioF(), 1.5);
    EXPECT_EQ(w.windowHandle()->size() * w.devicePixelRatioF(), QSize(1920, 1080));
}

TEST(ViewLayoutScaled, DemoPlotGetsTheLargerShareAndLabelsStayInsideAndOffTheBars) {
    MainWindow w;
    w.resize(kW, kH);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(20);  // the splitters take their share once the window has its size
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    // the demo shows the warning bar (device 0 of the node not captured): less room than without
    ASSERT_TRUE(w.findChild<QWidget*>("warningBar")->isVisible());
    const Case cases[] = {{0, 63}, {1, 1}, {0, 100}, {0, 102}, {0, 5}, {0, 41}, {0, 111}, {0, 1}, {0, 50}, {1, 3}};
    for (const Case& c : cases) {
        std::string what = "x1.5 1920x1080 demo G" + std::to_string(c.group) + " #" + std::to_string(c.index);
        SCOPED_TRACE(what);
        ASSERT_TRUE(w.selectCollective(c.group, c.index));
        checkLabels(*w.view());
        EXPECT_FALSE(checkTitle(*w.view()));  // every title fits at this size
        checkShares(w, what);
        shot(&w, QString::fromStdString(what).replace(' ', '_').replace('#', 'n'));
    }
    // the widest legend of the demo (G0 #102: eight entries and the outline) wraps: no entry lost
    ASSERT_TRUE(w.selectCollective(0, 102));
    EXPECT_EQ(w.view()->legendEntries(),
              QStringList({"waiting in NCCL", "transfer", "late arriver", "GEMM", "other NCCL kernel", "other kernel", "predecessor",
                           "CPU launch", "shown in Details"}));
    // the Ranks tab in the smaller bottom pane: its legend above the bars, the bars drawn
    for (int i = 0; i < w.tabs()->count(); ++i)
        if (w.tabs()->tabText(i).startsWith("Ranks")) w.tabs()->setCurrentIndex(i);
    QTest::qWait(20);
    w.ranksChart()->replot();
    EXPECT_FALSE(w.ranksChart()->legend->outerRect().intersects(w.ranksChart()->axisRect()->rect()));
    EXPECT_GE(w.ranksChart()->axisRect()->rect().height(), 60);
    std::cout << "x1.5 1920x1080 demo Ranks tab: chart " << w.ranksChart()->height() << " high, its bars' area "
              << w.ranksChart()->axisRect()->rect().height() << "\n";
    shot(&w, "x1.5_1920x1080_demo_ranks_tab");
    // a window too narrow for the longest title (G0 #102's): elided in the middle, whole as tooltip
    w.resize(700, kH);
    QTest::qWait(20);
    ASSERT_TRUE(w.selectCollective(0, 102));
    std::cout << "x1.5 700 px wide: view " << w.view()->width() << " wide, title " << w.view()->titleShown().toStdString() << "\n";
    EXPECT_TRUE(checkTitle(*w.view()));
    // the default share follows the window and the view: closing keeps no proportions the user did
    // not choose (a moved splitter is kept: WindowState.AnalysisSettingsAndSplittersRememberedAcrossRestarts)
    w.close();
    EXPECT_FALSE(QSettings().contains("window/rightSplitter"));
    EXPECT_FALSE(QSettings().contains("window/mainSplitter"));
}

TEST(ViewLayoutScaled, RealExportPlotGetsTheLargerShareAndLabelsStayInsideAndOffTheBars) {
    MainWindow w;
    w.resize(kW, kH);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(20);
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite")}));
    EXPECT_EQ(shown(w), std::make_pair(0, 32u));
    for (uint32_t index : {32u, 2u, 8u, 14u}) {
        std::string what = "x1.5 1920x1080 real G0 #" + std::to_string(index);
        SCOPED_TRACE(what);
        ASSERT_TRUE(w.selectCollective(0, index));
        checkLabels(*w.view());
        EXPECT_FALSE(checkTitle(*w.view()));  // every title fits at this size
        checkShares(w, what);
        shot(&w, QString::fromStdString(what).replace(' ', '_').replace('#', 'n'));
    }
}

}  // namespace
