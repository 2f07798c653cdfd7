// What users read says things in words (issue 24, "Plain words"): each group's answers open with a
// verdict line made from the analysis; long lists of recurring positions are summarised; causes and
// advice are named as the collectives table names them, never by the JSON's identifiers (which the
// JSON keeps). Expected sentences come from the generator's truth (truth_answers.h).

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <map>

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
using ::testing::HasSubstr;

namespace {

constexpr int64_t kMs = 1'000'000;

// The spec label of spec rank `id`.
std::string label(const Generated& gen, int id) { return gen.result.rankLabels[size_t(gen.result.specOrder[size_t(id)])]; }

// The truth's big events' start skew range, said as the verdict says a range.
std::string bigRange(const TruthAnswers& t) {
    int64_t lo = INT64_MAX, hi = 0;
    for (const TruthView& v : t.collectives)
        if (v.complete && v.big) lo = std::min(lo, v.lateness), hi = std::max(hi, v.lateness);
    return skew::durationRange(lo, hi);
}

uint32_t cpuLate(const TruthAnswers& t) {
    uint32_t n = 0;
    for (const TruthView& v : t.collectives) n += v.complete && v.cause == "cpu_launch";
    return n;
}

// A run of many steps, kept small: 4 ranks, 3 FSDP collectives per step, 40 steps; position 2 of
// every step is late by 25-29 ms on the GPU, its rank rotating over config ranks 1, 2, 0 (step
// s: s % 3), so rank 1 is late 14 times, ranks 2 and 0 13 times each.
skewgen::GenConfig manyStepsConfig() {
    skewgen::GenConfig cfg;
    cfg.ranks = 4;
    cfg.steps = 40;
    cfg.layers = 1;
    cfg.allReduce = false;
    cfg.extraKernelsPerCollective = 2;
    cfg.seed = 24;
    for (int s = 1; s <= cfg.steps; ++s) cfg.late.push_back({s, 2, s % 3, (25 + s % 5) * kMs, skewgen::LateKind::Gpu});
    return cfg;
}

TEST(DurationRange, OneUnitSaidOnce) {
    EXPECT_EQ(skew::durationRange(20'620'000, 54'970'000), "20.62-54.97 ms");
    EXPECT_EQ(skew::durationRange(850, 1'200'000), "850 ns to 1.20 ms");
    EXPECT_EQ(skew::durationRange(31'920'000, 31'920'000), "31.92 ms");
}

// The demo: 5 big events of 20-55 ms on 5 ranks, 3 launched late by the CPU and 2 behind a GEMM on
// stream 7; no CPU samples in the export, so the CPU's late launches call for CPU sampling. The
// AllReduce group has none: its largest start skew and its late arrivers' causes.
TEST(VerdictLine, TheDemoInOneLinePerGroup) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    skew::Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 2u);
    const TruthAnswers fsdp = truthAnswers(gen, 0, 7, a.options.bigSkewNs, true);
    ASSERT_EQ(fsdp.bigIndices.size(), 5u);
    ASSERT_TRUE(fsdp.bigRotate);
    ASSERT_TRUE(fsdp.positions.empty());
    ASSERT_EQ(fsdp.predecessors.size(), 2u);  // two GEMMs, both on stream 7
    for (const auto& tp : fsdp.predecessors) ASSERT_EQ(tp.stream, 7);
    const std::string v0 = "5 big (" + bigRange(fsdp) + "), rotating ranks; " + std::to_string(fsdp.bigCauses.at("cpu_launch")) +
                           " CPU launch, " + std::to_string(fsdp.bigCauses.at("gpu_dependency")) +
                           " GPU dependency behind GEMMs on stream 7 → record CPU sampling";
    EXPECT_EQ(v0, "5 big (20.62-54.97 ms), rotating ranks; 3 CPU launch, 2 GPU dependency behind GEMMs on stream 7 → record CPU sampling");
    EXPECT_EQ(skew::verdictLine(p, a, a.groups[0]), v0);

    const TruthAnswers ar = truthAnswers(gen, 1, 7, a.options.bigSkewNs, true);
    ASSERT_TRUE(ar.bigIndices.empty());
    ASSERT_EQ(ar.verdict, "rotating");
    ASSERT_EQ(cpuLate(ar), 0u);  // no advice follows from this group
    int64_t largest = 0;
    for (const TruthView& v : ar.collectives) largest = std::max(largest, v.lateness);
    EXPECT_EQ(skew::verdictLine(p, a, a.groups[1]), "no big collective (largest start skew " + skew::formatDuration(largest) +
                                                        "), late rank rotates; late arrivers: " +
                                                        std::to_string(ar.restCauses.at("gpu_dependency")) + " GPU dependency");
    // the line opens each group's answers, in text and in Markdown (the first group's bullets then
    // open with the what-if's sentence, the others' with who arrived late)
    const std::string text = skew::analysisText(p, a), md = skew::analysisMarkdown(p, a);
    EXPECT_THAT(text, HasSubstr("Answers: group 0, 135 collectives (AllGather 90, ReduceScatter 45)\n" + std::string(66, '-') +
                                "\n  Verdict: " + v0 + ".\n  - Without the late arrivals"));
    EXPECT_THAT(md, HasSubstr("## Answers: group 0, 135 collectives (AllGather 90, ReduceScatter 45)\n\n**Verdict:** " + v0 +
                              ".  \n- Without the late arrivals"));
    EXPECT_THAT(text, HasSubstr("Answers: group 1, 5 collectives (AllReduce 5)\n" + std::string(45, '-') + "\n  Verdict: " +
                                skew::verdictLine(p, a, a.groups[1]) + ".\n  - Who arrived late:"));
}

// Big events at positions 13 and 20 of every step, rotating, all behind GEMMs on stream 7: the
// positions are said, and the A/B test the advice proposes for such a group.
TEST(VerdictLine, RecurringPositionsAndTheAbTest) {
    const auto& gen = generated("fixed-positions", fixedPositionsConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    skew::Analysis a = skew::analyze(p);
    const TruthAnswers t = truthAnswers(gen, 0, 8, a.options.bigSkewNs, true);
    ASSERT_EQ(t.bigIndices.size(), 10u);
    ASSERT_EQ(t.positions.size(), 2u);
    ASSERT_TRUE(t.bigRotate);
    ASSERT_EQ(t.bigCauses.at("gpu_dependency"), 10u);
    for (const auto& tp : t.predecessors) ASSERT_EQ(tp.stream, 7);
    const std::string expected = "10 big (" + bigRange(t) + ") at positions 13 and 20 of the step, rotating ranks; 10 GPU dependency " +
                                 "behind GEMMs on stream 7 → " + (cpuLate(t) ? "record CPU sampling; " : "") + "run an A/B test";
    EXPECT_EQ(skew::verdictLine(p, a, a.groups[0]), expected);
}

// 40 steps, position 2 big in each: one summarised item instead of 40 steps and 40 late ranks, the
// most frequent late rank with its count (ties: the first in rank order).
TEST(AnswersAtScale, RecurringPositionOfManyStepsIsSummarised) {
    const auto cfg = manyStepsConfig();
    const auto& gen = generated("many-steps", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    skew::Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const TruthAnswers t = truthAnswers(gen, 0, 4, a.options.bigSkewNs, true);
    ASSERT_EQ(t.bigIndices.size(), 40u);
    ASSERT_EQ(t.bigCauses.at("gpu_dependency"), 40u);
    ASSERT_EQ(t.positions.size(), 1u);
    const TruthPosition& tp = t.positions[0];
    ASSERT_EQ(tp.position, 2u);
    ASSERT_EQ(tp.steps.size(), 40u);
    std::map<int, uint32_t> count;
    for (int r : tp.lateRanks) ++count[r];
    int most = count.begin()->first;
    for (auto [r, n] : count)
        if (n > count[most]) most = r;
    ASSERT_EQ(count.size(), 3u);
    ASSERT_EQ(count[most], 14u);
    ASSERT_EQ(most, truth::specIds(gen.result)[1]);  // config rank 1: steps 1, 4, ..., 40
    const std::string where = "Big events sit at recurring positions of the step: position 2 in all 40 steps (late rank rotates among 3: " +
                              label(gen, most) + " most often, 14 times; median offset +" + skew::formatDuration(tp.offsetMedianNs) +
                              "). They rotate: 3 ranks among 40 big events, none late in more than half of them.";
    const skew::AnswerSentences s = skew::answerSentences(p, a, a.groups[0]);
    EXPECT_EQ(s.where, where);
    EXPECT_LE(s.where.size(), 250u);
    // the page as a whole: no line lists the 40 steps, the answers stay short, and the numbers list
    // 20 of the 40 big events
    for (const std::string& page : {skew::analysisText(p, a), skew::analysisMarkdown(p, a)}) {
        EXPECT_EQ(page.find("steps 1, 2, 3, 4, 5, 6, 7, 8, 9"), std::string::npos);
        const size_t answers = page.find("Answers: group 0"), next = page.find("Next capture");
        ASSERT_LT(answers, next);
        EXPECT_LE(next - answers, 2500u);
        size_t why = 0;
        for (size_t at = page.find(". GPU dependency: cuLaunchKernelEx"); at != std::string::npos;
             at = page.find(". GPU dependency: cuLaunchKernelEx", at + 1))
            ++why;
        EXPECT_EQ(why, 20u);
        EXPECT_THAT(page, HasSubstr("- 20 more big events in the JSON/CSV output\n"));
    }
}

// Causes and advice by their names in what users read; the JSON keeps the identifiers, and the
// advice's words are its evidence with the causes named (the fixed-positions run has ab_test).
TEST(PlainWords, TextSaysCausesAndAdviceInWordsJsonKeepsIdentifiers) {
    const auto& gen = generated("fixed-positions", fixedPositionsConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    skew::Analysis a = skew::analyze(p);
    std::map<std::string, const skew::CaptureAdvice*> byId;
    for (const auto& ad : a.advice) byId[ad.id] = &ad;
    ASSERT_TRUE(byId.count("ab_test"));
    const skew::CaptureAdvice& ab = *byId["ab_test"];
    EXPECT_EQ(ab.title, "Run an A/B test");
    EXPECT_THAT(ab.evidence, HasSubstr("10 big events, 10 of them gpu_dependency; late ranks: 8 distinct"));
    EXPECT_THAT(ab.words, HasSubstr("10 big events, 10 of them GPU dependency; late ranks: 8 distinct"));
    EXPECT_EQ(ab.groups, std::vector<int>{0});
    const std::string text = skew::analysisText(p, a);
    EXPECT_THAT(text, HasSubstr("\n  - Run an A/B test: group 0: 10 big events, 10 of them GPU dependency;"));
    for (const char* id : {"cpu_launch", "gpu_dependency", "gpu_other", "ab_test", "no_gpu_metrics", "nccl_config_unknown"})
        EXPECT_EQ(text.find(id), std::string::npos) << id;
    // the big events' why-lines open with the cause's name
    EXPECT_THAT(text, HasSubstr(". GPU dependency: cuLaunchKernelEx ended "));
    // the JSON: identifiers as before
    const testjson::Value json = testjson::parse(skew::analysisJson(p, a));
    bool abInJson = false;
    for (const auto& ad : json["capture_advice"].arr)
        if (ad["id"].str == "ab_test") {
            abInJson = true;
            EXPECT_EQ(ad["evidence"].str, ab.evidence);
        }
    EXPECT_TRUE(abInJson);
    EXPECT_EQ(json["groups"][0]["answers"]["why"]["big"]["gpu_dependency"].num, 10);
}

}  // namespace

// A job of many per-rank files reads in a page, not a phone book: the header names three files and
// counts the rest with their version, each group's streams are counted per stream, and the rank
// table keeps the 16 ranks most often last (the JSON keeps every rank). 40 ranks, their own files.
TEST(AnswersAtScale, ManyPerRankFilesAreCountedNotListed) {
    skewgen::GenConfig cfg;
    cfg.ranks = 40;
    cfg.perRankFiles = true;
    cfg.steps = 2;
    cfg.layers = 2;
    const auto& gen = generated("plain-words-40-files", cfg);
    ASSERT_EQ(gen.result.files.size(), 40u);
    skew::Profile p = skew::loadProfile(gen.result.files);
    skew::Analysis a = skew::analyze(p);
    ASSERT_FALSE(a.groups.empty());
    std::set<std::string> stems;
    for (const auto& f : gen.result.files) stems.insert(std::filesystem::path(f).stem().string());
    const std::string md = skew::analysisMarkdown(p, a);
    // the title: three of the files, then "and 37 more"; three input lines and the rest counted
    const std::string title = md.substr(0, md.find('\n'));
    ASSERT_EQ(title.rfind("# Skewscope findings: ", 0), 0u) << title;
    EXPECT_TRUE(title.size() > 12 && title.substr(title.size() - 12) == " and 37 more") << title;
    const std::string named = title.substr(22, title.size() - 22 - 12);
    size_t count = 0;
    for (size_t at = 0; at <= named.size();) {
        const size_t end = std::min(named.find(", ", at), named.size());
        EXPECT_TRUE(stems.count(named.substr(at, end - at))) << named.substr(at, end - at);
        ++count;
        at = end + 2;
    }
    EXPECT_EQ(count, 3u);
    EXPECT_THAT(md, HasSubstr("\n37 more inputs, all Nsight Systems "));
    size_t inputLines = 0;
    for (const auto& f : gen.result.files) inputLines += md.find("\n" + f + ": Nsight Systems") != std::string::npos;
    EXPECT_EQ(inputLines, 3u);
    // each group's streams: counts over its 40 ranks, no rank named
    size_t groupsSeen = 0;
    for (size_t at = md.find("\nStreams: "); at != std::string::npos; at = md.find("\nStreams: ", at + 1)) {
        const std::string l = md.substr(at + 10, md.find('\n', at + 1) - at - 10);
        unsigned ranks = 0;
        for (size_t on = l.find(" on "); on != std::string::npos; on = l.find(" on ", on + 1)) ranks += unsigned(std::stoul(l.substr(on + 4)));
        EXPECT_EQ(ranks, 40u) << l;
        EXPECT_EQ(l.find(label(gen, 0)), std::string::npos) << l;
        ++groupsSeen;
    }
    EXPECT_EQ(groupsSeen, a.groups.size());
    // the rank table of group 0: 16 rows, the 16 largest last counts of the JSON's per_rank in order
    const testjson::Value j = testjson::parse(skew::analysisJson(p, a));
    std::vector<unsigned> lastCounts;
    for (const auto& r : j["groups"][size_t(0)]["per_rank"].arr) lastCounts.push_back(unsigned(r["last_count"].i64()));
    ASSERT_EQ(lastCounts.size(), 40u);
    std::sort(lastCounts.rbegin(), lastCounts.rend());
    const size_t table = md.find("| rank | last |");
    ASSERT_NE(table, std::string::npos);
    std::vector<unsigned> shown;
    for (size_t at = md.find('\n', md.find('\n', table) + 1) + 1; md.compare(at, 2, "| ") == 0; at = md.find('\n', at) + 1) {
        const size_t bar = md.find(" | ", at + 2);
        shown.push_back(unsigned(std::stoul(md.substr(bar + 3))));
    }
    EXPECT_EQ(shown, std::vector<unsigned>(lastCounts.begin(), lastCounts.begin() + 16));
    EXPECT_THAT(md, HasSubstr("The 16 ranks most often last of 40; every rank is in the JSON report (per_rank)"));
}
