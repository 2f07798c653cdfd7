// GUI tests of the viewer review's defects (docs/reviews/gui-2026-12.md, issue 24) that the other
// suites do not hold: each drives the real widgets offscreen and checks what a user would see (a
// label present after a reload, a rectangle inside the view or off the data).

#include <QApplication>
#include <QTabWidget>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include "export_checks.h"
#include "gui_util.h"
#include "views/heatmap/heatmap_view.h"
#include "window/main_window.h"

using namespace skewui;
using namespace guitest;

namespace {

// the heatmap's step labels above the plot (the top axis' tick labels)
QStringList stepLabels(HeatmapView* hm) {
    auto t = qSharedPointerDynamicCast<QCPAxisTickerText>(hm->xAxis2->ticker());
    return t ? QStringList(t->ticks().values()) : QStringList();
}

// The demo's five steps (skewgen::demoConfig: steps = 5) labelled "step 1".."step 5" over the
// heatmap, still after F5 and after Settings OK (a reload that fits the same range), and in its export.
TEST(ReviewDefects, HeatmapKeepsItsStepLabelsAcrossReloads) {
    DemoWindow d;
    MainWindow& w = d.w;
    const QStringList steps = {"step 1", "step 2", "step 3", "step 4", "step 5"};
    ASSERT_EQ(skewgen::demoConfig().steps, 5);
    HeatmapView* hm = w.heatmap();
    QTest::keyClick(w.table(), Qt::Key_4, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), hm);
    EXPECT_EQ(stepLabels(hm).join(", ").toStdString(), steps.join(", ").toStdString());
    {
        QSignalSpy ok(&w, &MainWindow::sessionLoaded);
        QTest::keyClick(hm, Qt::Key_F5);
        ASSERT_TRUE(waitLoaded(ok));
    }
    EXPECT_EQ(stepLabels(hm).join(", ").toStdString(), steps.join(", ").toStdString()) << "after F5";
    {
        QSignalSpy ok(&w, &MainWindow::sessionLoaded);
        skew::AnalysisOptions o = w.analysisOptions();
        o.bigSkewNs = 40'000'000;
        w.setAnalysisOptions(o);
        ASSERT_TRUE(waitLoaded(ok));
    }
    EXPECT_EQ(stepLabels(hm).join(", ").toStdString(), steps.join(", ").toStdString()) << "after Settings OK";
    const std::string svg = testutil::tempDir("heatmap-steps") + "/heatmap.svg";
    ASSERT_TRUE(w.exportView(QString::fromStdString(svg), 1400, 800));
    const SvgContent c = readSvg(svg);
    ASSERT_TRUE(c.error.isEmpty()) << c.error.toStdString();
    for (const QString& s : steps) EXPECT_TRUE(c.texts.contains(s)) << s.toStdString() << " not in the export";
}

}  // namespace
