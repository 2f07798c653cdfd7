// `skewscope analyze`: the JSON contract, the text/Markdown/CSV reports, and safe output writing.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "gen_fixture.h"
#include "json_value.h"

using namespace testutil;

namespace {

const Generated& demo() { return generated("demo", skewgen::demoConfig()); }

TEST(CliAnalyze, JsonContract) {
    RunResult r = runSkewscope({"analyze", demo().path, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto v = testjson::parse(r.out);
    for (const char* k : {"tool", "inputs", "window_ns", "ranks", "groups", "collectives", "anomalies", "warnings"})
        EXPECT_TRUE(v.has(k)) << k;
    ASSERT_EQ(v["ranks"].size(), 7u);
    EXPECT_EQ(v["ranks"][0]["label"].str, "dev 1");
    EXPECT_EQ(v["ranks"][0]["clock_offset_ns"].i64(), 0);
    const auto& g = v["groups"][0];
    for (const char* k : {"id", "streams", "collectives", "complete", "ops", "validation", "start_skew_ns", "end_skew_ns", "cost",
                          "per_rank", "steps"})
        EXPECT_TRUE(g.has(k)) << k;
    EXPECT_EQ(g["collectives"].i64(), 135);
    EXPECT_EQ(g["ops"]["AllGather"].i64(), 90);
    EXPECT_EQ(g["streams"]["dev 4"].i64(), 56);
    EXPECT_EQ(g["validation"]["status"].str, "ok");
    EXPECT_EQ(g["cost"]["big"]["threshold_ns"].i64(), 20'000'000);
    EXPECT_EQ(g["cost"]["big"]["count"].i64(), 5);
    EXPECT_EQ(g["steps"]["source"].str, "nvtx");
    EXPECT_EQ(g["per_rank"].size(), 7u);
    // the collectives: 135 + 5 AllReduce
    ASSERT_EQ(v["collectives"].size(), 140u);
    int big = 0;
    for (const auto& c : v["collectives"].arr) {
        for (const char* k : {"group", "index", "op", "complete", "members", "start_skew_ns", "end_skew_ns", "late_rank", "early_rank",
                              "excess_ns", "big", "launch", "lateness_ns", "lateness_cpu_ns", "lateness_gpu_ns", "predecessor", "cause",
                              "step", "offset_in_step_ns"})
            ASSERT_TRUE(c.has(k)) << k;
        EXPECT_EQ(c["members"].size(), 7u);
        if (!c["big"].b) continue;
        ++big;
        EXPECT_EQ(c["launch"]["api"].str, "cuLaunchKernelEx");
        // lateness, its CPU/GPU split and the launch-to-start gap from the generator's member times
        const skewgen::TruthCollective* tc = nullptr;
        for (const auto& x : demo().result.collectives)
            if (x.group == c["group"].i64() && x.index == c["index"].i64()) tc = &x;
        ASSERT_TRUE(tc);
        int64_t minStart = INT64_MAX;
        const skewgen::TruthMember* lateTruth = nullptr;
        for (const auto& m : tc->members) {
            minStart = std::min(minStart, m.startNs);
            if (!lateTruth || m.startNs > lateTruth->startNs) lateTruth = &m;
        }
        const int64_t lateness = lateTruth->startNs - minStart;
        EXPECT_EQ(c["lateness_ns"].i64(), lateness);
        EXPECT_EQ(c["lateness_cpu_ns"].i64(), std::clamp<int64_t>(lateTruth->launchEndNs - minStart, 0, lateness));
        EXPECT_EQ(c["lateness_gpu_ns"].i64(), lateness - std::clamp<int64_t>(lateTruth->launchEndNs - minStart, 0, lateness));
        EXPECT_EQ(c["launch"]["launch_to_start_ns"].i64(), lateTruth->startNs - lateTruth->launchEndNs);
        EXPECT_EQ(c["launch"]["end_ns"].i64(), lateTruth->launchEndNs);
        if (c["cause"].str == "gpu_dependency") {
            EXPECT_EQ(c["predecessor"]["stream"].i64(), 7);
            EXPECT_TRUE(c["predecessor"]["is_gemm"].b);
        } else {
            EXPECT_EQ(c["cause"].str, "cpu_launch");
            EXPECT_TRUE(c["predecessor"].isNull());
        }
    }
    EXPECT_EQ(big, 5);
    EXPECT_EQ(v["anomalies"]["events"].i64(), 5);
}

TEST(CliAnalyze, TextAndMarkdownReadAsFindings) {
    for (const char* format : {"text", "md"}) {
        RunResult r = runSkewscope({"analyze", demo().path, "--format", format});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        for (const char* s : {"Matching: ok", "Start skew: p50", "Start-skew cost", "not a step-time saving", "Big events", "cpu_launch",
                              "gpu_dependency", "Anomalies", "dev 7"})
            EXPECT_NE(r.out.find(s), std::string::npos) << format << ": " << s;
    }
    RunResult md = runSkewscope({"analyze", demo().path, "--format", "md"});
    EXPECT_EQ(md.out.rfind("# Skewscope findings", 0), 0u);
    EXPECT_NE(md.out.find("| rank | last | first |"), std::string::npos);
}

TEST(CliAnalyze, CsvOneRowPerCollectiveAndRank) {
    RunResult r = runSkewscope({"analyze", demo().path, "--format", "csv"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    size_t lines = size_t(std::count(r.out.begin(), r.out.end(), '\n'));
    EXPECT_EQ(lines, 1u + 140u * 7u);
    EXPECT_EQ(r.out.rfind("group,index,op,complete,step", 0), 0u);
}

TEST(CliAnalyze, OptionsChangeTheNumbers) {
    RunResult r = runSkewscope({"analyze", demo().path, "--format", "json", "--big-skew-ms", "40", "--anomaly-threshold", "100"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto v = testjson::parse(r.out);
    EXPECT_EQ(v["groups"][0]["cost"]["big"]["count"].i64(), 2);  // the 47 ms and 55 ms events
    EXPECT_EQ(v["anomalies"]["rows"].i64(), 0);
    RunResult s = runSkewscope({"analyze", demo().path, "--format", "json", "--step-regex", "^nomatch$"});
    auto w = testjson::parse(s.out);
    EXPECT_EQ(w["groups"][0]["steps"]["source"].str, "inferred");
    EXPECT_EQ(runSkewscope({"analyze", demo().path, "--step-regex", "("}).exitCode, 2);
}

TEST(CliAnalyze, OutputIsWrittenAtomicallyAndNeverReplacesDevices) {
    std::string dir = tempDir("out");
    std::string target = dir + "/report.json";
    {
        std::ofstream(target) << "old";
    }
    ::chmod(target.c_str(), 0640);
    RunResult r = runSkewscope({"analyze", demo().path, "--format", "json", "--output", target});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    std::string written = slurp(target);
    EXPECT_EQ(written.front(), '{');
    EXPECT_NO_THROW(testjson::parse(written));
    struct stat st {};
    ::stat(target.c_str(), &st);
    EXPECT_EQ(st.st_mode & 0777, 0640u);  // permissions of the replaced file are kept
    size_t entries = 0;
    for (auto& e : std::filesystem::directory_iterator(dir)) entries += e.is_regular_file();
    EXPECT_EQ(entries, 1u);  // no temp files left behind
    // a device is written into, not replaced
    EXPECT_EQ(runSkewscope({"analyze", demo().path, "--output", "/dev/null"}).exitCode, 0);
    struct stat dn {};
    ::stat("/dev/null", &dn);
    EXPECT_TRUE(S_ISCHR(dn.st_mode));
    // an output folder that does not exist: a clear error, exit 1
    RunResult bad = runSkewscope({"analyze", demo().path, "--output", dir + "/nope/report.txt"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("nope"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(CliAnalyze, ExportWithoutNcclKernels) {
    RunResult r = runSkewscope({"analyze", realDataDir() + "/nsysai-h100_2gpu_1s.sqlite"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("No NCCL kernels were matched"), std::string::npos);
    RunResult n = runSkewscope({"analyze", exportWithoutKernelTable(), "--format", "json"});
    EXPECT_EQ(n.exitCode, 0);
    auto v = testjson::parse(n.out);
    EXPECT_EQ(v["groups"].size(), 0u);
    EXPECT_GE(v["warnings"].size(), 1u);
}

}  // namespace
