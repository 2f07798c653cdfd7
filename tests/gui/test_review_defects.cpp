// GUI tests of the viewer review's defects (docs/reviews/gui-2026-12.md, issue 24) that the other
// suites do not hold: each drives the real widgets offscreen and checks what a user would see (a
// label present after a reload, a rectangle inside the view or off the data).

#include <QApplication>
#include <QTabWidget>
#include <QTableView>
#include <QSignalSpy>
#include <QTest>

#include <set>

#include <gtest/gtest.h>

#include <QPushButton>
#include <QSplitter>

#include "export_checks.h"
#include "layout_checks.h"
#include "gui_util.h"
#include "common/hover_card.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "models/collective_model.h"
#include "window/main_window.h"
#include "model/loader.h"
#include "session.h"

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

// a mouse move without buttons over `w` at `pos`, as the mouse sends it
void hover(QWidget* w, QPoint pos) {
    QMouseEvent e(QEvent::MouseMove, QPointF(pos), QPointF(w->mapToGlobal(pos)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

// the right-most point of the rows area (at most `y`... scanning up from `y`) with a hover text
QPoint hoverTextNear(TimelineView* tl, int x0, int y0, int dir) {
    const QRect ra = tl->rowsArea();
    for (int y = y0; y > ra.top() && y < ra.bottom(); y += dir)
        for (int x = x0; x > ra.center().x(); --x)
            if (!tl->tooltipAt(QPointF(x, y)).isEmpty()) return QPoint(x, y);
    return QPoint(-1, -1);
}

// the lowest point right of the rows' centre whose card, placed below right of it, would pass the
// view's bottom (a card's height follows its text: the one right above the bottom may be short)
QPoint bottomOverflow(TimelineView* tl, const HoverCard* card) {
    const QRect ra = tl->rowsArea();
    for (int y = ra.bottom() - 3; y > ra.center().y(); --y)
        for (int x = ra.right() - 2; x > ra.center().x(); --x) {
            if (tl->tooltipAt(QPointF(x, y)).isEmpty()) continue;
            hover(tl, QPoint(x, y));
            if (y + HoverCard::kDy + card->height() > tl->height()) return QPoint(x, y);
        }
    return QPoint(-1, -1);
}

// The timeline's hover card by the right edge flips left of the pointer, by the bottom edge above
// it, and stays whole inside the view (at 1024x700 it was cut at the window's right edge).
TEST(ReviewDefects, TimelineHoverCardFlipsInsideTheView) {
    DemoWindow d(QSize(1024, 700));
    MainWindow& w = d.w;
    TimelineView* tl = w.timeline();
    QTest::keyClick(w.table(), Qt::Key_2, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), tl);
    const HoverCard* card = tl->hoverCard();
    const QRect ra = tl->rowsArea();
    struct Case {
        const char* where;
        QPoint pos;
        bool flipX, flipY;
    };
    const Case cases[] = {{"right edge", hoverTextNear(tl, ra.right() - 2, ra.top() + 30, 1), true, false},
                          {"bottom right", bottomOverflow(tl, card), true, true},
                          {"left, top", QPoint(-1, -1), false, false}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.where);
        QPoint pos = c.pos;
        if (!c.flipX) {  // a kernel near the left of the rows, near the top: the card goes below right
            for (int x = ra.left() + 2; x < ra.center().x() && pos.x() < 0; ++x)
                for (int y = ra.top() + 20; y < ra.top() + 60 && pos.x() < 0; ++y)
                    if (!tl->tooltipAt(QPointF(x, y)).isEmpty()) pos = QPoint(x, y);
        }
        ASSERT_GE(pos.x(), 0) << "no hover text found";
        hover(tl, pos);
        ASSERT_TRUE(card->isVisible());
        EXPECT_EQ(card->text(), tl->tooltipAt(QPointF(pos)));
        const QRect r = card->geometry();
        EXPECT_TRUE(tl->rect().contains(r)) << "card (" << r.x() << "," << r.y() << " " << r.width() << "x" << r.height() << ") in a "
                                            << tl->width() << "x" << tl->height() << " view";
        EXPECT_FALSE(r.contains(pos)) << "the card covers the pointer";
        // placed below right, it would pass the edge: it flipped
        EXPECT_EQ(pos.x() + HoverCard::kDx + r.width() > tl->width(), c.flipX);
        EXPECT_EQ(pos.y() + HoverCard::kDy + r.height() > tl->height(), c.flipY);
        if (c.flipX) EXPECT_LT(r.right(), pos.x()); else EXPECT_EQ(r.left(), pos.x() + HoverCard::kDx);
        if (c.flipY) EXPECT_LT(r.bottom(), pos.y()); else EXPECT_EQ(r.top(), pos.y() + HoverCard::kDy);
        shot(&w, QString("hover-card-%1").arg(c.where).replace(' ', '-').replace(',', ""));
    }
    // off the rows' contents, the card goes
    hover(tl, QPoint(2, tl->height() - 2));
    EXPECT_FALSE(card->isVisible());
}

// the demo's planted late ranks (skewgen::demoConfig: five big events on five ranks)
size_t plantedLateRanks() {
    std::set<int> ranks;
    for (const auto& l : skewgen::demoConfig().late) ranks.insert(l.rank);
    return ranks.size();
}

// The step map's legend sits above the plot, never over a marker or its label: zoomed so that the
// +47.06 ms marker of step 2 is at the plot's top right, where the legend was drawn before.
TEST(ReviewDefects, StepMapLegendLeavesTheMarkersFree) {
    DemoWindow d;
    MainWindow& w = d.w;
    StepMapView* sm = w.stepMap();
    QTest::keyClick(w.table(), Qt::Key_3, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), sm);
    const skew::StepMap& m = sm->map();
    ASSERT_EQ(m.big.size(), skewgen::demoConfig().late.size());
    struct Zoom {
        double x0, x1, y0, y1;
    };
    const Zoom zooms[] = {{0, 0, 0, 0}, {0, 36, 1.6, 3.4}, {20, 40, 1.8, 2.6}};
    for (const Zoom& z : zooms) {
        if (z.x1 > z.x0) {
            sm->xAxis->setRange(z.x0, z.x1);
            sm->yAxis->setRange(z.y0, z.y1);
        }
        sm->replot();
        SCOPED_TRACE("x " + std::to_string(sm->xAxis->range().lower) + ".." + std::to_string(sm->xAxis->range().upper));
        const QRectF legend = sm->legendRect();
        const QRect plot = sm->axisRect()->rect();
        ASSERT_FALSE(legend.isEmpty());
        EXPECT_LE(legend.bottom(), plot.top()) << "the legend reaches into the plot";
        EXPECT_TRUE(QRectF(sm->rect()).contains(legend));
        int inView = 0;
        for (uint32_t bi : m.big) {
            const QPointF c = sm->collectivePos(int(m.items[bi].collective));
            if (!plot.contains(c.toPoint())) continue;
            ++inView;
            // the marker (radius at most 13 px: StepMapView::markerRadius) and its label right of it
            const QRectF marker(c.x() - 13, c.y() - 13, 26 + 90, 26);
            EXPECT_FALSE(legend.intersects(marker)) << "legend over the marker of collective " << m.items[bi].collective;
        }
        EXPECT_GT(inView, 0);
    }
}

// At 1024x700 the step map's title is elided inside the view (it was cut at both ends) and its
// legend keeps every part: the five late ranks and the ticks' colour key, on two lines.
TEST(ReviewDefects, StepMapTitleAndKeyWholeAt1024x700) {
    DemoWindow d(QSize(1024, 700));
    MainWindow& w = d.w;
    StepMapView* sm = w.stepMap();
    QTest::keyClick(w.table(), Qt::Key_3, Qt::ControlModifier);
    ASSERT_EQ(w.viewTabs()->currentWidget(), sm);
    sm->replot();
    shot(&w, "stepmap-1024x700");
    const QFontMetrics fm(QFont(sm->font().family(), 10, QFont::Bold));
    ASSERT_GT(fm.horizontalAdvance(sm->title()), sm->width()) << "the full title fits: nothing to check";
    EXPECT_TRUE(sm->shownTitle().endsWith(QChar(0x2026)));
    EXPECT_TRUE(sm->title().startsWith(sm->shownTitle().chopped(1)));
    EXPECT_TRUE(sm->rect().contains(sm->titleTextRect())) << sm->titleTextRect().left() << ".." << sm->titleTextRect().right();
    EXPECT_EQ(sm->legendRanks(), plantedLateRanks());
    EXPECT_TRUE(sm->legendShowsTickKey());
    EXPECT_EQ(sm->legendLines(), 2);
    EXPECT_TRUE(QRectF(sm->rect()).contains(sm->legendRect()));
    EXPECT_LE(sm->legendRect().bottom(), sm->axisRect()->rect().top());
    // the export at the same size draws the same
    const std::string png = testutil::tempDir("stepmap-1024") + "/stepmap.png";
    ASSERT_TRUE(w.exportView(QString::fromStdString(png), sm->width(), sm->height()));
    EXPECT_EQ(sm->legendLines(), 2);
}

// The Ranks tab's skew CDFs: the legend sits above the plot, over no point of either curve (in the
// plot's top left it hid the end skews' curve, which rises at the left), its two entries whole.
TEST(ReviewDefects, RanksCdfLegendLeavesTheCurvesFree) {
    DemoWindow d;
    SkewCdfChart* cdf = d.w.skewCdf();
    ASSERT_TRUE(cdf);
    cdf->replot();
    shot(cdf, "ranks-cdf");
    const QRect legend = cdf->legend->outerRect(), plot = cdf->axisRect()->rect();
    EXPECT_EQ(cdf->legend->itemCount(), 2);
    EXPECT_FALSE(legend.intersects(plot)) << "legend " << legend.x() << "," << legend.y() << " " << legend.width() << "x" << legend.height();
    EXPECT_TRUE(cdf->rect().contains(legend));
    for (QCPGraph* g : {cdf->startCurve(), cdf->endCurve()}) {
        ASSERT_GT(g->dataCount(), 2);
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            EXPECT_FALSE(legend.contains(g->coordsToPixels(it->key, it->value).toPoint()));
    }
}

// The Ranks tab's CDF in a 1024x700 window (some 280x170 px): the fraction axis' labels at least a
// label apart (they printed over each other), the legend on one line whose entries do not run into
// each other, and the plot keeps some height.
TEST(ReviewDefects, RanksCdfInAShortChartHasReadableTicksAndKey) {
    auto s = std::make_shared<Session>();
    s->profile = skew::loadProfile({demo().path});
    s->analysis = skew::analyze(s->profile);
    SkewCdfChart c;
    c.resize(280, 170);
    c.setGroup(s, 0);
    c.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&c));
    c.replot(QCustomPlot::rpImmediateRefresh);
    c.replot(QCustomPlot::rpImmediateRefresh);
    shot(&c, "ranks-cdf-short");
    const QVector<double> ticks = c.yAxis->tickVector();
    const int labelH = QFontMetrics(c.yAxis->tickLabelFont()).height();
    ASSERT_GE(ticks.size(), 2);
    for (int i = 1; i < ticks.size(); ++i)
        EXPECT_GE(std::abs(c.yAxis->coordToPixel(ticks[i]) - c.yAxis->coordToPixel(ticks[i - 1])), labelH) << i;
    ASSERT_EQ(c.legend->itemCount(), 2);
    const QRect a = c.legend->item(0)->outerRect(), b = c.legend->item(1)->outerRect();
    EXPECT_FALSE(a.intersects(b)) << a.y() << " " << a.height() << " / " << b.y() << " " << b.height();
    EXPECT_EQ(a.top(), b.top());  // one line
    EXPECT_GE(c.axisRect()->height(), 60);
}

// The collective view in a short plot (the splitter dragged down at 1024x700): every label inside
// the plot and off the bars and the thin lanes, the launch's and the late arriver's among them.
TEST(ReviewDefects, CollectiveLabelsOffTheLanesInAShortPlot) {
    DemoWindow d(QSize(1024, 700));
    MainWindow& w = d.w;
    auto* split = qobject_cast<QSplitter*>(w.tabs()->parentWidget());
    ASSERT_TRUE(split);
    const int total = split->sizes()[0] + split->sizes()[1];
    for (int top : {400, 340, 100}) {  // (100: as far as the splitter goes)
        split->setSizes({top, total - top});
        QTest::qWait(20);
        EXPECT_EQ(split->sizes()[0] + split->sizes()[1], total);
        for (auto [group, index] : {std::pair{0, 102u}, std::pair{0, 63u}, std::pair{1, 1u}, std::pair{0, 100u}, std::pair{0, 41u}, std::pair{1, 3u}}) {
            SCOPED_TRACE("view " + std::to_string(top) + " px high, G" + std::to_string(group) + " #" + std::to_string(index));
            ASSERT_TRUE(w.selectCollective(group, index));
            w.view()->replot();
            QTest::qWait(10);  // the splitter takes the view's least height
            w.view()->replot();
            shot(&w, QString("short-plot-%1-G%2-%3").arg(top).arg(group).arg(index));
            checkLabels(*w.view());
        }
    }
}

// the table's current row wholly in its viewport (vertically)
bool currentRowInView(QTableView* t) {
    const QRect r = t->visualRect(t->currentIndex());
    return r.isValid() && r.top() >= 0 && r.bottom() < t->viewport()->height();
}

// The selected row stays in sight after sorting (by start skew, by op, back by group) and after the
// window is resized; the sorts move it out of the rows that were in sight (so the view scrolled).
TEST(ReviewDefects, SelectedRowStaysInViewAfterSortAndResize) {
    DemoWindow d;
    MainWindow& w = d.w;
    w.resize(1366, 768);
    QTest::qWait(20);
    QTableView* t = w.table();
    ASSERT_TRUE(w.selectCollective(1, 3));
    ASSERT_TRUE(currentRowInView(t));
    int moved = 0;
    for (auto [column, order] : {std::pair{int(CollectiveModel::StartSkew), Qt::DescendingOrder}, std::pair{int(CollectiveModel::Op), Qt::AscendingOrder},
                                 std::pair{int(CollectiveModel::Group), Qt::AscendingOrder}, std::pair{int(CollectiveModel::StartSkew), Qt::AscendingOrder}}) {
        SCOPED_TRACE("sorted by column " + std::to_string(column));
        const int first = t->rowAt(0), last = t->rowAt(t->viewport()->height() - 1);
        t->sortByColumn(column, order);
        QTest::qWait(10);
        EXPECT_EQ(shown(w), std::make_pair(1, 3u));
        const int now = t->currentIndex().row();
        moved += now < first || now > last;
        EXPECT_TRUE(currentRowInView(t)) << "row " << now << ", rows " << t->rowAt(0) << " to " << t->rowAt(t->viewport()->height() - 1) << " in sight";
    }
    EXPECT_GE(moved, 2) << "the sorts left the row among the rows in sight: nothing checked";
    // the row at the bottom of the viewport, then the window made smaller
    t->scrollTo(t->currentIndex(), QAbstractItemView::PositionAtBottom);
    ASSERT_TRUE(currentRowInView(t));
    w.resize(1024, 700);
    QTest::qWait(50);
    EXPECT_TRUE(currentRowInView(t)) << "after the resize";
}

// the leftmost and rightmost dark pixel in the top `rows` rows of an image (the title's ink)
std::pair<int, int> inkSpan(const QImage& img, int rows) {
    int lo = img.width(), hi = -1;
    for (int y = 0; y < rows && y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (qGray(img.pixel(x, y)) < 100) lo = std::min(lo, x), hi = std::max(hi, x);
    return {lo, hi};
}

// An SVG and a PDF of the step map at 1400x800 draw their text as large as the PNG of that size:
// the SVG's title font in pixels is the PNG's (10 pt at the PNG's own dots per inch, read from the
// file), and the PDF rendered at 1400x800 has the title's ink as wide as the PNG's (it was 3/4).
TEST(ReviewDefects, SvgAndPdfTextAsLargeAsThePng) {
    DemoWindow d;
    MainWindow& w = d.w;
    QTest::keyClick(w.table(), Qt::Key_3, Qt::ControlModifier);
    const std::string dir = testutil::tempDir("export-fonts");
    const QString png = QString::fromStdString(dir + "/m.png"), svg = QString::fromStdString(dir + "/m.svg"), pdf = QString::fromStdString(dir + "/m.pdf");
    for (const QString& f : {png, svg, pdf}) ASSERT_TRUE(w.exportView(f, 1400, 800)) << f.toStdString();
    const QImage p(png);
    ASSERT_EQ(p.size(), QSize(1400, 800));
    const double dpi = p.dotsPerMeterY() * 0.0254;
    ASSERT_GT(dpi, 50);
    // the SVG: the font size of the group holding the title
    const std::string text = testutil::slurp(svg.toStdString());
    const std::string title = w.stepMap()->title().toHtmlEscaped().toStdString();
    const size_t at = text.find(title.substr(0, 20));
    ASSERT_NE(at, std::string::npos);
    const size_t fs = text.rfind("font-size=\"", at);
    ASSERT_NE(fs, std::string::npos);
    EXPECT_NEAR(std::stod(text.substr(fs + 11)), 10 * dpi / 72, 0.05);
    // the PDF, rendered at the PNG's size
    const testutil::RunResult r = testutil::runCommand("pdftoppm", {"-png", "-singlefile", "-scale-to-x", "1400", "-scale-to-y", "800", pdf.toStdString(), dir + "/pdf"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QImage q(QString::fromStdString(dir + "/pdf.png"));
    ASSERT_EQ(q.size(), QSize(1400, 800));
    auto [a0, a1] = inkSpan(p, 24);
    auto [b0, b1] = inkSpan(q, 24);
    ASSERT_GT(a1 - a0, 200);
    EXPECT_NEAR(double(b1 - b0) / double(a1 - a0), 1.0, 0.03) << "PNG title ink " << a0 << ".." << a1 << ", PDF's " << b0 << ".." << b1;
}

// The compare export of a pair without steps (the real 2xH100 pair: no NVTX step ranges) draws no
// "Set the step pattern..." button (the view shows one under each map) and no scroll bar.
TEST(ReviewDefects, CompareExportLeavesOutButtonsAndScrollBars) {
    CompareView v;
    v.setComparison(skew::loadComparison({realPath("nsysai-mfu_2gpu_before.sqlite").toStdString()},
                                         {realPath("nsysai-mfu_2gpu_after.sqlite").toStdString()}, {}, {}, nullptr));
    v.resize(1400, 800);
    v.setAttribute(Qt::WA_DontShowOnScreen);
    v.show();
    QTest::qWait(30);
    ASSERT_TRUE(v.stepMapA()->map().empty());
    ASSERT_TRUE(v.stepMapA()->settingsButton()->isVisible()) << "the view shows the button: the export must not";
    const QString button = v.stepMapA()->settingsButton()->text();
    const std::string svg = testutil::tempDir("compare-controls") + "/c.svg";
    ASSERT_TRUE(v.exportTo(QString::fromStdString(svg), 1400, 800));
    const SvgContent c = readSvg(svg);
    ASSERT_TRUE(c.error.isEmpty()) << c.error.toStdString();
    ASSERT_TRUE(c.hasTextContaining("B: "));  // it holds the view's texts
    EXPECT_FALSE(c.hasTextContaining(button)) << button.toStdString() << " drawn";
    EXPECT_FALSE(c.hasTextContaining("Set the step pattern"));
}

// The timeline's ruler: a tick label under the measured range's length or under the time at the
// mouse is left out (they were painted over each other); placed right on a label that is drawn
// without them.
TEST(ReviewDefects, RulerLabelsLeaveRoomForTheMeasureAndTheHoverTime) {
    DemoWindow d(QSize(1024, 700));
    MainWindow& w = d.w;
    TimelineView* tl = w.timeline();
    QTest::keyClick(w.table(), Qt::Key_2, Qt::ControlModifier);
    const RulerBoxes plain = tl->rulerBoxes();
    ASSERT_GE(plain.tickLabels.size(), 3u);
    EXPECT_FALSE(plain.measure.isValid());
    EXPECT_FALSE(plain.hover.isValid());
    // a short measured range centred on the second label
    const QRectF target = plain.tickLabels[1].first;
    const double t = tl->timeAtX(target.center().x()), dt = (tl->rangeEnd() - tl->rangeStart()) * 0.002;
    tl->setMeasure(t - dt, t + dt);
    RulerBoxes m = tl->rulerBoxes();
    ASSERT_TRUE(m.measure.isValid());
    ASSERT_TRUE(m.measure.intersects(target)) << "the measure's box is not where the label was";
    EXPECT_LT(m.tickLabels.size(), plain.tickLabels.size());
    for (const auto& [r, text] : m.tickLabels) EXPECT_FALSE(r.intersects(m.measure)) << text.toStdString() << " under the measure";
    tl->setMeasure(NAN, NAN);
    // the mouse over the rows below the third label
    const QRectF third = plain.tickLabels[2].first;
    hover(tl, QPoint(int(third.left()) + 1, tl->rowsArea().top() + 30));
    const RulerBoxes h = tl->rulerBoxes();
    ASSERT_TRUE(h.hover.isValid());
    ASSERT_TRUE(h.hover.intersects(third)) << "the hover time is not where the label was";
    for (const auto& [r, text] : h.tickLabels) EXPECT_FALSE(r.intersects(h.hover)) << text.toStdString() << " under the hover time";
    shot(&w, "ruler-hover");
}

}  // namespace
