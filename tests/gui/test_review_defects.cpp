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
#include "common/hover_card.h"
#include "views/heatmap/heatmap_view.h"
#include "views/timeline/timeline_view.h"
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

// The timeline's hover card by the right edge flips left of the pointer, by the bottom edge above
// it, and stays whole inside the view (at 1024x700 it was cut at the window's right edge).
TEST(ReviewDefects, TimelineHoverCardFlipsInsideTheView) {
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
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
                          {"bottom right", hoverTextNear(tl, ra.right() - 2, ra.bottom() - 3, -1), true, true},
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

}  // namespace
