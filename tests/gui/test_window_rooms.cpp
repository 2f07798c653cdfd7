// The main window's rooms on their own (ui/window/): the load controller (one load at a time, the
// last one asked for wins, cancel, failure messages, snapshot jobs), recent files, the analysis
// settings (kept between runs, the dialog's checks), the collectives pane's stepping and
// revealing, the warning bar and the empty state.

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include "gui_util.h"
#include "views/heatmap/heatmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/collectives_pane.h"
#include "window/export_actions.h"
#include "window/load_controller.h"
#include "window/recent_files.h"
#include "window/settings.h"
#include "window/status_texts.h"
#include "window/warning_bar.h"

using namespace skewui;
using namespace guitest;

namespace {

// an export that takes over a second to load and analyse: loads still run when the test acts
const testutil::Generated& slowExport() {
    skewgen::GenConfig cfg;
    cfg.steps = 300;
    return testutil::generated("compare-load-a", cfg);
}

bool waitFor(const std::function<bool()>& done) { return QTest::qWaitFor(done, 60000); }

TEST(LoadController, LoadsOneCaptureOrAComparison) {
    LoadController loads;
    QSignalSpy started(&loads, &LoadController::started), loaded(&loads, &LoadController::loaded),
        compared(&loads, &LoadController::compared);
    loads.load({{demoPath()}, {}, {}});
    EXPECT_TRUE(loads.isLoading());
    EXPECT_FALSE(loads.progressBar()->isHidden());
    EXPECT_FALSE(loads.cancelButton()->isHidden());
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty(); }));
    EXPECT_FALSE(loads.isLoading());
    EXPECT_TRUE(loads.progressBar()->isHidden());
    EXPECT_TRUE(loads.cancelButton()->isHidden());
    EXPECT_EQ(started.size(), 1);
    EXPECT_EQ(loaded[0][0].value<SessionPtr>()->files, std::vector<std::string>{demo().path});
    loads.load({{demoPath()}, {realPath("nsysai-mfu_2gpu_before.sqlite")}, {}});
    ASSERT_TRUE(waitFor([&] { return !compared.isEmpty(); }));
    const CompareSessionPtr c = compared[0][0].value<CompareSessionPtr>();
    EXPECT_EQ(c->a->files, std::vector<std::string>{demo().path});
    EXPECT_EQ(c->b->profile.ranks.size(), 2u);
    EXPECT_EQ(loaded.size(), 1);
}

// Two loads asked for while one runs: it is cancelled (without a word), the first of the two is
// replaced by the second before it starts, and only the second is loaded.
TEST(LoadController, TheLastLoadAskedForWins) {
    LoadController loads;
    QSignalSpy started(&loads, &LoadController::started), loaded(&loads, &LoadController::loaded),
        cancelled(&loads, &LoadController::cancelled), failed(&loads, &LoadController::failed);
    loads.load({{QString::fromStdString(slowExport().path)}, {}, {}});
    loads.load({{"/nonexistent/replaced.sqlite"}, {}, {}});  // would fail if it started
    loads.load({{demoPath()}, {}, {}});
    EXPECT_TRUE(loads.isLoading());
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty(); }));
    ASSERT_EQ(started.size(), 2);
    EXPECT_EQ(started[0][0].value<LoadRequest>().files, QStringList{QString::fromStdString(slowExport().path)});
    EXPECT_EQ(started[1][0].value<LoadRequest>().files, QStringList{demoPath()});
    EXPECT_EQ(loaded.size(), 1);
    EXPECT_EQ(loaded[0][0].value<SessionPtr>()->files, std::vector<std::string>{demo().path});
    EXPECT_TRUE(cancelled.isEmpty());
    EXPECT_TRUE(failed.isEmpty());
}

TEST(LoadController, CancelStopsTheLoad) {
    LoadController loads;
    QSignalSpy loaded(&loads, &LoadController::loaded), cancelled(&loads, &LoadController::cancelled);
    const LoadRequest r{{QString::fromStdString(slowExport().path)}, {}, {}};
    loads.load(r);
    loads.cancel();
    ASSERT_TRUE(waitFor([&] { return !cancelled.isEmpty(); }));
    EXPECT_EQ(cancelled[0][0].value<LoadRequest>().files, r.files);
    EXPECT_TRUE(loaded.isEmpty());
    EXPECT_FALSE(loads.isLoading());
    EXPECT_TRUE(loads.progressBar()->isHidden());
}

// The loader's message, one line naming the file; for a comparison, naming the side.
TEST(LoadController, FailuresSayWhatCouldNotBeRead) {
    LoadController loads;
    QSignalSpy failed(&loads, &LoadController::failed);
    loads.load({{"/nonexistent/rank0.sqlite"}, {}, {}});
    ASSERT_TRUE(waitFor([&] { return !failed.isEmpty(); }));
    EXPECT_EQ(failed[0][0].value<LoadRequest>().files, QStringList{"/nonexistent/rank0.sqlite"});
    const QString single = failed[0][1].toString();
    EXPECT_NE(single.indexOf("/nonexistent/rank0.sqlite"), -1) << single.toStdString();
    EXPECT_FALSE(single.contains('\n'));
    loads.load({{demoPath()}, {"/nonexistent/after.sqlite"}, {}});
    ASSERT_TRUE(waitFor([&] { return failed.size() == 2; }));
    EXPECT_TRUE(failed[1][0].value<LoadRequest>().comparison());
    const QString side = failed[1][1].toString();
    EXPECT_TRUE(side.startsWith("B (after): ")) << side.toStdString();
    EXPECT_NE(side.indexOf("/nonexistent/after.sqlite"), -1) << side.toStdString();
}

// A snapshot job is held while it runs only: the same fresh session stored five times leaves none.
TEST(LoadController, SnapshotJobsAreHeldWhileTheyRun) {
    const QString cacheDir = qEnvironmentVariable("SKEWSCOPE_CACHE_DIR");
    QDir(cacheDir).removeRecursively();
    LoadController loads;
    QSignalSpy loaded(&loads, &LoadController::loaded), failed(&loads, &LoadController::snapshotFailed);
    loads.load({{demoPath()}, {}, {}});
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty(); }));
    const SessionPtr s = loaded[0][0].value<SessionPtr>();
    ASSERT_FALSE(s->profile.inputs[0].fromSnapshot);
    for (int i = 0; i < 5; ++i) loads.storeSnapshots(s);
    EXPECT_GE(loads.snapshotJobCount(), 1);
    ASSERT_TRUE(waitFor([&] { return loads.snapshotJobCount() == 0; }));
    EXPECT_TRUE(failed.isEmpty());
    EXPECT_EQ(QDir(cacheDir).entryList({"*.snap"}, QDir::Files).size(), 1);
}

// Reload (F5, or a settings change) reloads what is shown: after a comparison that failed to open,
// the one still shown (it reloaded the failed one, before the load controller).
TEST(LoadController, ReloadReloadsTheComparisonShown) {
    MainWindow w;
    const QString a = realPath("nsysai-mfu_2gpu_before.sqlite"), b = realPath("nsysai-mfu_2gpu_after.sqlite");
    QSignalSpy compared(&w, &MainWindow::comparisonLoaded), failed(&w, &MainWindow::loadFailed);
    w.openComparison({a}, {b});
    ASSERT_TRUE(waitFor([&] { return !compared.isEmpty(); }));
    w.openComparison({a}, {"/nonexistent/after.sqlite"});
    ASSERT_TRUE(waitFor([&] { return !failed.isEmpty(); }));
    ASSERT_TRUE(w.inCompareMode());
    w.reload();
    ASSERT_TRUE(waitFor([&] { return compared.size() == 2 || failed.size() == 2; }));
    EXPECT_EQ(compared.size(), 2);
    EXPECT_EQ(w.comparison()->b->files, std::vector<std::string>{b.toStdString()});
}

TEST(RecentFiles, NewestFirstTenAtMostAndTheyOpenWhatTheyName) {
    const std::string dir = testutil::tempDir("recent");
    const QString d = QString::fromStdString(dir);
    QMenu menu;
    RecentFiles recent(&menu, nullptr);
    EXPECT_FALSE(menu.isEnabled());
    recent.add({d + "/a.sqlite"});
    recent.add({d + "/b.sqlite", d + "/c.sqlite"});
    recent.addComparison({d + "/a.sqlite"}, {d + "/b.sqlite"});
    recent.add({d + "/a.sqlite"});  // again: moves to the front, not twice
    QStringList texts;
    for (QAction* a : menu.actions()) texts << a->text();
    EXPECT_EQ(texts, QStringList({"a.sqlite", "a.sqlite vs b.sqlite", "b.sqlite (+1 more)"}));
    EXPECT_TRUE(menu.isEnabled());
    EXPECT_EQ(menu.actions()[1]->toolTip(), "compare " + d + "/a.sqlite with " + d + "/b.sqlite");
    QSignalSpy open(&recent, &RecentFiles::openRequested), compare(&recent, &RecentFiles::compareRequested);
    menu.actions()[2]->trigger();
    menu.actions()[1]->trigger();
    ASSERT_EQ(open.size(), 1);
    EXPECT_EQ(open[0][0].toStringList(), QStringList({d + "/b.sqlite", d + "/c.sqlite"}));
    ASSERT_EQ(compare.size(), 1);
    EXPECT_EQ(compare[0][0].toStringList(), QStringList{d + "/a.sqlite"});
    EXPECT_EQ(compare[0][1].toStringList(), QStringList{d + "/b.sqlite"});
    // kept with absolute paths, one line per file; a relative name is made absolute
    const QStringList kept = QSettings().value("recent").toStringList();
    EXPECT_EQ(kept[1], d + "/a.sqlite\n--vs\n" + d + "/b.sqlite");
    recent.add({"relative.sqlite"});
    EXPECT_EQ(QSettings().value("recent").toStringList().front(), QDir::current().absoluteFilePath("relative.sqlite"));
    // ten at most, the oldest go
    for (int i = 0; i < 12; ++i) recent.add({d + QString("/r%1.sqlite").arg(i)});
    ASSERT_EQ(menu.actions().size(), 10);
    EXPECT_EQ(menu.actions().front()->text(), "r11.sqlite");
    EXPECT_EQ(menu.actions().back()->text(), "r2.sqlite");
    // removed (a file that no longer opens); a menu built later reads the same list
    recent.remove({d + "/r11.sqlite"});
    recent.removeComparison({d + "/a.sqlite"}, {d + "/b.sqlite"});  // no longer listed: nothing to do
    QMenu again;
    RecentFiles later(&again, nullptr);
    ASSERT_EQ(again.actions().size(), 9);
    EXPECT_EQ(again.actions().front()->text(), "r10.sqlite");
}

TEST(Settings, AnalysisOptionsAreKeptButNotTheTimeWindow) {
    const skew::AnalysisOptions defaults;
    EXPECT_EQ(loadAnalysisOptions().bigSkewNs, defaults.bigSkewNs);
    skew::AnalysisOptions o;
    o.bigSkewNs = 12'500'000;
    o.anomalyThreshold = 4.5;
    o.stepRegex = "^iter_(\\d+)$";
    o.hasTrim = true, o.trimStartNs = 1, o.trimEndNs = 2;
    saveAnalysisOptions(o);
    const skew::AnalysisOptions back = loadAnalysisOptions();
    EXPECT_EQ(back.bigSkewNs, 12'500'000);
    EXPECT_EQ(back.anomalyThreshold, 4.5);
    EXPECT_EQ(back.stepRegex, "^iter_(\\d+)$");
    EXPECT_FALSE(back.hasTrim);
    // the window reads them when it opens, and keeps what Analysis > Settings sets
    MainWindow w;
    EXPECT_EQ(w.analysisOptions().bigSkewNs, 12'500'000);
    o.bigSkewNs = 30'000'000;
    w.setAnalysisOptions(o);
    MainWindow next;
    EXPECT_EQ(next.analysisOptions().bigSkewNs, 30'000'000);
    EXPECT_EQ(next.analysisOptions().anomalyThreshold, 4.5);
}

TEST(Settings, DialogTakesOnlyWhatTheCommandLineWould) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    skew::AnalysisOptions o = w.analysisOptions();
    SettingsDialog d(o, w.session().get());
    // in the user's units; no window set: the exports' whole time range is offered
    EXPECT_DOUBLE_EQ(d.bigSkew()->value(), double(o.bigSkewNs) / 1e6);
    EXPECT_FALSE(d.trim()->isChecked());
    EXPECT_LT(d.trimStart()->value(), d.trimEnd()->value());
    d.bigSkew()->setValue(40);
    d.stepRegex()->setText("(");
    d.accept();
    EXPECT_NE(d.result(), QDialog::Accepted);
    EXPECT_TRUE(d.errorText().startsWith("The step pattern is not valid")) << d.errorText().toStdString();
    EXPECT_EQ(d.options().bigSkewNs, o.bigSkewNs);  // nothing taken
    d.stepRegex()->setText("^step_(\\d+)$");
    d.trim()->setChecked(true);
    d.trimStart()->setValue(5.0);
    d.trimEnd()->setValue(4.0);
    d.accept();
    EXPECT_NE(d.result(), QDialog::Accepted);
    EXPECT_EQ(d.errorText(), "The time window must end after it starts.");
    d.trimEnd()->setValue(5.25);
    d.accept();
    EXPECT_EQ(d.result(), QDialog::Accepted);
    EXPECT_EQ(d.options().bigSkewNs, 40'000'000);
    EXPECT_EQ(d.options().stepRegex, "^step_(\\d+)$");
    EXPECT_TRUE(d.options().hasTrim);
    EXPECT_EQ(d.options().trimStartNs, 5'000'000'000);
    EXPECT_EQ(d.options().trimEndNs, 5'250'000'000);
}

// N/P stop at the table's ends; B/Shift+B go around it. A collective the filters hide is revealed
// by clearing just those filters, and the pane says which.
TEST(CollectivesPane, StepsAndReveals) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    CollectivesPane* pane = w.collectivesPane();
    const int first = pane->firstListed(), last = pane->step(first, -1, false);
    EXPECT_EQ(last, first);  // clamped at the first row
    EXPECT_EQ(pane->step(first, +1, false), collectiveOf(w, 0, 2));
    const int biggestLast = collectiveOf(w, 0, 111);  // the last planted late arriver
    EXPECT_EQ(pane->step(biggestLast, +1, true), collectiveOf(w, 0, 5));  // around the end to the first
    EXPECT_EQ(pane->step(collectiveOf(w, 0, 5), -1, true), biggestLast);
    pane->setFilters({{}, -1, "gpu_dependency", 20, false});
    const int cpuLate = collectiveOf(w, 0, 63);
    ASSERT_FALSE(pane->accepts(cpuLate));
    EXPECT_EQ(pane->reveal(cpuLate), "Filters cleared to show G0 #63: cause GPU dependency.");
    EXPECT_TRUE(pane->accepts(cpuLate));
    EXPECT_DOUBLE_EQ(pane->filters().minSkewMs, 20);  // the filter that did not hide it stays
    EXPECT_EQ(pane->reveal(cpuLate), "");
    pane->setFilters({"AllReduce", -1, {}, 0, true});
    EXPECT_TRUE(pane->showsFilterEmptyState());
    EXPECT_EQ(pane->firstListed(), -1);
    EXPECT_EQ(pane->step(-1, +1, true), -1);
}

TEST(WindowTexts, WarningBarAndEmptyState) {
    WarningBar bar;
    bar.show();
    bar.setWarnings({"device 0 was not captured", "group 1 matching warn: 3 of 5 collectives complete"});
    EXPECT_TRUE(bar.isVisible());
    EXPECT_EQ(bar.findChild<QLabel*>()->text(), "Warnings: device 0 was not captured\ngroup 1 matching warn: 3 of 5 collectives complete");
    // on its yellow, inside its border (a QWidget subclass paints a style sheet's background only when told to)
    const QImage picture = bar.grab().toImage();
    EXPECT_EQ(QColor(picture.pixel(3, picture.height() / 2)), QColor(0xff, 0xf4, 0xcc));
    EXPECT_EQ(QColor(picture.pixel(0, picture.height() / 2)), QColor(0xe0, 0xc0, 0x60));
    bar.setWarnings({});
    EXPECT_FALSE(bar.isVisible());
    EXPECT_EQ(emptyStateText(nullptr, true), "Loading...");
    EXPECT_TRUE(emptyStateText(nullptr, false).startsWith("Open Nsight Systems SQLite exports"));
    EXPECT_EQ(sessionStatusText(nullptr), "No exports open");
}

}  // namespace

// File > Export View names what it exports (review: Ctrl+E with the heatmap shown said "Export
// collective view" and offered demo_G0_C5.png), and with nothing open it says so instead of doing
// nothing.
TEST(ExportActions, ViewDialogNamesTheTabShown) {
    MainWindow w;
    QString why;
    EXPECT_TRUE(w.exports()->viewDialogTitle(&why).isEmpty());
    EXPECT_EQ(why, "Nothing to export yet: open exports first (File > Open, Ctrl+O).");
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    const int c = collectiveOf(w, 0, 5);
    w.selectCollective(c);
    EXPECT_EQ(w.exports()->viewDialogTitle(), "Export view: Collective");
    EXPECT_EQ(w.exports()->viewFileName("png"), "demo_G0_C5.png");
    w.viewTabs()->setCurrentWidget(w.heatmap());
    EXPECT_EQ(w.exports()->viewDialogTitle(), "Export view: Heatmap");
    EXPECT_EQ(w.exports()->viewFileName("svg"), "demo_heatmap.svg");
    w.viewTabs()->setCurrentWidget(w.timeline());
    EXPECT_EQ(w.exports()->viewFileName("png"), "demo_timeline.png");
}
