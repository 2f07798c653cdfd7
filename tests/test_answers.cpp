// The answers and the capture advice on generated runs, against the generator's truth: big events
// at fixed positions of the step with rotating late ranks, a slow rank (persistent), a rank that
// is often last by some tens of microseconds (often_last_small), steps from NVTX and inferred; one
// export per advice rule lacking that evidence; the real 2xH100 capture says it has no steps.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "advice_texts.h"
#include "analysis/analysis.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "report/analysis_report.h"
#include "report/answers_report.h"
#include "report/format.h"
#include "report/verdict_line.h"
#include "truth_answers.h"

using namespace testutil;
using skew::Analysis;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

namespace {

constexpr int64_t kMs = 1'000'000;

const skew::Group& fsdp(const Analysis& a) {
    for (const auto& g : a.groups)
        if (g.ops.count("AllGather")) return g;
    ADD_FAILURE() << "no AllGather group";
    return a.groups.at(0);
}

bool hasAdvice(const Analysis& a, const std::string& id) {
    for (const auto& ad : a.advice)
        if (ad.id == id) return true;
    return false;
}

Analysis analyzed(const std::string& path) {
    skew::Profile p = skew::loadProfile({path});
    return skew::analyze(p);
}

// "a, b and c"
std::string joinAnd(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
    return s;
}

TEST(AnswersRun, BigEventsAtFixedPositionsWithRotatingRanks) {
    for (bool nvtx : {true, false}) {
        SCOPED_TRACE(nvtx ? "NVTX steps" : "inferred steps");
        auto cfg = fixedPositionsConfig();
        cfg.nvtxSteps = nvtx;
        const auto& gen = generated(nvtx ? "fixed-positions" : "fixed-positions-inferred", cfg);
        skew::Profile p = skew::loadProfile({gen.path});
        Analysis a = skew::analyze(p);
        const auto& g = fsdp(a);
        EXPECT_EQ(g.stepsSource, nvtx ? skew::StepSource::Nvtx : skew::StepSource::Inferred);
        const skew::Answers& ans = g.answers;
        const TruthAnswers truth = truthAnswers(gen, 0, 8, a.options.bigSkewNs, nvtx);
        ASSERT_EQ(truth.bigIndices.size(), 10u);  // the planted ones, all over the threshold
        ASSERT_EQ(ans.big.size(), 10u);
        EXPECT_EQ(ans.bigLateRanks, truth.bigLateRanks);
        std::vector<int> spec = truth::specIds(gen.result);
        ASSERT_EQ(truth.positions.size(), 2u);
        ASSERT_EQ(ans.positions.size(), 2u);
        for (size_t i = 0; i < 2; ++i) {
            const int position = i == 0 ? 13 : 20;
            const skew::BigPosition& bp = ans.positions[i];
            EXPECT_EQ(bp.position, uint32_t(position));
            EXPECT_EQ(truth.positions[i].position, uint32_t(position));
            EXPECT_THAT(bp.steps, ElementsAreArray({1u, 2u, 3u, 4u, 5u}));
            std::vector<int> expectRanks;
            for (const auto& pl : cfg.late)
                if (pl.positionInStep == position) expectRanks.push_back(spec[size_t(pl.rank)]);
            EXPECT_EQ(bp.lateRanks, expectRanks);
            // the median offset from the members' starts and the step ranges' starts (or the step's first collective)
            EXPECT_EQ(bp.offsetMedianNs, truth.positions[i].offsetMedianNs);
        }
        EXPECT_TRUE(ans.bigRotate);
        EXPECT_EQ(ans.bigCauses[size_t(skew::Cause::GpuDependency)], 10u);
        // GPU-caused: started after the stretched GEMM, long after the launch (from the members' launch ends)
        ASSERT_TRUE(truth.hasGap);
        ASSERT_TRUE(ans.hasGpuGap);
        EXPECT_EQ(ans.gpuGapMinNs, truth.gapMinNs);
        EXPECT_EQ(ans.gpuGapMaxNs, truth.gapMaxNs);
        // the predecessors: the planted GEMMs (names and stream from the generator), counted
        std::vector<std::tuple<std::string, int, uint32_t>> preds, expectPreds;
        for (const auto& pc : ans.predecessors) {
            preds.emplace_back(p.strings.str(pc.name), pc.stream, pc.count);
            EXPECT_TRUE(pc.gemm);
            EXPECT_EQ(pc.sameStream, 0u);  // stream 7, the NCCL kernels' is 56
        }
        for (const auto& tp : truth.predecessors) expectPreds.emplace_back(tp.name, tp.stream, tp.count);
        EXPECT_EQ(preds, expectPreds);
        // the rest: no slow rank, no rank last significantly often
        EXPECT_EQ(ans.verdict, skew::WhoVerdict::Rotating);
        EXPECT_NEAR(ans.chi2, truth.chi2, 1e-9);
        EXPECT_TRUE(hasAdvice(a, "ab_test"));
        std::string text = skew::analysisText(p, a);
        EXPECT_THAT(text, HasSubstr("Big events sit at recurring positions of the step: position 13 in steps 1, 2, 3, 4, 5"));
        EXPECT_THAT(text, HasSubstr("They rotate: 8 ranks among 10 big events"));
        // question 3 in words: counts with their unit, the stream said, the rest as the late arrivers' lateness
        std::vector<std::string> items;
        uint32_t shown = 0;
        for (size_t j = 0; j < truth.predecessors.size() && j < 3; ++j) {
            const auto& tp = truth.predecessors[j];
            items.push_back("GEMM " + skew::shortKernelName(tp.name) + " on stream 7 in " + std::to_string(tp.count) + " of them");
            shown += tp.count;
        }
        if (truth.predecessors.size() > 3)
            items.push_back(std::to_string(truth.predecessors.size() - 3) + " other kernel" + (truth.predecessors.size() == 4 ? "" : "s") +
                            " in " + std::to_string(10 - shown) + " of them");
        const std::string expectGpu =
            "CPU or GPU: of the 10 big collectives, CPU launch 0, GPU dependency 10, GPU other 0, Unknown 0. The 10 "
            "GPU dependency ones started " + skew::formatDuration(truth.gapMinNs) + " to " + skew::formatDuration(truth.gapMaxNs) +
            " after their launch call ended, behind " + joinAnd(items) +
            (items.size() == 1 ? " (" : " (all on ") + "another stream than the NCCL kernel's: a cross-stream dependency or contention).";
        const skew::AnswerSentences s = skew::answerSentences(p, a, g);
        EXPECT_THAT(s.cpuGpu, HasSubstr(expectGpu));
        const auto causes = [&](const char* c) { return truth.restCauses.count(c) ? truth.restCauses.at(c) : 0u; };
        const std::string expectRest =
            " The rest (" + std::to_string(truth.considered) + " collectives that are not big): CPU launch " +
            std::to_string(causes("cpu_launch")) + ", GPU dependency " + std::to_string(causes("gpu_dependency")) +
            ", GPU other 0, Unknown 0; the late arrivers' "
            "lateness: " + skew::formatDuration(truth.restCpuNs) + " from late CPU launches, " + skew::formatDuration(truth.restGpuNs) +
            " from the GPU (" + skew::formatShare(double(truth.restCpuNs) / double(truth.restCpuNs + truth.restGpuNs)) + " CPU).";
        EXPECT_EQ(s.cpuGpu, expectGpu + expectRest);
    }
}

// The ab_test advice says what the late ranks of the planted big events are: 10 events, dev 2 and
// dev 3 late twice each, 8 distinct ranks.
TEST(AnswersRun, AbTestEvidenceCountsTheLateRanks) {
    auto cfg = fixedPositionsConfig();
    const auto& gen = generated("fixed-positions", cfg);
    Analysis a = analyzed(gen.path);
    std::map<int, int> perRank;  // spec id -> big events it was late in
    std::vector<int> spec = truth::specIds(gen.result);
    for (const auto& pl : cfg.late) ++perRank[spec[size_t(pl.rank)]];
    int most = 0;
    for (auto [r, n] : perRank) most = std::max(most, n);
    std::vector<std::string> mostLabels;
    for (auto [r, n] : perRank)
        if (n == most) mostLabels.push_back(gen.result.rankLabels[size_t(gen.result.specOrder[size_t(r)])]);
    ASSERT_EQ(most, 2);
    std::string labels;
    for (const auto& l : mostLabels) labels += (labels.empty() ? "" : ", ") + l;
    EXPECT_EQ(labels, "dev 2, dev 3");
    const std::string expected = "group 0: " + std::to_string(cfg.late.size()) + " big events, " + std::to_string(cfg.late.size()) +
                                 " of them gpu_dependency; late ranks: " + std::to_string(perRank.size()) + " distinct among the " +
                                 std::to_string(cfg.late.size()) + ", none late in more than half (at most 2 times: " + labels + ")";
    const skew::CaptureAdvice* ab = nullptr;
    for (const auto& ad : a.advice)
        if (ad.id == "ab_test") ab = &ad;
    ASSERT_TRUE(ab);
    EXPECT_EQ(ab->evidence, expected);
}

TEST(AnswersRun, SlowRankIsPersistent) {
    auto cfg = fixedPositionsConfig();
    cfg.late.clear();
    cfg.slow = {3, 1 * kMs, 2 * kMs, 90};
    const auto& gen = generated("slow-rank", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const skew::Answers& ans = fsdp(a).answers;
    const int rank = truth::specIds(gen.result)[3];
    const TruthAnswers truth = truthAnswers(gen, 0, 8, a.options.bigSkewNs, cfg.nvtxSteps);
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);
    EXPECT_EQ(ans.topRank, rank);
    EXPECT_EQ(ans.topLastCount, truth.last[size_t(rank)]);
    EXPECT_GE(ans.topLastCount * 10, ans.considered * 8);
    EXPECT_NEAR(ans.chi2, truth.chi2, 1e-9);
    EXPECT_NEAR(ans.chi2P, truth.chi2P, 1e-12);
    EXPECT_EQ(ans.meanExclBigMaxRank, rank);
    EXPECT_GT(ans.meanExclBigMaxNs, 1 * kMs);
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("persistent. dev 3 was last in"));
    // 8 ranks, over 100 collectives, p far under 0.001: the verdict needs no caveat
    EXPECT_FALSE(ans.verdictEvidence.thin());
    EXPECT_THAT(skew::answerSentences(p, a, fsdp(a)).same, ::testing::StartsWith("Same rank or rotating: persistent. dev 3 was last in"));
}

TEST(AnswersRun, RankOftenLastByTensOfMicroseconds) {
    auto cfg = fixedPositionsConfig();
    cfg.late.clear();
    cfg.slow = {5, 60'000, 90'000, 100};  // against a start jitter of 0-300 us on every rank
    const auto& gen = generated("often-last", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const skew::Answers& ans = fsdp(a).answers;
    const int rank = truth::specIds(gen.result)[5];
    const TruthAnswers truth = truthAnswers(gen, 0, 8, a.options.bigSkewNs, cfg.nvtxSteps);
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::OftenLastSmall);
    EXPECT_EQ(ans.topRank, rank);
    EXPECT_EQ(ans.topLastCount, truth.last[size_t(rank)]);
    EXPECT_NEAR(ans.chi2P, truth.chi2P, 1e-12);
    EXPECT_LT(ans.chi2P, 0.001);
    EXPECT_LT(ans.meanExclBigMaxNs, 2 * ans.othersMedianExclBigNs);
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("often last, by little. dev 5 was last in"));
}

TEST(AnswersRun, RealCaptureHasNoStepsAndSaysSo) {
    skew::Profile p = skew::loadProfile({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].stepsSource, skew::StepSource::None);
    EXPECT_THAT(a.groups[0].answers.caveats, Contains(HasSubstr("no steps")));
    EXPECT_TRUE(hasAdvice(a, "no_nvtx_steps"));
    EXPECT_THAT(skew::analysisMarkdown(p, a), HasSubstr("Thin evidence: no steps (no NVTX step ranges, no repeating op sequence)"));
}

// ---- thin evidence -------------------------------------------------------------------------------

// The demo's file lacks device 0 (its devices are 1..7 of a node whose highest is 7); a run whose
// dev 2 lacks one collective has one partial collective, left out.
TEST(AnswersRun, MissingRanksAndPartialCollectivesAreSaid) {
    const auto demoCfg = skewgen::demoConfig();
    const auto& demo = generated("demo", demoCfg);
    skew::Profile p = skew::loadProfile({demo.path});
    Analysis a = skew::analyze(p);
    std::set<int> devices(demoCfg.devices.begin(), demoCfg.devices.end());
    std::string missing;
    for (int d = 0; d <= *devices.rbegin(); ++d)
        if (!devices.count(d)) missing += (missing.empty() ? "" : ", ") + std::to_string(d);
    ASSERT_EQ(missing, "0");
    const std::string caveat = "ranks may be missing: no kernels on device(s) " + missing + " of the node's " +
                               std::to_string(*devices.rbegin() + 1) + " (not captured, or idle): collectives there lack those ranks";
    ASSERT_EQ(a.groups.size(), 2u);
    EXPECT_THAT(a.groups[0].answers.caveats, ElementsAreArray({caveat}));
    EXPECT_THAT(a.groups[1].answers.caveats, Contains(caveat));  // the AllReduce group: 5 collectives too
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("Thin evidence: " + caveat + "."));

    auto cfg = fixedPositionsConfig();
    cfg.late.clear();
    cfg.missing = {{2, 30}};
    const auto& gen = generated("one-missing", cfg);
    size_t partial = 0;
    for (const auto& tc : gen.result.collectives) partial += tc.group == 0 && tc.members.size() < 8;
    ASSERT_EQ(partial, 1u);
    skew::Profile q = skew::loadProfile({gen.path});
    Analysis b = skew::analyze(q);
    EXPECT_THAT(fsdp(b).answers.caveats, ElementsAreArray({"1 collective lacks a rank and is left out"}));
    EXPECT_THAT(skew::answerSentences(q, b, fsdp(b)).caveats, ::testing::StrEq("Thin evidence: 1 collective lacks a rank and is left out."));
}

// groups[0].answers.who.thin_evidence of the JSON report
std::vector<std::string> thinEvidence(const skew::Profile& p, const Analysis& a) {
    std::vector<std::string> out;
    const testjson::Value report = testjson::parse(skew::analysisJson(p, a));  // kept: the loop reads into it
    for (const auto& x : report["groups"][0]["answers"]["who"]["thin_evidence"].arr) out.push_back(x.str);
    return out;
}

// A persistent verdict over few collectives keeps its name and says on how much it rests: one step
// of 6 FSDP collectives, 4 ranks, dev 1 late by 1-2 ms in all of them.
TEST(AnswersRun, PersistentOnFewCollectivesSaysItsEvidenceIsThin) {
    skewgen::GenConfig cfg;
    cfg.ranks = 4;
    cfg.steps = 1;
    cfg.layers = 2;
    cfg.allReduce = false;
    cfg.seed = 5;
    cfg.slow = {1, 1 * kMs, 2 * kMs, 100};
    const auto& gen = generated("slow-rank-small", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const TruthAnswers truth = truthAnswers(gen, 0, 4, a.options.bigSkewNs, true);
    ASSERT_EQ(truth.verdict, "persistent");
    ASSERT_EQ(truth.considered, 6u);
    ASSERT_LT(truth.chi2P, 0.001);  // last counts {0, 6, 0, 0}: chi2 18, 3 dof
    const skew::Answers& ans = a.groups[0].answers;
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);
    EXPECT_TRUE(ans.verdictEvidence.fewCollectives);
    EXPECT_FALSE(ans.verdictEvidence.twoRanks);
    EXPECT_FALSE(ans.verdictEvidence.notSignificant);
    const std::string label = gen.result.rankLabels[size_t(gen.result.specOrder[size_t(truth.topRank)])];
    EXPECT_THAT(skew::answerSentences(p, a, a.groups[0]).same,
                ::testing::StartsWith("Same rank or rotating: persistent (thin evidence: only 6 collectives). " + label +
                                      " was last in " + std::to_string(truth.last[size_t(truth.topRank)]) + " of 6"));
    EXPECT_THAT(thinEvidence(p, a), ElementsAre("few_collectives"));
}

// Rows of an SQL query on `path` as text, one vector per row.
std::vector<std::vector<std::string>> sqlRows(const std::string& path, const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        rows.emplace_back();
        for (int c = 0; c < sqlite3_column_count(st); ++c) {
            const unsigned char* t = sqlite3_column_text(st, c);
            rows.back().push_back(t ? reinterpret_cast<const char*>(t) : "");
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

// The real 2xH100 capture (two ranks, 33 SendRecv collectives, no big event): its k-th NCCL kernels
// per device paired in SQL give the last counts (11 and 22: p = 0.0555) and the causes of the late
// arrivers (launch row of the same process and correlation id, CPU share, a kernel ending in
// [start - 100 us, start + 2 us] on the device). The persistent verdict says it rests on 2 ranks and
// on last counts that are not significant; question 3 gives the cause counts of all collectives.
TEST(AnswersRun, RealCaptureVerdictOnTwoRanksAndItsCauses) {
    const std::string path = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    const std::string pairs =
        "WITH n AS (SELECT k.*, ROW_NUMBER() OVER (PARTITION BY k.deviceId ORDER BY k.start) AS i FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN StringIds s ON s.id = k.demangledName WHERE s.value LIKE 'ncclDevKernel%'), "
        "c AS (SELECT i, min(start) AS lo, max(start) AS hi, count(*) AS members FROM n GROUP BY i), "
        "l AS (SELECT n.*, c.lo, c.hi - c.lo AS lateness FROM n JOIN c USING (i) WHERE n.start = c.hi AND n.deviceId = "
        "(SELECT min(deviceId) FROM n AS m WHERE m.i = n.i AND m.start = c.hi)) ";
    auto lastCounts = sqlRows(path, pairs + "SELECT deviceId, count(*) FROM l GROUP BY deviceId ORDER BY deviceId");
    ASSERT_EQ(lastCounts.size(), 2u);
    const int last0 = std::stoi(lastCounts[0][1]), last1 = std::stoi(lastCounts[1][1]);
    EXPECT_EQ(last0 + last1, 33);
    const double expected = 33.0 / 2, x = 2 * (last1 - expected) * (last1 - expected) / expected;
    const double pValue = chi2TailClosedForm(x, 1);
    EXPECT_NEAR(pValue, 0.0555, 5e-5);
    auto causes = sqlRows(path, pairs +
        ", w AS (SELECT l.*, (SELECT max(r.end) FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = l.correlationId AND "
        "((r.globalTid >> 24) & 16777215) = ((l.globalPid >> 24) & 16777215) AND r.eventClass IN (0, 1)) AS apiEnd, "
        "(SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL p WHERE p.deviceId = l.deviceId AND NOT (p.start = l.start AND "
        "p.streamId = l.streamId) AND p.end BETWEEN l.start - 100000 AND l.start + 2000) AS preds FROM l), "
        "x AS (SELECT w.*, CASE WHEN apiEnd IS NULL THEN 0 ELSE max(0, min(lateness, apiEnd - lo)) END AS cpu FROM w) "
        "SELECT CASE WHEN apiEnd IS NULL THEN 'unknown' WHEN 2 * cpu >= lateness THEN 'cpu_launch' WHEN preds > 0 THEN "
        "'gpu_dependency' ELSE 'gpu_other' END, count(*), sum(cpu), sum(lateness - cpu) FROM x GROUP BY 1");
    std::map<std::string, std::string> count;
    int64_t cpuNs = 0, gpuNs = 0;
    for (const auto& row : causes) {
        count[row[0]] = row[1];
        cpuNs += std::stoll(row[2]);
        gpuNs += std::stoll(row[3]);
    }
    EXPECT_EQ(count["cpu_launch"], "3");
    EXPECT_EQ(count["gpu_dependency"], "29");
    EXPECT_EQ(count["unknown"], "1");

    skew::Profile p = skew::loadProfile({path});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const skew::Answers& ans = a.groups[0].answers;
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);
    EXPECT_EQ(ans.topLastCount, uint32_t(std::max(last0, last1)));
    EXPECT_NEAR(ans.chi2P, pValue, 1e-12);
    EXPECT_FALSE(ans.verdictEvidence.fewCollectives);  // 33 collectives
    EXPECT_TRUE(ans.verdictEvidence.twoRanks);
    EXPECT_TRUE(ans.verdictEvidence.notSignificant);
    const skew::AnswerSentences s = skew::answerSentences(p, a, a.groups[0]);
    EXPECT_THAT(s.same, ::testing::StartsWith("Same rank or rotating: persistent (thin evidence: 2 ranks, so one of them is always "
                                              "last in at least half; the chi-square test below does not find the last counts "
                                              "significantly uneven (that takes p < 0.001)). dev 1 was last in 22 of 33 collectives that are not big (66.7%; chi-square "
                                              "against uniform last counts over 2 ranks: p = 0.0555)"));
    auto c = [&](const char* k) { return count.count(k) ? count[k] : std::string("0"); };
    EXPECT_EQ(s.cpuGpu, "CPU or GPU: no big collective; over all 33 complete collectives: CPU launch " + c("cpu_launch") +
                            ", GPU dependency " + c("gpu_dependency") + ", GPU other " + c("gpu_other") + ", Unknown " + c("unknown") +
                            "; the late arrivers' lateness: " + skew::formatDuration(cpuNs) + " from late CPU launches, " +
                            skew::formatDuration(gpuNs) + " from the GPU (" + skew::formatShare(double(cpuNs) / double(cpuNs + gpuNs)) +
                            " CPU).");
    EXPECT_THAT(thinEvidence(p, a), ElementsAre("two_ranks", "not_significant"));
    // the headline says the evidence is thin too
    EXPECT_THAT(skew::verdictLine(p, a, a.groups[0]), HasSubstr("dev 1 persistently last (a slow rank; thin evidence)"));
}

// ---- capture advice ----------------------------------------------------------------------------

std::string modifiedDemo(const std::string& name, const std::string& sql) {
    const auto& demo = generated("demo", skewgen::demoConfig());
    std::string path = generatedDir() + "/" + name + ".sqlite";
    std::filesystem::copy_file(demo.path, path, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
    return path;
}


TEST(CaptureAdvice, TheDemoLacksADeviceAndMore) {
    Analysis a = analyzed(generated("demo", skewgen::demoConfig()).path);
    std::map<std::string, const skew::CaptureAdvice*> byId;
    for (const auto& ad : a.advice) byId[ad.id] = &ad;
    ASSERT_TRUE(byId.count("missing_devices"));
    EXPECT_THAT(byId["missing_devices"]->evidence, HasSubstr("no kernels on device(s) 0 of the node's 8"));
    EXPECT_THAT(byId["missing_devices"]->advice, HasSubstr("%q{RANK}"));
    EXPECT_TRUE(byId.count("nccl_config_unknown"));
    EXPECT_THAT(byId["nccl_config_unknown"]->advice, HasSubstr("NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,COLL"));
    EXPECT_THAT(byId["nccl_config_unknown"]->advice, HasSubstr("TORCH_NCCL_TRACE_BUFFER_SIZE"));
    ASSERT_TRUE(byId.count("no_gpu_metrics"));
    // the rename's release was not found: both spellings, for every export
    EXPECT_EQ(byId["no_gpu_metrics"]->advice, advice::kMetrics);
    // the demo is written as Nsight Systems 2026.2.1.210, after --cuda-trace-scope came (2025.6)
    EXPECT_EQ(byId["missing_devices"]->advice, advice::kDevices + " and --cuda-trace-scope" + advice::spelledFor("2026.2.1.210"));
    ASSERT_TRUE(byId.count("no_cpu_sampling"));  // three big events are cpu_launch
    EXPECT_THAT(byId["no_cpu_sampling"]->evidence, HasSubstr("3 late arrivers launched late by the CPU"));
    // what the demo has: NVTX steps, launch rows, stream waits; big events mostly CPU-caused
    EXPECT_FALSE(byId.count("no_nvtx_steps"));
    EXPECT_FALSE(byId.count("no_launch_rows"));
    EXPECT_FALSE(byId.count("no_stream_waits"));
    EXPECT_FALSE(byId.count("ab_test"));
}

// The same run written in the 2024.5 layout (EXPORT_PRODUCT_VERSION 2024.5.1.113) gets the spellings
// of that release (no --cuda-trace-scope, new in 2025.6); opened together with the 2026.2 one, both
// spellings with their releases.
TEST(CaptureAdvice, OptionsFollowTheGeneratedExportsVersion) {
    auto cfg = skewgen::demoConfig();
    cfg.layout = skewgen::Layout::V2024_5;
    const auto& old = generated("demo-2024.5", cfg);
    skew::Profile p = skew::loadProfile({old.path});
    ASSERT_EQ(p.inputs[0].nsysVersion, "2024.5.1.113");
    Analysis a = skew::analyze(p);
    std::map<std::string, std::string> byId;
    for (const auto& ad : a.advice) byId[ad.id] = ad.advice;
    const std::string v = advice::spelledFor("2024.5.1.113");
    EXPECT_EQ(byId["no_cpu_sampling"], advice::kSampling + "--sample=process-tree" + advice::kSamplingRest + v);
    EXPECT_EQ(byId["missing_devices"], advice::kDevices + v);

    skew::Profile both = skew::loadProfile({old.path, generated("demo", skewgen::demoConfig()).path});
    Analysis mixed = skew::analyze(both);
    byId.clear();
    for (const auto& ad : mixed.advice) byId[ad.id] = ad.advice;
    EXPECT_EQ(byId["missing_devices"], advice::kDevices + advice::kTraceScopeBoth);
    EXPECT_EQ(byId["no_cpu_sampling"], advice::kSampling + advice::kSampleBoth + advice::kSamplingRest + ".");
}

TEST(CaptureAdvice, EachRuleFiresWhenItsEvidenceIsMissing) {
    auto cfg = skewgen::demoConfig();
    cfg.nvtxSteps = false;
    EXPECT_TRUE(hasAdvice(analyzed(generated("demo-nonvtx", cfg).path), "no_nvtx_steps"));
    Analysis noRuntime = analyzed(modifiedDemo("no-runtime", "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME"));
    ASSERT_TRUE(hasAdvice(noRuntime, "no_launch_rows"));
    Analysis noSync = analyzed(modifiedDemo("no-sync", "DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
    EXPECT_TRUE(hasAdvice(noSync, "no_stream_waits"));
    // with the evidence present, the rule stays quiet
    Analysis metrics = analyzed(modifiedDemo("gpu-metrics", "CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER, "
                                                            "metricId INTEGER, value INTEGER); INSERT INTO GPU_METRICS VALUES (1, 0, 0, 5);"));
    EXPECT_FALSE(hasAdvice(metrics, "no_gpu_metrics"));
    Analysis sampled = analyzed(modifiedDemo("cpu-samples", "CREATE TABLE COMPOSITE_EVENTS (id INTEGER, start INTEGER); INSERT INTO "
                                                            "COMPOSITE_EVENTS VALUES (1, 2); CREATE TABLE SCHED_EVENTS (start INTEGER); "
                                                            "INSERT INTO SCHED_EVENTS VALUES (3);"));
    EXPECT_FALSE(hasAdvice(sampled, "no_cpu_sampling"));
    Analysis rotating = analyzed(generated("fixed-positions", fixedPositionsConfig()).path);
    EXPECT_TRUE(hasAdvice(rotating, "ab_test"));
    // every advice carries its evidence and its remedy
    for (const auto& ad : noRuntime.advice) {
        EXPECT_FALSE(ad.evidence.empty()) << ad.id;
        EXPECT_FALSE(ad.advice.empty()) << ad.id;
    }
}

}  // namespace
