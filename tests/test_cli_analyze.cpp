// `skewscope analyze`: the JSON contract, the text/Markdown/CSV reports, and safe output writing.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <fstream>
#include <clocale>
#include <regex>
#include <sys/stat.h>

#include "compare/compare.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "report/analysis_report.h"
#include "report/compare_report.h"
#include "report/info_report.h"
#include "truth_answers.h"

using namespace testutil;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

namespace {

const Generated& demo() { return generated("demo", skewgen::demoConfig()); }
constexpr int64_t kBigNs = 20'000'000;  // the default big threshold

std::vector<int64_t> ints(const testjson::Value& a) {
    std::vector<int64_t> v;
    for (const auto& x : a.arr) v.push_back(x.i64());
    return v;
}

template <typename T>
std::vector<int64_t> ints(const std::vector<T>& a) {
    return std::vector<int64_t>(a.begin(), a.end());
}

// groups[].answers of `analyze --format json` against the truth of that group: every key of the
// specification's answers object.
void expectAnswers(const testjson::Value& ans, const TruthAnswers& t) {
    EXPECT_EQ(ans["big"]["count"].i64(), int64_t(t.bigIndices.size()));
    EXPECT_EQ(ints(ans["big"]["late_ranks"]), ints(t.bigLateRanks));
    const auto& who = ans["who"];
    EXPECT_EQ(who["verdict"].str, t.verdict);
    if (t.verdict == "rotating") EXPECT_TRUE(who["rank"].isNull());
    else EXPECT_EQ(who["rank"].i64(), t.topRank);
    EXPECT_NEAR(who["last_share"].num, double(t.last[size_t(t.topRank)]) / t.considered, 1e-5);
    EXPECT_NEAR(who["chi2_p"].num, t.chi2P, 1e-5 * t.chi2P + 1e-300);
    EXPECT_EQ(who["mean_lateness_excl_big_ns"]["min"].i64(), t.meanMin());
    EXPECT_EQ(who["mean_lateness_excl_big_ns"]["max"].i64(), t.meanMax());
    ASSERT_EQ(ans["big_positions"].size(), t.positions.size());
    for (size_t i = 0; i < t.positions.size(); ++i) {
        const auto& bp = ans["big_positions"][i];
        EXPECT_EQ(bp["position"].i64(), t.positions[i].position);
        EXPECT_EQ(ints(bp["steps"]), ints(t.positions[i].steps));
        EXPECT_EQ(ints(bp["late_ranks"]), ints(t.positions[i].lateRanks));
        EXPECT_EQ(bp["offset_ns_median"].i64(), t.positions[i].offsetMedianNs);
    }
    EXPECT_EQ(ans["big_rotate"].b, t.bigRotate);
    const auto& big = ans["why"]["big"];
    const auto count = [](const std::map<std::string, uint32_t>& m, const char* k) { return int64_t(m.count(k) ? m.at(k) : 0); };
    for (const char* cause : {"cpu_launch", "gpu_dependency", "gpu_other", "unknown"}) {
        EXPECT_EQ(big[cause].i64(), count(t.bigCauses, cause)) << cause;
        EXPECT_EQ(ans["why"]["rest"][cause].i64(), count(t.restCauses, cause)) << cause;
    }
    if (t.hasGap) {
        EXPECT_EQ(big["gpu_launch_to_start_ns"]["min"].i64(), t.gapMinNs);
        EXPECT_EQ(big["gpu_launch_to_start_ns"]["max"].i64(), t.gapMaxNs);
    } else {
        EXPECT_TRUE(big["gpu_launch_to_start_ns"].isNull());
    }
    ASSERT_EQ(big["predecessors"].size(), t.predecessors.size());
    for (size_t i = 0; i < t.predecessors.size(); ++i) {
        EXPECT_EQ(big["predecessors"][i]["name"].str, t.predecessors[i].name);
        EXPECT_EQ(big["predecessors"][i]["stream"].i64(), t.predecessors[i].stream);
        EXPECT_EQ(big["predecessors"][i]["count"].i64(), t.predecessors[i].count);
    }
    EXPECT_EQ(ans["why"]["rest"]["cpu_ns"].i64(), t.restCpuNs);
    EXPECT_EQ(ans["why"]["rest"]["gpu_ns"].i64(), t.restGpuNs);
    EXPECT_EQ(ans["why"]["rest"]["count"].i64(), t.considered);
}

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

    // the answers of both groups (FSDP, AllReduce) from the generator's truth
    ASSERT_EQ(v["groups"].size(), 2u);
    const TruthAnswers fsdp = truthAnswers(demo(), 0, 7, kBigNs, true);
    std::vector<int> planted;  // the demo's planted late ranks, in step order (devices 1..7 are spec ids 0..6)
    for (const auto& pl : skewgen::demoConfig().late) planted.push_back(pl.rank);
    EXPECT_EQ(fsdp.bigLateRanks, planted);
    EXPECT_EQ(fsdp.bigCauses.at("cpu_launch"), 3u);
    EXPECT_EQ(fsdp.bigCauses.at("gpu_dependency"), 2u);
    EXPECT_TRUE(fsdp.positions.empty());  // planted at positions 5, 14, 9, 21, 3: none recurs
    for (int gi : {0, 1}) {
        SCOPED_TRACE("group " + std::to_string(gi));
        const auto& ans = v["groups"][size_t(gi)]["answers"];
        for (const char* k : {"big", "who", "big_positions", "big_rotate", "why"}) EXPECT_TRUE(ans.has(k)) << k;
        expectAnswers(ans, gi == 0 ? fsdp : truthAnswers(demo(), 1, 7, kBigNs, true));
    }
    // recurring positions (the demo has none): the run of big events at positions 13 and 20
    const auto& fixed = generated("fixed-positions", fixedPositionsConfig());
    RunResult f = runSkewscope({"analyze", fixed.path, "--format", "json"});
    ASSERT_EQ(f.exitCode, 0) << f.err;
    auto fv = testjson::parse(f.out);
    const TruthAnswers ft = truthAnswers(fixed, 0, 8, kBigNs, true);
    ASSERT_EQ(ft.positions.size(), 2u);
    expectAnswers(fv["groups"][0]["answers"], ft);

    // capture advice: what the demo lacks, each entry with its evidence and its advice
    ASSERT_TRUE(v.has("capture_advice"));
    std::vector<std::string> ids;
    std::map<std::string, const testjson::Value*> byId;
    for (const auto& ad : v["capture_advice"].arr) {
        for (const char* k : {"id", "evidence", "advice"}) EXPECT_TRUE(ad.has(k)) << k;
        EXPECT_FALSE(ad["advice"].str.empty()) << ad["id"].str;
        ids.push_back(ad["id"].str);
        byId[ad["id"].str] = &ad;
    }
    // late arrivers launched late by the CPU in the truth, over every complete collective of both groups
    uint32_t cpuLate = 0;
    for (int gi : {0, 1})
        for (const auto& c : truthAnswers(demo(), gi, 7, kBigNs, true).collectives) cpuLate += c.complete && c.cause == "cpu_launch";
    // device 0 lacks kernels; no GPU metrics nor CPU samples are generated; NVTX steps, launches and
    // stream waits are; no group's big events rotate while mostly GPU-caused
    EXPECT_THAT(ids, ElementsAre("missing_devices", "no_gpu_metrics", "no_cpu_sampling", "nccl_config_unknown"));
    EXPECT_EQ((*byId["missing_devices"])["evidence"].str,
              demo().path + ": no kernels on device(s) 0 of the node's 8 (not captured, or idle): collectives there lack those ranks");
    EXPECT_EQ((*byId["no_gpu_metrics"])["evidence"].str,
              "no GPU metrics (GPU_METRICS table): clocks, power and throttling of each GPU are unknown");
    EXPECT_EQ((*byId["no_cpu_sampling"])["evidence"].str,
              std::to_string(cpuLate) + " late arrivers launched late by the CPU (cpu_launch) and neither CPU samples nor context "
                                        "switches in the export");
    EXPECT_THAT((*byId["nccl_config_unknown"])["advice"].str, HasSubstr("NCCL_DEBUG=INFO"));
}

TEST(CliAnalyze, TextAndMarkdownReadAsFindings) {
    for (const char* format : {"text", "md"}) {
        RunResult r = runSkewscope({"analyze", demo().path, "--format", format});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        for (const char* s : {"Matching: ok", "Start skew: p50", "Start-skew cost", "not a step-time saving", "Big events", "CPU launch",
                              "GPU dependency", "Anomalies", "dev 7"})
            EXPECT_NE(r.out.find(s), std::string::npos) << format << ": " << s;
        // what users read has no identifier of the JSON: neither causes nor advice ids
        for (const char* id : {"cpu_launch", "gpu_dependency", "gpu_other", "missing_devices", "no_gpu_metrics", "no_cpu_sampling",
                               "nccl_config_unknown", "ab_test"})
            EXPECT_EQ(r.out.find(id), std::string::npos) << format << ": " << id;
    }
    RunResult md = runSkewscope({"analyze", demo().path, "--format", "md"});
    EXPECT_EQ(md.out.rfind("# Skewscope findings", 0), 0u);
    EXPECT_NE(md.out.find("| rank | last | first |"), std::string::npos);
}

// The lines of a text (the last one with or without its newline).
std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

// The section headings of a report, in order: Markdown "#"/"##" lines, or text lines underlined
// with "=" or "-".
std::vector<std::string> headings(const std::string& report, bool md) {
    const std::vector<std::string> lines = splitLines(report);
    std::vector<std::string> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (md) {
            if (lines[i].rfind("## ", 0) == 0) out.push_back(lines[i].substr(3));
            else if (lines[i].rfind("# ", 0) == 0) out.push_back(lines[i].substr(2));
        } else if (i + 1 < lines.size() && !lines[i].empty() && lines[i + 1].size() == lines[i].size() &&
                   lines[i + 1].find_first_not_of(lines[i + 1][0] == '=' ? "=" : "-") == std::string::npos) {
            out.push_back(lines[i]);
        }
    }
    return out;
}

// Text and Markdown open with the answers of every group, then say what the next capture should
// record, before the numbers, anomalies and warnings (the demo has one: device 0 lacks kernels).
TEST(CliAnalyze, ReportsOpenWithAnswersThenNextCapture) {
    for (bool md : {false, true}) {
        SCOPED_TRACE(md ? "md" : "text");
        RunResult r = runSkewscope({"analyze", demo().path, "--format", md ? "md" : "text"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(headings(r.out, md),
                    ElementsAre("Skewscope findings: demo", "Answers: group 0, 135 collectives (AllGather 90, ReduceScatter 45)",
                                "Answers: group 1, 5 collectives (AllReduce 5)", "Next capture",
                                "Numbers: group 0, 135 collectives (AllGather 90, ReduceScatter 45)",
                                "Numbers: group 1, 5 collectives (AllReduce 5)", "Anomalies", "Warnings"));
        // the answers come before any number of the group, the advice right after them
        EXPECT_LT(r.out.find("Who arrived late: 5 big collectives"), r.out.find("Start skew: p50"));
        const size_t warnings = r.out.find("Warnings"), next = r.out.find("Next capture");
        EXPECT_NE(r.out.find("no kernels on device(s) 0", warnings), std::string::npos);
        EXPECT_LT(r.out.find("Log NCCL's configuration: the export does not say", next), r.out.find("Numbers: group 0"));
    }
}

// One CSV line split at commas outside quotes.
std::vector<std::string> csvCells(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') {
            if (quoted && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
            else quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

// The answer columns of every CSV row against the truth: the position of the collective in its
// step, whether it is a big event at a recurring position, the group's verdict and its rank.
TEST(CliAnalyze, CsvCarriesTheAnswersOnEveryRow) {
    struct Run {
        const Generated* gen;
        int ranks;
    };
    for (Run run : {Run{&demo(), 7}, Run{&generated("fixed-positions", fixedPositionsConfig()), 8}}) {
        SCOPED_TRACE(run.gen->path);
        RunResult r = runSkewscope({"analyze", run.gen->path, "--format", "csv"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        std::vector<std::vector<std::string>> rows;
        for (const std::string& line : splitLines(r.out)) rows.push_back(csvCells(line));
        const auto& header = rows.at(0);
        auto col = [&](const std::string& name) { return size_t(std::find(header.begin(), header.end(), name) - header.begin()); };
        const size_t group = col("group"), index = col("index"), position = col("position_in_step"),
                     recurring = col("recurring_big_position"), verdict = col("group_verdict"), verdictRank = col("group_verdict_rank");
        ASSERT_LT(verdictRank, header.size());
        std::map<std::pair<int, int>, std::vector<std::string>> expected;  // (group, index) -> the four cells
        size_t truthRows = 0;
        for (int gi : {0, 1}) {
            const TruthAnswers t = truthAnswers(*run.gen, gi, run.ranks, kBigNs, true);
            std::set<int> atRecurring;
            for (const auto& tv : t.collectives)
                for (const auto& tp : t.positions)
                    if (tv.complete && tv.big && tv.position == tp.position) atRecurring.insert(tv.tc->index);
            const std::string rank = t.verdict == "rotating" ? ""
                                                             : run.gen->result.rankLabels[size_t(run.gen->result.specOrder[size_t(t.topRank)])];
            for (const auto& tv : t.collectives) {
                expected[{gi, tv.tc->index}] = {std::to_string(tv.position), atRecurring.count(tv.tc->index) ? "1" : "0", t.verdict, rank};
                truthRows += tv.tc->members.size();
            }
            if (run.ranks == 8 && gi == 0) {
                EXPECT_EQ(atRecurring.size(), 10u);
            }
        }
        ASSERT_EQ(rows.size(), 1 + truthRows);
        for (size_t i = 1; i < rows.size(); ++i) {
            const auto& row = rows[i];
            const auto key = std::make_pair(std::stoi(row.at(group)), std::stoi(row.at(index)));
            ASSERT_TRUE(expected.count(key)) << i;
            EXPECT_THAT((std::vector<std::string>{row.at(position), row.at(recurring), row.at(verdict), row.at(verdictRank)}),
                        ElementsAreArray(expected[key]))
                << "group " << key.first << " #" << key.second;
        }
    }
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

// The viewer's QApplication sets the process's locale from the environment, and the viewer's
// exports are these reports: they must not follow it. Under de_DE.UTF-8 (a decimal comma) every
// format is the text written under the C locale, a decimal point throughout.
TEST(CliAnalyze, ReportsReadTheSameUnderAGermanLocale) {
    struct Restore {
        ~Restore() { std::setlocale(LC_ALL, "C"); }
    } restore;
    skew::Profile p = skew::loadProfile({demo().path});
    const skew::Analysis a = skew::analyze(p);
    skew::Profile pa = skew::loadProfile({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"});
    skew::Profile pb = skew::loadProfile({realDataDir() + "/nsysai-mfu_2gpu_after.sqlite"});
    const skew::Analysis aa = skew::analyze(pa);
    const skew::Analysis ab = skew::analyze(pb);
    const skew::Side A{&pa, &aa}, B{&pb, &ab};
    const skew::Comparison c = skew::compareCaptures(A, B);
    const std::vector<std::string> names = {"analyze json", "analyze text", "analyze md", "analyze csv", "info json",
                                            "info text", "compare json", "compare text", "compare md"};
    auto reports = [&] {
        return std::vector<std::string>{skew::analysisJson(p, a), skew::analysisText(p, a), skew::analysisMarkdown(p, a),
                                        skew::analysisCsv(p, a), skew::infoJson(p), skew::infoText(p),
                                        skew::compareJson(A, B, c), skew::compareText(A, B, c), skew::compareMarkdown(A, B, c)};
    };
    const std::vector<std::string> inC = reports();
    EXPECT_TRUE(std::regex_search(inC[1], std::regex(R"(\d\.\d\d ms)")));  // durations with decimals
    EXPECT_TRUE(std::regex_search(inC[0], std::regex(R"(: 0\.\d+,?\n)")));  // fractions in the JSON
    ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr) << "the locale de_DE.UTF-8 is missing: scripts/setup-deps.sh makes it";
    char comma[16];
    std::snprintf(comma, sizeof comma, "%.2f", 54.97);
    ASSERT_STREQ(comma, "54,97");  // the locale does write a decimal comma
    const std::vector<std::string> inGerman = reports();
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(inGerman[i], inC[i]) << names[i];
}

}  // namespace
