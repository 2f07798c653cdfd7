// The what-if within the memory there is (core/util/memory_budget.h, analysis/whatif.h): a replay
// that would need more than the budget is left out with its reason, in the analysis, the reports,
// the What-if tab's text, the ideal schedule and the command line's output (whole JSON, exit 0, the same with the
// what-if beside the report's writing); the budget is the least of the system's and the cgroups'
// room; and the estimate is not below what the replay takes.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "analysis/whatif_schedule.h"
#include "compare/whatif_check.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "report/analysis_report.h"
#include "report/whatif_report.h"
#include "scene/whatif_scene.h"
#include "test_util.h"
#include "util/memory_budget.h"
#include "util/release_memory.h"
#include "whatif_hand_profile.h"

namespace {

using ::testing::HasSubstr;

// SKEWSCOPE_WHATIF_MAX_MB set for one test, unset after it
struct Budget {
    explicit Budget(const char* mb) { setenv("SKEWSCOPE_WHATIF_MAX_MB", mb, 1); }
    ~Budget() { unsetenv("SKEWSCOPE_WHATIF_MAX_MB"); }
};

// `p` analysed with SKEWSCOPE_WHATIF_MAX_MB set to `mb` (unset again after)
skew::Analysis analyzedWithin(skew::Profile& p, const char* mb, const skew::AnalysisOptions& o = {}) {
    Budget b(mb);
    return skew::analyze(p, o);
}

TEST(MemoryBudget, TheLeastOfMemAvailableAndEachCgroupsRoomWithoutItsInactiveFileCache) {
    const std::string meminfo = "MemTotal:       32000000 kB\nMemFree:         1000 kB\nMemAvailable:    2000000 kB\n";
    // no cgroup: MemAvailable, 2,000,000 KiB
    EXPECT_EQ(skew::availableMemoryFrom(meminfo, nullptr, 0), uint64_t(2'000'000) * 1024);
    // v2: 1,000 MiB allowed, 900 MiB used of which 300 MiB inactive file cache: 400 MiB of room
    const skew::CgroupMemory v2{"1048576000\n", "943718400\n", "anon 600\nfile 400\ninactive_file 314572800\nactive_file 1\n"};
    EXPECT_EQ(skew::availableMemoryFrom(meminfo, &v2, 1), uint64_t(400) << 20);
    // v1 says the hierarchy's cache with total_; "max" (v2 without a limit) binds nothing
    const skew::CgroupMemory both[] = {{"max\n", "5\n", ""}, {"2097152000\n", "2097152000\n", "inactive_file 1\ntotal_inactive_file 104857600\n"}};
    EXPECT_EQ(skew::availableMemoryFrom(meminfo, both, 2), uint64_t(100) << 20);
    // used past the limit: no room; no MemAvailable line: the cgroups alone; nothing readable: unknown
    const skew::CgroupMemory full{"100\n", "200\n", ""};
    EXPECT_EQ(skew::availableMemoryFrom(meminfo, &full, 1), 0u);
    EXPECT_EQ(skew::availableMemoryFrom("MemFree: 5 kB\n", &v2, 1), uint64_t(400) << 20);
    EXPECT_EQ(skew::availableMemoryFrom("", nullptr, 0), std::nullopt);
    // this machine's answer is some room, at most its MemAvailable
    const std::optional<uint64_t> here = skew::availableMemoryBytes();
    ASSERT_TRUE(here.has_value());
    EXPECT_GT(*here, 0u);
    std::ifstream in("/proc/meminfo");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_LE(*here, *skew::availableMemoryFrom(text, nullptr, 0) + (uint64_t(64) << 20));  // (it moves meanwhile)
}

TEST(MemoryBudget, TheVariableInMegabytesElseTheAvailableMemory) {
    {
        Budget b("12");
        const skew::MemoryBudget m = skew::memoryBudget("SKEWSCOPE_WHATIF_MAX_MB");
        EXPECT_EQ(m.bytes, uint64_t(12) << 20);
        EXPECT_EQ(m.source, "SKEWSCOPE_WHATIF_MAX_MB");
    }
    {
        Budget b(" 12\t");  // blanks around it
        EXPECT_EQ(skew::memoryBudget("SKEWSCOPE_WHATIF_MAX_MB").bytes, uint64_t(12) << 20);
    }
    {
        Budget b("99999999999999999999");  // more than 64 bits of bytes: no limit, not the machine's
        const skew::MemoryBudget m = skew::memoryBudget("SKEWSCOPE_WHATIF_MAX_MB");
        EXPECT_EQ(m.bytes, UINT64_MAX);
        EXPECT_EQ(m.source, "SKEWSCOPE_WHATIF_MAX_MB");
        EXPECT_EQ(m.ignored, "");
    }
    // anything else: ignored, as if unset, and said (never 4 MB for "4G", 0 for "0x10")
    for (const char* other : {"a lot", "4G", "1e3", "2.5", "0x10", "-5", "+100", "12 MB"}) {
        Budget b(other);
        const skew::MemoryBudget m = skew::memoryBudget("SKEWSCOPE_WHATIF_MAX_MB");
        EXPECT_EQ(m.source, "available memory") << other;
        EXPECT_EQ(m.ignored, "SKEWSCOPE_WHATIF_MAX_MB=\"" + std::string(other) + "\" is not a whole number of MB: ignored");
    }
    const skew::MemoryBudget unset = skew::memoryBudget("SKEWSCOPE_WHATIF_MAX_MB");
    EXPECT_EQ(unset.source, "available memory");
    EXPECT_EQ(unset.ignored, "");
}

// An unreadable variable is said among the what-if's warnings, and the what-if is computed within
// the memory available.
TEST(WhatIfMemory, AVariableThatIsNoNumberIsSaidAndTheWhatIfComputed) {
    skew::Profile p = whatifhand::handProfile();
    Budget b("4G");
    const skew::Analysis a = skew::analyze(p);
    EXPECT_TRUE(a.whatIf.notComputed.empty());
    EXPECT_EQ(a.whatIf.kernels, 12u);
    EXPECT_EQ(std::count(a.warnings.begin(), a.warnings.end(), "what-if: SKEWSCOPE_WHATIF_MAX_MB=\"4G\" is not a whole number of MB: ignored"), 1);
}

// The need rounded up, the budget down: a budget a byte short of the need reads as less.
TEST(WhatIfMemory, TheReasonNeverSaysTheSameNumberOfMegabytesTwice) {
    skew::Profile p = whatifhand::handProfile();
    const skew::Analysis a = skew::analyze(p);
    const uint64_t need = 8'389'788;  // 12 kernels, 4 members, not packed (see above)
    ASSERT_EQ(skew::whatIfBytes(12, 4, false), need);
    EXPECT_EQ(skew::replayMemoryProblem(a, 12, false, 0, skew::MemoryBudget{need - 1, "available memory", {}}),
              "its replay of 12 kernels needs about 9 MB of memory, more than the 8 MB available (set SKEWSCOPE_WHATIF_MAX_MB to a "
              "number of MB to allow more)");
    EXPECT_EQ(skew::replayMemoryProblem(a, 12, false, 0, skew::MemoryBudget{need, "available memory", {}}), "");
}

TEST(WhatIfMemory, TheEstimateCountsTheGraphsArraysThePackedRecordsAndTheSweepsEnds) {
    // per kernel 65 bytes of lane-order arrays (5 of 8 bytes, 6 of 4, 1 of 1), then either the
    // build's 12 bytes or the 56-byte packed record; per member 40 bytes and two 12-byte runs; two
    // sweeps' 2 x 16,384 ends of 128 bytes (8,388,608)
    EXPECT_EQ(skew::whatIfBytes(1000, 10, false), 1000u * (65 + 12) + 10 * (40 + 24) + 8'388'608u);
    EXPECT_EQ(skew::whatIfBytes(1000, 10, true), 1000u * (65 + 56) + 10 * (40 + 24) + 8'388'608u);
    EXPECT_EQ(skew::whatIfBytes(6'000'000, 1'000'160, false), 462'000'000u + 64'010'240u + 8'388'608u);
}

TEST(WhatIfMemory, ABudgetUnderTheEstimateLeavesTheWhatIfOutAndEveryOutputSaysWhy) {
    skew::Profile p = whatifhand::handProfile();
    skew::AnalysisOptions o;
    const skew::Analysis full = skew::analyze(p, o);
    ASSERT_EQ(full.whatIf.kernels, 12u);
    const skew::Analysis a = analyzedWithin(p, "8", o);
    // 12 kernels and 4 members (2 collectives of 2 ranks), not packed: 12 * 77 + 4 * 64 + 8,388,608
    // = 8,389,788 bytes, just over 8 MB; said rounded up, 9 MB
    const std::string reason =
        "its replay of 12 kernels needs about 9 MB of memory, more than the 8 MB SKEWSCOPE_WHATIF_MAX_MB allows (set "
        "SKEWSCOPE_WHATIF_MAX_MB to a number of MB to allow more)";
    EXPECT_EQ(a.whatIf.notComputed, reason);
    EXPECT_EQ(a.whatIf.kernels, 0u);
    EXPECT_TRUE(a.whatIf.steps.empty());
    EXPECT_FALSE(a.whatIf.ideal.has_value());
    ASSERT_FALSE(a.warnings.empty());
    EXPECT_EQ(a.warnings.back(), "what-if: not computed: " + reason);
    // the rest of the analysis is the one with the what-if
    ASSERT_EQ(a.collectives.size(), full.collectives.size());
    for (size_t i = 0; i < a.collectives.size(); ++i) EXPECT_EQ(a.collectives[i].startSkew(), full.collectives[i].startSkew());
    // the reports and the What-if tab
    EXPECT_EQ(skew::whatIfSentence(p, a), "What-if: not computed: " + reason + ".");
    EXPECT_THAT(skew::analysisText(p, a), HasSubstr("What-if: not computed: its replay of 12 kernels"));
    const skew::WhatIfScene s = skew::buildWhatIfScene(p, a, 16);
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(s.emptyText, "The what-if was not computed: " + reason + ".");
    const testjson::Value j = testjson::parse(skew::analysisJson(p, a));
    EXPECT_EQ(j["what_if"]["replay"]["kernels"].i64(), 0);
    EXPECT_TRUE(j["what_if"]["slowdown"]["ideal"].isNull());
    EXPECT_EQ(j["warnings"].arr.back().str, "what-if: not computed: " + reason);
    // 9 MB is enough: the what-if of the analysis without a budget
    {
        Budget b("9");
        const skew::Analysis within = skew::analyze(p, o);
        EXPECT_TRUE(within.whatIf.notComputed.empty());
        EXPECT_EQ(skew::analysisJson(p, within), skew::analysisJson(p, full));
    }
}

// A comparison's what-if check says which side's what-if was left out, and why (not "no training
// steps", which is what its empty step list would otherwise say).
TEST(WhatIfMemory, TheComparisonsCheckSaysWhichWhatIfWasLeftOutAndWhy) {
    skew::Profile p = whatifhand::handProfile();
    const skew::Analysis out = analyzedWithin(p, "8");
    ASSERT_FALSE(out.whatIf.notComputed.empty());
    const skew::Analysis in = skew::analyze(p);
    EXPECT_EQ(skew::checkWhatIf(out, in).why, "A's what-if was not computed: " + out.whatIf.notComputed);
    EXPECT_EQ(skew::checkWhatIf(in, out).why, "B's what-if was not computed: " + out.whatIf.notComputed);
    EXPECT_TRUE(skew::checkWhatIf(in, in).available()) << skew::checkWhatIf(in, in).why;
}

TEST(WhatIfMemory, TheIdealScheduleIsLeftOutWithTheWhatIfOrWhenItsOwnReplayWouldNotFit) {
    skew::Profile p = whatifhand::handProfile();
    const skew::Analysis out = analyzedWithin(p, "8");
    ASSERT_FALSE(out.whatIf.notComputed.empty());
    const skew::IdealSchedule none = skew::idealSchedule(p, out);  // (no budget now: the what-if's reason)
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.why, out.whatIf.notComputed);
    // the what-if in, the schedule's own replay over the budget: 8,389,788 bytes as the what-if's
    // and 12 starts and ends of 8 bytes each, 8,389,980
    const skew::Analysis in = skew::analyze(p);
    ASSERT_TRUE(in.whatIf.notComputed.empty());
    Budget b("0");
    const skew::IdealSchedule over = skew::idealSchedule(p, in);
    EXPECT_TRUE(over.empty());
    EXPECT_EQ(over.why, "its replay of 12 kernels needs about 9 MB of memory, more than the 0 MB SKEWSCOPE_WHATIF_MAX_MB allows (set "
                        "SKEWSCOPE_WHATIF_MAX_MB to a number of MB to allow more)");
    setenv("SKEWSCOPE_WHATIF_MAX_MB", "9", 1);
    EXPECT_EQ(skew::idealSchedule(p, in).start.size(), 12u);
}

// Without launch rows the what-if runs two replays, which never read packed records: its estimate
// counts the build's 12 bytes a kernel, not the 56 of a packed record (a 30-rank job's 34 replays
// would pack, and were estimated so whatever the launch rows).
TEST(WhatIfMemory, WithoutLaunchRowsTheEstimateIsOfRecordsNeverPacked) {
    const std::string dir = testutil::tempDir("whatif-no-launches");
    skewgen::GenConfig cfg;
    cfg.ranks = 30;
    cfg.steps = 6;
    cfg.layers = 12;
    const std::string path = dir + "/no-launches.sqlite";
    skewgen::generate(cfg, path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    skew::Profile p = skew::loadProfile({path});
    ASSERT_EQ(p.launchCount(), 0u);
    const skew::Analysis free = skew::analyze(p);
    const uint64_t kernels = free.whatIf.kernels;
    uint64_t members = 0;
    for (const skew::Group& g : free.groups) members += uint64_t(g.count) * g.width();
    const uint64_t unpacked = skew::whatIfBytes(kernels, members, false), packed = skew::whatIfBytes(kernels, members, true);
    const uint64_t mb = (unpacked + (1u << 20) - 1) >> 20;  // the unpacked need, rounded up
    ASSERT_LT(mb << 20, packed) << kernels << " kernels";  // a budget between the two estimates
    {
        Budget b(std::to_string(mb).c_str());
        const skew::Analysis a = skew::analyze(p);
        EXPECT_EQ(a.whatIf.notComputed, "");
        EXPECT_EQ(a.whatIf.kernels, kernels);
    }
    {
        Budget b(std::to_string(mb - 1).c_str());
        EXPECT_THAT(skew::analyze(p).whatIf.notComputed, HasSubstr(" needs about " + std::to_string(mb) + " MB of memory"));
    }
    std::filesystem::remove_all(dir);
}

TEST(WhatIfMemory, TheCommandLineWritesTheWholeReportWithoutTheWhatIfOnOneThreadOrBesideTheReport) {
    skewgen::GenConfig cfg;
    cfg.ranks = 4;
    cfg.steps = 3;
    cfg.layers = 3;
    const testutil::Generated& g = testutil::generated("memory4", cfg);
    const std::string bin = testutil::binDir() + "/skewscope";
    std::string outputs[2];
    for (int t : {1, 2}) {
        const testutil::RunResult r = testutil::runCommand(bin, {"analyze", g.path, "--format", "json"},
                                                           "SKEWSCOPE_WHATIF_MAX_MB=0 SKEWSCOPE_LOAD_THREADS=" + std::to_string(t));
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.err, HasSubstr("what-if: not computed: its replay of "));
        EXPECT_THAT(r.err, HasSubstr(" MB of memory, more than the 0 MB SKEWSCOPE_WHATIF_MAX_MB allows"));
        const testjson::Value j = testjson::parse(r.out);  // whole: it parses
        EXPECT_EQ(j["what_if"]["replay"]["kernels"].i64(), 0);
        EXPECT_GT(j["collectives"].size(), 0u);
        outputs[t - 1] = r.out;
    }
    EXPECT_EQ(outputs[0], outputs[1]);
    // without the variable, on this machine, the what-if is in
    const testutil::RunResult r = testutil::runCommand(bin, {"analyze", g.path, "--format", "json"});
    EXPECT_GT(testjson::parse(r.out)["what_if"]["replay"]["kernels"].i64(), 0);
}

#ifndef SKEW_SANITIZED_ALLOCATOR
// The peak resident size of this process, and its resident size now (kB), from /proc/self/status.
std::pair<uint64_t, uint64_t> residentKb() {
    std::ifstream in("/proc/self/status");
    uint64_t hwm = 0, rss = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("VmHWM:", 0) == 0) hwm = std::stoull(line.substr(6));
        if (line.rfind("VmRSS:", 0) == 0) rss = std::stoull(line.substr(6));
    }
    return {hwm, rss};
}

TEST(WhatIfMemory, TheReplayTakesNoMoreThanItsEstimate) {
    // (not under the sanitizers: their allocator keeps freed blocks and pads every one)
    skewgen::GenConfig cfg;
    cfg.ranks = 8;
    cfg.steps = 100;
    cfg.layers = 12;
    cfg.timeOrdered = true;
    const testutil::Generated& g = testutil::generated("memory8", cfg);
    skew::AnalysisOptions o;
    o.whatIf = false;
    o.threads = 2;
    skew::Profile p = skew::loadProfile({g.path});
    skew::Analysis a = skew::analyze(p, o);
    uint64_t members = 0;
    for (const skew::Group& gr : a.groups) members += uint64_t(gr.count) * gr.width();
    skew::releaseFreedMemory();
    // pages of 4 KB: with transparent huge pages on for every mapping (enabled=always), the resident
    // size would grow by 2 MB at a time, more than the arrays take
    ASSERT_EQ(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0), 0);
    std::ofstream("/proc/self/clear_refs") << "5";  // the peak starts again from the resident size
    const uint64_t before = residentKb().second;
    ASSERT_LE(residentKb().first, before + 1024);
    const skew::WhatIfOutcome w = skew::computeWhatIf(p, a);
    const uint64_t grew = (residentKb().first - before) * 1024;
    ASSERT_GT(w.whatIf.kernels, 200'000u);
    const uint64_t estimate = skew::whatIfBytes(w.whatIf.kernels, members, false);
    RecordProperty("grew_bytes", std::to_string(grew));
    RecordProperty("estimate_bytes", std::to_string(estimate));
    EXPECT_LE(grew, estimate) << "grew " << grew << " bytes, estimate " << estimate;
    EXPECT_GE(grew * 2, estimate) << "grew " << grew << " bytes, estimate " << estimate;  // of the right size
}
#endif

}  // namespace
