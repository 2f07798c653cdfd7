// `skewscope compare`: on the real before/after pair each side equals `analyze` of its file and
// every delta equals the difference of the two analyses; on generated pairs the "after" capture
// without the planted big events loses exactly their excess, and the recurring positions of the
// step disappear; groups pair by op mix (80% alike) and rank count, and every group that does not
// pair is named, with why, in text, Markdown and JSON; the reports give A -> B of every figure.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>


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

// The report gives each figure as A -> B (B - A): skews with their max, the cost, big events and
// their causes, the causes of all late arrivals, per rank the last arrivals and the mean lateness;
// and on the real pair (33 and 31 SendRecv, no steps) it cautions that the collectives are few and
// pair by index. Every expected number is from the two analyze JSONs.
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
        for (const char* cause : {"cpu_launch", "gpu_dependency", "gpu_other", "unknown"}) {
            int64_t na = 0, nb = 0;
            for (const auto& c : a["collectives"].arr) na += c["complete"].b && (!bigOnly || c["big"].b) && c["cause"].str == cause;
            for (const auto& c : b["collectives"].arr) nb += c["complete"].b && (!bigOnly || c["big"].b) && c["cause"].str == cause;
            s += (s.empty() ? "" : ", ") + std::string(cause) + " " + cn(na, nb);
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
    for (const auto& p : g["groups"].arr)
        EXPECT_EQ(p["cautions"].size(), p["a"].i64() == 0 ? 0u : 1u);  // the AllReduce: 5 collectives
    // its big events' causes, A -> B, from A's big collectives
    RunResult text = runSkewscope({"compare", gen.path, "--vs", generated("cmp-after", fixed).path});
    int64_t bigDep = 0;
    for (const auto& c : g["a"]["collectives"].arr) bigDep += c["group"].i64() == 0 && c["big"].b && c["cause"].str == "gpu_dependency";
    EXPECT_EQ(bigDep, 10);
    EXPECT_THAT(text.out, HasSubstr("causes of the big events: cpu_launch 0 -> 0 (0), gpu_dependency 10 -> 0 (-10), gpu_other 0 -> 0 (0), "
                                    "unknown 0 -> 0 (0)\n"));
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
