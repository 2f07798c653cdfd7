// `skewscope compare`: on the real before/after pair each side equals `analyze` of its file and
// every delta equals the difference of the two analyses; on generated pairs the "after" capture
// without the planted big events loses exactly their excess, and the recurring positions of the
// step disappear; captures whose ranks differ say so.

#include <gtest/gtest.h>
#include <gmock/gmock.h>


#include "compare/compare.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;

namespace {

constexpr int64_t kMs = 1'000'000;

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
    // the text opens with the verdict in numbers
    RunResult text = runSkewscope({"compare", before, "--vs", after});
    EXPECT_THAT(text.out, HasSubstr("Verdict: start-skew cost 54.5% -> 67.5% of NCCL kernel time; big events 0 -> 0; p90 start skew "
                                    "655.9 us -> 2.96 ms; median step: no NVTX steps."));
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
    // the FSDP group pairs with the FSDP group, the AllReduce with the AllReduce
    ASSERT_EQ(v["groups"].size(), 2u);
    const testjson::Value* fsdp = nullptr;
    for (const auto& g : v["groups"].arr)
        if (v["a"]["groups"][size_t(g["a"].i64())]["ops"].has("AllGather")) fsdp = &g;
    ASSERT_TRUE(fsdp);
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
    // ... and the whole excess drops by about that much: the rest of the run is the same workload
    // (its own jitter moves it by a few percent)
    const int64_t restA = ga["cost"]["rest"]["excess_ns"].i64(), restB = gb["cost"]["rest"]["excess_ns"].i64();
    EXPECT_NEAR(double(restB), double(restA), 0.15 * double(restA));
    EXPECT_NEAR(double(d["excess_ns"].i64()), double(-planted), 0.15 * double(restA));
    EXPECT_LT(d["cost_share"].num, -0.3);
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
        skew::PairedCollective pc = skew::pairedCollective(A.side(), B.side(), *fsdp, true, ci);
        EXPECT_EQ(pc.by, skew::PairedCollective::By::StepPosition);
        if (i <= 27) {
            EXPECT_EQ(pc.collective, -1);  // B has no collective in its first step
            continue;
        }
        ASSERT_GE(pc.collective, 0);
        EXPECT_EQ(B.a.collectives[size_t(pc.collective)].index, i - 27);
        // and back
        skew::PairedCollective back = skew::pairedCollective(A.side(), B.side(), *fsdp, false, uint32_t(pc.collective));
        EXPECT_EQ(back.collective, int(ci));
    }
    // without steps (the real pair, SendRecv only) collectives pair by index: B has 31 of A's 33
    Loaded RA(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"), RB(realDataDir() + "/nsysai-mfu_2gpu_after.sqlite");
    skew::Comparison rc = skew::compareCaptures(RA.side(), RB.side());
    ASSERT_EQ(rc.pairs.size(), 1u);
    for (uint32_t i = 1; i <= 33; ++i) {
        skew::PairedCollective pc = skew::pairedCollective(RA.side(), RB.side(), rc.pairs[0], true, i - 1);
        EXPECT_EQ(pc.by, skew::PairedCollective::By::Index);
        EXPECT_EQ(pc.collective, i <= 31 ? int(i - 1) : -1);
    }
}

TEST(Compare, RanksThatDifferAreNamed) {
    const auto& seven = generated("demo", skewgen::demoConfig());
    auto cfg = skewgen::demoConfig();
    cfg.ranks = 8;
    cfg.devices.clear();
    const auto& eight = generated("demo-8", cfg);
    RunResult r = runSkewscope({"compare", seven.path, "--vs", eight.path});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Groups not compared"));
    EXPECT_THAT(r.out, HasSubstr("runs on 7 ranks (dev 1, dev 2, dev 3, dev 4, dev 5, dev 6, dev 7), its match in B on a different "
                                 "number of ranks: ranks differ between the captures"));
    RunResult json = runSkewscope({"compare", seven.path, "--vs", eight.path, "--format", "json"});
    testjson::Value v = testjson::parse(json.out);
    EXPECT_EQ(v["groups"].size(), 0u);
    EXPECT_EQ(v["unpaired"]["a"].size(), 2u);
    EXPECT_EQ(v["unpaired"]["b"].size(), 2u);
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
