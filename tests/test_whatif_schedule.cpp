// The what-if's ideal schedule (docs/analysis.md, What-if; the timeline's ghost bars): every
// kernel's start and end in the `ideal` replay of the hand profile (whatif_hand_profile.h), worked
// out by hand below, and of a generated causal run against its undelayed twin (SQL on the twin's
// export, never the replay code).

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/whatif_schedule.h"
#include "util/errors.h"
#include "whatif_hand_profile.h"

namespace {

using namespace whatifhand;

// The lane of (rank, stream).
int laneOf(const skew::Profile& p, int rank, int stream) {
    const auto& lanes = p.ranks[size_t(rank)].lanes;
    for (size_t l = 0; l < lanes.size(); ++l)
        if (lanes[l].stream == stream) return int(l);
    ADD_FAILURE() << "no stream " << stream << " on rank " << rank;
    return -1;
}

// Ideal [start, end] of every kernel of (rank, stream), in us after T.
std::vector<std::pair<int64_t, int64_t>> idealOf(const skew::IdealSchedule& s, const skew::Profile& p, int rank, int stream) {
    std::vector<std::pair<int64_t, int64_t>> out;
    const int lane = laneOf(p, rank, stream);
    if (lane < 0) return out;
    for (uint32_t k = 0; k < p.ranks[size_t(rank)].lanes[size_t(lane)].size(); ++k) {
        int64_t a = 0, b = 0;
        EXPECT_TRUE(s.at(rank, lane, k, a, b)) << "kernel " << k;
        out.push_back({(a - T) / kUs, (b - T) / kUs});
    }
    return out;
}

using Spans = std::vector<std::pair<int64_t, int64_t>>;

TEST(WhatIfSchedule, EveryKernelOfTheHandProfileWhereTheIdealReplayPutsIt) {
    skew::Profile p = handProfile();
    const skew::Analysis a = skew::analyze(p);
    const skew::IdealSchedule s = skew::idealSchedule(p, a);
    ASSERT_FALSE(s.empty()) << s.why;
    EXPECT_EQ(s.start.size(), 12u);
    // Step 1. GEMMs keep their launch bound (first kernel of the step) and gap: 5 + 5 = 10; both take
    // the lower median of {100, 300} = 100: [10, 110]. Elementwise: launch dropped, 110 + its 1 us gap
    // = 111, 20 us. AllGathers wait for their GEMM (inferred, 2 us later): 112 on both ranks; the
    // collective's latest start is 112, transfer 412 - 312 = 100: both end at 212.
    // Step 2. GEMMs: launch 1005 + gap 5 = 1010, [1010, 1110]. Rank 0's AllGather: launch dropped,
    // waits (the record) for its GEMM: 1110 + gap 3 = 1113; rank 1's: 1110 + 2 = 1112; both end at
    // 1113 + 100 = 1213. Elementwise: rank 0 after its GEMM + gap 2 (1312 - the call's end 1310) = 1112,
    // rank 1 + gap 1 = 1111.
    EXPECT_EQ(idealOf(s, p, 0, 7), (Spans{{10, 110}, {111, 131}, {1010, 1110}, {1112, 1132}}));
    EXPECT_EQ(idealOf(s, p, 0, 56), (Spans{{112, 212}, {1113, 1213}}));
    EXPECT_EQ(idealOf(s, p, 1, 7), (Spans{{10, 110}, {111, 131}, {1010, 1110}, {1111, 1131}}));
    EXPECT_EQ(idealOf(s, p, 1, 56), (Spans{{112, 212}, {1112, 1213}}));
}

TEST(WhatIfSchedule, KernelsInFindsWhatOverlapsAWindowOfIdealTime) {
    skew::Profile p = handProfile();
    const skew::Analysis a = skew::analyze(p);
    const skew::IdealSchedule s = skew::idealSchedule(p, a);
    const int nccl = laneOf(p, 0, 56), compute = laneOf(p, 0, 7);
    auto in = [&](int lane, int64_t from, int64_t to) { return s.kernelsIn(0, lane, double(T + from * kUs), double(T + to * kUs)); };
    // rank 0's AllGathers ideally run [112, 212] and [1113, 1213]; captured [112, 412] and [1308, 1408]
    EXPECT_EQ(in(nccl, 200, 1100), (std::pair<uint32_t, uint32_t>{0, 1}));
    EXPECT_EQ(in(nccl, 300, 1100), (std::pair<uint32_t, uint32_t>{1, 1}));
    EXPECT_EQ(in(nccl, 1200, 1300), (std::pair<uint32_t, uint32_t>{1, 2}));
    // compute: [10, 110] [111, 131] [1010, 1110] [1112, 1132]
    EXPECT_EQ(in(compute, 120, 1111), (std::pair<uint32_t, uint32_t>{1, 3}));
    EXPECT_EQ(s.kernelsIn(5, 0, 0, 1e18), (std::pair<uint32_t, uint32_t>{0, 0}));
    int64_t x = 0, y = 0;
    EXPECT_FALSE(s.at(0, 9, 0, x, y));
}

TEST(WhatIfSchedule, WithoutStepsOrLaunchRowsThereIsNoneAndItSaysWhy) {
    skew::Profile noSteps = handProfile({.nvtx = false});
    const skew::IdealSchedule a = skew::idealSchedule(noSteps, skew::analyze(noSteps));
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.why, "no training steps (no NVTX step ranges, no repeating collective sequence)");
    skew::Profile noLaunches = handProfile({.launches = false});
    const skew::IdealSchedule b = skew::idealSchedule(noLaunches, skew::analyze(noLaunches));
    EXPECT_TRUE(b.empty());
    EXPECT_EQ(b.why, "the exports have no launch rows (CUDA API trace)");
}

TEST(WhatIfSchedule, CancelledBetweenStages) {
    skew::Profile p = handProfile();
    const skew::Analysis a = skew::analyze(p);
    EXPECT_THROW(skew::idealSchedule(p, a, [] { return true; }), skew::Cancelled);
}

}  // namespace
