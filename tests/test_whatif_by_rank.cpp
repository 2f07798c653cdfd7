// The what-if's by_rank (docs/analysis.md, What-if) against a straightforward reference: for each
// rank, a replay of the replay graph's lane-order arrays by plain relaxation (every kernel's start =
// its latest bound + its gap, every coupled collective's members ending at the latest member's
// start + their transfer times, repeated over every kernel until nothing moves), that rank with
// captured durations and launches, every other rank ideal. The analysis computes by_rank in batched
// sweeps over the packed graph; on generated runs of many ranks every slowdown must be the same
// double, and every rank must be there.

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/step_pattern.h"
#include "analysis/whatif_graph.h"
#include "analysis/whatif_medians.h"
#include "analysis/whatif_pack.h"
#include "analysis/whatif_replay.h"
#include "analysis/whatif_steps.h"
#include "gen_fixture.h"
#include "model/loader.h"

namespace {

constexpr int kAllCaptured = -2;

// The step times of one replay (per step, -1 without kernels): rank `kept` captured (durations and
// launch bounds), every other rank with median durations and launch bounds dropped (but where the
// graph keeps them); kept -1: every rank ideal; kAllCaptured: every rank captured.
// maxError: when not null, the largest |replayed start - captured start| over the kernels.
std::vector<int64_t> referenceStepTimes(const skew::ReplayGraph& g, int kept, int64_t* maxError = nullptr) {
    const size_t n = g.size();
    std::vector<uint32_t> laneOf(n), rankOf(n);
    for (size_t l = 0; l < g.laneBase.size(); ++l) {
        const size_t to = l + 1 < g.laneBase.size() ? g.laneBase[l + 1] : n;
        for (size_t i = g.laneBase[l]; i < to; ++i) laneOf[i] = uint32_t(l), rankOf[i] = g.laneRank[l];
    }
    std::vector<int32_t> coll(n, -1);
    for (size_t c = 0; c + 1 < g.memberBegin.size(); ++c)
        for (uint32_t m = g.memberBegin[c]; m < g.memberBegin[c + 1]; ++m) coll[g.memberNode[m]] = int32_t(c);
    std::vector<int64_t> start(n, INT64_MIN), end(n, INT64_MIN);
    for (bool moved = true; moved;) {  // each pass settles at least one more kernel: at most n passes
        moved = false;
        for (size_t i = 0; i < n; ++i) {
            const bool ideal = kept != kAllCaptured && int(rankOf[i]) != kept;
            int64_t bound = ideal && !g.keepLaunch[i] ? skew::kNoBound : g.launch[i];
            if (i > g.laneBase[laneOf[i]] && end[i - 1] != INT64_MIN) bound = std::max(bound, end[i - 1] + g.prevLag[i]);
            if (g.cross[i] >= 0 && end[size_t(g.cross[i])] != INT64_MIN) bound = std::max(bound, end[size_t(g.cross[i])]);
            const int64_t s = bound == skew::kNoBound ? INT64_MIN : bound + g.gap[i];
            int64_t e = s == INT64_MIN ? INT64_MIN : s + (ideal && !g.median.empty() ? g.median[i] : g.duration[i]);
            if (coll[i] >= 0) e = end[i];  // a member ends with its collective (below)
            if (s != start[i] || e != end[i]) start[i] = s, end[i] = e, moved = true;
        }
        for (size_t c = 0; c + 1 < g.memberBegin.size(); ++c) {
            int64_t latest = INT64_MIN;
            bool all = true;
            for (uint32_t m = g.memberBegin[c]; m < g.memberBegin[c + 1]; ++m) {
                all = all && start[g.memberNode[m]] != INT64_MIN;
                latest = std::max(latest, start[g.memberNode[m]]);
            }
            for (uint32_t m = g.memberBegin[c]; all && m < g.memberBegin[c + 1]; ++m)
                if (int64_t& e = end[g.memberNode[m]]; e != latest + g.transfer[m]) e = latest + g.transfer[m], moved = true;
        }
    }
    if (maxError) {
        *maxError = 0;
        for (size_t i = 0; i < n; ++i) *maxError = std::max<int64_t>(*maxError, std::llabs(start[i] - g.start[i]));
    }
    std::vector<int64_t> first(size_t(g.steps) + 1, INT64_MAX), last(size_t(g.steps) + 1, INT64_MIN), t(size_t(g.steps) + 1, -1);
    for (size_t i = 0; i < n; ++i)
        if (g.step[i]) first[g.step[i]] = std::min(first[g.step[i]], start[i]), last[g.step[i]] = std::max(last[g.step[i]], end[i]);
    for (size_t s = 1; s < t.size(); ++s)
        if (last[s] != INT64_MIN) t[s] = last[s] - first[s];
    return t;
}

// Every rank's by_rank slowdown from the reference, keyed by rank index.
std::map<int, double> referenceByRank(const skew::Profile& p, const skew::Analysis& a) {
    const skew::StepPattern pattern(a.options.stepRegex);
    const skew::ReplayKernels k = skew::windowKernels(p, a);
    skew::KernelSteps steps = skew::kernelSteps(p, a, k, pattern);
    std::vector<int64_t> median = skew::medianDurations(p, a, k, steps.step, steps.count);
    const skew::ReplayGraph g = skew::buildReplayGraph(p, a, k, std::move(steps.step), steps.count, std::move(median));
    EXPECT_TRUE(g.ordered);
    auto sum = [&](const std::vector<int64_t>& t) {
        int64_t s = 0;
        for (const skew::WhatIfStep& st : a.whatIf.steps) s += t[st.step];
        return s;
    };
    const int64_t ideal = sum(referenceStepTimes(g, -1));
    std::map<int, double> out;
    for (size_t r = 0; r < p.ranks.size(); ++r) out[int(r)] = double(sum(referenceStepTimes(g, int(r)))) / double(ideal);
    return out;
}

// a causal run of 37 ranks (41 replays: three sweeps' worth), dependencies simulated: slow kernels
// and stalls; generated once, loaded afresh for each test
skew::Profile causalRun37() {
    skewgen::GenConfig cfg = skewgen::causalConfig();
    cfg.ranks = 37;
    return skew::loadProfile({testutil::generated("whatif-byrank-causal-37", cfg).path});
}

void expectByRankAsReference(const skew::Profile& p, const skew::Analysis& a) {
    const std::map<int, double> ref = referenceByRank(p, a);
    ASSERT_EQ(a.whatIf.byRank.size(), p.ranks.size());
    for (const skew::WhatIfRank& r : a.whatIf.byRank) {
        ASSERT_TRUE(ref.count(r.rank)) << r.rank;
        EXPECT_EQ(r.slowdown, ref.at(r.rank)) << "rank " << r.rank;
    }
    for (size_t i = 1; i < a.whatIf.byRank.size(); ++i) EXPECT_GE(a.whatIf.byRank[i - 1].slowdown, a.whatIf.byRank[i].slowdown);
}

TEST(WhatIfByRank, FortyPerRankFilesEqualTheReferenceReplayOfEachRank) {
    // 40 per-rank files with clock errors and two late arrivers: 44 replays, three sweeps of 15, 15 and 14 on up to 3 threads
    skewgen::GenConfig cfg;
    cfg.ranks = 40;
    cfg.steps = 3;
    cfg.layers = 2;
    cfg.perRankFiles = true;
    cfg.seed = 23;
    cfg.clockErrorNs.assign(40, 0);
    for (int r = 0; r < 40; r += 7) cfg.clockErrorNs[size_t(r)] = (r % 2 ? 1 : -1) * 1'500'000 * (r % 3 + 1);
    cfg.late = {{2, 3, 5, 4'000'000, skewgen::LateKind::Cpu}, {3, 1, 31, 6'000'000, skewgen::LateKind::Gpu}};
    const auto& gen = testutil::generated("whatif-byrank-40", cfg);
    skew::Profile p = skew::loadProfile(gen.result.files);
    const skew::Analysis a = skew::analyze(p);
    ASSERT_EQ(a.whatIf.steps.size(), 3u);
    ASSERT_EQ(p.ranks.size(), 40u);
    expectByRankAsReference(p, a);
}

TEST(WhatIfByRank, CausalRunOfManyRanksEqualsTheReferenceOnAnyNumberOfThreads) {
    // 37 ranks (41 replays: three sweeps of 14, 14 and 13), dependencies simulated: slow kernels and stalls
    skew::Profile p = causalRun37();
    ASSERT_EQ(p.ranks.size(), 37u);
    for (size_t threads : {1, 2, 3}) {
        skew::AnalysisOptions o;
        o.threads = threads;
        const skew::Analysis a = skew::analyze(p, o);
        expectByRankAsReference(p, a);
    }
}

TEST(WhatIfByRank, TimeOrderedAndPackedSweepsEqualTheReference) {
    // The sweep's two orders (rounds; captured time, taken here with no end allowed to wait) and its
    // two ways of reading records (block by block; packed once), on every by_rank scenario of a
    // 37-rank causal run: each replay's step times equal the reference relaxation's.
    skew::Profile p = causalRun37();
    const skew::Analysis a = skew::analyze(p);
    const skew::StepPattern pattern(a.options.stepRegex);
    const skew::ReplayKernels k = skew::windowKernels(p, a);
    auto build = [&](uint32_t cachedEnds) {
        skew::KernelSteps steps = skew::kernelSteps(p, a, k, pattern);
        std::vector<int64_t> median = skew::medianDurations(p, a, k, steps.step, steps.count);
        return skew::buildReplayGraph(p, a, k, std::move(steps.step), steps.count, std::move(median), cachedEnds);
    };
    const skew::ReplayGraph rounds = build(skew::kCachedEnds);
    skew::ReplayGraph timed = build(0);
    ASSERT_TRUE(rounds.ordered && timed.ordered);
    ASSERT_GT(timed.packedSlots, 0u);  // cross-stream waits: the time order was taken
    auto sameOrder = [](const skew::ReplayGraph& x, const skew::ReplayGraph& y) {
        if (x.order.size() != y.order.size()) return false;
        for (size_t i = 0; i < x.order.size(); ++i)
            if (x.order[i].lane != y.order[i].lane || x.order[i].begin != y.order[i].begin || x.order[i].end != y.order[i].end) return false;
        return true;
    };
    ASSERT_FALSE(sameOrder(rounds, timed));
    // kept = -1: every rank ideal; else that rank captured, the others ideal
    std::vector<skew::ReplayInputs> in;
    std::vector<std::vector<int64_t>> expected;
    for (int kept = -1; kept < int(p.ranks.size()); ++kept) {
        skew::ReplayInputs x = skew::capturedInputs(p.ranks.size());
        x.measureError = false;
        for (size_t r = 0; r < p.ranks.size(); ++r) x.median[r] = x.dropLaunch[r] = int(r) != kept;
        in.push_back(x);
        expected.push_back(referenceStepTimes(rounds, kept));
    }
    auto expectReference = [&](const skew::ReplayGraph& g, const char* what) {
        const std::vector<skew::ReplayOutcome> out = skew::replay(g, in);
        ASSERT_EQ(out.size(), in.size());
        for (size_t i = 0; i < out.size(); ++i) {
            std::vector<int64_t> t(out[i].stepStart.size(), -1);
            for (size_t s = 0; s < t.size(); ++s)
                if (out[i].stepEnd[s] != INT64_MIN) t[s] = out[i].stepEnd[s] - out[i].stepStart[s];
            EXPECT_EQ(t, expected[i]) << what << ", scenario " << i;
        }
    };
    expectReference(rounds, "rounds, block by block");
    expectReference(timed, "captured time, block by block");
    skew::packForSweep(timed, 2);
    ASSERT_EQ(timed.sweep.size(), timed.size());
    expectReference(timed, "captured time, packed");
}

TEST(WhatIfByRank, OneSweepOfSixteenKeepsEachScenarioApart) {
    // One full sweep (kReplayBatch scenarios, two halves of eight side by side): ranks 0..14
    // captured in turn (the others ideal), the 16th every rank ideal, but the 12th (in the second
    // half) every rank captured, its error measured. Each scenario's step times and that error are
    // the reference relaxation's; no other scenario's error is taken.
    static_assert(skew::kReplayBatch == 16);
    skew::Profile p = causalRun37();
    const skew::Analysis a = skew::analyze(p);
    const skew::StepPattern pattern(a.options.stepRegex);
    const skew::ReplayKernels k = skew::windowKernels(p, a);
    skew::KernelSteps steps = skew::kernelSteps(p, a, k, pattern);
    std::vector<int64_t> median = skew::medianDurations(p, a, k, steps.step, steps.count);
    skew::ReplayGraph g = skew::buildReplayGraph(p, a, k, std::move(steps.step), steps.count, std::move(median));
    ASSERT_TRUE(g.ordered);
    std::vector<skew::ReplayInputs> in;
    std::vector<std::vector<int64_t>> expected;
    int64_t error = -1;
    for (int s = 0; s < 16; ++s) {
        const int kept = s == 11 ? kAllCaptured : s < 15 ? s : -1;
        skew::ReplayInputs x = skew::capturedInputs(p.ranks.size());
        x.measureError = s == 11;
        for (size_t r = 0; r < p.ranks.size(); ++r) x.median[r] = x.dropLaunch[r] = kept != kAllCaptured && int(r) != kept;
        in.push_back(x);
        expected.push_back(referenceStepTimes(g, kept, s == 11 ? &error : nullptr));
    }
    ASSERT_GE(error, 0);
    int64_t otherError = 0;  // what the error of a scenario of the first half would be (rank 3 captured)
    referenceStepTimes(g, 3, &otherError);
    ASSERT_NE(otherError, error);
    for (bool packed : {false, true}) {
        if (packed) skew::packForSweep(g, 1);
        const std::vector<skew::ReplayOutcome> out = skew::replay(g, in);
        ASSERT_EQ(out.size(), 16u);
        for (size_t i = 0; i < out.size(); ++i) {
            std::vector<int64_t> t(out[i].stepStart.size(), -1);
            for (size_t s = 0; s < t.size(); ++s)
                if (out[i].stepEnd[s] != INT64_MIN) t[s] = out[i].stepEnd[s] - out[i].stepStart[s];
            EXPECT_EQ(t, expected[i]) << "scenario " << i << (packed ? ", packed" : "");
            EXPECT_EQ(out[i].maxErrorNs, i == 11 ? error : 0) << "scenario " << i << (packed ? ", packed" : "");
        }
    }
}

}  // namespace
