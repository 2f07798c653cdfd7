// The what-if against the truth (issue 22, docs/analysis.md, What-if): a causal run generated with
// planted delays (slow kernels on rotating ranks, CPU stalls, a persistent slow rank) and the same
// run generated without them (same seed, GenConfig::delays off). `skewscope analyze --format json`
// on the delayed export must predict the undelayed run's step times: what_if.steps[*] within 2% or
// 1 ms per step, per scenario. The undelayed step times are computed here by SQL on its export
// (kernel -> its launch call -> the ProfilerStep range holding it; last end minus first start over
// ranks, per-rank files put on the aligned clock from the session starts and the planted clock
// errors), and checked against the generator's truth; never with the replay code.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gen_fixture.h"
#include "json_value.h"

using namespace testutil;

namespace {

constexpr int64_t kMs = 1'000'000;

// Step -> time (ns) of an export as the spec defines it.
using StepTimes = std::map<int, int64_t>;

// Every row of `sql` on the file, handed to onRow; SQLite errors are test failures.
template <typename F>
void sqlRows(const std::string& path, const std::string& sql, F&& onRow) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << "cannot open " << path;
        sqlite3_close(db);
        return;
    }
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        onRow(st);
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE) ADD_FAILURE() << path << ": " << sqlite3_errmsg(db) << " in: " << sql;
    sqlite3_finalize(st);
    sqlite3_close(db);
}

// Per step: first kernel start and last kernel end over ranks (aligned ns), a kernel counting for
// the ProfilerStep#N range of its process's thread that holds its launch call's start (backtrace
// rows, eventClass 67, repeat correlation ids and are left out).
StepTimes stepTimesBySql(const Generated& g, const skewgen::GenConfig& cfg) {
    const char* const sql =
        "SELECT CAST(substr(n.text, 14) AS INTEGER) AS step, MIN(k.start), MAX(k.end) "
        "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
        "  AND r.globalTid / 16777216 = k.globalPid / 16777216 AND r.eventClass != 67 "
        "JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.text LIKE 'ProfilerStep#%' "
        "  AND n.start <= r.start AND r.start <= n.end "
        "GROUP BY step";
    std::vector<int64_t> utc;
    for (const std::string& f : g.result.files)
        utc.push_back(sqlCount(f, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
    const int64_t minUtc = *std::min_element(utc.begin(), utc.end());
    std::map<int, std::pair<int64_t, int64_t>> span;
    for (size_t f = 0; f < g.result.files.size(); ++f) {
        // file clock -> aligned: + the session's offset - the host clock's planted error (per-rank
        // files: file f holds rank f)
        const int64_t err = cfg.perRankFiles && !cfg.clockErrorNs.empty() ? cfg.clockErrorNs[f] : 0;
        const int64_t shift = utc[f] - minUtc - err;
        sqlRows(g.result.files[f], sql, [&](sqlite3_stmt* st) {
            const int step = sqlite3_column_int(st, 0);
            const int64_t s = sqlite3_column_int64(st, 1) + shift, e = sqlite3_column_int64(st, 2) + shift;
            auto it = span.find(step);
            if (it == span.end()) span[step] = {s, e};
            else it->second = {std::min(it->second.first, s), std::max(it->second.second, e)};
        });
    }
    StepTimes out;
    for (const auto& [step, se] : span) out[step] = se.second - se.first;
    return out;
}

// A case: the delayed run and its undelayed twin (same config and seed, delays off, not trimmed).
struct Pair {
    const Generated& delayed;
    const Generated& undelayed;
    StepTimes truth;  // the undelayed run's step times (SQL)
};

Pair makePair(const std::string& name, const skewgen::GenConfig& cfg) {
    skewgen::GenConfig twin = cfg;
    twin.delays = false;
    twin.trimStartNs = twin.trimEndNs = -1;
    const Generated& d = generated("whatif-" + name, cfg);
    const Generated& u = generated("whatif-" + name + "-undelayed", twin);
    return Pair{d, u, stepTimesBySql(u, twin)};
}

skewgen::GenConfig slowKernelsOnly() {
    skewgen::GenConfig c = skewgen::causalConfig();
    c.cpuStalls.clear();
    return c;
}
skewgen::GenConfig cpuStallsOnly() {
    skewgen::GenConfig c = skewgen::causalConfig();
    c.slowKernels.clear();
    return c;
}
skewgen::GenConfig slowRank() {
    skewgen::GenConfig c = skewgen::causalConfig();
    c.slowKernels.clear();
    c.cpuStalls.clear();
    c.slowComputeRank = 5;
    return c;
}
skewgen::GenConfig perRankClocks() {
    skewgen::GenConfig c = skewgen::causalConfig();
    c.perRankFiles = true;
    c.clockErrorNs = {0, 3 * kMs, -2 * kMs, 0, 1 * kMs + 500'000, 0, -4 * kMs, 2 * kMs};
    return c;
}
// Kernels kept from 5 ms into step 1 to 5 ms into step 4 (range starts of the untrimmed run).
skewgen::GenConfig trimmed() {
    skewgen::GenConfig c = skewgen::causalConfig();
    const Generated& full = generated("whatif-both", c);
    int64_t step4 = INT64_MAX;
    for (const auto& starts : full.result.stepRangeStartNs) step4 = std::min(step4, starts.at(3));
    c.trimStartNs = 5 * kMs;
    c.trimEndNs = step4 - full.result.firstStepNs + 5 * kMs;
    return c;
}

// The analysis's what_if object, or a failure saying why there is none.
std::optional<testjson::Value> whatIf(const Generated& g) {
    std::vector<std::string> args = {"analyze"};
    args.insert(args.end(), g.result.files.begin(), g.result.files.end());
    args.insert(args.end(), {"--format", "json"});
    RunResult r = runSkewscope(args);
    if (r.exitCode != 0) {
        ADD_FAILURE() << "analyze failed (" << r.exitCode << "): " << r.err;
        return std::nullopt;
    }
    testjson::Value v = testjson::parse(r.out);
    if (!v.has("what_if") || v["what_if"].isNull()) {
        ADD_FAILURE() << "no what_if in the report of " << g.path;
        return std::nullopt;
    }
    return v["what_if"];
}

// what_if.steps[*][key] of every step of `truth` (when given, only `onlySteps`) within 2% or 1 ms.
void expectScenario(const testjson::Value& w, const std::string& key, const StepTimes& truth,
                    const std::vector<int>& onlySteps = {}) {
    ASSERT_TRUE(w.has("steps")) << "what_if without steps";
    std::map<int, const testjson::Value*> steps;
    for (const auto& s : w["steps"].arr) steps[int(s["step"].i64())] = &s;
    for (const auto& [step, ns] : truth) {
        if (!onlySteps.empty() && std::find(onlySteps.begin(), onlySteps.end(), step) == onlySteps.end()) continue;
        ASSERT_TRUE(steps.count(step)) << "no what_if step " << step;
        const auto& s = *steps[step];
        ASSERT_TRUE(s.has(key) && !s[key].isNull()) << "step " << step << ": no " << key;
        EXPECT_NEAR(double(s[key].i64()), double(ns), std::max(0.02 * double(ns), 1e6)) << "step " << step << " " << key;
    }
}

// The replay reproduces the capture within 1 us and captured_ns is the delayed export's step time
// (SQL) within 1 us; each scenario of `keys` predicts the undelayed twin (expectScenario).
void expectPrediction(const testjson::Value& w, const Pair& p, const skewgen::GenConfig& cfg,
                      const std::vector<std::string>& keys, const std::vector<int>& onlySteps = {}) {
    ASSERT_TRUE(w.has("replay")) << "what_if without replay";
    EXPECT_GT(w["replay"]["kernels"].i64(), 0);
    EXPECT_LE(w["replay"]["max_error_ns"].i64(), 1000);
    StepTimes captured = stepTimesBySql(p.delayed, cfg);
    if (!onlySteps.empty())
        for (auto it = captured.begin(); it != captured.end();)
            it = std::find(onlySteps.begin(), onlySteps.end(), it->first) == onlySteps.end() ? captured.erase(it) : ++it;
    for (const auto& [step, ns] : captured)
        for (const auto& s : w["steps"].arr) {
            if (s["step"].i64() != step) continue;
            EXPECT_NEAR(double(s["captured_ns"].i64()), double(ns), 1000.0) << "step " << step;
        }
    for (const std::string& key : keys) expectScenario(w, key, p.truth, onlySteps);
}

// The truth the tests stand on: the generator's step times are the exports' (SQL), the twin is the
// delayed run without its delays, and the delays cost at least `minCost` of the undelayed time.
void expectTruth(const Pair& p, const skewgen::GenConfig& cfg, double minCost) {
    const auto& st = p.delayed.result.stepTimes;
    ASSERT_EQ(st.size(), size_t(cfg.steps));
    ASSERT_EQ(p.truth.size(), size_t(cfg.steps));
    const StepTimes captured = stepTimesBySql(p.delayed, cfg);
    int64_t sumCaptured = 0, sumTruth = 0;
    for (const skewgen::TruthStep& t : st) {
        EXPECT_EQ(t.undelayedNs, p.truth.at(t.step)) << "step " << t.step;
        EXPECT_EQ(p.undelayed.result.stepTimes[size_t(t.step - 1)].capturedNs, p.truth.at(t.step)) << "step " << t.step;
        if (t.complete) {
            EXPECT_EQ(t.capturedNs, captured.at(t.step)) << "step " << t.step;
            sumCaptured += t.capturedNs;
            sumTruth += t.undelayedNs;
        }
    }
    EXPECT_GT(double(sumCaptured), (1.0 + minCost) * double(sumTruth)) << "the planted delays cost too little";
    // what the what-if must predict, for whoever reads the log
    for (const skewgen::TruthStep& t : st)
        std::printf("  %s step %d: captured %lld ns, undelayed %lld ns%s\n", p.delayed.path.c_str(), t.step,
                    static_cast<long long>(t.capturedNs), static_cast<long long>(t.undelayedNs),
                    t.complete ? "" : " (trimmed)");
}

}  // namespace

// The generator's side, which holds before the what-if exists: the truth is the exports' and the
// undelayed twin is the same run (same kernels, launches and durations) minus the planted delays.
TEST(WhatIfTruth, TwinIsTheRunMinusItsDelays) {
    const skewgen::GenConfig cfg = skewgen::causalConfig();
    const Pair p = makePair("both", cfg);
    expectTruth(p, cfg, 0.10);
    EXPECT_EQ(p.delayed.result.kernelRows, p.undelayed.result.kernelRows);
    EXPECT_EQ(p.delayed.result.runtimeRows, p.undelayed.result.runtimeRows);
    // compute kernel by compute kernel (process, correlation id): a duration differs only where a
    // slow kernel is planted, by its delay (NCCL kernels last until their collective ends)
    std::map<std::pair<int64_t, int64_t>, int64_t> dur;
    const char* const sql =
        "SELECT k.globalPid, k.correlationId, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN StringIds s ON s.id = k.shortName WHERE s.value NOT LIKE 'nccl%'";
    sqlRows(p.undelayed.path, sql, [&](sqlite3_stmt* s) {
        dur[{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)}] = sqlite3_column_int64(s, 2);
    });
    int64_t differing = 0, extra = 0;
    sqlRows(p.delayed.path, sql, [&](sqlite3_stmt* s) {
        const int64_t d = sqlite3_column_int64(s, 2) - dur.at({sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)});
        if (d != 0) ++differing, extra += d;
    });
    int64_t planted = 0;
    for (const skewgen::SlowKernel& k : cfg.slowKernels) planted += k.extraNs;
    EXPECT_EQ(differing, int64_t(cfg.slowKernels.size()));
    EXPECT_EQ(extra, planted);
}

// The undelayed run's CPU runs ahead of its GPU: each rank's first kernel of a step starts its gap
// (1-3 us) after its launch call, every other kernel later than its launch allows (by more than
// any gap), so the what-if's dropped launch bounds are exactly the ones the stalls add.
TEST(WhatIfTruth, UndelayedRunIsBoundByItsGpuNotItsLaunches) {
    const Pair p = makePair("both", skewgen::causalConfig());
    std::map<std::pair<int64_t, int>, int64_t> firstGap;  // (process, step) -> start - launch end of its first kernel
    int64_t minOther = INT64_MAX;
    size_t kernels = 0;
    sqlRows(p.undelayed.path,
            "SELECT k.globalPid, CAST(substr(n.text, 14) AS INTEGER), k.start - r.end "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
            "  AND r.globalTid / 16777216 = k.globalPid / 16777216 AND r.eventClass != 67 "
            "JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND n.text LIKE 'ProfilerStep#%' "
            "  AND n.start <= r.start AND r.start <= n.end "
            "ORDER BY k.globalPid, k.start",
            [&](sqlite3_stmt* st) {
                ++kernels;
                const std::pair<int64_t, int> key{sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1)};
                const int64_t gap = sqlite3_column_int64(st, 2);
                if (!firstGap.count(key)) firstGap[key] = gap;
                else minOther = std::min(minOther, gap);
            });
    EXPECT_EQ(kernels, p.undelayed.result.kernelRows);
    ASSERT_EQ(firstGap.size(), 8u * 4u);
    for (const auto& [key, gap] : firstGap) {
        EXPECT_GE(gap, 1000) << "step " << key.second;
        EXPECT_LE(gap, 3000) << "step " << key.second;
    }
    EXPECT_GT(minOther, 5000);
}

// The combined case plants both causes where neither hides the other: every step takes longer than
// with either alone.
TEST(WhatIfTruth, NeitherDelayHidesTheOther) {
    const StepTimes both = stepTimesBySql(makePair("both", skewgen::causalConfig()).delayed, skewgen::causalConfig());
    const StepTimes slow = stepTimesBySql(makePair("slow-kernels", slowKernelsOnly()).delayed, slowKernelsOnly());
    const StepTimes stalls = stepTimesBySql(makePair("cpu-stalls", cpuStallsOnly()).delayed, cpuStallsOnly());
    ASSERT_EQ(both.size(), 4u);
    for (const auto& [step, ns] : both) {
        EXPECT_GT(ns, slow.at(step) + 500'000) << "step " << step;
        EXPECT_GT(ns, stalls.at(step) + 500'000) << "step " << step;
    }
}

TEST(WhatIfTruth, TruthOfEveryCase) {
    expectTruth(makePair("slow-kernels", slowKernelsOnly()), slowKernelsOnly(), 0.05);
    expectTruth(makePair("cpu-stalls", cpuStallsOnly()), cpuStallsOnly(), 0.05);
    expectTruth(makePair("slow-rank", slowRank()), slowRank(), 0.05);
    expectTruth(makePair("per-rank", perRankClocks()), perRankClocks(), 0.10);
    const skewgen::GenConfig t = trimmed();
    const Pair p = makePair("trimmed", t);
    expectTruth(p, t, 0.05);
    const auto& st = p.delayed.result.stepTimes;
    EXPECT_FALSE(st[0].complete);
    EXPECT_TRUE(st[1].complete);
    EXPECT_TRUE(st[2].complete);
    EXPECT_FALSE(st[3].complete);
}

TEST(WhatIfTruth, SlowKernelsOnly) {
    const skewgen::GenConfig cfg = slowKernelsOnly();
    const Pair p = makePair("slow-kernels", cfg);
    if (auto w = whatIf(p.delayed)) expectPrediction(*w, p, cfg, {"no_slow_kernels_ns", "ideal_ns"});
}

TEST(WhatIfTruth, CpuStallsOnly) {
    const skewgen::GenConfig cfg = cpuStallsOnly();
    const Pair p = makePair("cpu-stalls", cfg);
    if (auto w = whatIf(p.delayed)) expectPrediction(*w, p, cfg, {"no_late_launches_ns", "ideal_ns"});
}

TEST(WhatIfTruth, SlowKernelsAndCpuStalls) {
    const skewgen::GenConfig cfg = skewgen::causalConfig();
    const Pair p = makePair("both", cfg);
    auto w = whatIf(p.delayed);
    if (!w) return;
    expectPrediction(*w, p, cfg, {"ideal_ns"});
    // without slow kernels the run is the one with only the CPU stalls, and the other way round
    const Pair stallsOnly = makePair("cpu-stalls", cpuStallsOnly()), slowOnly = makePair("slow-kernels", slowKernelsOnly());
    expectScenario(*w, "no_slow_kernels_ns", stepTimesBySql(stallsOnly.delayed, cpuStallsOnly()));
    expectScenario(*w, "no_late_launches_ns", stepTimesBySql(slowOnly.delayed, slowKernelsOnly()));
    // the ideal slowdown: the captured steps' sum over the undelayed steps' sum
    int64_t sumCaptured = 0, sumTruth = 0;
    for (const auto& [step, ns] : stepTimesBySql(p.delayed, cfg)) sumCaptured += ns, sumTruth += p.truth.at(step);
    ASSERT_TRUE(w->has("slowdown")) << "what_if without slowdown";
    EXPECT_NEAR((*w)["slowdown"]["ideal"].num, double(sumCaptured) / double(sumTruth), 0.02);
}

TEST(WhatIfTruth, PersistentSlowRankComesFirst) {
    const skewgen::GenConfig cfg = slowRank();
    const Pair p = makePair("slow-rank", cfg);
    auto w = whatIf(p.delayed);
    if (!w) return;
    expectPrediction(*w, p, cfg, {"no_slow_kernels_ns", "ideal_ns"});
    ASSERT_TRUE(w->has("by_rank") && w->operator[]("by_rank").size() == size_t(cfg.ranks)) << "by_rank: one per rank";
    EXPECT_EQ((*w)["by_rank"][0]["rank"].str, p.delayed.result.rankLabels[size_t(cfg.slowComputeRank)]);
    EXPECT_EQ((*w)["by_rank"][0]["device"].i64(), cfg.slowComputeRank);
    EXPECT_GT((*w)["by_rank"][0]["slowdown"].num, (*w)["by_rank"][1]["slowdown"].num);
}

TEST(WhatIfTruth, PerRankFilesWithClockOffsets) {
    const skewgen::GenConfig cfg = perRankClocks();
    const Pair p = makePair("per-rank", cfg);
    if (auto w = whatIf(p.delayed)) expectPrediction(*w, p, cfg, {"ideal_ns"});
}

TEST(WhatIfTruth, TrimmedCapture) {
    const skewgen::GenConfig cfg = trimmed();
    const Pair p = makePair("trimmed", cfg);
    // steps 1 and 4 lose kernels to the trimming: only the complete steps can be predicted
    if (auto w = whatIf(p.delayed)) expectPrediction(*w, p, cfg, {"ideal_ns"}, {2, 3});
}

// Nothing planted, nothing to gain: the what-if of the undelayed run is the run itself.
TEST(WhatIfTruth, UndelayedRunPredictsItself) {
    skewgen::GenConfig cfg = skewgen::causalConfig();
    cfg.delays = false;
    const Pair p = makePair("none", cfg);
    auto w = whatIf(p.delayed);
    if (!w) return;
    expectPrediction(*w, p, cfg, {"no_slow_kernels_ns", "no_late_launches_ns", "ideal_ns"});
    ASSERT_TRUE(w->has("slowdown")) << "what_if without slowdown";
    for (const char* k : {"no_slow_kernels", "no_late_launches", "ideal"})
        EXPECT_NEAR((*w)["slowdown"][k].num, 1.0, 0.02) << k;
}

// ---- compare: A's what-if beside B, the fixed run ------------------------------------------------

namespace {

// The median as docs/analysis.md defines percentiles (linear between the two middle values).
int64_t medianOf(const StepTimes& t) {
    std::vector<int64_t> v;
    for (const auto& [step, ns] : t) v.push_back(ns);
    std::sort(v.begin(), v.end());
    const double pos = 0.5 * double(v.size() - 1);
    const size_t lo = size_t(pos), hi = std::min(lo + 1, v.size() - 1);
    return int64_t(std::llround(double(v[lo]) + (double(v[hi]) - double(v[lo])) * (pos - double(lo))));
}

}  // namespace

// B is A without its planted delays: A's what-if predicted B's median step, and the comparison
// says so (its report card), with the medians of the step times the SQL reads off both exports.
TEST(WhatIfTruth, CompareSetsTheFixedRunBesideThePrediction) {
    const skewgen::GenConfig cfg = skewgen::causalConfig();
    const Pair p = makePair("both", cfg);
    const StepTimes captured = stepTimesBySql(p.delayed, cfg);
    RunResult r = runSkewscope({"compare", p.delayed.path, "--vs", p.undelayed.path, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    ASSERT_TRUE(v.has("what_if_check")) << "no what_if_check in the comparison";
    const testjson::Value& c = v["what_if_check"];
    ASSERT_FALSE(c.has("why"));
    EXPECT_NEAR(double(c["captured_median_a_ns"].i64()), double(medianOf(captured)), 1000);
    EXPECT_NEAR(double(c["measured_median_b_ns"].i64()), double(medianOf(p.truth)), 1000);
    // the what-if predicts the undelayed run within 2% or 1 ms (issue 22's bar), and the error is
    // the difference of the two medians
    const double predicted = double(c["predicted_median_ns"].i64()), measured = double(c["measured_median_b_ns"].i64());
    EXPECT_LE(std::abs(predicted - measured), std::max(0.02 * measured, 1e6));
    EXPECT_NEAR(c["error_percent"].num, (predicted - measured) / measured * 100.0, 1e-4);
    // the text says it in a line of its own
    RunResult t = runSkewscope({"compare", p.delayed.path, "--vs", p.undelayed.path});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("What-if check: A's what-if predicted a median step of "), std::string::npos) << t.out;
    // a capture without steps says why there is no check
    RunResult none = runSkewscope({"compare", p.delayed.path, "--vs", realDataDir() + "/nsysai-h100_2gpu_1s.sqlite", "--format", "json"});
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_EQ(testjson::parse(none.out)["what_if_check"]["why"].str, "B has no training steps to measure");
}
