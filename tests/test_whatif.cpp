// The what-if (docs/analysis.md, What-if) on profiles built by hand, whose replays are worked out
// by hand below (every expected number is derived in the comments, never from the replay code),
// and on the real exports (the replay reproduces them, or the report says why).

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <string>

#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "analysis/whatif_graph.h"
#include "cli/command_line.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "profile_builder.h"
#include "whatif_hand_profile.h"
#include "report/analysis_report.h"
#include "report/verdict_line.h"
#include "report/whatif_report.h"
#include "test_util.h"
#include "util/errors.h"

namespace {

using skew::Analysis;
using testutil::ProfileBuilder;
using ::testing::HasSubstr;

using namespace whatifhand;

bool hasWarning(const Analysis& a, const std::string& part) {
    for (const auto& w : a.warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

TEST(WhatIf, ReplayWithCapturedInputsReproducesTheCapture) {
    skew::Profile p = handProfile();
    const Analysis a = skew::analyze(p);
    EXPECT_EQ(a.whatIf.kernels, 12u);
    EXPECT_EQ(a.whatIf.maxErrorNs, 0);
    EXPECT_EQ(a.whatIf.uncoupled, 0u);
    EXPECT_EQ(a.whatIf.stepSource, skew::StepSource::Nvtx);
    EXPECT_FALSE(hasWarning(a, "what-if"));
}

TEST(WhatIf, ScenarioStepTimesAreTheHandValues) {
    skew::Profile p = handProfile();
    const Analysis a = skew::analyze(p);
    const skew::WhatIf& w = a.whatIf;
    ASSERT_EQ(w.steps.size(), 2u);
    // captured: step 1 from 10 to 412 (the AllGather's end), step 2 from 1010 to 1408
    EXPECT_EQ(w.steps[0].step, 1u);
    EXPECT_EQ(w.steps[0].capturedNs, 402 * kUs);
    EXPECT_EQ(w.steps[1].capturedNs, 398 * kUs);
    // no_slow_kernels: rank 1's GEMM takes the lower median of {100, 300} = 100, so its AllGather
    // starts at 110 + its 2 us gap = 112, as rank 0's: both end at 112 + their 100 us transfer = 212.
    // Step 2 keeps the late launch: 1010 to 1408.
    EXPECT_EQ(w.steps[0].noSlowKernelsNs, 202 * kUs);
    EXPECT_EQ(w.steps[1].noSlowKernelsNs, 398 * kUs);
    // no_late_launches: step 1 as captured (402). Step 2: rank 0's AllGather waits (the record) for
    // its GEMM, ended at 1110, + its 3 us gap = 1113; rank 1's starts at 1112: both end at 1113 + 100.
    EXPECT_EQ(w.steps[0].noLateLaunchesNs, 402 * kUs);
    EXPECT_EQ(w.steps[1].noLateLaunchesNs, 203 * kUs);
    // ideal: both fixes: 202 and 203
    EXPECT_EQ(w.steps[0].idealNs, 202 * kUs);
    EXPECT_EQ(w.steps[1].idealNs, 203 * kUs);
    ASSERT_TRUE(w.noSlowKernels && w.noLateLaunches && w.ideal);
    EXPECT_DOUBLE_EQ(*w.noSlowKernels, 800.0 / 600.0);
    EXPECT_DOUBLE_EQ(*w.noLateLaunches, 800.0 / 605.0);
    EXPECT_DOUBLE_EQ(*w.ideal, 800.0 / 405.0);
}

TEST(WhatIf, ByRankPutsTheCostlierRankFirst) {
    skew::Profile p = handProfile();
    const Analysis a = skew::analyze(p);
    const auto& br = a.whatIf.byRank;
    ASSERT_EQ(br.size(), 2u);
    // rank 1 alone keeps its slow GEMM: step 1 ends at 312 + 100 = 412 (402), step 2 as ideal (203)
    EXPECT_EQ(br[0].rank, 1);
    EXPECT_DOUBLE_EQ(br[0].slowdown, 605.0 / 405.0);
    // rank 0 alone keeps its late launch: step 1 as ideal (202), step 2 from 1010 to 1308 + 100 (398)
    EXPECT_EQ(br[1].rank, 0);
    EXPECT_DOUBLE_EQ(br[1].slowdown, 600.0 / 405.0);
}

TEST(WhatIf, WithoutStepsEveryScenarioIsNullWithItsReason) {
    // no NVTX ranges, and a sequence of one op (AllGather, AllGather) has no inferred steps
    skew::Profile p = handProfile({.nvtx = false});
    const Analysis a = skew::analyze(p);
    EXPECT_EQ(a.whatIf.kernels, 12u);
    EXPECT_EQ(a.whatIf.maxErrorNs, 0);
    EXPECT_TRUE(a.whatIf.steps.empty());
    EXPECT_TRUE(a.whatIf.byRank.empty());
    EXPECT_FALSE(a.whatIf.noSlowKernels || a.whatIf.noLateLaunches || a.whatIf.ideal);
    EXPECT_TRUE(hasWarning(a, "what-if: no scenario computed: no training steps"));
    const testjson::Value j = testjson::parse(skew::analysisJson(p, a));
    const testjson::Value& w = j["what_if"];
    EXPECT_EQ(w["replay"]["kernels"].i64(), 12);
    EXPECT_EQ(w["steps"].size(), 0u);
    EXPECT_TRUE(w["slowdown"]["no_slow_kernels"].isNull());
    EXPECT_TRUE(w["slowdown"]["no_late_launches"].isNull());
    EXPECT_TRUE(w["slowdown"]["ideal"].isNull());
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("What-if: not computed: no training steps"));
}

TEST(WhatIf, WithoutLaunchRowsOnlyNoSlowKernelsIsComputed) {
    skew::Profile p = handProfile({.launches = false});
    const Analysis a = skew::analyze(p);
    const skew::WhatIf& w = a.whatIf;
    EXPECT_EQ(w.maxErrorNs, 0);
    ASSERT_EQ(w.steps.size(), 2u);
    // steps by the NVTX range the kernel starts in. Without launches each gap is measured from the
    // stream's previous kernel: rank 1's step-2 GEMM started 1010 - 331 = 679 us after its
    // elementwise kernel, which now ends at 131, so it starts at 810 (ends 910), its AllGather at
    // 912; rank 0's AllGather still starts at 1308 (198 us after its GEMM): step 2 is 810 to 1408.
    EXPECT_EQ(w.steps[0].noSlowKernelsNs, 202 * kUs);
    EXPECT_EQ(w.steps[1].noSlowKernelsNs, 598 * kUs);
    EXPECT_FALSE(w.steps[0].noLateLaunchesNs || w.steps[0].idealNs);
    EXPECT_DOUBLE_EQ(*w.noSlowKernels, 800.0 / 800.0);
    EXPECT_FALSE(w.noLateLaunches || w.ideal);
    EXPECT_TRUE(w.byRank.empty());
    EXPECT_TRUE(hasWarning(a, "what-if: no_late_launches, ideal and by_rank not computed: the exports have no launch rows"));
    const testjson::Value j = testjson::parse(skew::analysisJson(p, a));
    EXPECT_TRUE(j["what_if"]["steps"][0]["ideal_ns"].isNull());
    EXPECT_EQ(j["what_if"]["steps"][1]["no_slow_kernels_ns"].i64(), 598 * kUs);
    EXPECT_TRUE(j["what_if"]["slowdown"]["ideal"].isNull());
}

TEST(WhatIf, CrossStreamWaitsInferredWithinFiveMicrosecondsOrFromARecord) {
    // one rank: kernel A on stream 7 ends at 100; B on stream 8 starts at 100 + d, launched long
    // before: it waited for A when d <= 5 us; C on stream 9 starts 50 us after A's end, but a
    // stream-wait record on stream 9 says it waited
    auto graphOf = [](int64_t d, bool record) {
        ProfileBuilder b;
        b.rank(0);
        b.kernel(0, 7, T, T + 100 * kUs, GEMM, 1).launch(0, 1, T - 50 * kUs, T - 45 * kUs);
        b.kernel(0, 8, T + 100 * kUs + d, T + 200 * kUs, ELEM, 2).launch(0, 2, T - 40 * kUs, T - 35 * kUs);
        b.kernel(0, 9, T + 150 * kUs, T + 160 * kUs, ELEM, 3).launch(0, 3, T - 30 * kUs, T - 25 * kUs);
        if (record) b.wait(0, 9, T + 140 * kUs, T + 149 * kUs);
        skew::Profile p = b.build();
        const Analysis a = skew::analyze(p);
        const skew::ReplayKernels k = skew::windowKernels(p, a);
        return skew::buildReplayGraph(p, a, k, std::vector<uint32_t>(k.count, 0), 0, {});
    };
    auto crossOf = [](const skew::ReplayGraph& g, int64_t start) {
        for (size_t i = 0; i < g.size(); ++i)
            if (g.start[i] == start) return g.cross[i] < 0 ? int64_t(-1) : g.start[size_t(g.cross[i])];
        return int64_t(-2);
    };
    const skew::ReplayGraph in = graphOf(5 * kUs, false), out = graphOf(5 * kUs + 1, false), rec = graphOf(5 * kUs, true);
    EXPECT_EQ(crossOf(in, T + 105 * kUs), T);  // waited for A (started at T)
    EXPECT_EQ(crossOf(out, T + 105 * kUs + 1), -1);
    EXPECT_EQ(crossOf(in, T + 150 * kUs), -1);  // 50 us after A's end, B still running: no wait
    EXPECT_EQ(crossOf(rec, T + 150 * kUs), T);  // the record: it waited for A (B had not ended by 150)
    EXPECT_EQ(in.waits, 1u);
    EXPECT_EQ(rec.waits, 2u);
}

TEST(WhatIf, CapturedOverlapsReplayExactly) {
    // a kernel that starts before its launch call returned, and one that starts before its stream
    // predecessor ended: both replay where they started
    ProfileBuilder b;
    b.rank(0);
    b.kernel(0, 7, T, T + 100 * kUs, GEMM, 1).launch(0, 1, T - 10 * kUs, T + 3 * kUs);
    b.kernel(0, 7, T + 90 * kUs, T + 150 * kUs, ELEM, 2).launch(0, 2, T - 5 * kUs, T - 2 * kUs);
    b.nvtx(0, T - 20 * kUs, T + 1000 * kUs, "ProfilerStep#1");
    skew::Profile p = b.build();
    const Analysis a = skew::analyze(p);
    EXPECT_EQ(a.whatIf.kernels, 2u);
    EXPECT_EQ(a.whatIf.maxErrorNs, 0);
    ASSERT_EQ(a.whatIf.steps.size(), 1u);
    EXPECT_EQ(a.whatIf.steps[0].capturedNs, 150 * kUs);
    EXPECT_EQ(a.whatIf.steps[0].idealNs, 150 * kUs);  // one rank: no counterparts, nothing late to drop
}

TEST(WhatIf, ReportsCarryTheWhatIf) {
    skew::Profile p = handProfile();
    const Analysis a = skew::analyze(p);
    // medians: captured {402, 398} -> 400 us; ideal {202, 203} -> 202.5 us; 800 / 405 = 1.975;
    // dev 1 alone: 605 / 405 = 1.494
    const std::string sentence =
        "Without the late arrivals the median step would take 202.5 us instead of 400.0 us (1.98x); dev 1 alone costs 1.49x.";
    EXPECT_EQ(skew::whatIfSentence(p, a), sentence);
    const std::string text = skew::analysisText(p, a), md = skew::analysisMarkdown(p, a);
    // the first bullet of the answers, under the group's verdict line
    const std::string heading = "Answers: group 0, 2 collectives (AllGather 2)";
    const std::string verdict = skew::verdictLine(p, a, a.groups[0]);
    EXPECT_THAT(text, HasSubstr(heading + "\n" + std::string(heading.size(), '-') + "\n  Verdict: " + verdict + ".\n  - " + sentence + "\n"));
    EXPECT_THAT(md, HasSubstr("## " + heading + "\n\n**Verdict:** " + verdict + ".  \n- " + sentence + "\n"));
    EXPECT_EQ(skew::whatIfCsv(a),
              "step,captured_ns,no_slow_kernels_ns,no_late_launches_ns,ideal_ns\n"
              "1,402000,202000,402000,202000\n"
              "2,398000,398000,203000,203000\n");
    const testjson::Value j = testjson::parse(skew::analysisJson(p, a));
    const testjson::Value& w = j["what_if"];
    EXPECT_EQ(w["replay"]["kernels"].i64(), 12);
    EXPECT_EQ(w["replay"]["max_error_ns"].i64(), 0);
    ASSERT_EQ(w["steps"].size(), 2u);
    EXPECT_EQ(w["steps"][1]["step"].i64(), 2);
    EXPECT_EQ(w["steps"][1]["captured_ns"].i64(), 398 * kUs);
    EXPECT_EQ(w["steps"][1]["no_slow_kernels_ns"].i64(), 398 * kUs);
    EXPECT_EQ(w["steps"][1]["no_late_launches_ns"].i64(), 203 * kUs);
    EXPECT_EQ(w["steps"][1]["ideal_ns"].i64(), 203 * kUs);
    ASSERT_EQ(w["by_rank"].size(), 2u);
    EXPECT_EQ(w["by_rank"][0]["rank"].str, "dev 1");
    EXPECT_EQ(w["by_rank"][0]["device"].i64(), 1);
    EXPECT_NEAR(w["by_rank"][0]["slowdown"].num, 605.0 / 405.0, 1e-5);  // 6 significant digits
    EXPECT_NEAR(w["slowdown"]["ideal"].num, 800.0 / 405.0, 1e-5);  // 6 significant digits
    EXPECT_NEAR(w["slowdown"]["no_late_launches"].num, 800.0 / 605.0, 1e-5);  // 6 significant digits
    EXPECT_NEAR(w["slowdown"]["no_slow_kernels"].num, 800.0 / 600.0, 1e-5);  // 6 significant digits
}

TEST(WhatIf, CsvStepsTableIsChosenWithTable) {
    auto parse = [](const std::vector<std::string>& args, skew::CommandLine& cl) {
        std::string error;
        const bool ok = skew::parseCommandLine(args, cl, error);
        return ok ? std::string() : error;
    };
    skew::CommandLine cl;
    EXPECT_EQ(parse({"analyze", "x.sqlite", "--format", "csv", "--table", "steps"}, cl), "");
    EXPECT_EQ(cl.table, "steps");
    skew::CommandLine plain;
    EXPECT_EQ(parse({"analyze", "x.sqlite", "--format", "csv"}, plain), "");
    EXPECT_EQ(plain.table, "collectives");
    skew::CommandLine bad;
    EXPECT_EQ(parse({"analyze", "x.sqlite", "--format", "csv", "--table", "rows"}, bad), "--table takes collectives or steps; not 'rows'");
    skew::CommandLine text;
    EXPECT_EQ(parse({"analyze", "x.sqlite", "--table", "steps"}, text), "--table chooses the table of --format csv");
}

TEST(WhatIf, PerRankFilesWithClockErrorsReplayOnTheAlignedClocks) {
    auto cfg = skewgen::demoConfig();
    cfg.perRankFiles = true;
    cfg.devices.clear();
    cfg.clockErrorNs = {0, 3'000'000, -2'000'000, 0, 5'123'456, 0, -4'000'000};
    const auto& gen = testutil::generated("whatif-prf-clock", cfg);
    {
        skew::Profile p = skew::loadProfile(gen.result.files);
        const Analysis a = skew::analyze(p);
        EXPECT_LE(a.whatIf.maxErrorNs, 1000);
        EXPECT_EQ(a.whatIf.uncoupled, 0u);
        EXPECT_EQ(a.whatIf.stepSource, skew::StepSource::Nvtx);
        EXPECT_EQ(a.whatIf.steps.size(), size_t(gen.result.steps));
        EXPECT_EQ(a.whatIf.byRank.size(), size_t(cfg.ranks));
        EXPECT_FALSE(hasWarning(a, "what-if"));
    }
    {
        // on the files' own clocks, ranks 5 ms apart: members end before others start; those
        // collectives replay uncoupled, and the report says so
        skew::Profile p = skew::loadProfile(gen.result.files);
        skew::AnalysisOptions o;
        o.refineClocks = false;
        const Analysis a = skew::analyze(p, o);
        EXPECT_GT(a.whatIf.uncoupled, 0u);
        EXPECT_LE(a.whatIf.maxErrorNs, 1000);
        EXPECT_TRUE(hasWarning(a, "collective(s) replay uncoupled"));
    }
}

TEST(WhatIf, TrimmedCapturesReplayTheirWindow) {
    auto cfg = skewgen::demoConfig();
    cfg.trimStartNs = 30'000'000;  // from 30 ms into step 1 to 250 ms: steps cut at both ends
    cfg.trimEndNs = 250'000'000;
    const auto& gen = testutil::generated("whatif-window-trimmed", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    const Analysis a = skew::analyze(p);
    EXPECT_EQ(a.whatIf.kernels, p.kernelCount());
    EXPECT_LE(a.whatIf.maxErrorNs, 1000);
    EXPECT_FALSE(a.whatIf.steps.empty());
    // --trim: only the kernels that start in the window are replayed
    skew::Profile q = skew::loadProfile({gen.path});
    skew::AnalysisOptions o;
    o.hasTrim = true;
    o.trimStartNs = q.timeStart + 50'000'000;
    o.trimEndNs = q.timeStart + 150'000'000;
    uint64_t inWindow = 0;
    for (const auto& r : q.ranks)
        for (const auto& l : r.lanes)
            for (size_t i = 0; i < l.size(); ++i) inWindow += l.start[i] >= o.trimStartNs && l.start[i] < o.trimEndNs;
    const Analysis t = skew::analyze(q, o);
    EXPECT_EQ(t.whatIf.kernels, inWindow);
    EXPECT_LE(t.whatIf.maxErrorNs, 1000);
}

TEST(WhatIf, RealExportsReplayOrSayWhy) {
    const auto files = testutil::realExports();
    ASSERT_FALSE(files.empty());
    for (const std::string& f : files) {
        skew::Profile p = skew::loadProfile({f});
        const uint64_t kernels = p.kernelCount();
        const Analysis a = skew::analyze(p);
        EXPECT_EQ(a.whatIf.kernels, kernels) << f;
        if (a.whatIf.maxErrorNs > 1000) {
            EXPECT_TRUE(hasWarning(a, "what-if: the replay with captured inputs differs")) << f;
        }
        // scenarios present, or a warning that says why not
        if (kernels && a.whatIf.steps.empty()) {
            EXPECT_TRUE(hasWarning(a, "what-if: no scenario computed")) << f;
        }
        if (kernels && !a.whatIf.steps.empty() && p.launchCount() == 0) {
            EXPECT_TRUE(hasWarning(a, "no launch rows")) << f;
        }
        testjson::parse(skew::analysisJson(p, a));  // the report is well formed
    }
}

// The hand profile without launch rows (a what-if warning) analysed in one go (p, oneGo) and,
// apart, with its what-if left for later (q, a).
struct LeftForLater {
    skew::Profile p = handProfile({.launches = false}), q = handProfile({.launches = false});
    Analysis oneGo = skew::analyze(p), a = skew::analyze(q, [] {
        skew::AnalysisOptions o;
        o.whatIf = false;
        return o;
    }());
};

// The viewer's order (issue 25): the analysis without the what-if, then the what-if computed apart
// and filled in, gives what one analysis does, byte for byte in the JSON (the warnings' order too);
// until then it is pending and says so; a stop asked for cancels it.
TEST(WhatIf, LeftForLaterThenFilledInIsTheOneGoAnalysis) {
    LeftForLater t;
    const skew::Profile& p = t.p;
    skew::Profile& q = t.q;
    const Analysis& oneGo = t.oneGo;
    Analysis& a = t.a;
    EXPECT_TRUE(a.whatIf.pending);
    EXPECT_EQ(a.whatIf.kernels, 0u);
    EXPECT_TRUE(a.whatIf.steps.empty());
    EXPECT_FALSE(hasWarning(a, "what-if:"));
    EXPECT_EQ(skew::whatIfSentence(q, a), "What-if: computing the replay of the capture\u2026");
    EXPECT_THROW(skew::computeWhatIf(q, a, [] { return true; }), skew::Cancelled);
    skew::WhatIfOutcome w = skew::computeWhatIf(q, a);
    EXPECT_FALSE(w.whatIf.pending);
    ASSERT_EQ(w.whatIf.steps.size(), 2u);
    EXPECT_EQ(w.whatIf.steps[1].noSlowKernelsNs, 598 * kUs);  // as worked out by hand above
    ASSERT_EQ(w.warnings.size(), 1u);
    EXPECT_THAT(w.warnings[0], HasSubstr("what-if: no_late_launches, ideal and by_rank not computed"));
    skew::fillWhatIf(a, std::move(w));
    EXPECT_FALSE(a.whatIf.pending);
    EXPECT_EQ(a.warnings, oneGo.warnings);
    a.options.whatIf = true;  // the one option that differs; not in the report
    EXPECT_EQ(skew::analysisJson(q, a), skew::analysisJson(p, oneGo));
    EXPECT_EQ(skew::analysisText(q, a), skew::analysisText(p, oneGo));
}

// A stop asked for ends the what-if at the next poll, wherever that is: for each poll k of a run
// that is never stopped, a stop that turns true at the k-th ends it there (Cancelled, no poll after).
// The replay graph's build polls between its stages (kernels, cross-stream waits, collectives,
// bounds, order, slots), so that a cancel in the viewer does not wait for the whole build.
TEST(WhatIf, AStopEndsTheWhatIfAtItsNextPollInTheGraphsBuildToo) {
    LeftForLater t;
    int polls = 0;
    skew::computeWhatIf(t.q, t.a, [&] { return ++polls < 0; });
    // after the steps, the medians, six stages of the graph, the graph, the replays
    EXPECT_EQ(polls, 10);
    for (int k = 1; k <= polls; ++k) {
        int n = 0;
        EXPECT_THROW(skew::computeWhatIf(t.q, t.a, [&] { return ++n == k; }), skew::Cancelled) << "stopped at poll " << k;
        EXPECT_EQ(n, k);
    }
}

// The command line's order on 2 or more threads (analyze --format json): the what-if left for later
// and filled in while the report is written, once the sections before it (the collectives) are out.
// The text is the one-go analysis's, byte for byte, and the fill comes between those sections and
// the what-if's.
TEST(WhatIf, FilledInWhileTheReportIsWrittenIsTheOneGoJson) {
    LeftForLater t;
    const skew::Profile& p = t.p;
    skew::Profile& q = t.q;
    const Analysis& oneGo = t.oneGo;
    Analysis& a = t.a;
    std::string text;
    int fills = 0;
    skew::writeAnalysisJson(q, a, [&](std::string_view s) { text += s; }, [&] {
        ++fills;
        // written so far: the collectives and anomalies, nothing of the what-if nor the warnings
        EXPECT_NE(text.find("\"collectives\""), std::string::npos);
        EXPECT_NE(text.find("\"anomalies\""), std::string::npos);
        EXPECT_EQ(text.find("\"what_if\""), std::string::npos);
        EXPECT_EQ(text.find("\"warnings\""), std::string::npos);
        skew::fillWhatIf(a, skew::computeWhatIf(q, a));
    }, 64);
    EXPECT_EQ(fills, 1);
    EXPECT_EQ(text, skew::analysisJson(p, oneGo));
    EXPECT_THAT(text, HasSubstr("what-if: no_late_launches, ideal and by_rank not computed"));
}

}  // namespace
