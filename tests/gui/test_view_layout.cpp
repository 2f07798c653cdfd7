// Layout of the collective view in the main window at 1024x700, 1366x768 and 1920x1080: labels
// stay inside the plot and cover no bar (bar rectangles taken from QCustomPlot's own axes), the
// CPU-launch label is never cut at the top, the plot gets the larger share of the window, the
// legend lists exactly the colours found in the rendered plot, long titles elide in the middle
// with the full text as tooltip, bars have hover text, the bar shown in Details is outlined.

#include <QHelpEvent>
#include <QImage>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>

#include <gtest/gtest.h>

#include <iostream>
#include <set>

#include "views/collective/collective_view.h"
#include "gui_util.h"
#include "layout_checks.h"

using namespace skewui;
using namespace guitest;

namespace {

struct WinSize {
    int w, h;
};
const WinSize kSizes[] = {{1024, 700}, {1366, 768}, {1920, 1080}};

struct Case {
    int group;
    uint32_t index;
};

TEST(ViewLayout, LabelsInsideThePlotAndOffTheBarsAtThreeWindowSizes) {
    const Case demoCases[] = {{0, 63}, {1, 1}, {0, 100}, {0, 102}, {0, 5}, {0, 41}, {0, 111}, {0, 1}, {0, 50}, {1, 3}};
    for (const WinSize& ws : kSizes) {
        MainWindow w;
        w.resize(ws.w, ws.h);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(20);  // the splitters take their share once the window has its size
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        for (const Case& c : demoCases) {
            std::string what = std::to_string(ws.w) + "x" + std::to_string(ws.h) + " demo G" + std::to_string(c.group) + " #" +
                               std::to_string(c.index);
            SCOPED_TRACE(what);
            ASSERT_TRUE(w.selectCollective(c.group, c.index));
            checkLabels(*w.view());
            // the plot gets the larger share of the window: the view is higher than the bottom
            // pane, and so is the plot itself (its axis rectangle, not the view with its title,
            // why-lines, axis and legend) by more than a fifth, also at 1024x700 (the axis rectangle
            // was 197 to 239 px there beside a bottom pane of 210; now 230 to 272 beside 177-183)
            EXPECT_GT(w.view()->height(), w.tabs()->height());
            EXPECT_GT(w.view()->axisRect()->rect().height(), 1.2 * w.tabs()->height());
            std::cout << what << ": plot " << w.view()->axisRect()->rect().height() << " high, bottom pane " << w.tabs()->height() << "\n";
            shot(&w, QString::fromStdString(what).replace(' ', '_').replace('#', 'n'));
        }
        EXPECT_GT(w.view()->width(), w.table()->width()) << ws.w;
    }
}

// The predecessor's label is the key label of a GPU-caused lateness: drawn at every size beside
// the box it names (within 40 px across, touching it up or down), in its long form or as
// "pred. GEMM"; on G0 #102 (dev 2 in the middle), G1 #1 (the late rank first) and G1 #3 (last).
TEST(ViewLayout, PredecessorLabelKeptBesideItsBoxAtThreeWindowSizes) {
    for (const WinSize& ws : kSizes) {
        MainWindow w;
        w.resize(ws.w, ws.h);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(20);
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        for (const Case& c : {Case{0, 102}, Case{1, 1}, Case{1, 3}}) {
            SCOPED_TRACE(std::to_string(ws.w) + "x" + std::to_string(ws.h) + " demo G" + std::to_string(c.group) + " #" + std::to_string(c.index));
            ASSERT_TRUE(w.selectCollective(c.group, c.index));
            const CollectiveScene& sc = w.view()->scene();
            ASSERT_EQ(sc.cause, skew::Cause::GpuDependency);
            const SceneLayout& L = w.view()->sceneLayout();
            ASSERT_EQ(L.predecessors.size(), 1u);
            const Bar& pred = sc.bars[size_t(L.predecessors[0])];
            EXPECT_EQ(pred.kind, skew::KernelClass::Gemm);
            EXPECT_TRUE(sc.rows[size_t(pred.row)].late);
            const PlacedLabel* l = L.label(LabelKind::Predecessor, pred.row);
            ASSERT_TRUE(l && l->shown);
            EXPECT_TRUE(l->text == "predecessor (GEMM)" || l->text == "pred. GEMM") << l->text.toStdString();
            const QRectF box = L.predRects[0];
            const double dx = std::max({0.0, box.left() - l->rect.right(), l->rect.left() - box.right()});
            const double dy = std::max({0.0, box.top() - l->rect.bottom(), l->rect.top() - box.bottom()});
            EXPECT_LE(dx, 40.0);
            EXPECT_LE(dy, 2.0);
            checkLabels(*w.view());  // inside the plot, off every bar, the launch's label shown too
        }
    }
}

TEST(ViewLayout, RealExportLabelsAtThreeWindowSizes) {
    for (const WinSize& ws : kSizes) {
        MainWindow w;
        w.resize(ws.w, ws.h);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite")}));
        EXPECT_EQ(shown(w), std::make_pair(0, 32u));  // opens on the largest start skew
        for (uint32_t index : {32u, 2u, 8u, 14u}) {
            std::string what = std::to_string(ws.w) + "x" + std::to_string(ws.h) + " real G0 #" + std::to_string(index);
            SCOPED_TRACE(what);
            ASSERT_TRUE(w.selectCollective(0, index));
            checkLabels(*w.view());
            shot(&w, QString::fromStdString(what).replace(' ', '_').replace('#', 'n'));
        }
    }
}

TEST(ViewLayout, TwoFilesOpenLateLabelBesideItsBar) {
    // both real exports opened together (four ranks, each capture's pair its own group): on G0 #20
    // (the after capture's SendRecv, a 7.03 ms late arrival) the late arriver's label split its own
    // red bar; now it sits beside it, inside the plot, at each window size
    for (const WinSize& ws : kSizes) {
        MainWindow w;
        w.resize(ws.w, ws.h);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite"), realPath("nsysai-mfu_2gpu_after.sqlite")}));
        std::string what = std::to_string(ws.w) + "x" + std::to_string(ws.h) + " two files G0 #20";
        SCOPED_TRACE(what);
        ASSERT_TRUE(w.selectCollective(0, 20));
        EXPECT_EQ(w.view()->scene().rows.size(), 2u);
        EXPECT_EQ(w.view()->scene().title, "G0 #20 SendRecv, nsysai-mfu_2gpu_after/pid 148/dev 0 late by 7.03 ms");
        const PlacedLabel* late = w.view()->sceneLayout().label(LabelKind::Late);
        ASSERT_TRUE(late && late->shown);
        checkLabels(*w.view());
        shot(&w, QString::fromStdString(what).replace(' ', '_').replace('#', 'n'));
    }
}

TEST(ViewLayout, LaunchLabelNotCutWhenTheLateRankIsTheFirstRow) {
    // demo G1 #1 and G0 #100: the late arriver is the first row; also in exports of the view
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    for (Case c : {Case{1, 1}, Case{0, 100}}) {
        ASSERT_TRUE(w.selectCollective(c.group, c.index));
        const CollectiveView* v = w.view();
        ASSERT_TRUE(v->scene().launch.present);
        EXPECT_EQ(v->scene().launch.row, 0);
        const PlacedLabel* l = v->sceneLayout().label(LabelKind::Launch);
        ASSERT_TRUE(l && l->shown);
        EXPECT_GE(l->rect.top(), v->axisRect()->rect().top());
        // the marker too
        EXPECT_GE(v->sceneLayout().launch.marker.boundingRect().top(), v->axisRect()->rect().top());
    }
    // an export at another size lays out again for that size
    std::string dir = testutil::tempDir("layout-export");
    for (auto [ew, eh] : {std::pair{800, 450}, std::pair{1600, 900}}) {
        QString png = QString::fromStdString(dir + "/v.png");
        ASSERT_TRUE(w.exportView(png, ew, eh));
        const SceneLayout& L = w.view()->sceneLayout();
        EXPECT_EQ(L.plot.right(), w.view()->axisRect()->rect().right());
        const PlacedLabel* l = L.label(LabelKind::Launch);
        ASSERT_TRUE(l && l->shown) << ew;
        EXPECT_TRUE(QRectF(L.plot).contains(l->rect)) << ew;
        EXPECT_EQ(QImage(png).size(), QSize(ew, eh));
    }
    std::filesystem::remove_all(dir);
}

// the colours of the plot area (labels left out: their antialiased text can be any grey)
std::set<QRgb> plotColours(CollectiveView* v) {
    QImage img = v->grab().toImage().convertToFormat(QImage::Format_RGB32);
    std::set<QRgb> out;
    const QRect plot = v->axisRect()->rect();
    for (int y = plot.top(); y <= plot.bottom(); ++y)
        for (int x = plot.left(); x <= plot.right(); ++x) {
            bool inLabel = false;
            for (const PlacedLabel& l : v->sceneLayout().labels) inLabel |= l.shown && l.rect.adjusted(-1, -1, 1, 1).contains(QPointF(x, y));
            if (!inLabel) out.insert(img.pixel(x, y) | 0xff000000u);
        }
    return out;
}

TEST(ViewLayout, LegendListsExactlyWhatIsDrawn) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    const std::pair<QRgb, const char*> legend[] = {{qRgb(0x9c, 0xbf, 0xe3), "waiting in NCCL"}, {qRgb(0x2f, 0x6f, 0xb5), "transfer"},
                                                   {qRgb(0xd6, 0x3c, 0x2f), "late arriver"},    {qRgb(0x6b, 0x8e, 0x23), "GEMM"},
                                                   {qRgb(0x4f, 0x9e, 0x9c), "other NCCL kernel"}, {qRgb(0xb4, 0xb4, 0xb4), "other kernel"},
                                                   {qRgb(0xff, 0x8c, 0x00), "predecessor"},     {qRgb(0x6a, 0x1b, 0x9a), "CPU launch"}};
    std::set<std::string> seen;
    for (Case c : {Case{0, 63}, Case{0, 102}, Case{1, 1}, Case{0, 7}, Case{1, 4}}) {
        SCOPED_TRACE("G" + std::to_string(c.group) + " #" + std::to_string(c.index));
        ASSERT_TRUE(w.selectCollective(c.group, c.index));
        for (double zoom : {1.0, 0.1}) {
            if (zoom != 1.0) w.view()->zoomBy(zoom);
            std::set<QRgb> colours = plotColours(w.view());
            QStringList entries = w.view()->legendEntries();
            for (const auto& [rgb, text] : legend) {
                EXPECT_EQ(entries.contains(text), colours.count(rgb) > 0) << text << " zoom " << zoom;
                if (entries.contains(text)) seen.insert(text);
            }
        }
        w.view()->resetZoom();
    }
    // the cases cover both sides of each entry but the always-present ones
    EXPECT_GE(seen.size(), 7u);
    // G0 #63 was launched late by the CPU: no predecessor, so the legend has none
    ASSERT_TRUE(w.selectCollective(0, 63));
    EXPECT_FALSE(w.view()->legendEntries().contains("predecessor"));
    EXPECT_TRUE(w.view()->legendEntries().contains("CPU launch"));
    ASSERT_TRUE(w.selectCollective(0, 102));
    EXPECT_TRUE(w.view()->legendEntries().contains("predecessor"));
}

TEST(ViewLayout, LegendWrapsInsteadOfLosingEntries) {
    auto s = loadSession({demo().path}, {}, {});
    CollectiveView v;
    v.resize(1400, 600);
    v.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
    v.setScene(buildScene(s->profile, s->analysis, int(s->analysis.groups[0].firstCollective + 101)));
    v.replot();
    int wide = v.axisRect()->rect().height();
    QStringList entries = v.legendEntries();
    ASSERT_GE(entries.size(), 6);
    v.resize(420, 600);
    QTest::qWait(10);
    v.replot();
    // the same entries on more lines: the plot gives up height, not entries
    EXPECT_EQ(v.legendEntries(), entries);
    EXPECT_LT(v.axisRect()->rect().height(), wide);
    EXPECT_LE(v.axisRect()->rect().width(), 420);
}

TEST(ViewLayout, LongTitleElidesInTheMiddleWithTheFullTextAsTooltip) {
    auto s = loadSession({demo().path}, {}, {});
    CollectiveView v;
    v.resize(360, 500);
    v.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
    v.setScene(buildScene(s->profile, s->analysis, int(s->analysis.groups[0].firstCollective + 101)));
    v.replot();
    QString full = v.titleText();
    QString drawn = v.titleShown();
    ASSERT_TRUE(full.startsWith("G0 #102 ReduceScatter")) << full.toStdString();
    EXPECT_NE(drawn, full);
    EXPECT_TRUE(drawn.contains(QChar(0x2026))) << drawn.toStdString();
    EXPECT_TRUE(drawn.startsWith("G0 #")) << drawn.toStdString();             // the start kept...
    EXPECT_TRUE(drawn.endsWith(full.right(3))) << drawn.toStdString();         // ...and the end
    EXPECT_LE(QFontMetrics(QFont(v.font().family(), 11, QFont::Bold)).horizontalAdvance(drawn), 360);
    EXPECT_EQ(v.toolTipAt(v.titleRect().center()), full);
    v.resize(1600, 500);
    QTest::qWait(10);
    v.replot();
    EXPECT_EQ(v.titleShown(), full);
    EXPECT_EQ(v.toolTipAt(v.titleRect().center()), QString());  // nothing hidden, no tooltip
}

TEST(ViewLayout, HoverTooltipAndHighlightOfTheBarInDetails) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    ASSERT_TRUE(w.selectCollective(0, 102));
    CollectiveView* v = w.view();
    const CollectiveScene& sc = v->scene();
    // the late arriver's details are shown on selection, and its bar outlined
    int late = -1, other = -1;
    for (size_t i = 0; i < sc.bars.size(); ++i) {
        if (sc.bars[i].late && sc.bars[i].kind == skew::KernelClass::NcclTransfer) late = int(i);
        if (!sc.bars[i].sub && !sc.bars[i].late && sc.bars[i].kind == skew::KernelClass::NcclTransfer && other < 0) other = int(i);
    }
    ASSERT_GE(late, 0);
    ASSERT_GE(other, 0);
    EXPECT_EQ(v->highlightedBars(), std::vector<int>{late});
    EXPECT_TRUE(v->legendEntries().contains("shown in Details"));
    QImage img = v->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QRectF lr = v->sceneLayout().bars[size_t(late)];
    EXPECT_EQ(img.pixel(int(lr.left()) - 2, int(lr.center().y())) | 0xff000000u, qRgb(0x20, 0x20, 0x20));
    // hover text of the late bar: kernel, rank, stream, times
    const Bar& lb = sc.bars[size_t(late)];
    const auto& prof = w.session()->profile;
    const auto& kl = prof.ranks[size_t(lb.rank)].lanes[size_t(lb.lane)];
    QPoint pos = v->barCenter(late).toPoint();
    QString tip = v->toolTipAt(pos);
    EXPECT_TRUE(tip.startsWith(QString::fromStdString(prof.strings.str(kl.name[lb.kernel])).left(40))) << tip.toStdString();
    EXPECT_NE(tip.indexOf(QString::fromStdString(prof.ranks[size_t(lb.rank)].label) + ", stream " + QString::number(kl.stream)), -1)
        << tip.toStdString();
    EXPECT_NE(tip.indexOf("late arriver"), -1);
    // shown as a tooltip on a real hover event
    QHelpEvent he(QEvent::ToolTip, pos, v->mapToGlobal(pos));
    QApplication::sendEvent(v, &he);
    EXPECT_EQ(QToolTip::text(), tip);
    // click another bar: its details, and the outline moves there
    QTest::mouseClick(v, Qt::LeftButton, {}, v->barCenter(other).toPoint());
    const Bar& ob = sc.bars[size_t(other)];
    // the whole kernel: its waiting part and its transfer part
    ASSERT_EQ(v->highlightedBars().size(), 2u);
    for (int i : v->highlightedBars()) EXPECT_EQ(std::make_tuple(sc.bars[size_t(i)].rank, sc.bars[size_t(i)].kernel), std::make_tuple(ob.rank, ob.kernel));
    const auto& okl = prof.ranks[size_t(ob.rank)].lanes[size_t(ob.lane)];
    EXPECT_NE(w.details()->toPlainText().indexOf("Correlation id: " + QString::number(okl.correlationId[ob.kernel])), -1);
    // a thin-lane kernel: drawn at its own extent over the merged lane
    int sub = -1;
    for (size_t i = 0; i < sc.bars.size(); ++i)
        if (sc.bars[i].sub && v->sceneLayout().bars[i].intersects(QRectF(v->axisRect()->rect())) && v->sceneLayout().bars[i].width() > 4) sub = int(i);
    ASSERT_GE(sub, 0);
    QTest::mouseClick(v, Qt::LeftButton, {}, v->barCenter(sub).toPoint());
    ASSERT_EQ(v->highlightedBars().size(), 1u);
    EXPECT_TRUE(sc.bars[size_t(v->highlightedBars()[0])].sub);
}

}  // namespace
