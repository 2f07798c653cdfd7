// State of the main window: the selected collective and the filters kept across F5 and
// re-analysis, analysis settings and splitters remembered across restarts, Open Recent lists only
// files that opened, exports start in the last export folder, the Ranks tab says its group and
// draws every label with the legend off the bars, findings entries select their collective, and
// the cosmetic items (closable warning bar, "1 group", shortcuts table, both zoom key sets).

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QTextBrowser>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QAbstractTextDocumentLayout>
#include <QScreen>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <QThreadPool>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>

#include "views/collective/collective_view.h"
#include "gui_util.h"
#include "report/analysis_report.h"
#include "window/load_controller.h"
#include "window/menus.h"

using namespace skewui;
using namespace guitest;
using ::testing::HasSubstr;

namespace {

TEST(WindowState, SelectionAndFiltersKeptAcrossReloadAndReanalysis) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    EXPECT_EQ(shown(w), std::make_pair(0, 102u));  // opens on the largest start skew
    w.setFilters("AllGather", 0, "gpu_dependency", 0.1, false);
    ASSERT_TRUE(w.selectCollective(0, 41));
    const int rows = w.filter()->rowCount();
    const QString status = w.filterStatusText();
    ASSERT_GT(rows, 1);
    // F5
    {
        QSignalSpy ok(&w, &MainWindow::sessionLoaded);
        QTest::keyClick(&w, Qt::Key_F5);
        ASSERT_TRUE(waitLoaded(ok));
    }
    EXPECT_EQ(shown(w), std::make_pair(0, 41u));
    EXPECT_EQ(w.filter()->rowCount(), rows);
    EXPECT_EQ(w.filterStatusText(), status);
    EXPECT_EQ(w.view()->scene().collective, w.currentCollective());
    // Analysis > Settings OK: a re-analysis with other options
    {
        QSignalSpy ok(&w, &MainWindow::sessionLoaded);
        skew::AnalysisOptions o = w.analysisOptions();
        o.bigSkewNs = 40'000'000;
        w.setAnalysisOptions(o);
        ASSERT_TRUE(waitLoaded(ok));
    }
    EXPECT_EQ(w.session()->analysis.options.bigSkewNs, 40'000'000);
    EXPECT_EQ(shown(w), std::make_pair(0, 41u));
    EXPECT_EQ(w.filter()->rowCount(), rows);
    // other files: the op and group lists are theirs (those filters start over); cause and minimum
    // skew stay; the view opens on their worst collective the filters show
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite")}));
    const auto& cs = w.session()->analysis.collectives;
    int expect = 0, worst = -1;
    for (size_t i = 0; i < cs.size(); ++i)
        if (cs[i].lateSlot >= 0 && cs[i].cause == skew::Cause::GpuDependency && cs[i].startSkew() >= 100'000) {
            ++expect;
            if (worst < 0 || cs[i].startSkew() > cs[size_t(worst)].startSkew()) worst = int(i);
        }
    EXPECT_EQ(w.filter()->rowCount(), expect);
    EXPECT_EQ(w.currentCollective(), worst);  // -1 (nothing shown) when no row matches
    EXPECT_EQ(w.showsFilterEmptyState(), expect == 0);
    EXPECT_EQ(w.filterStatusText(), QString("%1 of 33 collectives shown").arg(expect));
}

TEST(WindowState, AnalysisSettingsAndSplittersRememberedAcrossRestarts) {
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        QTest::qWait(20);
        // the default: the plot side gets the larger share
        EXPECT_GT(w.mainSplitter()->sizes()[1], w.mainSplitter()->sizes()[0]);
        EXPECT_GT(w.rightSplitter()->sizes()[0], w.rightSplitter()->sizes()[1]);
        w.mainSplitter()->setSizes({700, 500});
        w.close();
    }
    {
        MainWindow w;
        skew::AnalysisOptions o = w.analysisOptions();
        EXPECT_EQ(o.bigSkewNs, 20'000'000);  // the defaults on a first start
        o.bigSkewNs = 7'500'000;
        o.anomalyThreshold = 4.5;
        o.stepRegex = "^iter(ation)? \\d+$";
        o.hasTrim = true;
        o.trimStartNs = 1'000;
        o.trimEndNs = 2'000;
        w.setAnalysisOptions(o);
    }
    MainWindow w2;
    EXPECT_EQ(w2.analysisOptions().bigSkewNs, 7'500'000);
    EXPECT_DOUBLE_EQ(w2.analysisOptions().anomalyThreshold, 4.5);
    EXPECT_EQ(w2.analysisOptions().stepRegex, "^iter(ation)? \\d+$");
    EXPECT_FALSE(w2.analysisOptions().hasTrim);  // a time window belongs to one profile
    w2.resize(1000, 700);  // another size: the proportions are kept
    w2.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w2));
    ASSERT_TRUE(openAndWait(w2, {demoPath()}));
    EXPECT_EQ(w2.session()->analysis.options.bigSkewNs, 7'500'000);
    QTest::qWait(20);
    QList<int> sizes = w2.mainSplitter()->sizes();
    ASSERT_EQ(sizes.size(), 2);
    EXPECT_NEAR(double(sizes[0]) / (sizes[0] + sizes[1]), 700.0 / 1200, 0.02);  // the user's share, not the default 38%
}

TEST(WindowState, OpenRecentListsOnlyFilesThatOpened) {
    std::string dir = testutil::tempDir("recent");
    std::string copy = dir + "/copy.sqlite";
    std::filesystem::copy_file(demo().path, copy);
    MainWindow w;
    EXPECT_TRUE(w.recentMenu()->actions().isEmpty());
    EXPECT_FALSE(openAndWait(w, {"/nonexistent/rank0.sqlite"}));
    EXPECT_TRUE(w.recentMenu()->actions().isEmpty());
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(copy)}));
    ASSERT_EQ(w.recentMenu()->actions().size(), 1);
    EXPECT_EQ(w.recentMenu()->actions()[0]->text(), "copy.sqlite");
    // a recent file that no longer opens leaves the menu when chosen
    std::filesystem::remove(copy);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.recentMenu()->actions()[0]->trigger();
    for (int i = 0; i < 200 && failed.isEmpty(); ++i) QTest::qWait(20);
    ASSERT_EQ(failed.size(), 1);
    EXPECT_TRUE(w.recentMenu()->actions().isEmpty());
    std::filesystem::remove_all(dir);
}

// A comparison that opened is remembered as one entry "A vs B" that reopens the comparison; one
// that no longer opens leaves the menu when chosen.
TEST(WindowState, OpenRecentRemembersComparisons) {
    std::string dir = testutil::tempDir("recent-compare");
    const std::string a = dir + "/before.sqlite", b = dir + "/after.sqlite";
    std::filesystem::copy_file(demo().path, a);
    std::filesystem::copy_file(demo().path, b);
    MainWindow w;
    w.show();
    QSignalSpy compared(&w, &MainWindow::comparisonLoaded);
    w.openComparison({QString::fromStdString(a)}, {QString::fromStdString(b)});
    for (int i = 0; i < 600 && compared.isEmpty(); ++i) QTest::qWait(50);
    ASSERT_EQ(compared.size(), 1);
    ASSERT_EQ(w.recentMenu()->actions().size(), 1);
    EXPECT_EQ(w.recentMenu()->actions()[0]->text(), "before.sqlite vs after.sqlite");
    // open one capture (leaves compare mode), then the remembered comparison again
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(a)}));
    EXPECT_FALSE(w.inCompareMode());
    ASSERT_EQ(w.recentMenu()->actions().size(), 2);
    EXPECT_EQ(w.recentMenu()->actions()[0]->text(), "before.sqlite");
    w.recentMenu()->actions()[1]->trigger();
    for (int i = 0; i < 600 && compared.size() < 2; ++i) QTest::qWait(50);
    ASSERT_EQ(compared.size(), 2);
    EXPECT_TRUE(w.inCompareMode());
    EXPECT_EQ(w.comparison()->a->files, std::vector<std::string>{a});
    EXPECT_EQ(w.comparison()->b->files, std::vector<std::string>{b});
    EXPECT_EQ(w.recentMenu()->actions()[0]->text(), "before.sqlite vs after.sqlite");
    // B gone: choosing the comparison fails and removes it
    std::filesystem::remove(b);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.recentMenu()->actions()[0]->trigger();
    for (int i = 0; i < 200 && failed.isEmpty(); ++i) QTest::qWait(20);
    ASSERT_EQ(failed.size(), 1);
    ASSERT_EQ(w.recentMenu()->actions().size(), 1);
    EXPECT_EQ(w.recentMenu()->actions()[0]->text(), "before.sqlite");
    std::filesystem::remove_all(dir);
}

TEST(WindowState, ExportsStartInTheLastExportFolder) {
    std::string dir = testutil::tempDir("export-folder");
    {
        MainWindow w;
        w.show();
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        EXPECT_EQ(w.exportStartPath("demo_G0_C102.png"), "demo_G0_C102.png");  // nothing exported yet
        QString err;
        EXPECT_FALSE(w.exportReport(QString::fromStdString(dir + "/missing/report.md"), &err));
        // the reason, not only "cannot write": the path and what the system said
        EXPECT_THAT(err.toStdString(), HasSubstr(dir + "/missing/report.md"));
        EXPECT_THAT(err.toStdString(), HasSubstr("No such file or directory"));
        err.clear();
        EXPECT_FALSE(w.exportView(QString::fromStdString(dir + "/missing/v.svg"), 800, 450, &err));
        EXPECT_THAT(err.toStdString(), HasSubstr(dir + "/missing/v.svg"));
        EXPECT_THAT(err.toStdString(), HasSubstr("No such file or directory"));
        EXPECT_EQ(w.exportStartPath("x.png"), "x.png");  // a failed export does not move it
        ASSERT_TRUE(w.exportReport(QString::fromStdString(dir + "/report.md")));
        EXPECT_EQ(w.exportStartPath("x.png"), QString::fromStdString(dir + "/x.png"));
        std::filesystem::create_directory(dir + "/views");
        ASSERT_TRUE(w.exportView(QString::fromStdString(dir + "/views/v.png"), 800, 450));
        EXPECT_EQ(w.exportStartPath("x.png"), QString::fromStdString(dir + "/views/x.png"));
    }
    MainWindow w2;  // after a restart
    EXPECT_EQ(w2.exportStartPath("x.png"), QString::fromStdString(dir + "/views/x.png"));
    std::filesystem::remove_all(dir);
}

TEST(WindowState, RanksTabNamesItsGroupAndDrawsEveryLabel) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QTabWidget* tabs = w.tabs();
    auto ranksTab = [&] {
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i).startsWith("Ranks")) return tabs->tabText(i);
        return QString();
    };
    EXPECT_EQ(ranksTab(), "Ranks: group 0");
    ASSERT_TRUE(w.selectCollective(1, 1));
    EXPECT_EQ(ranksTab(), "Ranks: group 1");
    EXPECT_EQ(w.ranksGroup(), 1);
    w.setFilters({}, 0, {}, 0, false);  // the group filter decides when set
    EXPECT_EQ(ranksTab(), "Ranks: group 0");

    // two files: long rank labels ("nsysai-mfu_2gpu_after/pid 148/dev 0")
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite"), realPath("nsysai-mfu_2gpu_after.sqlite")}));
    tabs->setCurrentIndex(1);
    QTest::qWait(20);
    QCustomPlot* chart = w.ranksChart();
    chart->replot();
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(chart->xAxis->ticker());
    ASSERT_TRUE(ticker);
    const auto& ticks = ticker->ticks();
    ASSERT_EQ(ticks.size(), 2);
    // QCustomPlot leaves out a tick label that would cross the widget's edge: every label fits
    QFontMetrics fm(chart->xAxis->tickLabelFont());
    bool upright = std::abs(chart->xAxis->tickLabelRotation()) == 90;
    std::vector<std::pair<double, double>> spans;
    for (auto it = ticks.begin(); it != ticks.end(); ++it) {
        double x = chart->xAxis->coordToPixel(it.key());
        double half = upright ? fm.height() / 2.0 : fm.horizontalAdvance(it.value()) / 2.0;
        EXPECT_GE(x - half, 0) << it.value().toStdString();
        EXPECT_LE(x + half, chart->width()) << it.value().toStdString();
        spans.emplace_back(x - half, x + half);
    }
    EXPECT_LE(spans[0].second, spans[1].first);  // and they do not overlap
    // the legend sits above the plot, never over the bars
    EXPECT_FALSE(chart->legend->outerRect().intersects(chart->axisRect()->rect()));
    EXPECT_TRUE(chart->legend->visible());
}

TEST(WindowState, FindingsEntriesSelectTheirCollective) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    // the page: one link per big event and per anomaly, to skewscope://collective/G/K
    QTextDocument* doc = w.findings()->document();
    std::vector<std::pair<QString, int>> anchors;  // href, document position
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor()) anchors.emplace_back(it.fragment().charFormat().anchorHref(), it.fragment().position());
    std::set<QString> hrefs;
    for (const auto& a : anchors) hrefs.insert(a.first);
    const auto& truth = demo().result;
    for (const auto& tl : truth.late) EXPECT_TRUE(hrefs.count(QString("skewscope://collective/0/%1").arg(tl.index))) << tl.index;
    // click the link of G0 #63 in the page, as a user does (while a filter hides it)
    w.setFilters({}, -1, "gpu_dependency", 0, false);
    ASSERT_FALSE(w.filter()->accepts(collectiveOf(w, 0, 63)));
    w.tabs()->setCurrentWidget(w.findings());
    QTest::qWait(20);
    int pos = -1;
    for (const auto& a : anchors)
        if (a.first == "skewscope://collective/0/63") pos = a.second;
    ASSERT_GE(pos, 0);
    QTextCursor cur(doc);
    cur.setPosition(pos + 1);
    w.findings()->setTextCursor(cur);
    w.findings()->ensureCursorVisible();
    QRect r = w.findings()->cursorRect(cur);
    QTest::mouseClick(w.findings()->viewport(), Qt::LeftButton, {}, r.center());
    EXPECT_EQ(shown(w), std::make_pair(0, 63u));
    EXPECT_TRUE(w.filter()->accepts(w.currentCollective()));  // the filter that hid it is cleared
    EXPECT_EQ(w.view()->scene().collective, w.currentCollective());
}

TEST(WindowState, FindingsLinksLeaveTheCommandLineMarkdownUnchanged) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    const auto& p = w.session()->profile;
    const auto& a = w.session()->analysis;
    std::string plain = skew::analysisMarkdown(p, a);
    std::string linked = skew::analysisMarkdown(p, a, skew::MarkdownOptions{true});
    EXPECT_EQ(plain.find("skewscope://"), std::string::npos);
    // the linked page is the plain page with [text](url) around some texts
    std::string stripped = std::regex_replace(linked, std::regex(R"(\[([^\]]*)\]\(skewscope://collective/\d+/\d+\))"), "$1");
    EXPECT_EQ(stripped, plain);
    // every planted late arriver (the big events) and every listed anomaly has its link
    for (const auto& tl : demo().result.late)
        EXPECT_NE(linked.find("](skewscope://collective/0/" + std::to_string(tl.index) + ")"), std::string::npos) << tl.index;
    for (size_t i = 0; i < a.anomalies.items.size() && i < 20; ++i) {
        const auto& c = a.collectives[a.anomalies.items[i].collective];
        EXPECT_NE(linked.find("](skewscope://collective/" + std::to_string(c.group) + "/" + std::to_string(c.index) + ")"),
                  std::string::npos);
    }
    // the CLI writes the plain page
    testutil::RunResult r = testutil::runSkewscope({"analyze", demo().path, "--format", "md"});
    ASSERT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.out.find("skewscope://"), std::string::npos);
}

TEST(WindowState, CosmeticItems) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    // the warning bar (device 0 not captured) can be closed
    ASSERT_TRUE(w.warningBar()->isVisible());
    auto* close = w.warningBar()->findChild<QToolButton*>();
    ASSERT_TRUE(close);
    QTest::mouseClick(close, Qt::LeftButton);
    EXPECT_FALSE(w.warningBar()->isVisible());
    EXPECT_NE(w.statusText().indexOf("in 2 groups"), -1) << w.statusText().toStdString();
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite")}));
    EXPECT_NE(w.statusText().indexOf("2 ranks  |  33 collectives (33 complete) in 1 group  |"), -1) << w.statusText().toStdString();
    // shortcuts as a table
    QString html = shortcutsHtml();
    EXPECT_TRUE(html.startsWith("<table"));
    EXPECT_NE(html.indexOf("<b>+ / -  (Ctrl++ / Ctrl+-)</b>"), -1);
    // the Navigate menu shows both key sets, and both work
    QMenu* nav = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->text() == "&Navigate") nav = a->menu();
    ASSERT_TRUE(nav);
    QStringList texts;
    for (QAction* a : nav->actions()) texts << a->text();
    EXPECT_TRUE(texts.contains("Zoom &In\tCtrl++, +")) << texts.join(" | ").toStdString();
    EXPECT_TRUE(texts.contains("Zoom &Out\tCtrl+-, -")) << texts.join(" | ").toStdString();
    EXPECT_TRUE(texts.contains("&Fit View\tCtrl+0, 0")) << texts.join(" | ").toStdString();
    CollectiveView* v = w.view();
    w.table()->setFocus();
    double span = v->xAxis->range().size();
    QTest::keyClick(w.table(), Qt::Key_Plus);
    EXPECT_LT(v->xAxis->range().size(), span);
    QTest::keyClick(w.table(), Qt::Key_0);
    EXPECT_DOUBLE_EQ(v->xAxis->range().size(), span);
    QTest::keyClick(w.table(), Qt::Key_Plus, Qt::ControlModifier);
    EXPECT_LT(v->xAxis->range().size(), span);
    QTest::keyClick(w.table(), Qt::Key_0, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(v->xAxis->range().size(), span);
    // the plain keys stay with a field being typed in
    auto* minSkew = w.findChild<QDoubleSpinBox*>();
    ASSERT_TRUE(minSkew);
    minSkew->setFocus();
    minSkew->selectAll();
    QTest::keyClicks(minSkew, "10");
    EXPECT_DOUBLE_EQ(minSkew->value(), 10.0);  // "1" then "0", not the fit shortcut
}

// Help > Keyboard Shortcuts at the size it opens with: a two-column table whose key column is
// the narrow one, no row wrapped onto a second line (each cell one laid-out line), the dialog
// within the screen and the whole table in view.
TEST(WindowState, ShortcutsDialogRowsDoNotWrap) {
    MainWindow w;
    w.show();
    std::unique_ptr<QDialog> d(shortcutsDialog(&w));
    d->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(d.get()));
    auto* text = d->findChild<QTextBrowser*>("shortcuts");
    ASSERT_TRUE(text);
    QTextDocument* doc = text->document();
    doc->documentLayout()->documentSize();  // laid out at the browser's width
    QTextTable* table = nullptr;
    for (QTextFrame* f : doc->rootFrame()->childFrames())
        if (auto* t = qobject_cast<QTextTable*>(f)) table = t;
    ASSERT_TRUE(table);
    ASSERT_EQ(table->columns(), 2);
    const QRect screen = w.screen()->availableGeometry();
    std::cout << "shortcuts dialog " << d->width() << "x" << d->height() << " on a " << screen.width() << "x" << screen.height()
              << " screen\n";
    EXPECT_LE(d->width(), screen.width());
    EXPECT_LE(d->height(), screen.height());
    auto lines = [&](const QTextTableCell& cell) {
        int n = 0;
        for (auto it = cell.begin(); !it.atEnd(); ++it)
            if (QTextBlock b = it.currentBlock(); b.isValid()) n += b.layout()->lineCount();
        return n;
    };
    auto left = [&](const QTextTableCell& cell) { return doc->documentLayout()->blockBoundingRect(cell.begin().currentBlock()).left(); };
    int rows = 0;
    double keyColumn = 0, descriptionColumn = 0;
    for (int r = 0; r < table->rows(); ++r) {
        const QTextTableCell key = table->cellAt(r, 0), what = table->cellAt(r, 1);
        SCOPED_TRACE(key.firstCursorPosition().block().text().toStdString());
        EXPECT_EQ(lines(key), 1);
        if (key.columnSpan() == 2) continue;  // a section heading
        EXPECT_EQ(lines(what), 1) << what.firstCursorPosition().block().text().toStdString();
        keyColumn = std::max(keyColumn, left(what) - left(key));
        for (auto it = what.begin(); !it.atEnd(); ++it)
            descriptionColumn = std::max(descriptionColumn, double(it.currentBlock().layout()->lineAt(0).naturalTextWidth()));
        ++rows;
    }
    EXPECT_EQ(rows, 23);  // every row of the table in menus.cpp (Ctrl+Alt+O, Open Folder, the 23rd)
    EXPECT_LT(keyColumn, descriptionColumn);
    // the whole table in view: no scrolling needed
    EXPECT_FALSE(text->verticalScrollBar()->isVisible());
    EXPECT_FALSE(text->horizontalScrollBar()->isVisible());
    // the Help menu opens this dialog
    QAction* help = nullptr;
    for (QAction* m : w.menuBar()->actions())
        if (m->menu())
            for (QAction* a : m->menu()->actions())
                if (a->text() == "&Keyboard Shortcuts") help = a;
    ASSERT_TRUE(help);
    bool opened = false;
    QTimer::singleShot(100, [&] {
        if (QWidget* m = QApplication::activeModalWidget()) {
            opened = m->findChild<QTextBrowser*>("shortcuts") != nullptr && m->width() == d->width();
            m->close();
        }
    });
    help->trigger();
    EXPECT_TRUE(opened);
}

}  // namespace

namespace {

// A new capture opens on its answers (with links to the collectives they name); the profile is
// stored in the cache in the background after it is shown, and the next open reads it from there.
TEST(WindowState, OpensOnTheAnswersAndCachesTheProfile) {
    const QString cacheDir = qEnvironmentVariable("SKEWSCOPE_CACHE_DIR");
    QDir(cacheDir).removeRecursively();
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        EXPECT_EQ(w.tabs()->currentWidget(), w.findings());
        EXPECT_EQ(w.tabs()->tabText(w.tabs()->currentIndex()), "Answers");
        const QString page = w.findings()->toMarkdown();
        EXPECT_NE(page.indexOf("Who arrived late: 5 big collectives"), -1) << page.left(400).toStdString();
        EXPECT_NE(w.findings()->toHtml().indexOf("skewscope://collective/0/102"), -1);
        EXPECT_NE(page.indexOf("Next capture"), -1);
        // in words: the verdict line first, the advice before the numbers, no identifier of the JSON
        const QString text = w.findings()->toPlainText();
        EXPECT_NE(text.indexOf("Verdict: 5 big (20.62-54.97 ms), rotating ranks; 3 CPU launch"), -1) << text.left(600).toStdString();
        EXPECT_LT(text.indexOf("Verdict: 5 big"), text.indexOf("Who arrived late: 5 big collectives"));
        EXPECT_LT(text.indexOf("Record CPU sampling: 3 late arrivers launched late by the CPU"), text.indexOf("Numbers: group 0"));
        EXPECT_EQ(text.indexOf("cpu_launch"), -1);
        EXPECT_FALSE(w.session()->profile.inputs[0].fromSnapshot);
    }  // the window waits for its snapshot before it goes
    EXPECT_EQ(QDir(cacheDir).entryList({"*.snap"}, QDir::Files).size(), 1);
    MainWindow again;
    ASSERT_TRUE(openAndWait(again, {demoPath()}));
    EXPECT_TRUE(again.session()->profile.inputs[0].fromSnapshot);
    EXPECT_EQ(again.session()->analysis.collectives.size(), 140u);
}

// Each snapshot job is dropped once it has finished: reopening the same exports (a reload) while
// the cache is emptied each time stores a snapshot each time, and none of those jobs stays held.
TEST(WindowState, FinishedSnapshotJobsAreDropped) {
    const QString cacheDir = qEnvironmentVariable("SKEWSCOPE_CACHE_DIR");
    MainWindow w;
    for (int i = 0; i < 4; ++i) {
        SCOPED_TRACE(i);
        QDir(cacheDir).removeRecursively();  // read from the export again: a snapshot to store
        ASSERT_TRUE(openAndWait(w, {demoPath()}));
        ASSERT_FALSE(w.session()->profile.inputs[0].fromSnapshot);
        ASSERT_TRUE(QTest::qWaitFor([&] { return QDir(cacheDir).entryList({"*.snap"}, QDir::Files).size() == 1; }, 20000));
    }
    EXPECT_TRUE(QTest::qWaitFor([&] { return w.loads()->snapshotJobCount() == 0; }, 5000)) << w.loads()->snapshotJobCount() << " jobs held";
}

// Closing the window while two captures load for a comparison: the load is cancelled and waited
// for before the window goes (its worker reads the window's cancel flag, progress and profile
// cache). Without that wait the load ran on, for a second or more, in a window that was gone. (No
// cache here: a worker reading a deleted cache fails at once, which would hide the defect.)
TEST(WindowState, ClosingTheWindowDuringAComparisonLoadStopsIt) {
    skewgen::GenConfig cfg;
    cfg.steps = 300;  // 8 ranks: a load of over a second, uncancelled
    const auto& a = testutil::generated("compare-load-a", cfg);
    cfg.seed = 2;
    const auto& b = testutil::generated("compare-load-b", cfg);
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(5000));
    qputenv("SKEWSCOPE_NO_CACHE", "1");
    auto* w = new MainWindow;
    qunsetenv("SKEWSCOPE_NO_CACHE");
    w->openComparison({QString::fromStdString(a.path)}, {QString::fromStdString(b.path)});
    ASSERT_TRUE(w->isLoading());
    // when the window's own part is gone, nothing of the load may still run
    bool idle = false;
    QObject::connect(w, &QObject::destroyed, [&] { idle = QThreadPool::globalInstance()->waitForDone(100); });
    delete w;
    EXPECT_TRUE(idle);
}

}  // namespace
