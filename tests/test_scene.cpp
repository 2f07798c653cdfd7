// core/scene: the collective view's draw list, its thin lanes' level of detail, the kernel texts and
// the views' words, on a tiny hand-built profile whose every number is known by construction (no
// widget, no export file); and the one wait/transfer split the scene and the timeline share.

#include <gtest/gtest.h>

#include <string>

#include "analysis/analysis.h"
#include "profile_builder.h"
#include "report/format.h"
#include "scene/collective_scene.h"
#include "scene/kernel_details.h"
#include "scene/lane_lod.h"
#include "scene/rank_labels.h"
#include "scene/view_texts.h"
#include "report/whatif_report.h"
#include "scene/whatif_scene.h"
#include "timeline/run_maps.h"
#include "timeline/timeline_index.h"

using namespace testutil;
using namespace skew;

namespace {

constexpr int64_t kUs = 1'000, kMs = 1'000'000;
constexpr int64_t T = 1'000 * kMs;  // times around 1 s
const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string SR = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

// Two ranks, one AllGather on stream 56: dev 0 starts at T, dev 1 (launched 2 ms early) 5 ms later,
// both end at T + 5.1 ms. Dev 1 also ran a GEMM on stream 7 that ended 1.5 us before its NCCL
// kernel started (the predecessor), and a SendRecv on stream 60 that no other rank has (other NCCL).
struct Fixture {
    Profile p;
    Analysis a;
    Fixture() {
        ProfileBuilder b;
        b.rank(0);
        b.rank(1);
        b.kernel(0, 56, T, T + 5 * kMs + 100 * kUs, AG, 1).launch(0, 1, T - 60 * kUs, T - 50 * kUs);
        b.kernel(1, 56, T + 5 * kMs, T + 5 * kMs + 100 * kUs, AG, 1).launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
        b.kernel(1, 7, T + 5 * kMs - 300 * kUs, T + 5 * kMs - 1500, "nvjet_tst_gemm");
        b.kernel(1, 60, T + 1 * kMs, T + 1 * kMs + 200 * kUs, SR);
        p = b.build();
        a = analyze(p);
    }
};

const Fixture& fixture() {
    static const Fixture f;
    return f;
}

const Bar* findBar(const CollectiveScene& sc, int row, bool sub, KernelClass kind) {
    for (const Bar& b : sc.bars)
        if (b.row == row && b.sub == sub && b.kind == kind) return &b;
    return nullptr;
}

TEST(Scene, MembersSplitIntoWaitingAndTransferAtTheLatestStart) {
    const Fixture& f = fixture();
    ASSERT_EQ(f.a.collectives.size(), 1u);
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    EXPECT_EQ(sc.collective, 0);
    EXPECT_EQ(sc.t0, T);
    ASSERT_EQ(sc.rows.size(), 2u);
    EXPECT_EQ(sc.rows[0].label, "dev 0");
    EXPECT_TRUE(sc.rows[0].early);
    EXPECT_EQ(sc.rows[1].latenessNs, 5 * kMs);
    EXPECT_TRUE(sc.rows[1].late);
    // dev 0 waited from its start to dev 1's start, then transferred; dev 1 arrived last: no wait
    const Bar* wait0 = findBar(sc, 0, false, KernelClass::NcclWait);
    const Bar* xfer0 = findBar(sc, 0, false, KernelClass::NcclTransfer);
    ASSERT_TRUE(wait0 && xfer0);
    EXPECT_EQ(wait0->x0, 0.0);
    EXPECT_EQ(wait0->x1, double(5 * kMs));
    EXPECT_EQ(xfer0->x0, double(5 * kMs));
    EXPECT_EQ(xfer0->x1, double(5 * kMs + 100 * kUs));
    EXPECT_EQ(findBar(sc, 1, false, KernelClass::NcclWait), nullptr);
    const Bar* xfer1 = findBar(sc, 1, false, KernelClass::NcclTransfer);
    ASSERT_TRUE(xfer1);
    EXPECT_TRUE(xfer1->late);
    EXPECT_EQ(xfer1->x0, double(5 * kMs));
    // the fit: 8% of the span left of the first start, 22% right of the last end
    EXPECT_DOUBLE_EQ(sc.fitX0, -0.08 * 5.1e6);
    EXPECT_DOUBLE_EQ(sc.fitX1, 5.1e6 * 1.22);
    EXPECT_EQ(sc.endX, 5.1e6);
}

TEST(Scene, TheTimelineSplitsMembersTheSameWay) {
    // one memberWaitNs: the timeline's waiting part of each member equals the scene's wait bar
    const Fixture& f = fixture();
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    TimelineIndex ix(f.p, f.a);
    for (const Bar& b : sc.bars) {
        if (b.sub || b.kind != KernelClass::NcclTransfer) continue;
        const Bar* w = findBar(sc, b.row, false, KernelClass::NcclWait);
        EXPECT_EQ(double(ix.waitNs(b.rank, b.lane, b.kernel)), w ? w->x1 - w->x0 : 0.0) << "row " << b.row;
    }
    const Collective& c = f.a.collectives[0];
    EXPECT_EQ(memberWaitNs(c, T, T + 5 * kMs + 100 * kUs), 5 * kMs);  // waited until the last start
    EXPECT_EQ(memberWaitNs(c, T, T + 2 * kMs), 2 * kMs);              // ended before it: all waiting
    EXPECT_EQ(memberWaitNs(c, T + 5 * kMs, T + 6 * kMs), 0);          // the last to start
    EXPECT_EQ(memberWaitNs(c, T + 6 * kMs, T + 7 * kMs), 0);          // after it: never negative
    EXPECT_EQ(memberWaitNs(c, T + kMs, T + kMs), 0);                  // zero length
}

TEST(Scene, ThinLanesPredecessorAndLaunch) {
    const Fixture& f = fixture();
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    // dev 1's other streams: the GEMM (its predecessor) and the SendRecv no other rank has
    const Bar* gemm = findBar(sc, 1, true, KernelClass::Gemm);
    ASSERT_TRUE(gemm);
    EXPECT_TRUE(gemm->predecessor);
    EXPECT_EQ(gemm->x1, double(5 * kMs - 1500));
    const Bar* other = findBar(sc, 1, true, KernelClass::OtherNccl);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->x0, double(kMs));
    EXPECT_FALSE(other->predecessor);
    EXPECT_EQ(findBar(sc, 0, true, KernelClass::Gemm), nullptr);
    EXPECT_EQ(sc.cause, Cause::GpuDependency);
    // the late arriver's launch: 2 ms before the first start, 6.99 ms before its own
    ASSERT_TRUE(sc.launch.present);
    EXPECT_EQ(sc.launch.row, 1);
    EXPECT_EQ(sc.launch.apiStart, double(-2 * kMs));
    EXPECT_EQ(sc.launch.apiEnd, double(-2 * kMs + 10 * kUs));
    EXPECT_EQ(sc.launch.kernelStart, double(5 * kMs));
    EXPECT_EQ(sc.launch.label, "cuLaunchKernelEx: launch to start 6.99 ms");
    // sorted for hit testing: main rows first, then by row and start
    for (size_t i = 1; i < sc.bars.size(); ++i) {
        const Bar &x = sc.bars[i - 1], &y = sc.bars[i];
        EXPECT_TRUE(x.sub < y.sub || (x.sub == y.sub && (x.row < y.row || (x.row == y.row && x.x0 <= y.x0)))) << i;
    }
}

TEST(Scene, HitTestFindsTheBarUnderAPoint) {
    const Fixture& f = fixture();
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    auto kindAt = [&](double x, int row, bool sub, double slack) {
        int i = sc.hitTest(x, row, sub, slack);
        return i < 0 ? KernelClass::None : sc.bars[size_t(i)].kind;
    };
    EXPECT_EQ(kindAt(2.0 * kMs, 0, false, 0), KernelClass::NcclWait);
    EXPECT_EQ(kindAt(5.05 * kMs, 0, false, 0), KernelClass::NcclTransfer);
    EXPECT_EQ(kindAt(2.0 * kMs, 1, false, 0), KernelClass::None);             // dev 1 had not started
    EXPECT_EQ(kindAt(4.9 * kMs, 1, true, 0), KernelClass::Gemm);
    EXPECT_EQ(kindAt(1.3 * kMs, 1, true, 50 * kUs), KernelClass::None);       // 100 us past the SendRecv
    EXPECT_EQ(kindAt(1.3 * kMs, 1, true, 150 * kUs), KernelClass::OtherNccl);  // within the slack
}

TEST(Scene, NoCollectiveIsAnEmptyScene) {
    const Fixture& f = fixture();
    EXPECT_EQ(buildScene(f.p, f.a, -1).collective, -1);
    EXPECT_TRUE(buildScene(f.p, f.a, 1).bars.empty());
}

TEST(KernelTexts, BarSummaryAndDetails) {
    const Fixture& f = fixture();
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    const Bar* gemm = findBar(sc, 1, true, KernelClass::Gemm);
    ASSERT_TRUE(gemm);
    EXPECT_EQ(barSummary(f.p, sc, *gemm), "nvjet_tst_gemm\ndev 1, stream 7: GEMM, predecessor of the late arriver\n+4.70 ms to +5.00 ms (298.5 us)");
    const Bar* wait0 = findBar(sc, 0, false, KernelClass::NcclWait);
    EXPECT_EQ(barSummary(f.p, sc, *wait0).substr(barSummary(f.p, sc, *wait0).find('\n')),
              "\ndev 0, stream 56: waiting for the last rank\n+0 ns to +5.10 ms (5.10 ms)");
    const Bar* late = findBar(sc, 1, false, KernelClass::NcclTransfer);
    const std::string d = kernelDetails(f.p, f.a, 0, late->rank, late->lane, late->kernel);
    for (const char* line : {"Kernel: " "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)\n",
                             "Stream: 56\n", "Launch call: from 998000000 ns (998.00 ms), 10.0 us long\n", "Launch to start: 6.99 ms\n", "Lateness: 5.00 ms\n",
                             "Late arriver: yes, cause GPU dependency\n", "Predecessor: nvjet_tst_gemm\n",
                             "Why: started 1.5 us after GEMM nvjet_tst_gemm on stream 7\n", "NVTX at launch: none\n"})
        EXPECT_NE(d.find(line), std::string::npos) << line << " in\n" << d;
}

TEST(LaneLod, RunsAndDominantClass) {
    // hand-made bars: a short GEMM next to long elementwise kernels
    CollectiveScene sc;
    sc.collective = 0;
    sc.rows.push_back({0, "r"});
    auto sub = [&](double x0, double x1, KernelClass k) { sc.bars.push_back({x0, x1, 0, true, k, false, false, 0, 0, 0}); };
    sub(0, 10, KernelClass::Gemm);        // column 0: 10 ns GEMM, 90 ns other -> other
    sub(10, 100, KernelClass::Other);
    sub(100, 160, KernelClass::Gemm);     // column 1: 60 ns GEMM, 40 ns other -> GEMM
    sub(160, 200, KernelClass::Other);
    sub(250, 260, KernelClass::OtherNccl);  // column 2: only 10 ns of NCCL -> other NCCL
    sub(400, 400, KernelClass::Other);      // column 4: a zero-length kernel still ran
    PixelColumns cols{0, 100, 6};
    EXPECT_EQ(laneColumns(sc, 0, cols), (std::vector<KernelClass>{KernelClass::Other, KernelClass::Gemm, KernelClass::OtherNccl,
                                                                  KernelClass::None, KernelClass::Other, KernelClass::None}));
    std::vector<LaneRun> runs = laneRuns({KernelClass::Other, KernelClass::Other, KernelClass::None, KernelClass::Gemm,
                                          KernelClass::Gemm, KernelClass::Other});
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].first, 0);
    EXPECT_EQ(runs[0].last, 1);
    EXPECT_EQ(runs[1].first, 3);
    EXPECT_EQ(runs[1].last, 4);
    EXPECT_EQ(runs[1].cls, KernelClass::Gemm);
    EXPECT_EQ(runs[2].cls, KernelClass::Other);
    // exact ties: GEMM, then other NCCL, then other
    EXPECT_EQ(dominantClass({5, 5, 5}), KernelClass::Gemm);
    EXPECT_EQ(dominantClass({5, 5, 0}), KernelClass::OtherNccl);
    EXPECT_EQ(dominantClass({}), KernelClass::None);
}

TEST(LaneLod, TheFixturesThinLaneAtOneNanosecondAPixel) {
    // at 1 ns a pixel every column is inside one kernel or idle: the classes exactly where they ran
    const Fixture& f = fixture();
    const CollectiveScene sc = buildScene(f.p, f.a, 0);
    const PixelColumns cols{double(5 * kMs - 1502), 1, 4};
    EXPECT_EQ(laneColumns(sc, 1, cols), (std::vector<KernelClass>{KernelClass::Gemm, KernelClass::Gemm, KernelClass::None, KernelClass::None}));
    const std::vector<ColumnBusy> busy = laneBusy(sc, 1, PixelColumns{double(kMs), 100 * kUs, 3});
    EXPECT_EQ(busy[0].otherNccl, 100.0 * kUs);
    EXPECT_EQ(busy[1].otherNccl, 100.0 * kUs);
    EXPECT_EQ(busy[2].otherNccl, 0.0);
    EXPECT_EQ(busy[0].gemm + busy[0].other, 0.0);
}

TEST(ViewTexts, CommonLabelStart) {
    const std::vector<std::string> labels = {"nsysai-mfu_2gpu_before/pid 148/dev 0", "nsysai-mfu_2gpu_before/pid 149/dev 1",
                                             "nsysai-mfu_2gpu_after/pid 148/dev 0", "nsysai-mfu_2gpu_after/pid 149/dev 1"};
    EXPECT_EQ(commonLabelStart(labels), "nsysai-mfu_2gpu_");
    EXPECT_EQ(commonLabelStart({"capture_before/dev 0", "capture_between/dev 0"}), "capture_");  // cut after a separator
    EXPECT_EQ(commonLabelStart({labels[0]}), "");
    EXPECT_EQ(commonLabelStart({"dev 0", "dev 1"}), "");               // too short to be worth an ellipsis
    EXPECT_EQ(commonLabelStart({"run_ab/x", "run_ab/"}), "");           // every label keeps something of its own
    EXPECT_EQ(commonLabelStart({"\u00fcber_run_a", "\u00fcber_run_b"}), "\u00fcber_run_");
    EXPECT_EQ(commonLabelStart({"\u00e4\u00f6\u00fc_a", "\u00e4\u00f6\u00fc_b"}), "");  // 7 bytes, 4 characters
    EXPECT_EQ(commonLabelStart(rankLabels(fixture().p)), "");
}

TEST(ViewTexts, CollectiveViewLabels) {
    const Fixture& f = fixture();
    CollectiveScene sc = buildScene(f.p, f.a, 0);
    EXPECT_EQ(rowLabel(sc, 0), "first, waited 5.00 ms");
    EXPECT_EQ(rowLabel(sc, 1), "late arriver: +5.00 ms");
    sc.rows[0].early = false;
    sc.rows[0].latenessNs = 88'200;
    EXPECT_EQ(rowLabel(sc, 0), "+88.2 us");
    sc.rows[0].missing = true;
    EXPECT_EQ(rowLabel(sc, 0), "no kernel here: partial collective");
    EXPECT_EQ(predecessorLabel(KernelClass::Gemm, false), "predecessor (GEMM)");
    EXPECT_EQ(predecessorLabel(KernelClass::Other, true), "pred. kernel");
    EXPECT_EQ(launchLabelPrefix(std::nullopt), "CPU launch");
    EXPECT_EQ(launchLabelPrefix(1'200'000), "CPU launch 1.20 ms before the view");
}

TEST(ViewTexts, TitlesAndEmptyStates) {
    const Fixture& f = fixture();
    EXPECT_EQ(groupOpNames(f.a.groups[0], "/"), "AllGather");
    EXPECT_EQ(heatmapTitle(f.a, 0), "Lateness heatmap  \u00B7  group 0 (AllGather)  \u00B7  1 collectives \u00D7 2 ranks  \u00B7  "
                                    "outlined: big events (start skew > 20.00 ms)");
    EXPECT_EQ(heatmapGroupItem(f.a, 0), "group 0: AllGather (1)");
    const StepMap m = buildStepMap(f.p, f.a, -1);
    ASSERT_TRUE(m.empty());
    EXPECT_EQ(stepMapTitle(m, f.a), "Step map: no steps");
    // the groups shown in words: "group 0", "groups 0 and 1", "groups 0, 1 and 2"
    StepMap shared;
    shared.source = StepSource::Nvtx;
    shared.steps = 5;
    shared.items.resize(140);
    shared.big = {1, 2};
    for (auto [groups, words] : {std::pair{std::vector<int>{0}, "group 0"}, std::pair{std::vector<int>{0, 1}, "groups 0 and 1"},
                                 std::pair{std::vector<int>{0, 1, 2}, "groups 0, 1 and 2"}}) {
        shared.groups = groups;
        EXPECT_EQ(stepMapTitle(shared, f.a), "Step map  \u00B7  5 steps (NVTX step ranges)  \u00B7  140 collectives of " + std::string(words) +
                                                 "  \u00B7  2 big events (start skew > 20.00 ms)");
    }
    EXPECT_EQ(stepMapSideTitle(m, "A (before)"), "A (before): no steps");
    const std::vector<std::string> texts = stepMapEmptyTexts(m);
    ASSERT_EQ(texts.size(), 3u);
    EXPECT_EQ(texts[0].rfind(m.why, 0), 0u);
    EXPECT_EQ(texts[1], m.why);
    EXPECT_EQ(noCollectivesText(f.p, f.a), "");
    EXPECT_EQ(timelineEmptyText(false), "Open exports to see the run");
    EXPECT_EQ(timelineEmptyText(true), "No kernels in these exports");
    EXPECT_EQ(kernelClassName(KernelClass::NcclWait), "NCCL waiting");
    EXPECT_EQ(kernelClassName(KernelClass::OtherNccl), "other NCCL");
    // no NCCL kernel, and no kernel at all
    ProfileBuilder b;
    b.rank(0);
    b.kernel(0, 7, T, T + kMs, "nvjet_tst_gemm");
    Profile gemmOnly = b.build();
    const Analysis none = analyze(gemmOnly);
    EXPECT_EQ(noCollectivesText(gemmOnly, none).rfind("No NCCL kernels in these exports: 1 kernels on 1 rank(s), none of them", 0), 0u);
    Profile empty;
    EXPECT_EQ(noCollectivesText(empty, Analysis{}).rfind("These exports hold no GPU kernels", 0), 0u);
}

TEST(Format, KernelNames) {
    const std::string templ = "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl>(int, T1)";
    EXPECT_EQ(kernelBaseName(templ), "at::native::elementwise_kernel");
    EXPECT_EQ(shortKernelName(templ), "at::native::elementwise_kernel");
    const std::string longName = std::string(100, 'k') + "<int>(float)";
    EXPECT_EQ(kernelBaseName(longName), std::string(100, 'k'));           // whole: a view elides it to its room
    EXPECT_EQ(shortKernelName(longName), std::string(67, 'k') + "...");  // prose: at most 70 characters
    EXPECT_EQ(kernelBaseName("(anonymous)::fn"), "(anonymous)::fn");    // nothing before the bracket: kept
}

TEST(LogScale, Position) {
    EXPECT_EQ(logPosition(5, 10, 1000), 0.0);
    EXPECT_EQ(logPosition(10, 10, 1000), 0.0);
    EXPECT_DOUBLE_EQ(logPosition(100, 10, 1000), 0.5);
    EXPECT_EQ(logPosition(1000, 10, 1000), 1.0);
    EXPECT_EQ(logPosition(20, 10, 10), 1.0);  // an empty scale: above its end
    const SkewScale s{.median = 300, .lo = 1000, .hi = 100'000};
    EXPECT_DOUBLE_EQ(s.position(10'000), 0.5);
}

}  // namespace

// ---- the What-if view's scene ---------------------------------------------------------------------

namespace {

// A what-if as the engine would leave it: 3 NVTX steps, 20 ranks ranked, one scenario missing.
skew::WhatIf handMadeWhatIf() {
    skew::WhatIf w;
    w.kernels = 1234;
    w.maxErrorNs = 0;
    w.stepSource = skew::StepSource::Nvtx;
    w.steps = {{1, 100'000'000, 80'000'000, std::nullopt, 50'000'000},
               {2, 120'000'000, 90'000'000, std::nullopt, 60'000'000},
               {3, 90'000'000, 85'000'000, std::nullopt, 45'000'000}};
    for (int r = 0; r < 20; ++r) w.byRank.push_back({r, 1.5 - 0.01 * r});
    return w;
}

}  // namespace

TEST(WhatIfScene, StepsScenariosAndTheCostliestRanks) {
    skew::Profile p;
    p.ranks.resize(20);
    for (int r = 0; r < 20; ++r) p.ranks[size_t(r)].label = "dev " + std::to_string(r);
    skew::Analysis a;
    a.whatIf = handMadeWhatIf();
    const skew::WhatIfScene s = skew::buildWhatIfScene(p, a, 16);
    EXPECT_EQ(s.title, "What-if  \u00B7  3 steps (NVTX step ranges)  \u00B7  1234 kernels replayed (off by 0 ns)");
    EXPECT_TRUE(s.emptyText.empty());
    EXPECT_EQ(s.steps, (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(s.capturedNs, (std::vector<int64_t>{100'000'000, 120'000'000, 90'000'000}));
    EXPECT_TRUE(s.hasScenario[0]);
    EXPECT_FALSE(s.hasScenario[1]);  // no_late_launches not computed: no bars, no key entry
    EXPECT_TRUE(s.hasScenario[2]);
    EXPECT_EQ(s.scenarioNs[2], (std::vector<int64_t>{50'000'000, 60'000'000, 45'000'000}));
    ASSERT_EQ(s.ranks.size(), 16u);
    EXPECT_EQ(s.moreRanks, 4u);
    EXPECT_EQ(s.ranks[0].label, "dev 0");
    EXPECT_DOUBLE_EQ(s.ranks[15].slowdown, 1.35);
    // a step's words: each scenario with its speed-up over the captured step (100 / 80, 100 / 50)
    EXPECT_EQ(skew::whatIfStepText(s, 0),
              "step 1: captured 100.00 ms  \u00B7  without slow kernels 80.00 ms (1.25x)  \u00B7  without either (ideal) 50.00 ms (2.00x)");
    EXPECT_EQ(skew::whatIfStepText(s, 3), "");
}

TEST(WhatIfScene, WithoutStepsOrKernelsItSaysWhy) {
    skew::Profile p;
    skew::Analysis a;
    skew::WhatIfScene s = skew::buildWhatIfScene(p, a);
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s.emptyText, "No kernels to replay: the what-if needs a capture with CUDA kernels.");
    a.whatIf.kernels = 10;
    s = skew::buildWhatIfScene(p, a);
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s.emptyText, "What-if: not computed: no training steps (no NVTX step ranges, no repeating collective sequence).");
    EXPECT_EQ(s.title, "What-if");  // no replay figures above "not computed"
}

// The sentence never names one rank of several that cost the same, and says when the scenario's
// median step is no faster than the captured one.
TEST(WhatIfScene, TiedRanksAndAScenarioNoFasterAreSaidAsSuch) {
    skew::Profile p;
    p.ranks.resize(5);
    for (int r = 0; r < 5; ++r) p.ranks[size_t(r)].label = "dev " + std::to_string(r);
    skew::Analysis a;
    a.whatIf = handMadeWhatIf();  // medians: captured 100 ms, ideal 50 ms
    a.whatIf.ideal = 2.0;
    a.whatIf.byRank = {{3, 1.534}, {1, 1.531}, {0, 1.527}, {4, 1.526}, {2, 1.40}};
    EXPECT_EQ(skew::whatIfSentence(p, a),
              "Without the late arrivals the median step would take 50.00 ms instead of 100.00 ms (2.00x); 4 ranks alone cost 1.53x "
              "each (dev 3, dev 1, dev 0 and 1 more).");
    a.whatIf.byRank.pop_back();
    EXPECT_EQ(skew::whatIfSentence(p, a),
              "Without the late arrivals the median step would take 50.00 ms instead of 100.00 ms (2.00x); each rank alone costs "
              "1.53x: no one rank stands out.");
    a.whatIf.byRank = {{3, 1.534}, {1, 1.40}};
    EXPECT_EQ(skew::whatIfSentence(p, a),
              "Without the late arrivals the median step would take 50.00 ms instead of 100.00 ms (2.00x); dev 3 alone costs 1.53x.");
    // the ideal steps above the captured ones: no gain
    for (auto& st : a.whatIf.steps) st.idealNs = st.capturedNs + 260'000;
    a.whatIf.ideal = 0.997;
    EXPECT_EQ(skew::whatIfSentence(p, a),
              "Without the late arrivals the median step would be no faster: 100.26 ms against 100.00 ms captured (1.00x); dev 3 "
              "alone costs 1.53x.");
}
