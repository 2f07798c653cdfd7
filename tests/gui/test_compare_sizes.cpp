// GUI tests of the viewer review's defects 8 and 13 at small windows (docs/reviews/gui-2026-12.md,
// issue 24): the compare view of the real 2xH100 pair and the collectives table's Cause column, in
// the main window at 1024x700 and 1280x720 logical pixels. Built into gui_tests and, at Qt scale
// factor 1.5, into gui_scaled_tests (1536x1050 and 1920x1080 device pixels there). Each drives the
// real window and checks rectangles: texts whole or wrapped (not elided, not cut), tick labels apart,
// legends off the plotted data, columns in sight without a horizontal scroll bar.

#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "export_checks.h"
#include "gui_util.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_delta_model.h"
#include "views/compare/compare_events.h"
#include "views/compare/compare_rank_bars.h"
#include "views/compare/compare_view.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "window/main_window.h"

using namespace skewui;
using namespace guitest;

#ifdef SKEWSCOPE_GUI_SCALE_FACTOR
#define SIZES_SUITE CompareSizesScaled
#else
#define SIZES_SUITE CompareSizes
#endif

namespace {

const QSize kSizes[] = {{1024, 700}, {1280, 720}};

std::string str(const QRectF& r) {
    return "(" + std::to_string(r.x()) + "," + std::to_string(r.y()) + " " + std::to_string(r.width()) + "x" + std::to_string(r.height()) + ")";
}
std::string sizeName(QSize s) { return std::to_string(s.width()) + "x" + std::to_string(s.height()); }

// the window at `size` comparing the real before/after pair, every plot laid out at its size
bool openRealPair(MainWindow& w, QSize size) {
    w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return false;
    QSignalSpy ok(&w, &MainWindow::comparisonLoaded);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openComparison({realPath("nsysai-mfu_2gpu_before.sqlite")}, {realPath("nsysai-mfu_2gpu_after.sqlite")});
    for (int i = 0; i < 1200 && ok.isEmpty() && failed.isEmpty(); ++i) QTest::qWait(50);
    if (ok.isEmpty()) return false;
    for (int pass = 0; pass < 2; ++pass) {
        QTest::qWait(30);
        for (QCustomPlot* plot : w.compareView()->findChildren<QCustomPlot*>()) plot->replot();
    }
    return true;
}

// The lines of a text drawn centred on `centreX`: each inside [0, width] of its widget.
void expectLinesInside(const QString& text, const QFont& font, double centreX, int width, const char* what) {
    const QFontMetricsF fm(font);
    for (const QString& line : text.split('\n')) {
        const double w = fm.horizontalAdvance(line);
        EXPECT_GE(centreX - w / 2, -0.5) << what << " '" << line.toStdString() << "' cut at the left";
        EXPECT_LE(centreX + w / 2, width + 0.5) << what << " '" << line.toStdString() << "' cut at the right";
    }
}

// A horizontal axis' tick labels (centred on their ticks, in its tick label font): inside the
// widget and apart by at least 3 px; returns how many are in the axis' range.
int expectTickLabelsApart(QCPAxis* axis, int widgetWidth, const char* what) {
    const QFontMetricsF fm(axis->tickLabelFont());
    std::vector<std::pair<double, double>> spans;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty()) continue;
        const double x = axis->coordToPixel(ticks[i]), w = fm.horizontalAdvance(labels[i]);
        spans.push_back({x - w / 2, x + w / 2});
        EXPECT_GE(x - w / 2, -0.5) << what << " tick label " << labels[i].toStdString() << " cut";
        EXPECT_LE(x + w / 2, widgetWidth + 0.5) << what << " tick label " << labels[i].toStdString() << " cut";
    }
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i)
        EXPECT_GE(spans[i].first - spans[i - 1].second, 3.0) << what << ": tick labels run together";
    return int(spans.size());
}

// A legend whose entries are whole (it has the width it asks for), inside its widget, off every
// axis rectangle (no bar or curve under it).
void expectLegendWhole(QCustomPlot& plot, const char* what) {
    const QRect l = plot.legend->outerRect();
    EXPECT_TRUE(QRect(0, 0, plot.width(), plot.height()).contains(l)) << what << " legend " << str(l);
    EXPECT_LE(plot.legend->minimumOuterSizeHint().width(), l.width()) << what << " legend entries cut";
    for (QCPAxisRect* r : plot.axisRects()) EXPECT_FALSE(l.intersects(r->rect())) << what << " legend over the data " << str(l);
}

// The compare view of the real pair at 1024x700 (and 1280x720): the collective panes' titles whole
// or on two lines, never elided, their time axis' label and ticks inside; the CDF's title inside, its
// log ticks apart, its legend off the curves; the rank bars' legend whole and off the bars; the list
// of big events and the delta table with all their columns, no horizontal scroll bar.
TEST(SIZES_SUITE, CompareViewReadsWholeInASmallWindow) {
    for (QSize size : kSizes) {
        SCOPED_TRACE(sizeName(size));
        MainWindow w;
        ASSERT_TRUE(openRealPair(w, size));
        CompareView* v = w.compareView();
        ASSERT_TRUE(v->isVisible());
        shot(&w, QString("compare-real-%1").arg(QString::fromStdString(sizeName(size))));
        for (CollectiveView* cv : {v->collectiveA(), v->collectiveB()}) {
            SCOPED_TRACE(cv->titleText().toStdString());
            ASSERT_GE(cv->scene().collective, 0);
            EXPECT_FALSE(cv->titleShown().contains(QChar(0x2026))) << "elided: " << cv->titleShown().toStdString();
            EXPECT_EQ(QString(cv->titleShown()).replace('\n', ' '), cv->titleText());
            for (const QString& line : cv->titleShown().split('\n'))  // a figure stays with its unit
                EXPECT_FALSE(QRegularExpression("^(ns|us|ms|s)\\b").match(line).hasMatch()) << "'" << line.toStdString() << "'";
            const QFont tf(cv->font().family(), 11, QFont::Bold);
            expectLinesInside(cv->titleShown(), tf, cv->titleRect().center().x() + 0.5, cv->width(), "title");
            expectLinesInside(cv->xAxis->label(), cv->xAxis->labelFont(), cv->axisRect()->center().x(), cv->width(), "time axis label");
            EXPECT_GE(expectTickLabelsApart(cv->xAxis, cv->width(), "collective view"), 2);
            // every rank's row named on the y axis (none thinned out for want of height)
            int named = 0;
            for (int i = 0; i < cv->yAxis->tickVector().size(); ++i)
                named += cv->yAxis->range().contains(cv->yAxis->tickVector()[i]) && !cv->yAxis->tickVectorLabels()[i].isEmpty();
            EXPECT_EQ(named, 2) << "rank labels on the y axis";
        }
        SkewCdfChart* cdf = v->cdf();
        EXPECT_EQ(QString(cdf->titleShown()).replace("\n", " "), cdf->title());
        expectLinesInside(cdf->titleShown(), cdf->titleElement()->font(), cdf->titleElement()->outerRect().center().x() + 0.5, cdf->width(), "CDF title");
        EXPECT_GE(expectTickLabelsApart(cdf->xAxis, cdf->width(), "CDF"), 2);
        expectLegendWhole(*cdf, "CDF");
        ASSERT_EQ(cdf->legend->itemCount(), 4);
        for (QCPGraph* g : {cdf->startCurve(), cdf->endCurve(), cdf->startCurveB(), cdf->endCurveB()})
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                EXPECT_FALSE(cdf->legend->outerRect().contains(g->coordsToPixels(it->key, it->value).toPoint()));
        CompareRankBars* bars = v->rankBars();
        expectLegendWhole(*bars, "rank bars");
        for (QCPTextElement* t : bars->chartTitles()) expectLinesInside(t->text(), t->font(), t->outerRect().center().x() + 0.5, bars->width(), "rank chart name");
        // each chart's y-axis label no longer than its chart is high
        for (QCPAxisRect* r : bars->axisRects()) {
            QCPAxis* y = r->axis(QCPAxis::atLeft);
            double longest = 0;
            for (const QString& line : y->label().split('\n')) longest = std::max(longest, QFontMetricsF(y->labelFont()).horizontalAdvance(line));
            EXPECT_LE(longest, r->height()) << "'" << y->label().toStdString() << "' squeezed";
        }
        // the list of events and the delta table: every column whole, nothing to scroll sideways
        CompareEventsList* ev = v->events();
        EXPECT_EQ(ev->horizontalScrollBar()->maximum(), 0) << "the list of events scrolls sideways";
        int right = 0;
        for (int c = 0; c < ev->columnCount(); ++c)
            if (!ev->isColumnHidden(c)) right = std::max(right, ev->header()->sectionViewportPosition(c) + ev->header()->sectionSize(c));
        EXPECT_LE(right, ev->viewport()->width());
        EXPECT_TRUE(ev->isColumnHidden(1)) << "step-pos of captures without steps";
        QTableView* t = v->deltaTable();
        EXPECT_EQ(t->horizontalScrollBar()->maximum(), 0) << "the delta table scrolls sideways";
        const QFontMetrics fm(t->font());
        for (int r = 0; r < t->model()->rowCount(); ++r)
            for (int c = 0; c < t->model()->columnCount(); ++c) {
                const QString text = t->model()->index(r, c).data().toString();
                EXPECT_LE(fm.horizontalAdvance(text) + 6, t->columnWidth(c)) << text.toStdString() << " elided";
            }
        EXPECT_LE(t->columnViewportPosition(CompareDeltaModel::Delta) + t->columnWidth(CompareDeltaModel::Delta), t->viewport()->width());
        // its export at the window's size: no button, no scroll bar, no row cut at the bottom
        const std::string dir = testutil::tempDir("compare-sizes");
        ASSERT_TRUE(v->exportTo(QString::fromStdString(dir + "/c.svg"), v->width(), v->height()));
        const SvgContent svg = readSvg(dir + "/c.svg");
        ASSERT_TRUE(svg.error.isEmpty());
        EXPECT_TRUE(svg.hasTextContaining("start-skew cost"));
        EXPECT_FALSE(svg.hasTextContaining("Set the step pattern"));
        std::filesystem::remove_all(dir);
    }
}

// The collectives table at the first screen shows its Cause column, in sight without scrolling and
// whole, with the cause of the demo's worst collective (the window opens on it): the generator's
// largest planted lateness, a GPU-kind one (a GEMM before the NCCL kernel: "GPU dependency").
TEST(SIZES_SUITE, CauseColumnInSightAtTheFirstScreen) {
    const skewgen::TruthLate* worst = nullptr;
    for (const auto& tl : demo().result.late)
        if (!worst || tl.planted.delayNs > worst->planted.delayNs) worst = &tl;
    ASSERT_TRUE(worst);
    ASSERT_EQ(worst->planted.kind, skewgen::LateKind::Gpu);
    for (QSize size : kSizes) {
        SCOPED_TRACE(sizeName(size));
        MainWindow w;
        w.resize(size);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        QTest::qWait(30);
        shot(&w, QString("first-screen-%1").arg(QString::fromStdString(sizeName(size))));
        ASSERT_EQ(shown(w), std::make_pair(worst->group, uint32_t(worst->index)));
        QTableView* t = w.table();
        const QModelIndex cur = t->currentIndex();
        ASSERT_TRUE(cur.isValid());
        const QModelIndex cause = t->model()->index(cur.row(), CollectiveModel::Cause);
        EXPECT_EQ(cause.data().toString(), "GPU dependency");
        EXPECT_FALSE(t->isColumnHidden(CollectiveModel::Cause));
        EXPECT_EQ(t->horizontalScrollBar()->value(), 0);
        const QRect r = t->visualRect(cause);
        EXPECT_GE(r.left(), 0);
        EXPECT_LE(r.right(), t->viewport()->width()) << "Cause cut at " << t->viewport()->width() << ": column " << r.left() << ".." << r.right();
        EXPECT_GE(r.width(), QFontMetrics(t->font()).horizontalAdvance("GPU dependency") + 6) << "cause elided";
        EXPECT_GE(r.top(), 0);
        EXPECT_LE(r.bottom(), t->viewport()->height());
    }
}

}  // namespace
