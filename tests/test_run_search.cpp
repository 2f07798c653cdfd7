// core/timeline/run_search: the viewer's Ctrl+F over a generated run, every hit checked against the
// generator's truth (its collectives and members, their kernel names by op, its step ranges).

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "gen_fixture.h"
#include "session/session.h"
#include "timeline/run_search.h"

using namespace testutil;
using namespace skew;

namespace {

// 3 ranks (one process each), 3 steps of 2 layers: AllGather and ReduceScatter (group 0), one
// AllReduce a step (group 1); no NCCL NVTX ranges, so that an op's name is only in its kernels.
const Generated& run() {
    static const skewgen::GenConfig cfg = [] {
        skewgen::GenConfig c;
        c.ranks = 3;
        c.steps = 3;
        c.layers = 2;
        c.nvtxNccl = false;
        c.seed = 7;
        return c;
    }();
    return generated("search", cfg);
}

std::shared_ptr<Session> session() {
    static std::shared_ptr<Session> s = loadSession({run().path}, {}, {});
    return s;
}

// (start, end, config rank) of each hit, in the search's order; Nvtx and Kernel hits name a rank
std::vector<std::tuple<int64_t, int64_t, int>> placed(const SearchResult& r) {
    std::vector<std::tuple<int64_t, int64_t, int>> out;
    for (const SearchHit& h : r.hits) out.emplace_back(h.start, h.end, run().result.specOrder[size_t(h.rank)]);
    return out;
}

// the truth's members of `op` collectives, as (start, end, rank), sorted
std::vector<std::tuple<int64_t, int64_t, int>> truthMembers(const std::string& op) {
    std::vector<std::tuple<int64_t, int64_t, int>> out;
    for (const auto& tc : run().result.collectives)
        if (tc.op == op)
            for (const auto& m : tc.members) out.emplace_back(m.startNs, m.endNs, m.rank);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(RunSearch, KernelNamesByOpIgnoringCase) {
    const auto s = session();
    const SearchResult r = searchRun(s->timeline, "  allgather ");
    const auto want = truthMembers("AllGather");
    ASSERT_EQ(want.size(), size_t(3 * 3 * 2 * 2));  // ranks x steps x (forward + backward) layers
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(placed(r), want);
    for (const SearchHit& h : r.hits) {
        EXPECT_EQ(h.kind, SearchHit::Kernel);
        ASSERT_GE(h.collective, 0);  // each is a member of its collective
        EXPECT_EQ(s->analysis.collectives[size_t(h.collective)].op, CollOp::AllGather);
    }
    // the first few in time order when more match than asked for
    const SearchResult few = searchRun(s->timeline, "AllGather", 5);
    EXPECT_TRUE(few.truncated);
    EXPECT_EQ(placed(few), std::vector(want.begin(), want.begin() + 5));
    EXPECT_EQ(placed(searchRun(s->timeline, "ReduceScatter")), truthMembers("ReduceScatter"));
}

TEST(RunSearch, CollectivesByNumber) {
    const auto s = session();
    // "#3": the third collective of each group; "1:2": group 1's second
    std::vector<std::tuple<int64_t, int64_t, int, int>> want, want12;
    for (const auto& tc : run().result.collectives) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.endNs);
        if (tc.index == 3) want.emplace_back(lo, hi, tc.group, tc.index);
        if (tc.group == 1 && tc.index == 2) want12.emplace_back(lo, hi, tc.group, tc.index);
    }
    std::sort(want.begin(), want.end());
    ASSERT_EQ(want.size(), 2u);
    ASSERT_EQ(want12.size(), 1u);
    auto got = [&](const char* q) {
        std::vector<std::tuple<int64_t, int64_t, int, int>> out;
        for (const SearchHit& h : searchRun(s->timeline, q).hits) {
            EXPECT_EQ(h.kind, SearchHit::Collective);
            const Collective& c = s->analysis.collectives[size_t(h.collective)];
            out.emplace_back(h.start, h.end, c.group, int(c.index));
        }
        return out;
    };
    EXPECT_EQ(got("#3"), want);
    EXPECT_EQ(got(" 1:2"), want12);
    EXPECT_TRUE(got("#0").empty());
    EXPECT_TRUE(got("#999").empty());
    EXPECT_TRUE(got("9:1").empty());
}

TEST(RunSearch, CorrelationIdsAndNvtxText) {
    const auto s = session();
    // the correlation id of an AllReduce member: every kernel launched with it (the generator's
    // ranks launch the same sequence, so each rank's member of that AllReduce has it)
    const skewgen::TruthCollective* ar = nullptr;
    for (const auto& tc : run().result.collectives)
        if (tc.op == "AllReduce" && tc.index == 2) ar = &tc;
    ASSERT_TRUE(ar);
    const uint32_t corr = ar->members[0].correlationId;
    std::vector<std::tuple<int64_t, int64_t, int>> want;
    for (const auto& tc : run().result.collectives)
        for (const auto& m : tc.members)
            if (m.correlationId == corr) want.emplace_back(m.startNs, m.endNs, m.rank);
    std::sort(want.begin(), want.end());
    ASSERT_EQ(want.size(), 3u);
    EXPECT_EQ(placed(searchRun(s->timeline, std::to_string(corr))), want);
    // NVTX: each rank's ProfilerStep#2 range, which starts where the truth says
    const SearchResult steps = searchRun(s->timeline, "profilerstep#2");
    ASSERT_EQ(steps.hits.size(), 3u);
    std::vector<std::pair<int64_t, int>> got, wantSteps;
    for (const SearchHit& h : steps.hits) {
        EXPECT_EQ(h.kind, SearchHit::Nvtx);
        EXPECT_EQ(s->profile.ranks[size_t(h.rank)].process, h.process);
        got.emplace_back(h.start, run().result.specOrder[size_t(h.rank)]);
    }
    for (int r = 0; r < 3; ++r) wantSteps.emplace_back(run().result.stepRangeStartNs[size_t(r)][1], r);
    std::sort(wantSteps.begin(), wantSteps.end());
    EXPECT_EQ(got, wantSteps);
    // nothing for a blank query or a name no kernel or range has
    EXPECT_TRUE(searchRun(s->timeline, "   ").hits.empty());
    EXPECT_TRUE(searchRun(s->timeline, "no such kernel").hits.empty());
}

}  // namespace
