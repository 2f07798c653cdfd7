// GUI tests (offscreen): open a generated profile, select a planted late arriver in the table,
// click its bar, read the details; models pass QAbstractItemModelTester; exports; real files.

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QStatusBar>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <locale.h>

#include "views/collective/collective_view.h"
#include "report/format.h"
#include "export_checks.h"
#include "gen_fixture.h"
#include "gui_util.h"
#include "json_value.h"
#include "window/export_actions.h"
#include "window/main_window.h"
#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "models/ranks_model.h"

using namespace testutil;
using namespace skewui;
using namespace guitest;

namespace {

// The indices (group 0, in order) of the demo's big collectives by the generator's truth: those
// every rank took part in whose start skew (latest member start - earliest) is over `thresholdNs`.
std::vector<uint32_t> truthBig(int64_t thresholdNs = 20'000'000) {
    std::vector<uint32_t> out;
    const auto& truth = demo().result;
    for (const auto& tc : truth.collectives) {
        if (tc.group != 0 || tc.members.size() != truth.rankLabels.size()) continue;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
        if (hi - lo > thresholdNs) out.push_back(uint32_t(tc.index));
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(Gui, ModelsPassTheModelTester) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    auto* proxy = w.filter();
    QAbstractItemModelTester t1(proxy->sourceModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(proxy->sourceModel()->rowCount(), 140);
    proxy->setBigOnly(true);
    EXPECT_EQ(proxy->rowCount(), int(truthBig().size()));
    proxy->setBigOnly(false);
    proxy->setOp("ReduceScatter");
    EXPECT_EQ(proxy->rowCount(), 45);
    proxy->setOp({});
    proxy->setCause("gpu_dependency");
    proxy->setMinSkewMs(20);
    EXPECT_EQ(proxy->rowCount(), 2);
    proxy->setCause({});
    proxy->setMinSkewMs(0);
    proxy->sort(CollectiveModel::StartSkew, Qt::DescendingOrder);
    // the biggest start skew first: the 55 ms ReduceScatter
    int top = proxy->mapToSource(proxy->index(0, 0)).row();
    EXPECT_EQ(w.session()->analysis.collectives[size_t(top)].index, 102u);
    RanksModel ranks;
    QAbstractItemModelTester t3(&ranks, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ranks.setSession(w.session(), 0);
    EXPECT_EQ(ranks.rowCount(), 7);
    EXPECT_EQ(ranks.data(ranks.index(0, RanksModel::Rank)).toString(), "dev 1");
}

// "Saved PATH" after an export is said for a few seconds over the capture's summary, which stays
// (it was replaced until the next load: review, December 2026).
TEST(Gui, SavedIsSaidForAWhileAndTheCapturesSummaryStays) {
    DemoWindow d;
    auto* label = d.w.findChild<QLabel*>("statusText");
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->text(), d.w.statusText());
    emit d.w.exports()->saved("/tmp/demo_report.md");
    EXPECT_EQ(d.w.statusBar()->currentMessage(), "Saved /tmp/demo_report.md");
    EXPECT_EQ(label->text(), d.w.statusText());  // under the message, back when it goes
    d.w.statusBar()->clearMessage();             // (as its timeout does)
    EXPECT_TRUE(label->isVisible());
}

TEST(Gui, SelectPlantedLateArriverClickItsBarReadDetails) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    EXPECT_NE(w.statusText().indexOf("7 ranks"), -1);
    EXPECT_NE(w.statusText().indexOf("140 collectives"), -1);
    EXPECT_NE(w.statusText().indexOf("2026.2.1.210"), -1);
    const auto& truth = demo().result;
    for (const auto& tl : truth.late) {
        SCOPED_TRACE("planted index " + std::to_string(tl.index));
        int row = tableRow(w, 0, uint32_t(tl.index));
        ASSERT_GE(row, 0);
        // select it in the table as a user would: click the row
        QTableView* t = w.table();
        t->scrollTo(w.filter()->index(row, 0));
        QRect cell = t->visualRect(w.filter()->index(row, 1));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell.center());
        const auto& c = w.session()->analysis.collectives[size_t(w.currentCollective())];
        ASSERT_EQ(c.index, uint32_t(tl.index));
        // the late rank's bar: a main-row transfer bar flagged late
        CollectiveView* v = w.view();
        int bar = -1;
        for (size_t i = 0; i < v->scene().bars.size(); ++i)
            if (v->scene().bars[i].late && v->scene().bars[i].kind == skew::KernelClass::NcclTransfer) bar = int(i);
        ASSERT_GE(bar, 0);
        w.details()->clear();
        QTest::mouseClick(v, Qt::LeftButton, {}, v->barCenter(bar).toPoint());
        QString d = w.details()->toPlainText();
        // the truth's member of the late rank: its correlation id is shown, with the launch
        const skewgen::TruthMember* late = nullptr;
        for (const auto& tc : truth.collectives)
            if (tc.group == 0 && tc.index == tl.index)
                for (const auto& m : tc.members)
                    if (m.rank == tl.planted.rank) late = &m;
        ASSERT_TRUE(late);
        EXPECT_NE(d.indexOf("Correlation id: " + QString::number(late->correlationId)), -1) << d.toStdString();
        EXPECT_NE(d.indexOf("Launch API: cuLaunchKernelEx"), -1);
        EXPECT_NE(d.indexOf("Late arriver: yes"), -1);
        EXPECT_NE(d.indexOf("ProfilerStep#" + QString::number(tl.planted.step)), -1);  // NVTX around the launch
        if (tl.planted.kind == skewgen::LateKind::Gpu) {
            EXPECT_NE(d.indexOf("Predecessor: " + QString::fromStdString(tl.predecessorName)), -1) << d.toStdString();
            EXPECT_NE(d.indexOf("cause GPU dependency"), -1);
        } else {
            EXPECT_NE(d.indexOf("cause CPU launch"), -1);
        }
        // the predecessor is drawn emphasised in the thin lane
        bool predDrawn = false;
        for (const auto& b : v->scene().bars) predDrawn |= b.predecessor;
        EXPECT_EQ(predDrawn, tl.planted.kind == skewgen::LateKind::Gpu);
        EXPECT_TRUE(v->scene().launch.present);
    }
}

// The real 2xH100 export (before the fix), G0 #32: dev 1 arrived 3.34 ms late, its NCCL kernel
// queued on stream 15 behind an elementwise kernel that ended just before it began. The late bar's
// details name that kernel, its stream and the gap, all three read from the export with SQL here.
TEST(Gui, RealExportLateBarDetailsNameItsPredecessorOnItsOwnStream) {
    const std::string path = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    // each device's 32nd NCCL kernel (collective #32 of the SendRecv group), the later one late
    const std::string nccl =
        "WITH nccl AS (SELECT k.start, k.deviceId AS dev, k.streamId AS stream, ROW_NUMBER() OVER (PARTITION BY k.deviceId ORDER BY k.start) AS n"
        " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE 'nccl%') ";
    auto lateField = [&](const std::string& col) { return sqlCount(path, nccl + "SELECT " + col + " FROM nccl WHERE n = 32 ORDER BY start DESC LIMIT 1"); };
    const int64_t lateStart = lateField("start"), lateDev = lateField("dev"), lateStream = lateField("stream");
    ASSERT_EQ(lateDev, 1);
    ASSERT_EQ(lateStream, 15);
    // the kernel that ended last before it on its stream
    const std::string before = " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(lateDev) + " AND streamId = " +
                               std::to_string(lateStream) + " AND end <= " + std::to_string(lateStart);
    const int64_t predEnd = sqlCount(path, "SELECT max(end)" + before);
    const int64_t predName = sqlCount(path, "SELECT demangledName" + before + " ORDER BY end DESC LIMIT 1");
    ASSERT_GT(predEnd, 0);
    const QString demangled = QString::fromStdString(sqlText(path, "SELECT value FROM StringIds WHERE id = " + std::to_string(predName)));
    // named as in the details: the demangled name without "void " and the template arguments
    ASSERT_TRUE(demangled.startsWith("void at::native::elementwise_kernel<(int)128, (int)4, ")) << demangled.toStdString();
    const QString name = demangled.mid(5, demangled.indexOf('<') - 5);
    // it ended just before the late kernel began: inside the predecessor window (docs/analysis.md)
    ASSERT_GE(lateStart - predEnd, 0);
    ASSERT_LE(lateStart - predEnd, 100'000);
    const QString gap = QString::fromStdString(skew::formatDuration(lateStart - predEnd));

    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(path)}));
    ASSERT_TRUE(w.selectCollective(0, 32));
    const skew::Collective& c = w.session()->analysis.collectives[size_t(w.currentCollective())];
    ASSERT_EQ(c.maxStart, lateStart);  // one capture: its clock, unshifted
    CollectiveView* v = w.view();
    int bar = -1;
    for (size_t i = 0; i < v->scene().bars.size(); ++i)
        if (v->scene().bars[i].late && !v->scene().bars[i].sub) bar = int(i);
    ASSERT_GE(bar, 0);
    w.details()->clear();
    QTest::mouseClick(v, Qt::LeftButton, {}, v->barCenter(bar).toPoint());
    const QString d = w.details()->toPlainText();
    const QString want = QString("queued behind %1 on its own stream %2 (started %3 after it)").arg(name).arg(lateStream).arg(gap);
    EXPECT_NE(d.indexOf(want), -1) << d.toStdString();
    EXPECT_NE(d.indexOf("Late arriver: yes"), -1) << d.toStdString();
}

TEST(Gui, AnalysisSettingsReanalyse) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    w.setFilters({}, -1, {}, 0, true);  // big only, as the check box sets it
    EXPECT_EQ(w.filter()->rowCount(), int(truthBig().size()));
    skew::AnalysisOptions o = w.analysisOptions();
    o.bigSkewNs = 40'000'000;
    QSignalSpy ok(&w, &MainWindow::sessionLoaded);
    w.setAnalysisOptions(o);
    for (int i = 0; i < 200 && ok.isEmpty(); ++i) QTest::qWait(20);
    ASSERT_EQ(ok.size(), 1);
    EXPECT_EQ(w.session()->analysis.options.bigSkewNs, 40'000'000);
    EXPECT_EQ(w.filter()->rowCount(), int(truthBig(40'000'000).size()));
    EXPECT_EQ(truthBig(40'000'000).size(), 2u);  // the 47 ms and 55 ms late arrivers: a threshold that splits them
}

TEST(Gui, KeyboardNavigationOverBigLateArrivers) {
    MainWindow w;
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    // B walks the big collectives in order, Shift+B back: those the truth says are big
    const std::vector<uint32_t> big = truthBig();
    ASSERT_EQ(big.size(), demo().result.late.size());  // the planted late arrivers, each over 20 ms
    std::vector<uint32_t> seen;
    w.selectCollective(0);
    for (size_t i = 0; i < big.size(); ++i) {
        QTest::keyClick(&w, Qt::Key_B);
        seen.push_back(w.session()->analysis.collectives[size_t(w.currentCollective())].index);
    }
    EXPECT_EQ(seen, big);
    QTest::keyClick(&w, Qt::Key_B, Qt::ShiftModifier);
    EXPECT_EQ(w.session()->analysis.collectives[size_t(w.currentCollective())].index, big[big.size() - 2]);
    int before = w.currentCollective();
    QTest::keyClick(&w, Qt::Key_N);
    EXPECT_NE(w.currentCollective(), before);
    QTest::keyClick(&w, Qt::Key_P);
    EXPECT_EQ(w.currentCollective(), before);
    // zoom and fit in the view
    CollectiveView* v = w.view();
    double span = v->xAxis->range().size();
    QTest::keyClick(v, Qt::Key_Plus);
    EXPECT_LT(v->xAxis->range().size(), span);
    QTest::keyClick(v, Qt::Key_0);
    EXPECT_DOUBLE_EQ(v->xAxis->range().size(), span);
}

TEST(Gui, ExportsAndRenderDrawTheSameView) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    std::string dir = tempDir("gui-export");
    int row = tableRow(w, 0, 102);
    w.selectCollective(w.filter()->mapToSource(w.filter()->index(row, 0)).row());
    QString png = QString::fromStdString(dir + "/view.png");
    ASSERT_TRUE(w.exportView(png, 1600, 900));
    QImage img(png);
    EXPECT_EQ(img.size(), QSize(1600, 900));
    // the SVG and the PDF hold the view: its title (the collective, its op and step, the late rank
    // and its lateness, all from the generator's truth), every rank's label, and its bars
    const skewgen::TruthLate* planted = nullptr;
    for (const auto& tl : demo().result.late)
        if (tl.index == 102) planted = &tl;
    ASSERT_TRUE(planted);
    const skewgen::TruthCollective* truth = nullptr;
    for (const auto& tc : demo().result.collectives)
        if (tc.group == 0 && tc.index == 102) truth = &tc;
    ASSERT_TRUE(truth);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& m : truth->members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
    const std::string late = demo().result.rankLabels[size_t(planted->planted.rank)];
    const QString titleStart = QString::fromStdString("G0 #102 " + truth->op + ", step " + std::to_string(planted->planted.step) + " ");
    const QString titleEnd = QString::fromStdString(", " + late + " late by " + skew::formatDuration(hi - lo));
    ASSERT_TRUE(w.exportView(QString::fromStdString(dir + "/view.svg"), 1600, 900));
    const SvgContent svg = readSvg(dir + "/view.svg");
    ASSERT_EQ(svg.error, QString());
    EXPECT_EQ(svg.viewBox, QRectF(0, 0, 1600, 900));
    ASSERT_FALSE(svg.texts.isEmpty());
    EXPECT_TRUE(svg.texts[0].startsWith(titleStart)) << svg.texts[0].toStdString();
    EXPECT_TRUE(svg.texts[0].endsWith(titleEnd)) << svg.texts[0].toStdString();
    for (const auto& label : demo().result.rankLabels) EXPECT_TRUE(svg.hasTextStartingWith(QString::fromStdString(label))) << label;
    EXPECT_GE(svg.shapes, int(demo().result.rankLabels.size()));  // a bar per rank at least
    ASSERT_TRUE(w.exportView(QString::fromStdString(dir + "/view.pdf"), 1600, 900));
    const PdfContent pdf = readPdf(dir + "/view.pdf");
    ASSERT_EQ(pdf.error, "");
    EXPECT_TRUE(pdf.header);
    EXPECT_EQ(pdf.pages, 1);
    EXPECT_NE(pdf.text.find((titleStart.trimmed()).toStdString()), std::string::npos) << pdf.text;
    EXPECT_NE(pdf.text.find(late + " late by " + skew::formatDuration(hi - lo)), std::string::npos) << pdf.text;
    for (const auto& label : demo().result.rankLabels) EXPECT_NE(pdf.text.find(label), std::string::npos) << label;
    QString err;
    EXPECT_FALSE(w.exportView(QString::fromStdString(dir + "/view.bmp"), 1600, 900, &err));
    EXPECT_NE(err.indexOf(".png"), -1);
    ASSERT_TRUE(w.exportWindow(QString::fromStdString(dir + "/window.png")));
    EXPECT_FALSE(QImage(QString::fromStdString(dir + "/window.png")).isNull());
    ASSERT_TRUE(w.exportReport(QString::fromStdString(dir + "/report.md")));
    EXPECT_EQ(slurp(dir + "/report.md").rfind("# Skewscope findings", 0), 0u);
    // `render` draws the same collective identically
    RunResult r = runSkewscope({"render", demo().path, "--collective", "0:102", "--output", dir + "/render.png", "--size", "1600x900"},
                               "QT_QPA_PLATFORM=offscreen");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    QImage rendered(QString::fromStdString(dir + "/render.png"));
    ASSERT_EQ(rendered.size(), img.size());
    EXPECT_TRUE(rendered.convertToFormat(QImage::Format_ARGB32) == img.convertToFormat(QImage::Format_ARGB32));
    // `--collective worst` is the largest start skew: the same collective here
    RunResult worst = runSkewscope({"render", demo().path, "--collective", "worst", "--output", dir + "/worst.png", "--size", "1600x900"},
                                   "QT_QPA_PLATFORM=offscreen");
    ASSERT_EQ(worst.exitCode, 0) << worst.err;
    EXPECT_TRUE(QImage(QString::fromStdString(dir + "/worst.png")).convertToFormat(QImage::Format_ARGB32) ==
                img.convertToFormat(QImage::Format_ARGB32));
    // no temp files left behind
    for (auto& e : std::filesystem::directory_iterator(dir)) EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
    std::filesystem::remove_all(dir);
}

// Exports from the viewer never replace an open export, whatever the spelling (direct path, a
// symlink): refused with a message naming the file, and the export's bytes are unchanged.
TEST(Gui, ExportsRefuseToOverwriteAnOpenExport) {
    std::string dir = tempDir("gui-export-input");
    std::string copy = dir + "/rank.sqlite";
    std::filesystem::copy_file(demo().path, copy);
    std::filesystem::create_symlink(copy, dir + "/link.sqlite");
    const std::string before = slurp(copy);
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(copy)}));
    for (const std::string& target : {copy, dir + "/link.sqlite", dir + "/./rank.sqlite"}) {
        SCOPED_TRACE(target);
        QString t = QString::fromStdString(target), err;
        EXPECT_FALSE(w.exportView(t, 800, 600, &err));
        EXPECT_NE(err.indexOf("refusing to overwrite"), -1) << err.toStdString();
        err.clear();
        EXPECT_FALSE(w.exportWindow(t, &err));
        EXPECT_NE(err.indexOf(QString::fromStdString(copy)), -1) << err.toStdString();
        err.clear();
        EXPECT_FALSE(w.exportReport(t, &err));
        EXPECT_NE(err.indexOf("refusing to overwrite"), -1) << err.toStdString();
    }
    EXPECT_TRUE(slurp(copy) == before);
    // another name in the same folder is fine
    EXPECT_TRUE(w.exportReport(QString::fromStdString(dir + "/report.md")));
    std::filesystem::remove_all(dir);
}

// render takes analyze's options and draws that analysis: with --trim, "worst" is the largest start
// skew inside the window (found here from analyze's JSON with the same --trim), not the run's.
TEST(Gui, RenderTakesTheAnalysisOptions) {
    const std::vector<std::string> trim = {"--trim", "5.0", "5.25"};
    std::vector<std::string> analyze = {"analyze", demo().path, "--format", "json"};
    analyze.insert(analyze.end(), trim.begin(), trim.end());
    RunResult a = runSkewscope(analyze);
    ASSERT_EQ(a.exitCode, 0) << a.err;
    auto v = testjson::parse(a.out);
    int64_t best = -1;
    std::string worst;
    for (const auto& c : v["collectives"].arr)
        if (c["complete"].b && c["start_skew_ns"].i64() > best)
            best = c["start_skew_ns"].i64(), worst = std::to_string(c["group"].i64()) + ":" + std::to_string(c["index"].i64());
    ASSERT_EQ(worst, "0:41");  // the 47.06 ms event: the run's worst (55 ms) lies outside the window
    std::string dir = tempDir("render-options");
    auto render = [&](const std::string& collective, bool trimmed, const std::string& out) {
        std::vector<std::string> args = {"render", demo().path, "--collective", collective, "--output", dir + "/" + out, "--size", "800x450"};
        if (trimmed) args.insert(args.end(), trim.begin(), trim.end());
        RunResult r = runSkewscope(args, "QT_QPA_PLATFORM=offscreen");
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return QImage(QString::fromStdString(dir + "/" + out)).convertToFormat(QImage::Format_ARGB32);
    };
    const QImage trimmedWorst = render("worst", true, "worst-trimmed.png");
    ASSERT_FALSE(trimmedWorst.isNull());
    EXPECT_TRUE(trimmedWorst == render(worst, true, "named-trimmed.png"));
    EXPECT_FALSE(trimmedWorst == render("worst", false, "worst.png"));
    EXPECT_EQ(runSkewscope({"render", demo().path, "--collective", "worst", "--output", dir + "/x.png", "--big-skew-ms", "abc"}).exitCode, 2);
    std::filesystem::remove_all(dir);
}

// Numbers do not follow the user's locale: under de_DE.UTF-8 (a decimal comma, '.' grouping) each
// view render draws is the picture drawn under the C locale (durations, axis ticks, counts).
TEST(Gui, RenderDrawsTheSameUnderAGermanLocale) {
    const locale_t german = newlocale(LC_ALL_MASK, "de_DE.UTF-8", locale_t(0));
    ASSERT_NE(german, locale_t(0)) << "the locale de_DE.UTF-8 is missing: scripts/setup-deps.sh makes it";
    freelocale(german);
    const std::string dir = tempDir("render-locale");
    const std::string before = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", after = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    const std::vector<std::vector<std::string>> views = {
        {"render", demo().path, "--collective", "worst"},
        {"render", demo().path, "--view", "timeline", "--collective", "worst"},
        {"render", demo().path, "--view", "stepmap", "--collective", "worst"},
        {"render", demo().path, "--view", "heatmap", "--collective", "worst"},
        {"render", before, "--view", "timeline", "--collective", "worst"},  // kernel counts over 1,000
        {"render", before, "--vs", after, "--view", "compare", "--collective", "worst"}};
    for (size_t i = 0; i < views.size(); ++i) {
        auto draw = [&](const std::string& locale) {
            const std::string out = dir + "/" + std::to_string(i) + "-" + locale + ".png";
            std::vector<std::string> args = views[i];
            args.insert(args.end(), {"--output", out, "--size", "1200x700"});
            RunResult r = runSkewscope(args, "QT_QPA_PLATFORM=offscreen LC_ALL=" + locale);
            EXPECT_EQ(r.exitCode, 0) << r.err;
            return QImage(QString::fromStdString(out)).convertToFormat(QImage::Format_ARGB32);
        };
        const QImage inC = draw("C.UTF-8");
        ASSERT_FALSE(inC.isNull());
        EXPECT_TRUE(draw("de_DE.UTF-8") == inC) << views[i][2] << " " << views[i][3];
    }
    std::filesystem::remove_all(dir);
}

TEST(Gui, RenderErrors) {
    EXPECT_EQ(runSkewscope({"render", demo().path, "--collective", "0:999", "--output", "/tmp/x.png"}).exitCode, 1);
    EXPECT_EQ(runSkewscope({"render", demo().path, "--collective", "7:1", "--output", "/tmp/x.png"}).exitCode, 1);
    EXPECT_EQ(runSkewscope({"render", "/nonexistent.sqlite", "--collective", "1", "--output", "/tmp/x.png"}).exitCode, 3);
}

TEST(Gui, OpensEveryRealExport) {
    for (const auto& path : realExports()) {
        SCOPED_TRACE(path);
        MainWindow w;
        w.show();
        ASSERT_TRUE(openAndWait(w, {QString::fromStdString(path)}));
        const auto& a = w.session()->analysis;
        if (a.groups.empty()) {
            EXPECT_TRUE(w.showsEmptyState());
            EXPECT_FALSE(w.emptyStateText().isEmpty());
        } else {
            EXPECT_FALSE(w.showsEmptyState());
            EXPECT_GE(w.currentCollective(), 0);
        }
    }
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite")}));
    EXPECT_EQ(w.session()->analysis.collectives.size(), 33u);
    EXPECT_EQ(w.filter()->rowCount(), 33);
}

TEST(Gui, BadFileShowsAnErrorAndCancelStopsLoading) {
    MainWindow w;
    QString err;
    EXPECT_FALSE(w.exportView("/tmp/none.png", 800, 600, &err));  // nothing open yet
    EXPECT_FALSE(err.isEmpty());
    err.clear();
    EXPECT_FALSE(w.exportReport("/tmp/none.md", &err));
    EXPECT_FALSE(err.isEmpty());
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    EXPECT_FALSE(openAndWait(w, {"/nonexistent/rank0.sqlite"}));
    ASSERT_EQ(failed.size(), 1);
    EXPECT_NE(failed[0][0].toString().indexOf("/nonexistent/rank0.sqlite"), -1);
    EXPECT_FALSE(w.session());
    // cancel right after starting: nothing is loaded, the window stays usable. The export is one
    // no test opened before (no snapshot in the cache) with about 150,000 kernels: a read of a few
    // hundred ms, where the demo's snapshot is read in a few, often before the cancel came
    skewgen::GenConfig big;
    big.steps = int(150'000 / skewgen::kernelsPerStep(big)) + 1;
    const std::string slow = generated("gui-cancel", big).path;
    QSignalSpy failed2(&w, &MainWindow::loadFailed);
    w.openFiles({QString::fromStdString(slow)});
    w.cancelLoading();
    for (int i = 0; i < 200 && failed2.isEmpty(); ++i) QTest::qWait(20);
    ASSERT_EQ(failed2.size(), 1);
    EXPECT_EQ(failed2[0][0].toString(), "cancelled");
    EXPECT_FALSE(w.session());
    EXPECT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
}

}  // namespace
