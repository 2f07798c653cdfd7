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

#include "analysis/analysis.h"
#include "gen_fixture.h"
#include "model/loader.h"
#include "report/analysis_report.h"
#include "truth_answers.h"

using namespace testutil;
using skew::Analysis;
using ::testing::Contains;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

namespace {

constexpr int64_t kMs = 1'000'000;

skewgen::GenConfig fixedPositions() { return fixedPositionsConfig(); }

std::vector<int> specIndexOf(const skewgen::GenResult& r) {
    std::vector<int> idx(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) idx[size_t(r.specOrder[i])] = int(i);
    return idx;
}

// The truth's last counts (spec rank order) over complete FSDP collectives that are not big.
std::vector<uint32_t> truthLastCounts(const skewgen::GenResult& r, int ranks, int64_t bigNs) {
    std::vector<int> spec = specIndexOf(r);
    std::vector<uint32_t> last(size_t(ranks), 0);
    for (const auto& tc : r.collectives) {
        if (tc.group != 0 || int(tc.members.size()) != ranks) continue;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        int late = -1;
        for (const auto& m : tc.members) lo = std::min(lo, m.startNs);
        for (const auto& m : tc.members)
            if (m.startNs > hi || (m.startNs == hi && spec[size_t(m.rank)] < late)) hi = m.startNs, late = spec[size_t(m.rank)];
        if (hi - lo > bigNs) continue;
        ++last[size_t(late)];
    }
    return last;
}

double chi2(const std::vector<uint32_t>& last) {
    double n = 0;
    for (auto x : last) n += x;
    double e = n / double(last.size()), sum = 0;
    for (auto x : last) sum += (double(x) - e) * (double(x) - e) / e;
    return sum;
}

// chi-square upper tail for an odd number of degrees of freedom, from its closed form
double chi2TailOdd(double x, int dof) {
    double sum = 0, term = std::sqrt(x);
    for (int r = 1; r <= (dof - 1) / 2; ++r) {
        sum += term;
        term *= x / (2 * r + 1);
    }
    return std::erfc(std::sqrt(x / 2)) + 2 * std::exp(-x / 2) / std::sqrt(2 * M_PI) * sum;
}

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

TEST(AnswersRun, BigEventsAtFixedPositionsWithRotatingRanks) {
    for (bool nvtx : {true, false}) {
        SCOPED_TRACE(nvtx ? "NVTX steps" : "inferred steps");
        auto cfg = fixedPositions();
        cfg.nvtxSteps = nvtx;
        const auto& gen = generated(nvtx ? "fixed-positions" : "fixed-positions-inferred", cfg);
        skew::Profile p = skew::loadProfile({gen.path});
        Analysis a = skew::analyze(p);
        const auto& g = fsdp(a);
        EXPECT_EQ(g.stepsSource, nvtx ? "nvtx" : "inferred");
        const skew::Answers& ans = g.answers;
        const TruthAnswers truth = truthAnswers(gen, 0, 8, a.options.bigSkewNs, nvtx);
        ASSERT_EQ(truth.bigIndices.size(), 10u);  // the planted ones, all over the threshold
        ASSERT_EQ(ans.big.size(), 10u);
        EXPECT_EQ(ans.bigLateRanks, truth.bigLateRanks);
        std::vector<int> spec = specIndexOf(gen.result);
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
        }
        for (const auto& tp : truth.predecessors) expectPreds.emplace_back(tp.name, tp.stream, tp.count);
        EXPECT_EQ(preds, expectPreds);
        // the rest: no slow rank, no rank last significantly often
        EXPECT_EQ(ans.verdict, skew::WhoVerdict::Rotating);
        std::vector<uint32_t> last = truthLastCounts(gen.result, 8, a.options.bigSkewNs);
        EXPECT_NEAR(ans.chi2, chi2(last), 1e-9);
        EXPECT_TRUE(hasAdvice(a, "ab_test"));
        std::string text = skew::analysisText(p, a);
        EXPECT_THAT(text, HasSubstr("Big events sit at recurring positions of the step: position 13 in steps 1, 2, 3, 4, 5"));
        EXPECT_THAT(text, HasSubstr("They rotate: 8 ranks among 10 big events"));
    }
}

TEST(AnswersRun, SlowRankIsPersistent) {
    auto cfg = fixedPositions();
    cfg.late.clear();
    cfg.slow = {3, 1 * kMs, 2 * kMs, 90};
    const auto& gen = generated("slow-rank", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const skew::Answers& ans = fsdp(a).answers;
    const int rank = specIndexOf(gen.result)[3];
    std::vector<uint32_t> last = truthLastCounts(gen.result, 8, a.options.bigSkewNs);
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);
    EXPECT_EQ(ans.topRank, rank);
    EXPECT_EQ(ans.topLastCount, last[size_t(rank)]);
    EXPECT_GE(ans.topLastCount * 10, ans.considered * 8);
    EXPECT_NEAR(ans.chi2, chi2(last), 1e-9);
    EXPECT_NEAR(ans.chi2P, chi2TailOdd(chi2(last), 7), 1e-12);
    EXPECT_EQ(ans.meanExclBigMaxRank, rank);
    EXPECT_GT(ans.meanExclBigMaxNs, 1 * kMs);
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("persistent. dev 3 was last in"));
}

TEST(AnswersRun, RankOftenLastByTensOfMicroseconds) {
    auto cfg = fixedPositions();
    cfg.late.clear();
    cfg.slow = {5, 60'000, 90'000, 100};  // against a start jitter of 0-300 us on every rank
    const auto& gen = generated("often-last", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const skew::Answers& ans = fsdp(a).answers;
    const int rank = specIndexOf(gen.result)[5];
    std::vector<uint32_t> last = truthLastCounts(gen.result, 8, a.options.bigSkewNs);
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::OftenLastSmall);
    EXPECT_EQ(ans.topRank, rank);
    EXPECT_EQ(ans.topLastCount, last[size_t(rank)]);
    EXPECT_NEAR(ans.chi2P, chi2TailOdd(chi2(last), 7), 1e-12);
    EXPECT_LT(ans.chi2P, 0.001);
    EXPECT_LT(ans.meanExclBigMaxNs, 2 * ans.othersMedianExclBigNs);
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("often last, by little. dev 5 was last in"));
}

TEST(AnswersRun, RealCaptureHasNoStepsAndSaysSo) {
    skew::Profile p = skew::loadProfile({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].stepsSource, "none");
    EXPECT_THAT(a.groups[0].answers.caveats, Contains(HasSubstr("no steps")));
    EXPECT_TRUE(hasAdvice(a, "no_nvtx_steps"));
    EXPECT_THAT(skew::analysisMarkdown(p, a), HasSubstr("Thin evidence: no steps (no NVTX step ranges, no repeating op sequence)"));
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

const std::string kDevicesAdvice =
    "Capture every GPU of the node: run nsys over the launcher of all ranks (nsys profile ... torchrun ...), or one nsys "
    "per rank with per-rank names (-o rank_%q{RANK}), and open every file together; check CUDA_VISIBLE_DEVICES";
const std::string kSpelled2026 = " (options spelled for Nsight Systems 2026.2.1.210, the export's version).";

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
    EXPECT_EQ(byId["no_gpu_metrics"]->advice,
              "Sample GPU metrics on one rank per node: --gpu-metrics-devices=all (earlier releases spell it "
              "--gpu-metrics-device=all; nsys profile --help shows which yours takes), with --gpu-metrics-frequency for "
              "the rate.");
    // the demo is written as Nsight Systems 2026.2.1.210, after --cuda-trace-scope came (2025.6)
    EXPECT_EQ(byId["missing_devices"]->advice, kDevicesAdvice + " and --cuda-trace-scope" + kSpelled2026);
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
    const std::string sampling = "Record what the launching thread was doing: ";
    const std::string samplingRest = " --cpuctxsw=process-tree, with --backtrace=dwarf for native call stacks";
    auto cfg = skewgen::demoConfig();
    cfg.layout = skewgen::Layout::V2024_5;
    const auto& old = generated("demo-2024.5", cfg);
    skew::Profile p = skew::loadProfile({old.path});
    ASSERT_EQ(p.inputs[0].nsysVersion, "2024.5.1.113");
    Analysis a = skew::analyze(p);
    std::map<std::string, std::string> byId;
    for (const auto& ad : a.advice) byId[ad.id] = ad.advice;
    const std::string v = " (options spelled for Nsight Systems 2024.5.1.113, the export's version).";
    EXPECT_EQ(byId["no_cpu_sampling"], sampling + "--sample=process-tree" + samplingRest + v);
    EXPECT_EQ(byId["missing_devices"], kDevicesAdvice + v);

    skew::Profile both = skew::loadProfile({old.path, generated("demo", skewgen::demoConfig()).path});
    Analysis mixed = skew::analyze(both);
    byId.clear();
    for (const auto& ad : mixed.advice) byId[ad.id] = ad.advice;
    EXPECT_EQ(byId["missing_devices"], kDevicesAdvice + " and --cuda-trace-scope (Nsight Systems 2025.6 and later).");
    EXPECT_EQ(byId["no_cpu_sampling"],
              sampling + "--sample=process-tree (Nsight Systems 2022.1 and later; --sample=cpu in 2021.4 and earlier)" +
                  samplingRest + ".");
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
    Analysis rotating = analyzed(generated("fixed-positions", fixedPositions()).path);
    EXPECT_TRUE(hasAdvice(rotating, "ab_test"));
    // every advice carries its evidence and its remedy
    for (const auto& ad : noRuntime.advice) {
        EXPECT_FALSE(ad.evidence.empty()) << ad.id;
        EXPECT_FALSE(ad.advice.empty()) << ad.id;
    }
}

}  // namespace
