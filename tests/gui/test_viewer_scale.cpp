// The viewer on big jobs (issues 23 and 25): a folder of summaries opened with File > Open Folder
// (title and status say the ranks came from summaries, every kernel is there), the Answers page of
// a job whose tables have thousands of rows, and the timeline's rows with hundreds of ranks.

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QTabWidget>
#include <QTimer>

#include <filesystem>
#include <set>

#include "gui_util.h"
#include "test_util.h"
#include "views/collective/collective_layout.h"
#include "views/collective/collective_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/rank_ticker.h"
#include "views/timeline/timeline_view.h"
#include "window/details_tabs.h"
#include "window/status_texts.h"

using namespace skewui;
using namespace guitest;
using testutil::generated;

namespace {

skewgen::GenConfig perRank(int ranks) {
    skewgen::GenConfig cfg;
    cfg.ranks = ranks;
    cfg.perRankFiles = true;
    cfg.steps = 2;
    cfg.layers = 2;
    return cfg;
}

// the 120-rank single-process run of the heatmap, timeline and collective tests (one step, 2 layers)
const testutil::Generated& ranks120() {
    skewgen::GenConfig cfg;
    cfg.ranks = 120;
    cfg.steps = 1;
    cfg.layers = 2;
    return generated("scale-heat120", cfg);
}

// `w` shown at 1600x1000 with `g` opened; false when either failed
bool showAndOpen(MainWindow& w, const testutil::Generated& g) {
    w.resize(1600, 1000);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && openAndWait(w, {QString::fromStdString(g.path)});
}

// the first table of `doc`, null when none
QTextTable* firstTable(QTextDocument* doc) {
    for (QTextFrame* f : doc->rootFrame()->childFrames())
        if (auto* t = qobject_cast<QTextTable*>(f)) return t;
    return nullptr;
}

}  // namespace

// File > Open Folder opens every summary of a folder: 12 per-rank exports summarised, the folder
// chosen in the dialog; the window shows the 12 ranks with every kernel the generator wrote, and
// its title and status say that they came from summaries.
TEST(ViewerScale, OpenFolderOfSummaries) {
    const auto& g = generated("scale-folder12", perRank(12));
    ASSERT_EQ(g.result.files.size(), 12u);
    const std::string dir = testutil::tempDir("scale-summaries") + "/job12";
    std::filesystem::create_directories(dir);
    std::vector<std::string> args = {"summarize"};
    args.insert(args.end(), g.result.files.begin(), g.result.files.end());
    args.insert(args.end(), {"--output", dir});
    const auto r = testutil::runSkewscope(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;

    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QAction* openFolder = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == "Open &Folder...") openFolder = a;
    ASSERT_TRUE(openFolder);
    EXPECT_EQ(openFolder->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    QString title;
    QTimer answer;
    answer.setInterval(30);
    int ticks = 0;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!d) return;
        if (++ticks > 300) return static_cast<QDialog*>(d)->reject();  // never hangs the test
        title = d->windowTitle();
        EXPECT_EQ(d->fileMode(), QFileDialog::Directory);
        if (auto* name = d->findChild<QLineEdit*>("fileNameEdit")) name->setText(QString::fromStdString(dir));
        else d->selectFile(QString::fromStdString(dir));
        static_cast<QDialog*>(d)->accept();
    });
    answer.start();
    QSignalSpy ok(&w, &MainWindow::sessionLoaded);
    openFolder->trigger();
    ASSERT_TRUE(waitLoaded(ok));
    answer.stop();
    EXPECT_EQ(title, "Open a folder of summaries (*.skewsum)");
    ASSERT_TRUE(w.session());
    const auto& p = w.session()->profile;
    EXPECT_EQ(p.ranks.size(), 12u);
    ASSERT_EQ(p.inputs.size(), 12u);
    for (const auto& in : p.inputs) EXPECT_FALSE(in.summaryPath.empty()) << in.path;
    // a summary holds every kernel: the timeline has all that the generator wrote
    EXPECT_EQ(p.kernelCount(), g.result.kernelRows);
    EXPECT_EQ(w.session()->analysis.collectives.size(), g.result.collectives.size());
    EXPECT_EQ(w.windowTitle(), "Skewscope - job12 (12 ranks from summaries)");
    // 12 inputs: two named, sorted by the summaries' names (r_rank0, r_rank1, r_rank10, ...)
    const std::string stem = std::filesystem::path(g.path).filename().string();
    const QString files = QString::fromStdString(stem + "_rank0.sqlite, " + stem + "_rank1.sqlite and 10 more, read from 12 summaries  |");
    EXPECT_TRUE(w.statusText().startsWith(files)) << w.statusText().toStdString();
    EXPECT_EQ(w.statusText().count(".sqlite"), 2);
}

// The status line of three inputs names all three; of exports, no summaries are mentioned.
TEST(ViewerScale, StatusNamesFewFilesAndNoSummaries) {
    const auto& g = generated("scale-three", perRank(3));
    MainWindow w;
    QStringList files;
    for (const auto& f : g.result.files) files << QString::fromStdString(f);
    ASSERT_TRUE(openAndWait(w, files));
    const std::string stem = std::filesystem::path(g.path).filename().string();
    EXPECT_TRUE(w.statusText().startsWith(QString::fromStdString(stem + "_rank0.sqlite, " + stem + "_rank1.sqlite, " + stem + "_rank2.sqlite  |")))
        << w.statusText().toStdString();
    EXPECT_EQ(w.statusText().indexOf("summar"), -1);
    EXPECT_EQ(w.windowTitle(), QString::fromStdString("Skewscope - " + stem + "_rank0.sqlite"));
}

// The Answers page of a 1,000-rank job holds tables of 2,000 rows (258 KB of Markdown): parsed into
// a document without a layout, it is shown in seconds (the browser's own document, laid out after
// every insert, took over six minutes for that page). Here a table of 1,000 rows: a few seconds on a
// loaded machine, where the quadratic layout takes minutes. The table keeps every row.
TEST(ViewerScale, AnswersPageWithThousandsOfRows) {
    QString md = "# Findings\n\n| rank | collectives | skew ms | cause |\n|---|---|---|---|\n";
    for (int i = 0; i < 1000; ++i)
        md += QString("| r_rank%1 (dev %2) | %3 | %4.%5 | launched late by the CPU thread of this rank |\n")
                  .arg(i)
                  .arg(i % 8)
                  .arg(140 + i % 7)
                  .arg(i % 97)
                  .arg(i % 10);
    md += "\nThe end.\n";
    DetailsTabs tabs;
    tabs.resize(1200, 400);
    tabs.show();
    QElapsedTimer t;
    t.start();
    tabs.setFindingsMarkdown(md);
    QTextTable* table = firstTable(tabs.findings()->document());
    ASSERT_TRUE(table);
    EXPECT_EQ(table->rows(), 1001);  // the header and 1,000 ranks
    EXPECT_EQ(table->columns(), 4);
    EXPECT_EQ(table->cellAt(1000, 0).firstCursorPosition().block().text(), "r_rank999 (dev 7)");
    tabs.findings()->grab();  // laid out and painted
    EXPECT_LT(t.elapsed(), 20000) << "the page of 1,000 rows took " << t.elapsed() << " ms";
    // a second page replaces the first; the links of the page still reach the window
    tabs.setFindingsMarkdown("[collective 0/3](skewscope://collective/0/3)\n");
    EXPECT_EQ(firstTable(tabs.findings()->document()), nullptr);
    EXPECT_EQ(tabs.findings()->toPlainText(), "collective 0/3");
}

// The rank axis's label step, by hand: rows of 0.75 px (1,000 rows on 750 px) need 16 px / 0.75 =
// 21.3 rows per label: 50; rows of 7.5 px need 2.1: 5; rows of 93.75 px (8 rows): every row.
TEST(ViewerScale, RankLabelStep) {
    EXPECT_EQ(RankTicker::labelEvery(1000, 750, 16), 50);
    EXPECT_EQ(RankTicker::labelEvery(100, 750, 16), 5);
    EXPECT_EQ(RankTicker::labelEvery(8, 750, 16), 1);
    EXPECT_EQ(RankTicker::labelEvery(16, 256, 16), 1);   // exactly a label high
    EXPECT_EQ(RankTicker::labelEvery(17, 256, 16), 2);
    EXPECT_EQ(RankTicker::labelEvery(0, 750, 16), 1);
}

// A 120-rank group's heatmap: the rank labels do not overlap (each a label's height from the
// next), all fall on rows of one step, the first on row 0; zoomed to ten rows, each row has its label.
TEST(ViewerScale, HeatmapRankLabelsOfManyRanksDoNotOverlap) {
    MainWindow w;
    ASSERT_TRUE(showAndOpen(w, ranks120()));
    HeatmapView* h = w.heatmap();
    w.viewTabs()->setCurrentWidget(h);
    h->replot(QCustomPlot::rpImmediateRefresh);
    ASSERT_EQ(w.session()->analysis.groups[size_t(h->group())].width(), 120u);
    const QVector<double> ticks = h->yAxis->tickVector();
    const int labelPx = QFontMetrics(h->yAxis->tickLabelFont()).height();
    ASSERT_GE(ticks.size(), 2);
    EXPECT_EQ(ticks.front(), 0.0);
    const double step = ticks[1] - ticks[0];
    EXPECT_GT(step, 1.0);  // 120 rows do not fit one label each in this window
    for (int i = 1; i < ticks.size(); ++i) {
        EXPECT_EQ(ticks[i] - ticks[i - 1], step);
        EXPECT_GE(std::abs(h->yAxis->coordToPixel(ticks[i]) - h->yAxis->coordToPixel(ticks[i - 1])), labelPx) << i;
    }
    EXPECT_GT(ticks.back() + step, 119.0);  // to the last rows
    h->yAxis->setRange(39.5, 49.5);
    h->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_EQ(h->yAxis->tickVector(), (QVector<double>{40, 41, 42, 43, 44, 45, 46, 47, 48, 49}));
}

// The timeline's rows of 120 ranks: collapsed (more than 16 ranks), one header row each; a rank
// expanded adds its lanes and CPU row after its header. Every rank's rows are found among its own
// (rankRows), the same rows as a scan of all of them finds.
TEST(ViewerScale, TimelineRowsOfManyRanks) {
    MainWindow w;
    ASSERT_TRUE(showAndOpen(w, ranks120()));
    TimelineView* tl = w.timeline();
    w.viewTabs()->setCurrentWidget(tl);
    const auto& p = w.session()->profile;
    ASSERT_EQ(p.ranks.size(), 120u);
    ASSERT_EQ(tl->rows().size(), 120u);
    for (int r = 0; r < 120; ++r) {
        EXPECT_EQ(tl->rows()[size_t(r)].kind, TimelineRow::Header);
        EXPECT_EQ(tl->layout().rankRows(r), std::make_pair(r, r + 1));
        EXPECT_EQ(tl->rowOf(r, 0), r);  // collapsed: its header
        EXPECT_EQ(tl->cpuRowOf(r), -1);
    }
    tl->setRankCollapsed(7, false);
    const int lanes = int(w.session()->timeline.laneOrder(7).size());  // the lanes drawn
    EXPECT_EQ(lanes, int(p.ranks[7].lanes.size()));
    ASSERT_EQ(tl->rows().size(), size_t(120 + lanes + 1));
    EXPECT_EQ(tl->layout().rankRows(7), std::make_pair(7, 7 + lanes + 2));
    EXPECT_EQ(tl->layout().rankRows(8), std::make_pair(9 + lanes, 10 + lanes));
    EXPECT_EQ(tl->cpuRowOf(7), 7 + lanes + 1);
    EXPECT_EQ(tl->rowOf(119, 0), 119 + lanes + 1);
    // every (rank, lane) as a scan of every row finds it
    for (int r = 0; r < 120; ++r)
        for (int l = 0; l < int(p.ranks[size_t(r)].lanes.size()); ++l) {
            int scan = -1;
            for (size_t i = 0; i < tl->rows().size() && scan < 0; ++i) {
                const TimelineRow& row = tl->rows()[i];
                if (row.rank == r && ((row.kind == TimelineRow::Lane && row.lane == l) || (row.kind == TimelineRow::Header && r != 7))) scan = int(i);
            }
            EXPECT_EQ(tl->rowOf(r, l), scan) << r << " " << l;
        }
    EXPECT_EQ(tl->rowOf(120, 0), -1);  // no rank 120: no rows (its end would be past the index)
    EXPECT_EQ(tl->layout().rankRows(120), std::make_pair(0, 0));
    EXPECT_EQ(tl->cpuRowOf(120), -1);
    EXPECT_EQ(tl->rowOf(-1, 0), -1);
}

// The collective view of a 120-rank collective: the label placer finds obstacles by the bands they
// cover; no two labels it shows overlap, each rank has its row label, and the shown ones sit inside
// the plot.
// A 120-rank group's collective view, rows under kDenseRowPx high: every main bar whole pixels (no
// bands of bars and gaps), the late arriver's 3 px and labelled; thin lanes only on the late and
// the predecessor's rows; row labels only for the late and the first arriver (a "+93 us" would point
// at no row in particular), none overlapping; the rank axis thinned but naming the late arriver.
TEST(ViewerScale, CollectiveLabelsOfManyRanksDoNotOverlap) {
    MainWindow w;
    ASSERT_TRUE(showAndOpen(w, ranks120()));
    const SceneLayout& L = w.view()->sceneLayout();
    const skew::CollectiveScene& sc = w.view()->scene();
    ASSERT_EQ(sc.rows.size(), 120u);
    ASSERT_LT(double(L.plot.height()) / 120.0, kDenseRowPx);
    int lateRow = -1, earlyRow = -1;
    for (size_t r = 0; r < sc.rows.size(); ++r) {
        if (sc.rows[r].late) lateRow = int(r);
        if (sc.rows[r].early) earlyRow = int(r);
    }
    ASSERT_GE(lateRow, 0);
    ASSERT_GE(earlyRow, 0);
    std::set<int> laneRows{lateRow};
    for (const skew::Bar& b : sc.bars)
        if (b.predecessor) laneRows.insert(b.row);
    for (size_t i = 0; i < sc.bars.size(); ++i) {
        const skew::Bar& b = sc.bars[i];
        const QRectF& r = L.bars[i];
        if (b.sub) {
            EXPECT_EQ(r.isNull(), !laneRows.count(b.row)) << i;
            continue;
        }
        EXPECT_EQ(r.top(), std::floor(r.top())) << i;
        EXPECT_EQ(r.height(), std::floor(r.height())) << i;
        EXPECT_GE(r.height(), b.late ? 3.0 : 1.0) << i;
    }
    for (const LaneRect& lr : L.lanes) {
        const int row = int(std::lround(w.view()->yAxis->pixelToCoord(lr.rect.center().y()) - kSubY));
        EXPECT_TRUE(laneRows.count(row)) << row;
    }
    int shown = 0;
    std::set<int> labelled;
    for (const PlacedLabel& l : L.labels)
        if (l.kind != LabelKind::Launch && l.kind != LabelKind::Predecessor) labelled.insert(l.row);
    EXPECT_EQ(labelled, (std::set<int>{lateRow, earlyRow}));
    ASSERT_NE(L.label(LabelKind::Late, lateRow), nullptr);
    EXPECT_TRUE(L.label(LabelKind::Late, lateRow)->shown);
    for (size_t i = 0; i < L.labels.size(); ++i) {
        if (!L.labels[i].shown) continue;
        ++shown;
        for (size_t j = i + 1; j < L.labels.size(); ++j) {
            if (L.labels[j].shown) {
                EXPECT_FALSE(L.labels[i].rect.intersects(L.labels[j].rect)) << i << " " << j;
            }
        }
    }
    EXPECT_GT(shown, 0);
    // its rank axis: the labels a line apart (120 rows do not fit one each in this view)
    CollectiveView* v = w.view();
    v->replot(QCustomPlot::rpImmediateRefresh);
    const QVector<double> ticks = v->yAxis->tickVector();
    const int labelPx = QFontMetrics(v->yAxis->tickLabelFont()).height();
    ASSERT_GE(ticks.size(), 2);
    EXPECT_LT(ticks.size(), 120);
    for (int i = 1; i < ticks.size(); ++i)
        EXPECT_GE(std::abs(v->yAxis->coordToPixel(ticks[i]) - v->yAxis->coordToPixel(ticks[i - 1])), labelPx) << i;
    EXPECT_TRUE(ticks.contains(double(lateRow))) << lateRow;  // the late arriver's label among the thinned ones
}
