// `skewscope compare`: on two hand-built captures every figure of each side and every delta is
// computed by hand (CompareByHand); on the real before/after pair each side equals `analyze` of
// its file and every delta equals the difference of the two analyses (a consistency test: its
// expected numbers come from `analyze`, which shares the analysis with compare, so an error in the
// analysis itself would pass it), and the verdict's numbers are the exports' rows read with SQL;
// on generated pairs the "after" capture without the planted big events loses exactly their
// excess, and the recurring positions of the step disappear; groups pair by op mix (80% alike) and rank count, and every group that does not
// pair is named, with why, in text, Markdown and JSON; the reports give A -> B of every figure.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>

#include <sqlite3.h>

#include "compare/compare.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "profile_builder.h"
#include "report/compare_report.h"
#include "report/format.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

constexpr int64_t kMs = 1'000'000;

// A group's start-skew cost from member times alone: total = sum of member durations, excess =
// total - n x shortest, over collectives every rank took part in (docs/analysis.md).
struct SideCost {
    int64_t total = 0, excess = 0;
    double share() const { return total ? double(excess) / double(total) : 0; }
};
void addCollective(SideCost& c, const std::vector<int64_t>& durations) {
    int64_t sum = 0, shortest = INT64_MAX;
    for (int64_t d : durations) sum += d, shortest = std::min(shortest, d);
    c.total += sum;
    c.excess += sum - int64_t(durations.size()) * shortest;
}
// from the generator's truth (`group` in its numbering: 0 FSDP, 1 AllReduce)
SideCost truthCost(const skewgen::GenResult& r, int group) {
    SideCost c;
    for (const auto& tc : r.collectives) {
        if (tc.group != group || tc.members.size() != r.rankLabels.size()) continue;
        std::vector<int64_t> d;
        for (const auto& m : tc.members) d.push_back(m.endNs - m.startNs);
        addCollective(c, d);
    }
    return c;
}
// from an analyze JSON's collectives of group `group` (their members' start and end)
SideCost jsonCost(const testjson::Value& analysis, int64_t group) {
    SideCost c;
    for (const auto& col : analysis["collectives"].arr) {
        if (col["group"].i64() != group || !col["complete"].b) continue;
        std::vector<int64_t> d;
        for (const auto& m : col["members"].arr) d.push_back(m["end_ns"].i64() - m["start_ns"].i64());
        addCollective(c, d);
    }
    return c;
}

// ---- by hand ---------------------------------------------------------------------------------

struct Built {
    skew::Profile p;
    skew::Analysis a;
    skew::Side side() const { return {&p, &a}; }
};


// A capture of 2 ranks and 6 AllGathers, 100 ms apart at 1 s + 100 ms x c: rank r starts at
// start[c][r] after that and ends at 2 ms + end[c][r] after it. `cpuLate` gives the (collective,
// rank) whose kernel has a launch row that ends 40 us after the collective's first start; no other
// kernel has one.
struct HandCollective {
    int64_t start[2], end[2];
};
std::unique_ptr<Built> handCapture(const std::vector<HandCollective>& cs, std::pair<int, int> cpuLate = {-1, -1}) {
    const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    ProfileBuilder pb;
    pb.rank(0);
    pb.rank(1);
    for (size_t c = 0; c < cs.size(); ++c) {
        const int64_t t = 1'000'000'000 + int64_t(c) * 100 * kMs;
        for (int r = 0; r < 2; ++r) {
            const bool launched = cpuLate == std::pair<int, int>{int(c), r};
            pb.kernel(r, 56, t + cs[c].start[r], t + 2 * kMs + cs[c].end[r], AG, launched ? 40u : skew::kNoCorrelation);
            if (launched) pb.launch(r, 40, t + 30'000, t + 40'000);
        }
    }
    auto b = std::make_unique<Built>();
    b->p = pb.build();
    b->a = skew::analyze(b->p);
    return b;
}

constexpr int64_t kUs = 1'000;

// Every figure of compare on two small captures, worked out by hand from their member times
// (durations d = 2 ms + end - start; excess = d0 + d1 - 2 min = |d0 - d1|; percentiles by linear
// interpolation at q (n - 1): p50 the mean of the 3rd and 4th of 6, p90 halfway from the 5th to the
// 6th). A: start skews 20, 40, 25000 (big), 60, 80, 100 us; B: 10, 10, 30, 20, 50, 40 us, no big
// event, and one cpu_launch late arriver.
TEST(Compare, CompareByHand) {
    // {start dev 0, start dev 1}, {end dev 0, end dev 1} (after 2 ms)
    auto A = handCapture({{{0, 20 * kUs}, {0, 2 * kUs}},
                          {{40 * kUs, 0}, {0, 4 * kUs}},
                          {{0, 25 * kMs}, {24 * kMs, 24 * kMs + 6 * kUs}},
                          {{0, 60 * kUs}, {0, 8 * kUs}},
                          {{80 * kUs, 0}, {0, 2 * kUs}},
                          {{0, 100 * kUs}, {0, 4 * kUs}}});
    auto B = handCapture({{{0, 10 * kUs}, {0, 2 * kUs}},
                          {{10 * kUs, 0}, {0, 2 * kUs}},
                          {{0, 30 * kUs}, {0, 2 * kUs}},
                          {{20 * kUs, 0}, {0, 4 * kUs}},
                          {{50 * kUs, 0}, {0, 2 * kUs}},
                          {{0, 40 * kUs}, {0, 6 * kUs}}},
                         {4, 0});  // dev 0 in collective 5: launched 40 us after the first start, of its 50 us late
    ASSERT_EQ(A->a.groups.size(), 1u);
    ASSERT_EQ(B->a.groups.size(), 1u);
    skew::Comparison c = skew::compareCaptures(A->side(), B->side());
    ASSERT_EQ(c.pairs.size(), 1u);
    const skew::GroupPair& pair = c.pairs[0];
    const skew::GroupDelta &va = pair.valuesA, &vb = pair.valuesB, &d = pair.delta;
    // A: start skews sorted 20 40 60 80 100 25000 us: p50 70 us, p90 100 + (25000 - 100) / 2 us
    EXPECT_EQ(va.startSkew.p50, 70 * kUs);
    EXPECT_EQ(va.startSkew.p90, 12'550 * kUs);
    EXPECT_EQ(va.startSkew.max, 25 * kMs);
    // end skews 2 4 6 8 2 4 us: sorted 2 2 4 4 6 8
    EXPECT_EQ(va.endSkew.p50, 4 * kUs);
    EXPECT_EQ(va.endSkew.p90, 7 * kUs);
    EXPECT_EQ(va.endSkew.max, 8 * kUs);
    // durations (us): 2000/1982, 1960/2004, 26000/1006, 2000/1948, 1920/2002, 2000/1904
    const int64_t totalA = (3982 + 3964 + 27006 + 3948 + 3922 + 3904) * kUs, excessA = (18 + 44 + 24994 + 52 + 82 + 96) * kUs;
    EXPECT_EQ(va.excessNs, excessA);
    EXPECT_NEAR(va.costShare, double(excessA) / double(totalA), 1e-12);
    EXPECT_EQ(va.bigCount, 1);
    EXPECT_EQ(va.bigExcessNs, 24'994 * kUs);
    // late: dev 1, dev 0, dev 1, dev 1, dev 0, dev 1; lateness without the big one: dev 0 40 + 80
    // over 5, dev 1 20 + 60 + 100 over 5
    ASSERT_EQ(va.perRank.size(), 2u);
    EXPECT_EQ(va.perRank[0].lastCount, 2);
    EXPECT_EQ(va.perRank[1].lastCount, 4);
    EXPECT_EQ(va.perRank[0].meanLatenessExclBigNs, 24 * kUs);
    EXPECT_EQ(va.perRank[1].meanLatenessExclBigNs, 36 * kUs);
    const auto causeIndex = [](skew::Cause x) { return size_t(x); };
    EXPECT_EQ(va.causes[causeIndex(skew::Cause::Unknown)], 6);  // no launch rows
    EXPECT_EQ(va.bigCauses[causeIndex(skew::Cause::Unknown)], 1);

    // B: start skews sorted 10 10 20 30 40 50 us; ends 2 2 2 4 2 6 us, sorted 2 2 2 2 4 6
    EXPECT_EQ(vb.startSkew.p50, 25 * kUs);
    EXPECT_EQ(vb.startSkew.p90, 45 * kUs);
    EXPECT_EQ(vb.startSkew.max, 50 * kUs);
    EXPECT_EQ(vb.endSkew.p50, 2 * kUs);
    EXPECT_EQ(vb.endSkew.p90, 5 * kUs);
    EXPECT_EQ(vb.endSkew.max, 6 * kUs);
    // durations (us): 2000/1992, 1990/2002, 2000/1972, 1980/2004, 1950/2002, 2000/1966
    const int64_t totalB = (3992 + 3992 + 3972 + 3984 + 3952 + 3966) * kUs, excessB = (8 + 12 + 28 + 24 + 52 + 34) * kUs;
    EXPECT_EQ(vb.excessNs, excessB);
    EXPECT_NEAR(vb.costShare, double(excessB) / double(totalB), 1e-12);
    EXPECT_EQ(vb.bigCount, 0);
    EXPECT_EQ(vb.bigExcessNs, 0);
    // late: dev 1, dev 0, dev 1, dev 0, dev 0, dev 1; lateness dev 0 10 + 20 + 50, dev 1 10 + 30 + 40, over 6
    EXPECT_EQ(vb.perRank[0].lastCount, 3);
    EXPECT_EQ(vb.perRank[1].lastCount, 3);
    EXPECT_EQ(vb.perRank[0].meanLatenessExclBigNs, 13'333);  // 80 us / 6, rounded
    EXPECT_EQ(vb.perRank[1].meanLatenessExclBigNs, 13'333);
    // collective 5: cpu 40 us of 50 us late (at least half): cpu_launch; the rest have no launch row
    EXPECT_EQ(vb.causes[causeIndex(skew::Cause::CpuLaunch)], 1);
    EXPECT_EQ(vb.causes[causeIndex(skew::Cause::Unknown)], 5);

    // B - A
    EXPECT_EQ(d.collectives, 0);
    EXPECT_EQ(d.complete, 0);
    EXPECT_EQ(d.startSkew.p50, -45 * kUs);
    EXPECT_EQ(d.startSkew.p90, -12'505 * kUs);
    EXPECT_EQ(d.startSkew.max, -24'950 * kUs);
    EXPECT_EQ(d.endSkew.p50, -2 * kUs);
    EXPECT_EQ(d.endSkew.p90, -2 * kUs);
    EXPECT_EQ(d.endSkew.max, -2 * kUs);
    EXPECT_EQ(d.excessNs, (158 - 25'286) * kUs);
    EXPECT_NEAR(d.costShare, 158.0 / 23'858.0 - 25'286.0 / 46'726.0, 1e-12);
    EXPECT_EQ(d.bigCount, -1);
    EXPECT_EQ(d.bigExcessNs, -24'994 * kUs);
    ASSERT_EQ(d.perRank.size(), 2u);
    EXPECT_EQ(d.perRank[0].lastCount, 1);
    EXPECT_EQ(d.perRank[1].lastCount, -1);
    EXPECT_EQ(d.perRank[0].meanLatenessExclBigNs, 13'333 - 24'000);
    EXPECT_EQ(d.perRank[1].meanLatenessExclBigNs, 13'333 - 36'000);
    EXPECT_EQ(d.causes[causeIndex(skew::Cause::CpuLaunch)], 1);
    EXPECT_EQ(d.causes[causeIndex(skew::Cause::Unknown)], -1);
    EXPECT_EQ(d.causes[causeIndex(skew::Cause::GpuDependency)], 0);
    EXPECT_EQ(d.bigCauses[causeIndex(skew::Cause::Unknown)], -1);
    EXPECT_FALSE(d.hasStepTime);  // no NVTX steps
    // 6 collectives a side, no steps: both cautions
    EXPECT_EQ(pair.cautions.size(), 2u);
}

// A consistency test: each side is `analyze` of its file, and each delta the difference of the two
// analyses' figures (both from the same analysis code; CompareByHand checks the numbers themselves).
// A real 2-GPU export's SendRecv collectives read with SQL alone: the k-th NCCL kernel of device
// 0 with the k-th of device 1 (one stream each, every collective complete); start skews, and the
// cost from the kernels' durations (docs/analysis.md).
struct SqlSide {
    std::vector<int64_t> skews;
    int64_t total = 0, excess = 0;
    double share() const { return double(excess) / double(total); }
    int64_t big() const { return std::count_if(skews.begin(), skews.end(), [](int64_t k) { return k > 20 * kMs; }); }
    int64_t p90() const {  // linear interpolation at 0.9 (n - 1), rounded
        std::vector<int64_t> v = skews;
        std::sort(v.begin(), v.end());
        const double at = 0.9 * double(v.size() - 1);
        const size_t lo = size_t(at);
        return std::llround(double(v[lo]) + (double(v[std::min(lo + 1, v.size() - 1)]) - double(v[lo])) * (at - double(lo)));
    }
};
SqlSide sqlSide(const std::string& path) {
    std::vector<std::pair<int64_t, int64_t>> dev[2];
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT k.deviceId, k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                       "WHERE s.value LIKE 'nccl%' ORDER BY k.start",
                       -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) dev[sqlite3_column_int(st, 0) == 0 ? 0 : 1].push_back({sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)});
    sqlite3_finalize(st);
    sqlite3_close(db);
    SqlSide out;
    EXPECT_EQ(dev[0].size(), dev[1].size()) << path;
    for (size_t k = 0; k < std::min(dev[0].size(), dev[1].size()); ++k) {
        out.skews.push_back(std::llabs(dev[0][k].first - dev[1][k].first));
        const int64_t d0 = dev[0][k].second - dev[0][k].first, d1 = dev[1][k].second - dev[1][k].first;
        out.total += d0 + d1;
        out.excess += d0 + d1 - 2 * std::min(d0, d1);
    }
    return out;
}

TEST(Compare, RealPairEachSideIsItsAnalysisAndDeltasAreDifferences) {
    const std::string before = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", after = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    RunResult r = runSkewscope({"compare", before, "--vs", after, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    testjson::Value v = testjson::parse(r.out);
    testjson::Value a = testjson::parse(runSkewscope({"analyze", before, "--format", "json"}).out);
    testjson::Value b = testjson::parse(runSkewscope({"analyze", after, "--format", "json"}).out);
    // each side is the analysis of its file: same groups and collectives, number for number
    for (auto [side, ref] : {std::pair{&v["a"], &a}, std::pair{&v["b"], &b}}) {
        ASSERT_EQ((*side)["collectives"].size(), (*ref)["collectives"].size());
        for (size_t i = 0; i < (*ref)["collectives"].size(); ++i)
            for (const char* k : {"start_skew_ns", "end_skew_ns", "late_rank", "excess_ns", "lateness_cpu_ns"})
                EXPECT_EQ((*side)["collectives"][i][k].raw, (*ref)["collectives"][i][k].raw) << k;
        EXPECT_EQ((*side)["groups"][0]["cost"]["excess_ns"].raw, (*ref)["groups"][0]["cost"]["excess_ns"].raw);
    }
    ASSERT_EQ(v["groups"].size(), 1u);
    const auto& pair = v["groups"][0];
    EXPECT_EQ(pair["a"].i64(), 0);
    EXPECT_EQ(pair["b"].i64(), 0);
    const auto& ga = a["groups"][0];
    const auto& gb = b["groups"][0];
    const auto& d = pair["delta"];
    EXPECT_EQ(d["collectives"].i64(), gb["collectives"].i64() - ga["collectives"].i64());
    EXPECT_EQ(d["complete"].i64(), gb["complete"].i64() - ga["complete"].i64());
    for (const char* s : {"start_skew_ns", "end_skew_ns"})
        for (const char* q : {"p50", "p90", "max"}) EXPECT_EQ(d[s][q].i64(), gb[s][q].i64() - ga[s][q].i64()) << s << " " << q;
    EXPECT_NEAR(d["cost_share"].num, gb["cost"]["share"].num - ga["cost"]["share"].num, 1e-9);
    EXPECT_EQ(d["excess_ns"].i64(), gb["cost"]["excess_ns"].i64() - ga["cost"]["excess_ns"].i64());
    EXPECT_EQ(d["big"]["count"].i64(), gb["cost"]["big"]["count"].i64() - ga["cost"]["big"]["count"].i64());
    for (size_t s = 0; s < 2; ++s) {
        EXPECT_EQ(d["per_rank"][s]["last_count"].i64(), gb["per_rank"][s]["last_count"].i64() - ga["per_rank"][s]["last_count"].i64());
        EXPECT_EQ(d["per_rank"][s]["mean_lateness_excl_big_ns"].i64(),
                  gb["per_rank"][s]["mean_lateness_excl_big_ns"].i64() - ga["per_rank"][s]["mean_lateness_excl_big_ns"].i64());
    }
    // cause counts from the collectives themselves
    for (const char* cause : {"cpu_launch", "gpu_dependency", "gpu_other", "unknown"}) {
        int64_t na = 0, nb = 0;
        for (const auto& c : a["collectives"].arr) na += c["complete"].b && c["cause"].str == cause;
        for (const auto& c : b["collectives"].arr) nb += c["complete"].b && c["cause"].str == cause;
        EXPECT_EQ(d["causes"][cause].i64(), nb - na) << cause;
    }
    EXPECT_TRUE(d["step_median_ns"].isNull());  // neither capture has NVTX steps
    // cost share and excess recomputed from each side's member durations
    const SideCost costA = jsonCost(a, 0), costB = jsonCost(b, 0);
    EXPECT_EQ(ga["cost"]["total_ns"].i64(), costA.total);
    EXPECT_EQ(d["excess_ns"].i64(), costB.excess - costA.excess);
    EXPECT_NEAR(d["cost_share"].num, costB.share() - costA.share(), 1e-6);
    // the text opens with the verdict in numbers, each worked out here from the exports' rows
    const SqlSide sqlA = sqlSide(before), sqlB = sqlSide(after);
    ASSERT_EQ(sqlA.skews.size(), 33u);
    ASSERT_EQ(sqlB.skews.size(), 31u);
    RunResult text = runSkewscope({"compare", before, "--vs", after});
    EXPECT_THAT(text.out, HasSubstr("Verdict: start-skew cost " + skew::formatShare(sqlA.share()) + " -> " + skew::formatShare(sqlB.share()) +
                                    " of NCCL kernel time; big events " + std::to_string(sqlA.big()) + " -> " + std::to_string(sqlB.big()) +
                                    "; p90 start skew " + skew::formatDuration(sqlA.p90()) + " -> " + skew::formatDuration(sqlB.p90()) +
                                    "; median step: no NVTX steps."));
}

// The id of the group of an analyze JSON whose op counts are those the generator wrote for its
// group `truthGroup`; -1 when none or several.
int groupWithTruthOps(const testjson::Value& analysis, const skewgen::GenResult& r, int truthGroup) {
    std::map<std::string, int64_t> ops;
    for (const auto& tc : r.collectives)
        if (tc.group == truthGroup) ++ops[tc.op];
    int found = -1;
    for (const auto& g : analysis["groups"].arr) {
        std::map<std::string, int64_t> mine;
        for (const auto& [op, n] : g["ops"].obj) mine[op] = n.i64();
        if (mine == ops) found = found < 0 ? int(g["id"].i64()) : -2;
    }
    return found < 0 ? -1 : found;
}

// Big events at positions 13 and 20 of every step (GPU-caused, rotating ranks), and the same run
// without them.
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

TEST(Compare, FixRemovesThePlantedBigEvents) {
    const auto& before = generated("cmp-before", withBigEvents());
    auto fixed = withBigEvents();
    fixed.late.clear();
    const auto& after = generated("cmp-after", fixed);
    RunResult r = runSkewscope({"compare", before.path, "--vs", after.path, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    testjson::Value v = testjson::parse(r.out);
    // the FSDP group pairs with the FSDP group, the AllReduce with the AllReduce: each side's group
    // of each kind found by the generator's op counts, and both ends of each pair checked
    ASSERT_EQ(v["groups"].size(), 2u);
    const int fsdpA = groupWithTruthOps(v["a"], before.result, 0), fsdpB = groupWithTruthOps(v["b"], after.result, 0);
    const int arA = groupWithTruthOps(v["a"], before.result, 1), arB = groupWithTruthOps(v["b"], after.result, 1);
    EXPECT_EQ(fsdpA, 0);  // lane grouping starts from the longest lanes: the FSDP stream's
    EXPECT_EQ(fsdpB, 0);
    EXPECT_EQ(arA, 1);
    EXPECT_EQ(arB, 1);
    const testjson::Value* fsdp = nullptr;
    for (const auto& g : v["groups"].arr) {
        if (g["a"].i64() == fsdpA) {
            EXPECT_EQ(g["b"].i64(), fsdpB);
            fsdp = &g;
        } else {
            EXPECT_EQ(g["a"].i64(), arA);
            EXPECT_EQ(g["b"].i64(), arB);
        }
    }
    ASSERT_TRUE(fsdp);
    EXPECT_EQ(v["unpaired"]["a"].size(), 0u);
    EXPECT_EQ(v["unpaired"]["b"].size(), 0u);
    EXPECT_EQ(v["messages"].size(), 0u);
    EXPECT_EQ(v["summary"].str, "2 pairs of groups compared");
    EXPECT_EQ(v["advice"].str, "");
    const auto& ga = v["a"]["groups"][size_t((*fsdp)["a"].i64())];
    const auto& gb = v["b"]["groups"][size_t((*fsdp)["b"].i64())];
    const auto& d = (*fsdp)["delta"];
    EXPECT_EQ(ga["cost"]["big"]["count"].i64(), 10);
    EXPECT_EQ(gb["cost"]["big"]["count"].i64(), 0);
    EXPECT_EQ(d["big"]["count"].i64(), -10);
    // the big events' excess is the planted collectives' (from the generator's member times) ...
    int64_t planted = 0;
    for (const auto& tl : before.result.late)
        for (const auto& tc : before.result.collectives)
            if (tc.group == tl.group && tc.index == tl.index) {
                int64_t sum = 0, minDur = INT64_MAX;
                for (const auto& m : tc.members) sum += m.endNs - m.startNs, minDur = std::min(minDur, m.endNs - m.startNs);
                planted += sum - int64_t(tc.members.size()) * minDur;
            }
    EXPECT_EQ(ga["cost"]["big"]["excess_ns"].i64(), planted);
    EXPECT_EQ(d["big"]["excess_ns"].i64(), -planted);
    // ... and the whole excess and the cost share move by exactly what the generator's member
    // times give for each side (share = excess / total over the group's complete collectives)
    const SideCost truthA = truthCost(before.result, 0), truthB = truthCost(after.result, 0);
    EXPECT_EQ(ga["cost"]["total_ns"].i64(), truthA.total);
    EXPECT_EQ(gb["cost"]["total_ns"].i64(), truthB.total);
    EXPECT_EQ(d["excess_ns"].i64(), truthB.excess - truthA.excess);
    EXPECT_NEAR(d["cost_share"].num, truthB.share() - truthA.share(), 1e-6);  // the JSON has 6 decimals
    EXPECT_LT(truthB.share() - truthA.share(), -0.3);  // the planted events were most of A's cost
    EXPECT_NE(d["step_median_ns"].raw, "null");
    // the recurring positions, followed: big in 5 of 5 steps before, 0 of 5 after
    EXPECT_TRUE((*fsdp)["same_step_sequence"].b);
    ASSERT_EQ((*fsdp)["positions"].size(), 2u);
    EXPECT_EQ((*fsdp)["positions"][0]["position"].i64(), 13);
    EXPECT_EQ((*fsdp)["positions"][0]["big_steps_a"].i64(), 5);
    EXPECT_EQ((*fsdp)["positions"][0]["steps_a"].i64(), 5);
    EXPECT_EQ((*fsdp)["positions"][0]["big_steps_b"].i64(), 0);
    EXPECT_EQ((*fsdp)["positions"][1]["position"].i64(), 20);
    EXPECT_EQ(gb["answers"]["big_positions"].size(), 0u);
    RunResult md = runSkewscope({"compare", before.path, "--vs", after.path, "--format", "md"});
    EXPECT_THAT(md.out, HasSubstr("position 13 of the step (" + (*fsdp)["positions"][0]["op"].str + "): big in 5 of 5 steps before, 0 of 5 after"));
    EXPECT_THAT(md.out, HasSubstr("big events 10 -> 0"));
    EXPECT_THAT(md.out, HasSubstr("median step "));
}

// The "after" capture cut at the start of its second step (generator's trim): its FSDP collective
// k is the full run's k + 27, so pairing by step and position and pairing by index disagree.
const testutil::Generated& afterFromStep2() {
    auto fixed = withBigEvents();
    fixed.late.clear();
    const auto& full = generated("cmp-after", fixed);
    auto cfg = fixed;
    for (const auto& tc : full.result.collectives)
        if (tc.group == 0 && tc.index == 28) {
            int64_t first = INT64_MAX;
            for (const auto& m : tc.members) first = std::min(first, m.startNs);
            cfg.trimStartNs = first - full.result.firstStepNs;
        }
    return generated("cmp-after-from-step2", cfg);
}

struct Loaded {
    skew::Profile p;
    skew::Analysis a;
    explicit Loaded(const std::string& path) : p(skew::loadProfile({path}, {})), a(skew::analyze(p, {})) {}
    skew::Side side() const { return {&p, &a}; }
};

// A consistency test: compare's figures for each side are those `analyze` prints for it.
TEST(Compare, EachSidesFiguresAreItsAnalysis) {
    const std::string before = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", after = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    Loaded A(before), B(after);
    skew::Comparison c = skew::compareCaptures(A.side(), B.side());
    ASSERT_EQ(c.pairs.size(), 1u);
    // the figures of each side are those `analyze` prints for it, and the delta is their difference
    for (auto [values, path] : {std::pair{&c.pairs[0].valuesA, before}, std::pair{&c.pairs[0].valuesB, after}}) {
        testjson::Value v = testjson::parse(runSkewscope({"analyze", path, "--format", "json"}).out);
        const auto& g = v["groups"][0];
        EXPECT_EQ(values->collectives, g["collectives"].i64());
        EXPECT_EQ(values->complete, g["complete"].i64());
        EXPECT_EQ(values->startSkew.p90, g["start_skew_ns"]["p90"].i64());
        EXPECT_EQ(values->endSkew.max, g["end_skew_ns"]["max"].i64());
        EXPECT_NEAR(values->costShare, g["cost"]["share"].num, 5e-7);  // the JSON has 6 decimals
        EXPECT_EQ(values->excessNs, g["cost"]["excess_ns"].i64());
        EXPECT_EQ(values->bigCount, g["cost"]["big"]["count"].i64());
        ASSERT_EQ(values->perRank.size(), 2u);
        for (size_t r = 0; r < 2; ++r) {
            EXPECT_EQ(values->perRank[r].lastCount, g["per_rank"][r]["last_count"].i64());
            EXPECT_EQ(values->perRank[r].meanLatenessExclBigNs, g["per_rank"][r]["mean_lateness_excl_big_ns"].i64());
        }
        for (const char* cause : {"cpu_launch", "gpu_dependency", "gpu_other", "unknown"}) {
            int64_t n = 0;
            for (const auto& col : v["collectives"].arr) n += col["complete"].b && col["cause"].str == cause;
            size_t k = 0;
            while (std::string(skew::causeName(skew::Cause(k))) != cause) ++k;
            EXPECT_EQ(values->causes[k], n) << cause;
        }
        EXPECT_FALSE(values->hasStepTime);
    }
    const auto& p = c.pairs[0];
    EXPECT_EQ(p.delta.startSkew.p50, p.valuesB.startSkew.p50 - p.valuesA.startSkew.p50);
    EXPECT_EQ(p.delta.perRank[1].lastCount, p.valuesB.perRank[1].lastCount - p.valuesA.perRank[1].lastCount);
}

TEST(Compare, CollectivesPairByStepAndPositionElseByIndex) {
    const auto& before = generated("cmp-before", withBigEvents());
    const auto& cut = afterFromStep2();
    Loaded A(before.path), B(cut.path);
    skew::Comparison c = skew::compareCaptures(A.side(), B.side());
    const skew::GroupPair* fsdp = nullptr;
    for (const auto& p : c.pairs)
        if (A.a.groups[size_t(p.a)].ops.count("AllGather")) fsdp = &p;
    ASSERT_TRUE(fsdp);
    ASSERT_TRUE(fsdp->sameStepSequence);
    const skew::Group& ga = A.a.groups[size_t(fsdp->a)];
    const skew::Group& gb = B.a.groups[size_t(fsdp->b)];
    ASSERT_EQ(ga.count, 135u);
    ASSERT_EQ(gb.count, 108u);  // the first step's 27 are cut
    for (uint32_t i = 1; i <= ga.count; ++i) {
        SCOPED_TRACE(i);
        const uint32_t ci = ga.firstCollective + i - 1;
        skew::PairedCollective pc = skew::CollectivePairing(A.side(), B.side(), *fsdp, true).of(ci);
        EXPECT_EQ(pc.by, skew::PairedCollective::By::StepPosition);
        if (i <= 27) {
            EXPECT_EQ(pc.collective, -1);  // B has no collective in its first step
            continue;
        }
        ASSERT_GE(pc.collective, 0);
        EXPECT_EQ(B.a.collectives[size_t(pc.collective)].index, i - 27);
        // and back
        skew::PairedCollective back = skew::CollectivePairing(A.side(), B.side(), *fsdp, false).of(uint32_t(pc.collective));
        EXPECT_EQ(back.collective, int(ci));
    }
    // the worst collective that has a pair: A's largest start skew outside its first step (the one
    // B lacks), and from B simply B's largest
    int64_t best = -1;
    int want = -1;
    for (uint32_t i = 0; i < ga.count; ++i) {
        const skew::Collective& col = A.a.collectives[ga.firstCollective + i];
        if (col.complete && col.step >= 2 && col.startSkew() > best) best = col.startSkew(), want = int(ga.firstCollective + i);
    }
    EXPECT_EQ(skew::CollectivePairing(A.side(), B.side(), *fsdp, true).worst(), want);
    int64_t bestB = -1;
    int wantB = -1;
    for (uint32_t i = 0; i < gb.count; ++i) {
        const skew::Collective& col = B.a.collectives[gb.firstCollective + i];
        if (col.complete && col.startSkew() > bestB) bestB = col.startSkew(), wantB = int(gb.firstCollective + i);
    }
    EXPECT_EQ(skew::CollectivePairing(A.side(), B.side(), *fsdp, false).worst(), wantB);
    // without steps (the real pair, SendRecv only) collectives pair by index: B has 31 of A's 33
    Loaded RA(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"), RB(realDataDir() + "/nsysai-mfu_2gpu_after.sqlite");
    skew::Comparison rc = skew::compareCaptures(RA.side(), RB.side());
    ASSERT_EQ(rc.pairs.size(), 1u);
    for (uint32_t i = 1; i <= 33; ++i) {
        skew::PairedCollective pc = skew::CollectivePairing(RA.side(), RB.side(), rc.pairs[0], true).of(i - 1);
        EXPECT_EQ(pc.by, skew::PairedCollective::By::Index);
        EXPECT_EQ(pc.collective, i <= 31 ? int(i - 1) : -1);
    }
    // A's largest start skew is #32, which B lacks: the worst with a pair is the largest of #1..#31
    int64_t largest = -1, largestPaired = -1;
    int worst = -1, worstPaired = -1;
    for (uint32_t i = 0; i < 33; ++i) {
        const int64_t sk = RA.a.collectives[i].startSkew();
        if (sk > largest) largest = sk, worst = int(i);
        if (i < 31 && sk > largestPaired) largestPaired = sk, worstPaired = int(i);
    }
    EXPECT_EQ(worst, 31);
    EXPECT_EQ(skew::CollectivePairing(RA.side(), RB.side(), rc.pairs[0], true).worst(), worstPaired);
}

TEST(Compare, RanksThatDifferAreNamed) {
    const auto& seven = generated("demo", skewgen::demoConfig());
    auto cfg = skewgen::demoConfig();
    cfg.ranks = 8;
    cfg.devices.clear();
    const auto& eight = generated("demo-8", cfg);
    RunResult r = runSkewscope({"compare", seven.path, "--vs", eight.path});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // nothing compared, said first; each group of A names B's group that runs its ops elsewhere, and
    // B's lines agree (not "no counterpart": they have one, on other ranks)
    EXPECT_THAT(r.out, HasSubstr("\n  No group of A (before) was compared with a group of B (after).\n"));
    EXPECT_THAT(r.out, HasSubstr("Groups not compared"));
    std::string sevenRanks, eightRanks;
    for (const auto& l : seven.result.rankLabels) sevenRanks += (sevenRanks.empty() ? "" : ", ") + l;
    for (const auto& l : eight.result.rankLabels) eightRanks += (eightRanks.empty() ? "" : ", ") + l;
    ASSERT_EQ(sevenRanks, "dev 1, dev 2, dev 3, dev 4, dev 5, dev 6, dev 7");
    RunResult json = runSkewscope({"compare", seven.path, "--vs", eight.path, "--format", "json"});
    testjson::Value v = testjson::parse(json.out);
    for (const auto* g : {&v["a"]["groups"][0], &v["a"]["groups"][1]}) {
        std::string ops;
        for (const auto& [op, n] : (*g)["ops"].obj) ops += (ops.empty() ? "" : ", ") + op + " " + n.raw;
        const std::string id = (*g)["id"].raw;
        EXPECT_THAT(r.out, HasSubstr("A group " + id + " (" + ops + ") runs on 7 ranks (" + sevenRanks + "), B group " + id +
                                     " runs its ops on 8 ranks (" + eightRanks +
                                     "): ranks differ between the captures, so neither group is compared"));
        EXPECT_THAT(r.out, HasSubstr("B group " + id + " (" + ops + ", 8 ranks) is not compared: ranks differ from A group " + id +
                                     " (7 ranks), whose ops it runs"));
    }
    EXPECT_THAT(r.out, Not(HasSubstr("no counterpart")));
    EXPECT_THAT(r.out, HasSubstr("Groups pair when they run on the same number of ranks with the same mix of ops (80% alike). "
                                 "Compare captures of the same job, with every rank's export on each side (A has 7 ranks, B 8;"));
    EXPECT_EQ(v["groups"].size(), 0u);
    EXPECT_EQ(v["unpaired"]["a"].size(), 2u);
    EXPECT_EQ(v["unpaired"]["b"].size(), 2u);
    EXPECT_EQ(v["messages"].size(), 4u);
    EXPECT_EQ(v["summary"].str, "No group of A (before) was compared with a group of B (after)");
    EXPECT_THAT(v["advice"].str, HasSubstr("(A has 7 ranks, B 8;"));
    RunResult md = runSkewscope({"compare", seven.path, "--vs", eight.path, "--format", "md"});
    EXPECT_EQ(md.exitCode, 0);
    for (const auto& m : v["messages"].arr) EXPECT_THAT(md.out, HasSubstr("- " + m.str + "\n"));
    EXPECT_THAT(md.out, HasSubstr(v["summary"].str + "."));
    EXPECT_THAT(md.out, HasSubstr(v["advice"].str + "."));
}

// The real 2-GPU capture (one SendRecv group) against a generated 2-rank run (FSDP and AllReduce
// groups): the rank counts agree, the ops do not, so no group pairs, and every group of both sides
// is named, with why, in the text, the Markdown and the JSON messages.
TEST(Compare, GroupsUnpairedByOpsAreNamedInEveryFormat) {
    const std::string real = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    skewgen::GenConfig cfg;
    cfg.ranks = 2;
    cfg.steps = 3;
    const auto& gen = generated("cmp-2ranks", cfg);
    RunResult json = runSkewscope({"compare", real, "--vs", gen.path, "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    testjson::Value v = testjson::parse(json.out);
    testjson::Value a = testjson::parse(runSkewscope({"analyze", real, "--format", "json"}).out);
    testjson::Value b = testjson::parse(runSkewscope({"analyze", gen.path, "--format", "json"}).out);
    ASSERT_EQ(a["groups"].size(), 1u);
    ASSERT_EQ(b["groups"].size(), 2u);
    EXPECT_EQ(v["groups"].size(), 0u);
    EXPECT_EQ(v["unpaired"]["a"].size(), 1u);
    EXPECT_EQ(v["unpaired"]["b"].size(), 2u);
    // the expected line of each group, from its side's own analysis
    std::vector<std::string> want;
    for (auto [side, other, ref] : {std::tuple{"A", "B", &a}, std::tuple{"B", "A", &b}})
        for (const auto& g : (*ref)["groups"].arr) {
            std::string ops;
            for (const auto& [op, n] : g["ops"].obj) ops += (ops.empty() ? "" : ", ") + op + " " + n.raw;
            want.push_back(std::string(side) + " group " + g["id"].raw + " (" + ops + ", 2 ranks) has no counterpart in " + other +
                           ": no group of " + other + " runs its ops (80% alike) on 2 ranks");
        }
    ASSERT_EQ(v["messages"].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(v["messages"][i].str, want[i]);
    EXPECT_EQ(v["summary"].str, "No group of A (before) was compared with a group of B (after)");
    EXPECT_EQ(v["advice"].str, "Groups pair when they run on the same number of ranks with the same mix of ops (80% alike). "
                               "Compare captures of the same job, with every rank's export on each side");
    for (const char* format : {"text", "md"}) {
        SCOPED_TRACE(format);
        RunResult r = runSkewscope({"compare", real, "--vs", gen.path, "--format", format});
        EXPECT_EQ(r.exitCode, 0);
        for (const auto& w : want) EXPECT_THAT(r.out, HasSubstr(w + "\n"));
        EXPECT_THAT(r.out, HasSubstr("No group of A (before) was compared with a group of B (after)."));
        EXPECT_THAT(r.out, HasSubstr("every rank's export on each side."));
    }
    // partly paired: 2-rank FSDP + AllReduce against 2-rank FSDP + SendRecv; the FSDP groups pair,
    // the two left over are named
    auto cfg2 = cfg;
    cfg2.allReduce = false;
    cfg2.sendRecv = true;
    const auto& gen2 = generated("cmp-2ranks-sendrecv", cfg2);
    testjson::Value p = testjson::parse(runSkewscope({"compare", gen.path, "--vs", gen2.path, "--format", "json"}).out);
    ASSERT_EQ(p["groups"].size(), 1u);
    EXPECT_EQ(p["groups"][0]["a"].i64(), groupWithTruthOps(p["a"], gen.result, 0));
    EXPECT_EQ(p["groups"][0]["b"].i64(), groupWithTruthOps(p["b"], gen2.result, 0));
    const int ar = groupWithTruthOps(p["a"], gen.result, 1), sr = groupWithTruthOps(p["b"], gen2.result, 1);
    ASSERT_GE(ar, 0);
    ASSERT_GE(sr, 0);
    const std::string steps = std::to_string(cfg.steps);
    const std::vector<std::string> left = {
        "A group " + std::to_string(ar) + " (AllReduce " + steps + ", 2 ranks) has no counterpart in B: no group of B runs its ops (80% alike) on 2 ranks",
        "B group " + std::to_string(sr) + " (SendRecv " + p["b"]["groups"][size_t(sr)]["ops"]["SendRecv"].raw +
            ", 2 ranks) has no counterpart in A: no group of A runs its ops (80% alike) on 2 ranks"};
    ASSERT_EQ(p["messages"].size(), 2u);
    EXPECT_EQ(p["messages"][0].str, left[0]);
    EXPECT_EQ(p["messages"][1].str, left[1]);
    EXPECT_EQ(p["summary"].str, "1 pair of groups compared; not compared: 1 group of A, 1 of B");
    for (const char* format : {"text", "md"}) {
        RunResult r = runSkewscope({"compare", gen.path, "--vs", gen2.path, "--format", format});
        for (const auto& w : left) EXPECT_THAT(r.out, HasSubstr(w + "\n")) << format;
        EXPECT_THAT(r.out, HasSubstr("1 pair of groups compared; not compared: 1 group of A, 1 of B.")) << format;
    }
}

// Pairing by op mix and rank count (docs/analysis.md): the similarity of two groups is 1 - half the
// sum of the differences of their op shares, and groups pair at 0.8 or more on the same number of
// ranks. Built by hand: A runs 10 AllGathers on 2 ranks.
std::unique_ptr<Built> buildRun(int ranks, const std::vector<std::string>& ops) {
    const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    const std::string RS = "ncclDevKernel_ReduceScatter_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    ProfileBuilder pb;
    for (int r = 0; r < ranks; ++r) pb.rank(r);
    int64_t t = 1'000'000'000;
    for (const auto& op : ops) {
        for (int r = 0; r < ranks; ++r) pb.kernel(r, 56, t + r * 10'000, t + 200'000, op == "AG" ? AG : RS);
        t += 2 * kMs;
    }
    auto b = std::make_unique<Built>();
    b->p = pb.build();
    b->a = skew::analyze(b->p);
    return b;
}
std::vector<std::string> mix(int ag, int rs) {
    std::vector<std::string> v(size_t(ag), "AG");
    v.insert(v.end(), size_t(rs), "RS");
    std::rotate(v.begin(), v.begin() + ag / 2, v.end());  // the RS among the AGs
    return v;
}

TEST(Compare, GroupsPairByOpMixAtLeast80PercentAlikeOnTheSameRanks) {
    auto A = buildRun(2, mix(10, 0));
    ASSERT_EQ(A->a.groups.size(), 1u);
    ASSERT_EQ(A->a.groups[0].count, 10u);
    struct Case {
        int ranks, ag, rs;
        bool pairs;
    };
    // similarity with A: 1 - (|1 - ag/n| + rs/n) / 2
    for (const Case& k : {Case{2, 8, 2, true}, Case{2, 16, 4, true}, Case{2, 7, 3, false}, Case{2, 6, 4, false}, Case{3, 10, 0, false},
                          Case{2, 12, 0, true}}) {
        SCOPED_TRACE(std::to_string(k.ranks) + " ranks, " + std::to_string(k.ag) + " AG, " + std::to_string(k.rs) + " RS");
        const double n = k.ag + k.rs, sim = 1 - (std::abs(1 - k.ag / n) + k.rs / n) / 2;
        ASSERT_EQ(k.pairs, k.ranks == 2 && sim >= 0.8 - 1e-12);
        auto B = buildRun(k.ranks, mix(k.ag, k.rs));
        ASSERT_EQ(B->a.groups.size(), 1u);
        ASSERT_EQ(B->a.groups[0].count, uint32_t(n));
        skew::Comparison c = skew::compareCaptures(A->side(), B->side());
        if (k.pairs) {
            ASSERT_EQ(c.pairs.size(), 1u);
            EXPECT_EQ(c.pairs[0].a, 0);
            EXPECT_EQ(c.pairs[0].b, 0);
            EXPECT_TRUE(c.messages.empty());
            continue;
        }
        EXPECT_TRUE(c.pairs.empty());
        EXPECT_EQ(c.unpairedA, std::vector<int>{0});
        EXPECT_EQ(c.unpairedB, std::vector<int>{0});
        ASSERT_EQ(c.messages.size(), 2u);
        std::string opsB = "AllGather " + std::to_string(k.ag) + (k.rs ? ", ReduceScatter " + std::to_string(k.rs) : "");
        if (k.ranks == 2) {
            EXPECT_EQ(c.messages[0], "A group 0 (AllGather 10, 2 ranks) has no counterpart in B: no group of B runs its ops (80% alike) on 2 ranks");
            EXPECT_EQ(c.messages[1], "B group 0 (" + opsB + ", 2 ranks) has no counterpart in A: no group of A runs its ops (80% alike) on 2 ranks");
        } else {
            EXPECT_EQ(c.messages[0], "A group 0 (AllGather 10) runs on 2 ranks (dev 0, dev 1), B group 0 runs its ops on 3 ranks (dev 0, dev 1, "
                                     "dev 2): ranks differ between the captures, so neither group is compared");
            EXPECT_EQ(c.messages[1], "B group 0 (AllGather 10, 3 ranks) is not compared: ranks differ from A group 0 (2 ranks), whose ops it runs");
        }
    }
}

// The report gives each figure as A -> B (B - A): skews with their max, the cost, big events and
// their causes, the causes of all late arrivals, per rank the last arrivals and the mean lateness;
// and on the real pair (33 and 31 SendRecv, no steps) it cautions that the collectives are few and
// pair by index. Every expected number is from the two analyze JSONs: a consistency test of the
// report's layout and arithmetic, not of the figures (CompareByHand checks those).
TEST(Compare, ReportGivesAToBOfEveryFigureAndCautions) {
    const std::string before = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", after = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    testjson::Value a = testjson::parse(runSkewscope({"analyze", before, "--format", "json"}).out);
    testjson::Value b = testjson::parse(runSkewscope({"analyze", after, "--format", "json"}).out);
    const auto& ga = a["groups"][0];
    const auto& gb = b["groups"][0];
    auto d = [](int64_t ns) { return skew::formatDuration(ns); };
    auto sd = [&](int64_t ns) { return (ns > 0 ? "+" : ns < 0 ? "-" : "") + d(ns < 0 ? -ns : ns); };
    auto sn = [](int64_t n) { return (n > 0 ? "+" : "") + std::to_string(n); };
    auto cd = [&](int64_t x, int64_t y) { return d(x) + " -> " + d(y) + " (" + sd(y - x) + ")"; };
    auto cn = [&](int64_t x, int64_t y) { return std::to_string(x) + " -> " + std::to_string(y) + " (" + sn(y - x) + ")"; };
    auto causes = [&](bool bigOnly) {
        std::string s;
        // the JSON's identifiers, said in the report as the collectives table names them
        for (auto [cause, name] : {std::pair{"cpu_launch", "CPU launch"}, std::pair{"gpu_dependency", "GPU dependency"},
                                   std::pair{"gpu_other", "GPU other"}, std::pair{"unknown", "Unknown"}}) {
            int64_t na = 0, nb = 0;
            for (const auto& c : a["collectives"].arr) na += c["complete"].b && (!bigOnly || c["big"].b) && c["cause"].str == cause;
            for (const auto& c : b["collectives"].arr) nb += c["complete"].b && (!bigOnly || c["big"].b) && c["cause"].str == cause;
            s += (s.empty() ? "" : ", ") + std::string(name) + " " + cn(na, nb);
        }
        return s;
    };
    const int64_t completeA = ga["complete"].i64(), completeB = gb["complete"].i64();
    ASSERT_EQ(completeA, 33);
    ASSERT_EQ(completeB, 31);
    for (const char* format : {"text", "md"}) {
        SCOPED_TRACE(format);
        const bool md = std::string(format) == "md";
        const std::string li = md ? "- " : "  - ", sub = md ? "  - " : "    - ", nl = md ? "  \n" : "\n", in = md ? "" : "  ";
        RunResult r = runSkewscope({"compare", before, "--vs", after, "--format", format});
        ASSERT_EQ(r.exitCode, 0);
        const std::string& o = r.out;
        EXPECT_THAT(o, HasSubstr(in + "Caution: few collectives: A has 33 complete, B 31 (under 50): one collective moves a p90 or a max, "
                                      "so small differences may be chance." + nl));
        EXPECT_THAT(o, HasSubstr(in + "Caution: collectives pair by their index in the group (neither capture has steps): #k of A and #k "
                                      "of B are the same work only when both captures start at the same point of the run." + nl));
        EXPECT_THAT(o, HasSubstr(li + "collectives " + cn(ga["collectives"].i64(), gb["collectives"].i64()) + ", complete " +
                                 cn(completeA, completeB) + "\n"));
        for (const char* k : {"start_skew_ns", "end_skew_ns"}) {
            const auto &x = ga[k], &y = gb[k];
            EXPECT_THAT(o, HasSubstr(li + (k[0] == 's' ? "start" : "end") + std::string(" skew p50 ") + cd(x["p50"].i64(), y["p50"].i64()) +
                                     ", p90 " + cd(x["p90"].i64(), y["p90"].i64()) + ", max " + cd(x["max"].i64(), y["max"].i64()) + "\n"));
        }
        EXPECT_THAT(o, HasSubstr("; excess " + cd(ga["cost"]["excess_ns"].i64(), gb["cost"]["excess_ns"].i64()) + "\n"));
        EXPECT_THAT(o, HasSubstr(li + "big events " + cn(ga["cost"]["big"]["count"].i64(), gb["cost"]["big"]["count"].i64()) +
                                 "; their excess " + cd(ga["cost"]["big"]["excess_ns"].i64(), gb["cost"]["big"]["excess_ns"].i64()) + "\n"));
        EXPECT_THAT(o, HasSubstr(li + "causes of the late arrivals (all complete collectives): " + causes(false) + "\n"));
        EXPECT_THAT(o, HasSubstr(li + "causes of the big events: " + causes(true) + "\n"));
        for (size_t s = 0; s < 2; ++s) {
            const auto &x = ga["per_rank"][s], &y = gb["per_rank"][s];
            const std::string label = a["ranks"][size_t(x["rank"].i64())]["label"].str;
            ASSERT_EQ(label, b["ranks"][size_t(y["rank"].i64())]["label"].str);
            EXPECT_THAT(o, HasSubstr(sub + label + ": last " + cn(x["last_count"].i64(), y["last_count"].i64()) + "; lateness " +
                                     cd(x["mean_lateness_excl_big_ns"].i64(), y["mean_lateness_excl_big_ns"].i64()) + "\n"));
        }
    }
    // the JSON carries the cautions too
    testjson::Value v = testjson::parse(runSkewscope({"compare", before, "--vs", after, "--format", "json"}).out);
    ASSERT_EQ(v["groups"][0]["cautions"].size(), 2u);
    EXPECT_THAT(v["groups"][0]["cautions"][0].str, HasSubstr("few collectives: A has 33 complete, B 31"));
    // a generated pair with 135 collectives in 5 NVTX steps of the same sequence has no caution
    const auto& gen = generated("cmp-before", withBigEvents());
    auto fixed = withBigEvents();
    fixed.late.clear();
    testjson::Value g = testjson::parse(runSkewscope({"compare", gen.path, "--vs", generated("cmp-after", fixed).path, "--format", "json"}).out);
    ASSERT_EQ(g["groups"].size(), 2u);  // FSDP and AllReduce
    for (const auto& p : g["groups"].arr)
        EXPECT_EQ(p["cautions"].size(), p["a"].i64() == 0 ? 0u : 1u);  // the AllReduce: 5 collectives
    // its big events' causes, A -> B, from A's big collectives
    RunResult text = runSkewscope({"compare", gen.path, "--vs", generated("cmp-after", fixed).path});
    int64_t bigDep = 0;
    for (const auto& c : g["a"]["collectives"].arr) bigDep += c["group"].i64() == 0 && c["big"].b && c["cause"].str == "gpu_dependency";
    EXPECT_EQ(bigDep, 10);
    EXPECT_THAT(text.out, HasSubstr("causes of the big events: CPU launch 0 -> 0 (0), GPU dependency 10 -> 0 (-10), GPU other 0 -> 0 (0), "
                                    "Unknown 0 -> 0 (0)\n"));
}

// Each side given as one file per rank (skewgen's per-rank files, each with its own session
// start): each side is the analysis of its files, the planted big events are found on A and gone
// on B.
TEST(Compare, SeveralFilesPerSide) {
    auto cfgA = withBigEvents();
    cfgA.perRankFiles = true;
    const auto& A = generated("cmp-ranks-before", cfgA);
    auto cfgB = cfgA;
    cfgB.late.clear();
    const auto& B = generated("cmp-ranks-after", cfgB);
    ASSERT_EQ(A.result.files.size(), 8u);
    ASSERT_EQ(B.result.files.size(), 8u);
    std::vector<std::string> args = {"compare"};
    args.insert(args.end(), A.result.files.begin(), A.result.files.end());
    args.push_back("--vs");
    args.insert(args.end(), B.result.files.begin(), B.result.files.end());
    args.insert(args.end(), {"--format", "json"});
    RunResult r = runSkewscope(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    testjson::Value v = testjson::parse(r.out);
    for (auto [side, gen] : {std::pair{&v["a"], &A}, std::pair{&v["b"], &B}}) {
        std::vector<std::string> an = {"analyze"};
        an.insert(an.end(), gen->result.files.begin(), gen->result.files.end());
        an.insert(an.end(), {"--format", "json"});
        testjson::Value ref = testjson::parse(runSkewscope(an).out);
        EXPECT_EQ((*side)["inputs"].size(), 8u);
        ASSERT_EQ((*side)["ranks"].size(), 8u);
        for (size_t i = 0; i < 8; ++i) EXPECT_EQ((*side)["ranks"][i]["label"].str, gen->result.rankLabels[i]);
        ASSERT_EQ((*side)["collectives"].size(), ref["collectives"].size());
        for (size_t i = 0; i < ref["collectives"].size(); ++i)
            for (const char* k : {"start_skew_ns", "end_skew_ns", "late_rank", "excess_ns"})
                EXPECT_EQ((*side)["collectives"][i][k].raw, ref["collectives"][i][k].raw) << k;
    }
    ASSERT_EQ(v["groups"].size(), 2u);
    EXPECT_EQ(v["groups"][0]["a"].i64(), groupWithTruthOps(v["a"], A.result, 0));
    EXPECT_EQ(v["groups"][0]["b"].i64(), groupWithTruthOps(v["b"], B.result, 0));
    EXPECT_EQ(v["a"]["groups"][0]["cost"]["big"]["count"].i64(), int64_t(A.result.late.size()));
    EXPECT_EQ(v["groups"][0]["delta"]["big"]["count"].i64(), -int64_t(A.result.late.size()));
    EXPECT_EQ(v["messages"].size(), 0u);
    // the text names every file of each side
    args.resize(args.size() - 2);
    RunResult text = runSkewscope(args);
    for (const auto& f : A.result.files) EXPECT_THAT(text.out, HasSubstr(std::filesystem::path(f).stem().string()));
}

// --output: the report goes into the file (as it would to stdout), nothing to stdout.
TEST(Compare, OutputWritesTheFileAndNothingToStdout) {
    const std::string before = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", after = realDataDir() + "/nsysai-mfu_2gpu_after.sqlite";
    const std::string dir = tempDir("compare-output");
    for (const char* format : {"text", "md", "json"}) {
        SCOPED_TRACE(format);
        const std::string path = dir + "/cmp." + format;
        RunResult r = runSkewscope({"compare", before, "--vs", after, "--format", format, "--output", path});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, "");
        // only the what-if's reason, once per capture: neither has training steps
        const std::string noSteps =
            "skewscope: warning: what-if: no scenario computed: no training steps (no NVTX step ranges, no repeating collective sequence)\n";
        EXPECT_EQ(r.err, noSteps + noSteps);
        ASSERT_TRUE(std::filesystem::exists(path));
        const std::string written = slurp(path);
        EXPECT_EQ(written, runSkewscope({"compare", before, "--vs", after, "--format", format}).out);
        if (std::string(format) == "json") {
            testjson::Value v = testjson::parse(written);
            EXPECT_EQ(v["groups"].size(), 1u);
        } else {
            EXPECT_THAT(written, HasSubstr("Verdict: start-skew cost"));
        }
    }
    // only the three reports in the folder: no temporary file left behind
    size_t n = 0;
    for (auto& e : std::filesystem::directory_iterator(dir)) {
        ++n;
        EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
    }
    EXPECT_EQ(n, 3u);
    std::filesystem::remove_all(dir);
}

TEST(Compare, UsageErrors) {
    const std::string f = realDataDir() + "/nsysai-mock.sqlite";
    EXPECT_EQ(runSkewscope({"compare", f}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"compare", "--vs", f}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"compare", f, "--vs", f, "--vs", f}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"compare", f, "--vs", f, "--format", "csv"}).exitCode, 2);
    RunResult same = runSkewscope({"compare", f, "--vs", f, "--output", f});
    EXPECT_EQ(same.exitCode, 2);
    EXPECT_THAT(same.err, HasSubstr("refusing to overwrite an export"));
    EXPECT_EQ(runSkewscope({"compare", f, "--vs", "/nonexistent.sqlite"}).exitCode, 3);
}

}  // namespace
