// GUI tests of compare mode (offscreen): opening a comparison in the main window (File > Compare...,
// `skewscope A --vs B`, and leaving it),
// the compare view on a generated pair where the fix removes the planted big events, on the real
// before/after pair (against `skewscope compare`), on captures whose ranks differ; the paired
// collective both ways; the view laid out as `render --size 1600x900` lays it out (legend off the
// curves, list lines, titles and the delta table's key rows whole, the scale note, a default
// selection that has a pair); and `render --view compare` drawing exactly what the viewer exports.

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "scene/kernel_details.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_delta_model.h"
#include "views/compare/compare_events.h"
#include "views/compare/compare_rank_bars.h"
#include "views/compare/compare_view.h"
#include "export_checks.h"
#include "cli/command_line.h"
#include "gen_fixture.h"
#include "gui_entry.h"
#include "gui_util.h"
#include "json_value.h"
#include "window/main_window.h"
#include "report/format.h"
#include "common/palette.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "views/stepmap/stepmap_view.h"

using namespace testutil;
using namespace skewui;

namespace {

constexpr int64_t kMs = 1'000'000;

// Big events at positions 13 and 20 of every step (as in tests/test_compare.cpp), and the same run
// without them: the "after" of a fix.
skewgen::GenConfig withBigEvents() {
    skewgen::GenConfig cfg;
    cfg.steps = 5;
    cfg.seed = 23;
    for (int s = 1; s <= 5; ++s) {
        cfg.late.push_back({s, 13, s % 8, 30 * kMs, skewgen::LateKind::Gpu});
        cfg.late.push_back({s, 20, (s + 3) % 8, 25 * kMs, skewgen::LateKind::Gpu});
    }
    return cfg;
}
const Generated& before() { return generated("cmp-before", withBigEvents()); }
const Generated& after() {
    auto cfg = withBigEvents();
    cfg.late.clear();
    return generated("cmp-after", cfg);
}
// the "after" cut at the start of its second step: its FSDP collective k is the full run's k + 27
const Generated& afterFromStep2() {
    const Generated& full = after();
    auto cfg = withBigEvents();
    cfg.late.clear();
    for (const auto& tc : full.result.collectives)
        if (tc.group == 0 && tc.index == 28) {
            int64_t first = INT64_MAX;
            for (const auto& m : tc.members) first = std::min(first, m.startNs);
            cfg.trimStartNs = first - full.result.firstStepNs;
        }
    return generated("cmp-after-from-step2", cfg);
}

QString q(const std::string& s) { return QString::fromStdString(s); }

bool compareAndWait(MainWindow& w, const std::string& a, const std::string& b) {
    QSignalSpy ok(&w, &MainWindow::comparisonLoaded);
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openComparison({q(a)}, {q(b)});
    for (int i = 0; i < 1200 && ok.isEmpty() && failed.isEmpty(); ++i) QTest::qWait(50);
    return !ok.isEmpty();
}

// the pair whose A group runs AllGather (the FSDP group)
int fsdpPair(const CompareView& v) {
    const auto& c = *v.comparison();
    for (size_t i = 0; i < c.comparison.pairs.size(); ++i)
        if (c.a->analysis.groups[size_t(c.comparison.pairs[i].a)].ops.count("AllGather")) return int(i);
    return -1;
}

// the collective of a side's group at (step, position), by scanning every collective
int atStepPosition(const skew::Analysis& a, int group, uint32_t step, uint32_t pos) {
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].group == group && a.collectives[i].step == step && a.collectives[i].positionInStep == pos) return int(i);
    return -1;
}

QString cell(const CompareView& v, const QString& figure, int column) {
    const int r = v.deltaModel()->rowOf(figure);
    return r < 0 ? QString() : v.deltaModel()->index(r, column).data().toString();
}

bool nearColor(QRgb p, const QColor& c, int tol = 8) {
    return std::abs(qRed(p) - c.red()) <= tol && std::abs(qGreen(p) - c.green()) <= tol && std::abs(qBlue(p) - c.blue()) <= tol;
}

// a late-rank marker colour drawn within `r` px of `pos` in the step map's image
bool markerNear(const QImage& img, QPointF pos, int ranks, int r = 4) {
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
            QPoint pt(int(pos.x()) + dx, int(pos.y()) + dy);
            if (!img.rect().contains(pt)) continue;
            for (int k = 0; k < ranks; ++k)
                if (nearColor(img.pixel(pt), palette::rankColor(k), 3)) return true;
        }
    return false;
}

TEST(CompareView, FixThatRemovesTheBigEvents) {
    MainWindow w;
    w.resize(1600, 950);
    w.show();
    ASSERT_TRUE(compareAndWait(w, before().path, after().path));
    EXPECT_TRUE(w.inCompareMode());
    CompareView* v = w.compareView();
    ASSERT_EQ(v->comparison()->comparison.pairs.size(), 2u);
    EXPECT_TRUE(v->pairBox()->isVisible());  // two pairs: a selector
    const int pair = fsdpPair(*v);
    ASSERT_GE(pair, 0);
    v->pairBox()->setCurrentIndex(pair);
    ASSERT_EQ(v->pair(), pair);
    QTest::qWait(50);
    // big events 10 -> 0: the planted ones (generator's truth) and none after
    const size_t planted = before().result.late.size();
    ASSERT_EQ(planted, 10u);
    ASSERT_EQ(after().result.late.size(), 0u);
    EXPECT_EQ(cell(*v, "big events", CompareDeltaModel::A), QString::number(planted));
    EXPECT_EQ(cell(*v, "big events", CompareDeltaModel::B), "0");
    EXPECT_EQ(cell(*v, "big events", CompareDeltaModel::Delta), QString::fromUtf8("\u2212") + QString::number(planted));
    EXPECT_TRUE(v->verdictText().contains("big events 10 -> 0")) << v->verdictText().toStdString();
    bool shown = false;
    for (QLabel* l : v->findChildren<QLabel*>()) shown |= l->text() == v->verdictText() && l->isVisible();
    EXPECT_TRUE(shown);
    // the step maps: A marks every planted (step, position) big, B none of them
    const auto& c = *v->comparison();
    const auto& p = c.comparison.pairs[size_t(pair)];
    EXPECT_EQ(v->stepMapA()->map().big.size(), planted);
    EXPECT_TRUE(v->stepMapB()->map().big.empty());
    const QImage imgA = v->stepMapA()->grab().toImage(), imgB = v->stepMapB()->grab().toImage();
    for (const auto& tl : before().result.late) {
        SCOPED_TRACE("step " + std::to_string(tl.planted.step) + " position " + std::to_string(tl.planted.positionInStep));
        const int ca = atStepPosition(c.a->analysis, p.a, uint32_t(tl.planted.step), uint32_t(tl.planted.positionInStep));
        const int cb = atStepPosition(c.b->analysis, p.b, uint32_t(tl.planted.step), uint32_t(tl.planted.positionInStep));
        ASSERT_GE(ca, 0);
        ASSERT_GE(cb, 0);
        EXPECT_TRUE(c.a->analysis.collectives[size_t(ca)].big);
        EXPECT_FALSE(c.b->analysis.collectives[size_t(cb)].big);
        EXPECT_TRUE(markerNear(imgA, v->stepMapA()->collectivePos(ca), 8));
        EXPECT_FALSE(markerNear(imgB, v->stepMapB()->collectivePos(cb), 8));
    }
    // both maps on one offset axis
    EXPECT_EQ(v->stepMapA()->xAxis->range().lower, v->stepMapB()->xAxis->range().lower);
    EXPECT_EQ(v->stepMapA()->xAxis->range().upper, v->stepMapB()->xAxis->range().upper);
    v->stepMapA()->xAxis->setRange(10, 40);
    EXPECT_EQ(v->stepMapB()->xAxis->range().lower, 10);
    EXPECT_EQ(v->stepMapB()->xAxis->range().upper, 40);
    v->stepMapA()->resetZoom();
    // clicking a big marker of A shows the collective at the same step and position of B
    const auto& late = before().result.late[3];
    const int ca = atStepPosition(c.a->analysis, p.a, uint32_t(late.planted.step), uint32_t(late.planted.positionInStep));
    const int cb = atStepPosition(c.b->analysis, p.b, uint32_t(late.planted.step), uint32_t(late.planted.positionInStep));
    QTest::mouseClick(v->stepMapA(), Qt::LeftButton, {}, v->stepMapA()->collectivePos(ca).toPoint());
    EXPECT_EQ(v->selectedA(), ca);
    EXPECT_EQ(v->selectedB(), cb);
    EXPECT_FALSE(v->selectedFromB());
    EXPECT_EQ(v->pairedBy(), skew::PairedCollective::By::StepPosition);
    EXPECT_EQ(v->collectiveA()->scene().collective, ca);
    EXPECT_EQ(v->collectiveB()->scene().collective, cb);
    EXPECT_EQ(v->stepMapB()->selectedCollective(), cb);
    EXPECT_TRUE(v->pairingText().startsWith(QString("paired by step %1 and position %2").arg(late.planted.step).arg(late.planted.positionInStep)));
    // the list of big events has the selected one current, under its position
    QTreeWidgetItem* it = v->events()->currentItem();
    ASSERT_TRUE(it);
    EXPECT_EQ(it->data(0, CompareEventsList::CollectiveRole).toInt(), ca);
    ASSERT_TRUE(it->parent());
    EXPECT_TRUE(it->parent()->text(0).startsWith(QString("position %1 ").arg(late.planted.positionInStep)));
    // the per-rank bars: both sides' last counts, rank by rank
    ASSERT_EQ(v->rankBars()->lastA()->data()->size(), 8);
    for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(v->rankBars()->lastA()->data()->at(r)->value, double(p.valuesA.perRank[size_t(r)].lastCount));
        EXPECT_EQ(v->rankBars()->lastB()->data()->at(r)->value, double(p.valuesB.perRank[size_t(r)].lastCount));
    }
    EXPECT_EQ(v->rankBars()->rankLabels().front(), "dev 0");
    guitest::shot(&w, "compare-generated");
}

TEST(CompareView, RealPairAgainstTheCommandLine) {
    const std::string a = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", b = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    ASSERT_TRUE(compareAndWait(w, a, b));
    CompareView* v = w.compareView();
    // the verdict line is the one `skewscope compare` prints
    RunResult text = runSkewscope({"compare", a, "--vs", b});
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text.out, m, std::regex("Verdict: (.*)\\.\n")));
    EXPECT_EQ(v->verdictText().toStdString(), m[1].str());
    EXPECT_FALSE(v->pairBox()->isVisible());  // one pair: no selector
    // the CDFs: one point per complete collective of each side, plus the two ends
    testjson::Value j = testjson::parse(runSkewscope({"compare", a, "--vs", b, "--format", "json"}).out);
    const int64_t completeA = j["a"]["groups"][0]["complete"].i64(), completeB = j["b"]["groups"][0]["complete"].i64();
    EXPECT_EQ(v->cdf()->startCurve()->dataCount(), completeA + 2);
    EXPECT_EQ(v->cdf()->endCurve()->dataCount(), completeA + 2);
    EXPECT_EQ(v->cdf()->startCurveB()->dataCount(), completeB + 2);
    EXPECT_EQ(v->cdf()->endCurveB()->dataCount(), completeB + 2);
    EXPECT_DOUBLE_EQ(v->cdf()->startCurve()->dataMainKey(int(completeA)), double(j["a"]["groups"][0]["start_skew_ns"]["max"].i64()));
    EXPECT_DOUBLE_EQ(v->cdf()->startCurveB()->dataMainKey(int(completeB)), double(j["b"]["groups"][0]["start_skew_ns"]["max"].i64()));
    EXPECT_TRUE(v->cdf()->xAxis->scaleType() == QCPAxis::stLogarithmic);
    EXPECT_NE(v->cdf()->startCurve()->pen().color(), v->cdf()->startCurveB()->pen().color());  // A and B told apart
    // the delta table: every figure's difference as the JSON gives it
    const auto& d = j["groups"][0]["delta"];
    EXPECT_EQ(cell(*v, "start skew p90", CompareDeltaModel::Delta), "+" + q(skew::formatDuration(d["start_skew_ns"]["p90"].i64())));
    EXPECT_EQ(cell(*v, "start skew p90", CompareDeltaModel::A), q(skew::formatDuration(j["a"]["groups"][0]["start_skew_ns"]["p90"].i64())));
    EXPECT_EQ(cell(*v, "start-skew excess", CompareDeltaModel::Delta), "+" + q(skew::formatDuration(d["excess_ns"].i64())));
    EXPECT_EQ(cell(*v, "collectives", CompareDeltaModel::Delta), QString::fromUtf8("\u2212") + QString::number(-d["collectives"].i64()));
    EXPECT_EQ(cell(*v, "median step (NVTX)", CompareDeltaModel::Delta), QString::fromUtf8("\u2014"));  // no NVTX steps
    // the causes in the words the table uses, each difference as the JSON gives it
    auto signedCount = [](int64_t n) { return n == 0 ? QString("0") : (n > 0 ? "+" : QString::fromUtf8("\u2212")) + QString::number(std::abs(n)); };
    for (auto [figure, id] : {std::pair{"cause CPU launch", "cpu_launch"}, std::pair{"cause GPU dependency", "gpu_dependency"},
                              std::pair{"cause GPU other", "gpu_other"}, std::pair{"cause Unknown", "unknown"}}) {
        EXPECT_EQ(cell(*v, figure, CompareDeltaModel::Delta), signedCount(d["causes"][id].i64())) << figure;
        // big-event causes are listed where either side had one (the real pair has no big events)
        const bool anyBig = j["a"]["groups"][0]["answers"]["why"]["big"][id].i64() + j["b"]["groups"][0]["answers"]["why"]["big"][id].i64() > 0;
        EXPECT_EQ(v->deltaModel()->rowOf(QString("big: ") + figure) >= 0, anyBig) << figure;
        if (anyBig) {
            EXPECT_EQ(cell(*v, QString("big: ") + figure, CompareDeltaModel::Delta), signedCount(d["big_causes"][id].i64())) << figure;
        }
    }
    QAbstractItemModelTester tester(v->deltaModel(), QAbstractItemModelTester::FailureReportingMode::Warning);
    // no steps: the step maps say so, and collectives pair by index
    EXPECT_TRUE(v->stepMapA()->map().empty());
    EXPECT_TRUE(v->stepMapB()->map().empty());
    const auto& c = *v->comparison();
    const int b20 = int(c.b->analysis.groups[0].firstCollective) + 19;
    QTreeWidgetItem* it = v->events()->itemOf(true, b20);
    if (!it) {
        v->selectCollective(true, b20);  // not among the largest: select it as a step map would
    } else {
        v->events()->setCurrentItem(it);
    }
    EXPECT_EQ(v->selectedB(), b20);
    EXPECT_EQ(v->selectedA(), int(c.a->analysis.groups[0].firstCollective) + 19);
    EXPECT_EQ(v->pairedBy(), skew::PairedCollective::By::Index);
    EXPECT_EQ(v->pairingText(), "paired by index #20: neither capture has steps");
    // A's #32 has no partner: B has 31 collectives
    v->selectCollective(false, int(c.a->analysis.groups[0].firstCollective) + 31);
    EXPECT_EQ(v->selectedB(), -1);
    EXPECT_EQ(v->collectiveB()->scene().collective, -1);
    EXPECT_EQ(v->pairingText(), "B's group has 31 collectives, none is #32 (paired by index: neither capture has steps)");
}

TEST(CompareView, RanksThatDifferAreNotCompared) {
    const auto& seven = generated("demo", skewgen::demoConfig());
    auto cfg = skewgen::demoConfig();
    cfg.ranks = 8;
    cfg.devices.clear();
    const auto& eight = generated("demo-8", cfg);
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    ASSERT_TRUE(compareAndWait(w, seven.path, eight.path));
    CompareView* v = w.compareView();
    EXPECT_TRUE(v->showsNotCompared());
    EXPECT_EQ(v->pair(), -1);
    const QString t = v->notComparedText();
    EXPECT_TRUE(t.startsWith("No group of A (before) was compared with a group of B (after)."));
    // why, naming both groups of A and their ranks
    for (int g = 0; g < 2; ++g)
        EXPECT_TRUE(t.contains(QString("A group %1 (").arg(g))) << t.toStdString();
    EXPECT_TRUE(t.contains("runs on 7 ranks (dev 1, dev 2, dev 3, dev 4, dev 5, dev 6, dev 7), B group 0 runs its ops on 8 ranks (dev 0, "
                           "dev 1, dev 2, dev 3, dev 4, dev 5, dev 6, dev 7): ranks differ between the captures, so neither group is compared"));
    EXPECT_TRUE(t.contains("B group 0 (AllGather 90, ReduceScatter 45, 8 ranks) is not compared: ranks differ from A group 0 (7 ranks)"));
    EXPECT_FALSE(t.contains("no counterpart"));
    // core's lines, each once: the summary, a line per group, the advice
    const auto& cmp = v->comparison()->comparison;
    QStringList want{q(cmp.summary) + "."};
    for (const auto& m : cmp.messages) want << q(m) + ".";
    want << q(cmp.advice) + ".";
    EXPECT_EQ(t, want.join("\n\n"));
    EXPECT_EQ(cmp.messages.size(), 4u);
    EXPECT_EQ(v->verdictText(), QString());
    guitest::shot(&w, "compare-ranks-differ");
}

// Partly paired (2-rank FSDP + AllReduce against 2-rank FSDP + SendRecv): the groups left over are
// named in the notes by core's messages, A's as well as B's, each once.
TEST(CompareView, GroupsLeftOverAreNamedInTheNotes) {
    skewgen::GenConfig cfg;
    cfg.ranks = 2;
    cfg.steps = 3;
    const auto& a = generated("cmp-2ranks", cfg);
    cfg.allReduce = false;
    cfg.sendRecv = true;
    const auto& b = generated("cmp-2ranks-sendrecv", cfg);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    ASSERT_TRUE(compareAndWait(w, a.path, b.path));
    CompareView* v = w.compareView();
    ASSERT_FALSE(v->showsNotCompared());
    const auto& c = *v->comparison();
    ASSERT_EQ(c.comparison.pairs.size(), 1u);
    ASSERT_EQ(c.comparison.unpairedA.size(), 1u);
    ASSERT_EQ(c.comparison.unpairedB.size(), 1u);
    const int ar = c.comparison.unpairedA[0], sr = c.comparison.unpairedB[0];
    EXPECT_EQ(c.a->analysis.groups[size_t(ar)].ops.count("AllReduce"), 1u);
    EXPECT_EQ(c.b->analysis.groups[size_t(sr)].ops.count("SendRecv"), 1u);
    const QString notes = v->notesText();
    const QString left = QString("Not compared: A group %1 (AllReduce 3, 2 ranks) has no counterpart in B: no group of B runs its ops (80% "
                                 "alike) on 2 ranks; B group %2 (SendRecv %3, 2 ranks) has no counterpart in A: no group of A runs its "
                                 "ops (80% alike) on 2 ranks")
                             .arg(ar)
                             .arg(sr)
                             .arg(c.b->analysis.groups[size_t(sr)].count);
    EXPECT_TRUE(notes.endsWith(left)) << notes.toStdString();
    EXPECT_EQ(notes.count(QString("A group %1 ").arg(ar)), 1);
    bool shown = false;
    for (QLabel* l : v->findChildren<QLabel*>()) shown |= l->isVisible() && l->text().contains(left);
    EXPECT_TRUE(shown);
}

TEST(CompareView, PairedCollectiveBothWays) {
    // "after" cut at its second step: by step and position, A's k is B's k - 27 (by index it would be k)
    MainWindow w;
    w.resize(1600, 950);
    w.show();
    ASSERT_TRUE(compareAndWait(w, before().path, afterFromStep2().path));
    CompareView* v = w.compareView();
    v->pairBox()->setCurrentIndex(fsdpPair(*v));
    const auto& c = *v->comparison();
    const auto& p = c.comparison.pairs[size_t(v->pair())];
    const uint32_t fa = c.a->analysis.groups[size_t(p.a)].firstCollective, fb = c.b->analysis.groups[size_t(p.b)].firstCollective;
    ASSERT_EQ(c.b->analysis.groups[size_t(p.b)].count, 108u);
    // A -> B: the list's big event of A at step 3, position 20 (index 3 * 27 - 27 + 20 = 74)
    QTreeWidgetItem* it = v->events()->itemOf(false, int(fa + 73));
    ASSERT_TRUE(it);
    v->events()->scrollToItem(it);
    QTest::mouseClick(v->events()->viewport(), Qt::LeftButton, {}, v->events()->visualItemRect(it).topLeft() + QPoint(30, 5));
    EXPECT_EQ(v->selectedA(), int(fa + 73));
    EXPECT_EQ(v->selectedB(), int(fb + 73 - 27));
    EXPECT_EQ(c.b->analysis.collectives[size_t(v->selectedB())].index, 74u - 27u);
    EXPECT_EQ(v->collectiveB()->scene().collective, v->selectedB());
    EXPECT_EQ(v->pairedBy(), skew::PairedCollective::By::StepPosition);
    // B -> A: a tick of B's step map (step 4, position 5: B's #86 - 27 = 59) shows A's #86
    const int b59 = int(fb + 58);
    ASSERT_EQ(c.b->analysis.collectives[size_t(b59)].step, 4u);
    ASSERT_EQ(c.b->analysis.collectives[size_t(b59)].positionInStep, 5u);
    QTest::mouseClick(v->stepMapB(), Qt::LeftButton, {}, v->stepMapB()->collectivePos(b59).toPoint());
    EXPECT_EQ(v->selectedB(), b59);
    EXPECT_TRUE(v->selectedFromB());
    EXPECT_EQ(v->selectedA(), int(fa + 85));
    EXPECT_EQ(c.a->analysis.collectives[size_t(v->selectedA())].index, 86u);
    EXPECT_EQ(v->collectiveA()->scene().collective, int(fa + 85));
    EXPECT_EQ(v->stepMapA()->selectedCollective(), int(fa + 85));
    // A's first step has no counterpart in B
    v->selectCollective(false, int(fa + 4));
    EXPECT_EQ(v->selectedB(), -1);
    EXPECT_EQ(v->pairingText(), "B has no collective at step 1, position 5");
}

// The Navigate menu acts on the compare view in compare mode: B / Shift+B step through the big
// events planted at positions 13 and 20 of each 27-collective step, N the next collective, zoom
// keys both collective views; the hidden single-capture view is left as it was.
TEST(CompareView, NavigateMenuActsOnTheCompareView) {
    MainWindow w;
    w.resize(1600, 950);
    w.show();
    ASSERT_TRUE(compareAndWait(w, before().path, after().path));
    CompareView* v = w.compareView();
    v->pairBox()->setCurrentIndex(fsdpPair(*v));
    const auto& c = *v->comparison();
    const uint32_t fa = c.a->analysis.groups[size_t(c.comparison.pairs[size_t(v->pair())].a)].firstCollective;
    auto action = [&](const QString& text) {
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().startsWith(text)) return a;
        ADD_FAILURE() << "no action " << text.toStdString();
        return static_cast<QAction*>(nullptr);
    };
    const int hiddenBefore = w.currentCollective();
    v->selectCollective(false, int(fa + 4));  // index 5 of step 1
    auto indexA = [&] { return c.a->analysis.collectives[size_t(v->selectedA())].index; };
    action("Next &Big")->trigger();
    EXPECT_EQ(indexA(), 13u);
    action("Next &Big")->trigger();
    EXPECT_EQ(indexA(), 20u);
    action("Next &Big")->trigger();
    EXPECT_EQ(indexA(), 27u + 13u);
    action("Previous Bi&g")->trigger();
    EXPECT_EQ(indexA(), 20u);
    action("&Next Collective")->trigger();
    EXPECT_EQ(indexA(), 21u);
    EXPECT_EQ(v->collectiveA()->scene().collective, v->selectedA());
    action("&Previous Collective")->trigger();
    EXPECT_EQ(indexA(), 20u);
    // zoom: both collective views narrow their time axis, fit restores it
    const double spanA = v->collectiveA()->xAxis->range().size(), spanB = v->collectiveB()->xAxis->range().size();
    action("Zoom &In")->trigger();
    EXPECT_LT(v->collectiveA()->xAxis->range().size(), spanA * 0.9);
    EXPECT_LT(v->collectiveB()->xAxis->range().size(), spanB * 0.9);
    action("&Fit View")->trigger();
    EXPECT_NEAR(v->collectiveA()->xAxis->range().size(), spanA, spanA * 1e-9);
    EXPECT_EQ(w.currentCollective(), hiddenBefore);
    // L: the late arriver's details of the side selected, as the single view's Details give them
    const skew::Collective& sel = c.a->analysis.collectives[size_t(v->selectedA())];
    ASSERT_GE(sel.lateSlot, 0);
    const skew::GroupSlot& gl = c.a->analysis.groups[size_t(sel.group)].lanes[size_t(sel.lateSlot)];
    const std::string want = kernelDetails(c.a->profile, c.a->analysis, v->selectedA(), gl.rank, gl.lane,
                                           c.a->analysis.slotKernel(sel, size_t(sel.lateSlot)), &c.a->nvtx);
    action("Show &Late Arriver")->trigger();
    EXPECT_EQ(v->detailsText().toStdString(), "A (before)\n" + want);
    EXPECT_NE(want.find("Late arriver"), std::string::npos) << want;
    // a click on a bar of B's view: B's details; a new selection clears them
    const skew::Collective& cb = c.b->analysis.collectives[size_t(v->selectedB())];
    const skew::GroupSlot& gb = c.b->analysis.groups[size_t(cb.group)].lanes[0];
    const uint32_t kb = c.b->analysis.slotKernel(cb, 0);
    emit v->collectiveB()->barClicked(gb.rank, gb.lane, kb);
    EXPECT_EQ(v->detailsText().toStdString(),
              "B (after)\n" + kernelDetails(c.b->profile, c.b->analysis, v->selectedB(), gb.rank, gb.lane, kb, &c.b->nvtx));
    action("&Next Collective")->trigger();
    EXPECT_TRUE(v->detailsText().isEmpty());
}

TEST(CompareView, LeavingCompareModeAndErrors) {
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    // a side that cannot be read: the message names it, the window stays as it was
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openComparison({q(before().path)}, {"/nonexistent/after.sqlite"});
    for (int i = 0; i < 400 && failed.isEmpty(); ++i) QTest::qWait(20);
    ASSERT_EQ(failed.size(), 1);
    EXPECT_TRUE(failed[0][0].toString().startsWith("Cannot compare: B (after): ")) << failed[0][0].toString().toStdString();
    EXPECT_FALSE(w.inCompareMode());
    ASSERT_TRUE(compareAndWait(w, before().path, after().path));
    EXPECT_TRUE(w.inCompareMode());
    // opening files leaves compare mode
    ASSERT_TRUE(guitest::openAndWait(w, {q(before().path)}));
    EXPECT_FALSE(w.inCompareMode());
    EXPECT_FALSE(w.comparison());
    EXPECT_FALSE(w.showsEmptyState());
    EXPECT_GE(w.currentCollective(), 0);
    // and back, then cancelled by a new open: the last one asked for wins
    w.openComparison({q(before().path)}, {q(after().path)});
    QSignalSpy ok(&w, &MainWindow::sessionLoaded);
    w.openFiles({q(after().path)});
    ASSERT_TRUE(guitest::waitLoaded(ok));
    EXPECT_FALSE(w.inCompareMode());
    EXPECT_EQ(w.session()->files.front(), after().path);
    // the report of a comparison is compare's
    ASSERT_TRUE(compareAndWait(w, before().path, after().path));
    std::string dir = tempDir("compare-report");
    QString err;
    ASSERT_TRUE(w.exportReport(q(dir + "/cmp.md"), &err)) << err.toStdString();
    RunResult md = runSkewscope({"compare", before().path, "--vs", after().path, "--format", "md"});
    std::ifstream in(dir + "/cmp.md");
    std::string mine((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(mine, md.out);
    std::filesystem::remove_all(dir);
}

// ---- the view at the size `render --size` gives it --------------------------------------------

CompareSessionPtr load(const std::string& a, const std::string& b) { return loadComparison({a}, {b}, {}, {}, nullptr); }
const std::string& realBefore() {
    static const std::string p = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    return p;
}
const std::string& realAfter() {
    static const std::string p = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    return p;
}

// A compare view shown offscreen at `size`, set up as the export's copy is (CompareView::exportTo).
std::unique_ptr<CompareView> shownAt(CompareSessionPtr c, QSize size) {
    auto v = std::make_unique<CompareView>();
    v->setComparison(c);
    v->resize(size);
    v->setAttribute(Qt::WA_DontShowOnScreen);
    v->show();
    QTest::qWait(30);
    for (QCustomPlot* plot : v->findChildren<QCustomPlot*>()) plot->replot();
    QTest::qWait(30);
    for (QCustomPlot* plot : v->findChildren<QCustomPlot*>()) plot->replot();
    return v;
}

// The CDF legend sits where no curve is: off the plot area, no curve point under it, its text whole
// inside the chart.
void expectLegendOffTheCurves(const SkewCdfChart& cdf) {
    ASSERT_TRUE(cdf.legendAbove());
    const QRect legend = cdf.legend->outerRect(), plot = cdf.axisRect()->rect();
    EXPECT_FALSE(legend.intersects(plot)) << "legend " << legend.x() << "," << legend.y() << " " << legend.width() << "x" << legend.height();
    EXPECT_TRUE(QRect(0, 0, cdf.width(), cdf.height()).contains(legend));
    EXPECT_EQ(cdf.legend->itemCount(), 4);
    for (QCPGraph* g : {cdf.startCurve(), cdf.endCurve(), cdf.startCurveB(), cdf.endCurveB()}) {
        ASSERT_GT(g->dataCount(), 2);
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            EXPECT_FALSE(legend.contains(g->coordsToPixels(it->key, it->value).toPoint()));
    }
}

// Every section line of the list of events is drawn whole (not elided): its text fits its row.
void expectEventLinesWhole(const CompareEventsList& list) {
    ASSERT_GT(list.topLevelItemCount(), 0);
    for (int i = 0; i < list.topLevelItemCount(); ++i) {
        QTreeWidgetItem* it = list.topLevelItem(i);
        SCOPED_TRACE(it->text(0).toStdString());
        const QRect r = list.visualItemRect(it);
        EXPECT_LE(QFontMetrics(it->font(0)).horizontalAdvance(it->text(0)) + 8, r.width());
        EXPECT_LE(r.right(), list.viewport()->width());
    }
}

// The rows of the delta table before the per-rank ones (cost, big events, skews, causes, step,
// counts) are in sight without scrolling.
void expectKeyRowsInSight(const CompareView& v) {
    const QTableView* t = v.deltaTable();
    int shown = 0;
    for (int r = 0; r < t->model()->rowCount(); ++r) {
        const QString figure = t->model()->index(r, 0).data().toString();
        if (figure.contains(": last arrivals") || figure.contains(": lateness")) break;
        SCOPED_TRACE(figure.toStdString());
        const QRect rect = t->visualRect(t->model()->index(r, CompareDeltaModel::Delta));
        EXPECT_GE(rect.top(), 0);
        EXPECT_LE(rect.bottom(), t->viewport()->height());
        ++shown;
    }
    for (const char* key : {"start-skew cost", "big events", "start skew p90", "end skew max", "cause CPU launch", "cause GPU dependency",
                            "cause GPU other", "cause Unknown", "median step (NVTX)"})
        EXPECT_GE(v.deltaModel()->rowOf(key), 0) << key;
    EXPECT_GE(shown, 17);
}

TEST(CompareView, LaidOutAtRenderSizeShowsItsPartsWhole) {
    for (auto [name, c] : {std::pair{"generated", load(before().path, after().path)}, std::pair{"real", load(realBefore(), realAfter())}}) {
        SCOPED_TRACE(name);
        for (QSize size : {QSize(1600, 900), QSize(1400, 800)}) {
            SCOPED_TRACE(std::to_string(size.width()) + "x" + std::to_string(size.height()));
            auto v = shownAt(c, size);
            ASSERT_GE(v->pair(), 0);
            expectLegendOffTheCurves(*v->cdf());
            expectEventLinesWhole(*v->events());
            // the collective titles whole: the op and who was late (index and step are on the line above)
            for (CollectiveView* cv : {v->collectiveA(), v->collectiveB()}) {
                ASSERT_GE(cv->scene().collective, 0);
                EXPECT_EQ(cv->titleShown(), cv->titleText());
                EXPECT_TRUE(cv->titleText().contains(" late by ")) << cv->titleText().toStdString();
            }
            if (size == QSize(1600, 900)) expectKeyRowsInSight(*v);
        }
    }
    // one capture again: the legend stays above the plot, with its two curves (review defect 9: in the
    // plot's top left it hid the end skews' curve; ReviewDefects.RanksCdfLegendLeavesTheCurvesFree)
    SkewCdfChart cdf;
    cdf.resize(500, 300);
    auto c = load(realBefore(), realAfter());
    cdf.setComparison(c->a, 0, c->b, 0);
    EXPECT_TRUE(cdf.legendAbove());
    cdf.setGroup(c->a, 0);
    EXPECT_TRUE(cdf.legendAbove());
    EXPECT_EQ(cdf.legend->layout(), cdf.plotLayout());
    EXPECT_EQ(cdf.legend->itemCount(), 2);
}

// The view opens on a collective both sides have: on the real pair A's largest start skew is #32,
// which B (31 collectives, paired by index) lacks, so it opens on A's largest among #1..#31; #32
// is listed as having no pair.
TEST(CompareView, OpensOnTheWorstCollectiveThatHasAPair) {
    testjson::Value a = testjson::parse(runSkewscope({"analyze", realBefore(), "--format", "json"}).out);
    testjson::Value b = testjson::parse(runSkewscope({"analyze", realAfter(), "--format", "json"}).out);
    const int64_t countB = b["groups"][0]["collectives"].i64();
    int64_t worst = -1, worstSkew = -1, worstPaired = -1, worstPairedSkew = -1;
    for (const auto& col : a["collectives"].arr) {
        if (!col["complete"].b) continue;
        const int64_t k = col["index"].i64(), skew = col["start_skew_ns"].i64();
        if (skew > worstSkew) worst = k, worstSkew = skew;
        if (k <= countB && skew > worstPairedSkew) worstPaired = k, worstPairedSkew = skew;
    }
    ASSERT_EQ(worst, 32);
    ASSERT_EQ(countB, 31);
    auto c = load(realBefore(), realAfter());
    auto v = shownAt(c, {1600, 900});
    ASSERT_GE(v->selectedA(), 0);
    EXPECT_EQ(int64_t(c->a->analysis.collectives[size_t(v->selectedA())].index), worstPaired);
    ASSERT_GE(v->selectedB(), 0);
    EXPECT_EQ(int64_t(c->b->analysis.collectives[size_t(v->selectedB())].index), worstPaired);
    EXPECT_EQ(v->collectiveB()->scene().collective, v->selectedB());
    EXPECT_FALSE(v->selectedFromB());
    // #32 is listed, and says it has no pair
    QTreeWidgetItem* unpaired = v->events()->itemOf(false, int(c->a->analysis.groups[0].firstCollective) + 31);
    ASSERT_TRUE(unpaired);
    EXPECT_TRUE(unpaired->text(0).endsWith("no pair")) << unpaired->text(0).toStdString();
    QTreeWidgetItem* paired = v->events()->itemOf(false, v->selectedA());
    ASSERT_TRUE(paired);
    EXPECT_FALSE(paired->text(0).contains("no pair"));
    // and core's choice is the same on both sides of the pair
    EXPECT_EQ(skew::CollectivePairing(c->sideA(), c->sideB(), c->comparison.pairs[0], true).worst(), v->selectedA());
    // the generated pair: A's worst (a planted 30 ms event) has its pair in B at the same step and position
    auto g = load(before().path, after().path);
    auto gv = shownAt(g, {1600, 900});
    // (the planted event whose generated members start furthest apart)
    int64_t plantedSkew = -1;
    int plantedWorst = -1;
    for (const auto& tl : before().result.late)
        for (const auto& tc : before().result.collectives) {
            if (tc.group != tl.group || tc.index != tl.index) continue;
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
            if (hi - lo > plantedSkew)
                plantedSkew = hi - lo, plantedWorst = atStepPosition(g->a->analysis, g->comparison.pairs[0].a, uint32_t(tl.planted.step),
                                                                     uint32_t(tl.planted.positionInStep));
        }
    ASSERT_GE(plantedWorst, 0);
    EXPECT_EQ(gv->selectedA(), plantedWorst);
    EXPECT_GE(gv->selectedB(), 0);
    EXPECT_EQ(gv->pairedBy(), skew::PairedCollective::By::StepPosition);
}

// A's planted 30 ms event and B's ordinary collective at that place: each view fits its own
// collective, so their time axes differ by far, and the line above them says so with both spans.
TEST(CompareView, SaysWhenTheTwoCollectiveViewsTimeScalesDiffer) {
    auto c = load(before().path, after().path);
    auto v = shownAt(c, {1600, 900});
    const auto& p = c->comparison.pairs[0];
    const auto& late = before().result.late[0];  // step 1, position 13
    const int ca = atStepPosition(c->a->analysis, p.a, uint32_t(late.planted.step), uint32_t(late.planted.positionInStep));
    v->selectCollective(false, ca);
    QTest::qWait(30);
    const double spanA = v->collectiveA()->xAxis->range().size(), spanB = v->collectiveB()->xAxis->range().size();
    // A's view spans at least the planted delay (ms), B's far less
    EXPECT_GT(spanA, double(late.planted.delayNs) / 1e6);
    EXPECT_LT(spanB * 1.5, spanA);
    auto ms = [](double x) { return QString::fromStdString(skew::formatDuration(int64_t(std::llround(x * 1e6)))); };
    EXPECT_TRUE(v->scaleNote()->isVisible());
    EXPECT_EQ(v->scaleNote()->text(),
              QString("\u26A0 Time scales differ: A's view spans %1, B's %2 (each fitted to its collective)").arg(ms(spanA), ms(spanB)));
    // collectives where neither side waits long: spans within 1.5x of each other, no note
    bool sawAlike = false;
    for (uint32_t pos = 1; pos <= 27 && !sawAlike; ++pos) {
        const int a = atStepPosition(c->a->analysis, p.a, 5, pos);
        if (a < 0 || c->a->analysis.collectives[size_t(a)].big) continue;
        v->selectCollective(false, a);
        QTest::qWait(20);
        const double x = v->collectiveA()->xAxis->range().size(), y = v->collectiveB()->xAxis->range().size();
        const bool differ = std::max(x, y) >= 1.5 * std::min(x, y);
        EXPECT_EQ(v->scaleNote()->isVisible(), differ) << pos;
        sawAlike |= !differ;
    }
    EXPECT_TRUE(sawAlike);
}

// The per-rank bars: the mean lateness without big events of each rank, A beside B, as the JSON of
// `skewscope compare` gives them (in us below 1 ms, as the axis says).
TEST(CompareView, MeanLatenessBarsAreTheJsonFigures) {
    for (auto [a, b] : {std::pair{realBefore(), realAfter()}, std::pair{before().path, after().path}}) {
        SCOPED_TRACE(a);
        testjson::Value j = testjson::parse(runSkewscope({"compare", a, "--vs", b, "--format", "json"}).out);
        auto c = load(a, b);
        auto v = shownAt(c, {1400, 800});
        const auto& pj = j["groups"][0];
        const auto& ga = j["a"]["groups"][size_t(pj["a"].i64())];
        const auto& gb = j["b"]["groups"][size_t(pj["b"].i64())];
        const size_t n = ga["per_rank"].size();
        ASSERT_EQ(size_t(v->rankBars()->latenessA()->data()->size()), n);
        ASSERT_EQ(size_t(v->rankBars()->latenessB()->data()->size()), n);
        int64_t maxLat = 0;
        for (size_t r = 0; r < n; ++r)
            maxLat = std::max({maxLat, ga["per_rank"][r]["mean_lateness_excl_big_ns"].i64(), gb["per_rank"][r]["mean_lateness_excl_big_ns"].i64()});
        const bool us = maxLat < 1'000'000;
        const QString label = v->rankBars()->latenessA()->valueAxis()->label();
        EXPECT_TRUE(label.endsWith(us ? "(us)" : "(ms)")) << label.toStdString();
        const double unit = us ? 1e3 : 1e6;
        for (size_t r = 0; r < n; ++r) {
            SCOPED_TRACE(r);
            EXPECT_DOUBLE_EQ(v->rankBars()->latenessA()->data()->at(int(r))->value,
                             double(ga["per_rank"][r]["mean_lateness_excl_big_ns"].i64()) / unit);
            EXPECT_DOUBLE_EQ(v->rankBars()->latenessB()->data()->at(int(r))->value,
                             double(gb["per_rank"][r]["mean_lateness_excl_big_ns"].i64()) / unit);
            EXPECT_DOUBLE_EQ(v->rankBars()->lastA()->data()->at(int(r))->value, double(ga["per_rank"][r]["last_count"].i64()));
            EXPECT_DOUBLE_EQ(v->rankBars()->lastB()->data()->at(int(r))->value, double(gb["per_rank"][r]["last_count"].i64()));
        }
    }
}

// ---- opening a comparison ------------------------------------------------------------------

// File > Compare...: a dialog for A's exports, then one for B's (starting in A's folder); the
// comparison of what was picked opens.
TEST(CompareView, FileCompareAsksForAThenBAndOpensTheComparison) {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QAction* compare = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == "&Compare...") compare = a;
    ASSERT_TRUE(compare);
    EXPECT_EQ(compare->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QStringList titles, startDirs;
    const QStringList picks = {q(before().path), q(after().path)};
    // answers each file dialog as it comes up, A's with A's file and B's with B's, until it closes
    // (a dialog that has not taken the selection yet stays open and is answered again)
    QTimer answer;
    answer.setInterval(30);
    int ticks = 0;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!d) return;
        if (++ticks > 300) return static_cast<QDialog*>(d)->reject();  // a dialog that never takes the file fails the test, never hangs it
        if (titles.isEmpty() || titles.back() != d->windowTitle()) {
            titles << d->windowTitle();
            startDirs << d->directory().absolutePath();
        }
        // typed into the file name box, as a user would (selectFile waits for the folder's listing)
        const QString pick = picks[d->windowTitle().contains("B (after)") ? 1 : 0];
        if (auto* name = d->findChild<QLineEdit*>("fileNameEdit")) name->setText(pick);
        else d->selectFile(pick);
        static_cast<QDialog*>(d)->accept();  // QFileDialog::accept, as the Open button
    });
    answer.start();
    QSignalSpy ok(&w, &MainWindow::comparisonLoaded);
    compare->trigger();
    for (int i = 0; i < 1200 && ok.isEmpty(); ++i) QTest::qWait(50);
    answer.stop();
    ASSERT_EQ(ok.size(), 1);
    ASSERT_EQ(titles.size(), 2);
    EXPECT_EQ(titles[0], "Compare: the A (before) capture's exports");
    EXPECT_EQ(titles[1], "Compare: the B (after) capture's exports");
    EXPECT_EQ(startDirs[1], QFileInfo(picks[0]).absolutePath());
    EXPECT_TRUE(w.inCompareMode());
    ASSERT_TRUE(w.comparison());
    EXPECT_EQ(w.comparison()->a->files, std::vector<std::string>{before().path});
    EXPECT_EQ(w.comparison()->b->files, std::vector<std::string>{after().path});
    EXPECT_EQ(w.compareView()->comparison(), w.comparison());
    EXPECT_EQ(w.compareView()->comparison()->comparison.pairs.size(), 2u);
}

// `skewscope A... --vs B...`: the arguments as the viewer's command line splits them, then what
// the viewer does with them at start (several files per side here: per-rank files).
TEST(CompareView, CommandLineVsStartsTheComparison) {
    auto cfg = withBigEvents();
    cfg.perRankFiles = true;
    cfg.ranks = 4;
    for (auto& l : cfg.late) l.rank %= 4;
    const auto& a = generated("cmp-cli-ranks-before", cfg);
    cfg.late.clear();
    const auto& b = generated("cmp-cli-ranks-after", cfg);
    std::vector<std::string> args = a.result.files;
    args.push_back("--vs");
    args.insert(args.end(), b.result.files.begin(), b.result.files.end());
    std::vector<std::string> filesA, filesB;
    std::string err;
    ASSERT_TRUE(skew::parseViewerArgs(args, filesA, filesB, err)) << err;
    EXPECT_EQ(filesA, a.result.files);
    EXPECT_EQ(filesB, b.result.files);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QSignalSpy ok(&w, &MainWindow::comparisonLoaded);
    openFromCommandLine(w, filesA, filesB);
    for (int i = 0; i < 1200 && ok.isEmpty(); ++i) QTest::qWait(50);
    ASSERT_EQ(ok.size(), 1);
    EXPECT_TRUE(w.inCompareMode());
    EXPECT_EQ(w.comparison()->a->files, a.result.files);
    EXPECT_EQ(w.comparison()->b->files, b.result.files);
    EXPECT_EQ(w.comparison()->a->profile.ranks.size(), 4u);
    EXPECT_EQ(w.comparison()->b->profile.ranks.size(), 4u);
    EXPECT_FALSE(w.compareView()->verdictText().isEmpty());
    // the FSDP pair: A's planted big events, none in B (the generator's truth)
    const int pair = fsdpPair(*w.compareView());
    ASSERT_GE(pair, 0);
    const auto& p = w.comparison()->comparison.pairs[size_t(pair)];
    EXPECT_EQ(size_t(p.valuesA.bigCount), a.result.late.size());
    EXPECT_EQ(p.valuesB.bigCount, 0);
    // without --vs the same start opens the files
    QSignalSpy opened(&w, &MainWindow::sessionLoaded);
    openFromCommandLine(w, {before().path}, {});
    ASSERT_TRUE(guitest::waitLoaded(opened));
    EXPECT_FALSE(w.inCompareMode());
}

TEST(CompareView, RenderDrawsTheCompareViewAsTheViewerExportsIt) {
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(compareAndWait(w, before().path, after().path));
    CompareView* v = w.compareView();
    v->pairBox()->setCurrentIndex(fsdpPair(*v));
    const auto& c = *v->comparison();
    const auto& p = c.comparison.pairs[size_t(v->pair())];
    // A's big event at step 2, position 20
    const int ca = atStepPosition(c.a->analysis, p.a, 2, 20);
    ASSERT_GE(ca, 0);
    v->selectCollective(false, ca);
    const skew::Collective& col = c.a->analysis.collectives[size_t(ca)];
    std::string dir = tempDir("compare-render");
    for (const char* ext : {"png", "svg", "pdf"}) {
        const std::string mine = dir + "/viewer." + ext;
        QString err;
        ASSERT_TRUE(w.exportView(q(mine), 1400, 800, &err)) << err.toStdString();
    }
    // the SVG and the PDF say what the view shows: both captures' files, every rank, and A's
    // selected big event with its late rank and start skew from the generator's truth
    const skewgen::TruthLate* planted = nullptr;
    for (const auto& tl : before().result.late)
        if (tl.planted.step == 2 && tl.planted.positionInStep == 20) planted = &tl;
    ASSERT_TRUE(planted);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& tc : before().result.collectives)
        if (tc.group == planted->group && tc.index == planted->index)
            for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
    QStringList texts = {q(std::filesystem::path(before().path).filename().string()), q(std::filesystem::path(after().path).filename().string()),
                         q(before().result.rankLabels[size_t(planted->planted.rank)] + " late by " + skew::formatDuration(hi - lo))};
    for (const auto& l : before().result.rankLabels) texts << q(l);
    const guitest::SvgContent svg = guitest::readSvg(dir + "/viewer.svg");
    ASSERT_EQ(svg.error, QString());
    EXPECT_EQ(svg.viewBox, QRectF(0, 0, 1400, 800));
    const guitest::PdfContent pdf = guitest::readPdf(dir + "/viewer.pdf");
    ASSERT_EQ(pdf.error, "");
    EXPECT_TRUE(pdf.header);
    EXPECT_EQ(pdf.pages, 1);
    for (const QString& t : texts) {
        EXPECT_TRUE(svg.hasTextContaining(t)) << t.toStdString() << " not in " << svg.texts.join(" | ").toStdString();
        EXPECT_NE(pdf.text.find(t.toStdString()), std::string::npos) << t.toStdString() << " not in " << pdf.text;
    }
    // the plots are vectors: their axis labels are text (one per collective view, the CDF's), not
    // inside a bitmap, and their bars and curves are shapes
    EXPECT_EQ(svg.texts.count("time since the first rank's NCCL kernel start (ms)"), 2);
    EXPECT_EQ(svg.texts.count("skew per collective (log scale)"), 1);
    EXPECT_GE(svg.shapes, 100);
    RunResult r = runSkewscope({"render", before().path, "--vs", after().path, "--view", "compare", "--collective",
                                std::to_string(col.group) + ":" + std::to_string(col.index), "--output", dir + "/render.png", "--size", "1400x800"},
                               "QT_QPA_PLATFORM=offscreen");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");  // no platform noise on stderr
    QImage a(q(dir + "/viewer.png")), b(q(dir + "/render.png"));
    ASSERT_EQ(a.size(), QSize(1400, 800));
    ASSERT_EQ(b.size(), a.size());
    EXPECT_TRUE(a.convertToFormat(QImage::Format_ARGB32) == b.convertToFormat(QImage::Format_ARGB32));
    // the view's selection is drawn: B's paired collective in B's collective view title
    EXPECT_NE(v->selectedB(), -1);
    // without --collective: the first pair, opened on A's worst collective, as the viewer opens it
    RunResult plain = runSkewscope({"render", before().path, "--vs", after().path, "--view", "compare", "--output", dir + "/plain.png",
                                    "--size", "1200x700"}, "QT_QPA_PLATFORM=offscreen");
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    CompareView fresh;
    fresh.setComparison(w.comparison());
    ASSERT_TRUE(fresh.exportTo(q(dir + "/fresh.png"), 1200, 700));
    EXPECT_TRUE(QImage(q(dir + "/plain.png")).convertToFormat(QImage::Format_ARGB32) ==
                QImage(q(dir + "/fresh.png")).convertToFormat(QImage::Format_ARGB32));
    for (auto& e : std::filesystem::directory_iterator(dir)) EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
    std::filesystem::remove_all(dir);
}

TEST(CompareView, CommandLineForms) {
    const std::string a = before().path, b = after().path;
    // render: --vs goes with --view compare, and the other way round
    EXPECT_EQ(runSkewscope({"render", a, "--vs", b, "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", a, "--view", "compare", "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", a, "--vs", "--view", "compare", "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", a, "--vs", b, "--vs", b, "--view", "compare", "--output", "/tmp/x.png"}).exitCode, 2);
    RunResult missing = runSkewscope({"render", a, "--vs", "/nonexistent.sqlite", "--view", "compare", "--output", "/tmp/x.png"},
                                     "QT_QPA_PLATFORM=offscreen");
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_NE(missing.err.find("B (after): "), std::string::npos) << missing.err;
    EXPECT_EQ(runSkewscope({"render", a, "--vs", b, "--view", "compare", "--collective", "0:999", "--output", "/tmp/x.png"},
                           "QT_QPA_PLATFORM=offscreen").exitCode, 1);
    // the viewer: --vs once, with files on both sides
    EXPECT_EQ(runSkewscope({a, "--vs"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"--vs", b}).exitCode, 2);
    EXPECT_EQ(runSkewscope({a, "--vs", b, "--vs", b}).exitCode, 2);
}

}  // namespace
