// Limits a user can hit and the trivial faults of the review (issue 21): the work of a --step-regex
// is bounded with a clear message; threads that cannot be started mean fewer threads, not an abort;
// a --range the timeline has to adjust is said; an empty --output is a usage error; a capture
// compared with itself is cautioned; every command exits non-zero when standard output fails.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analysis/step_pattern.h"
#include "analysis/steps.h"
#include "json_value.h"
#include "profile_builder.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;

namespace {

const std::string kReal = "nsysai-mfu_2gpu_before.sqlite";

std::string real() { return realDataDir() + "/" + kReal; }

// `count` distinct NVTX texts of `length` letters a-d (and "step 1"), on one rank.
skew::Profile longTexts(int count, size_t length) {
    ProfileBuilder b;
    int r = b.rank(0);
    std::mt19937 random(7);
    for (int i = 0; i < count; ++i) {
        std::string t(length, 'a');
        for (char& c : t) c = char('a' + random() % 4);
        b.nvtx(r, 1000 * i, 1000 * i + 10, t);
    }
    b.nvtx(r, 1'000'000, 2'000'000, "step 1");
    return b.build();
}

}  // namespace

// `.*a.{30}b.*` on 3,000 texts of 20 KB took 67-94 s: RE2's DFA gives up on it and its fallback
// takes the text times the program's size. Refused before any matching (the program's size, 262
// RE2 instructions, times 8 MB is beyond 2e9); simple patterns and the default one still run.
TEST(Limits, StepPatternWorkIsBoundedBeforeMatching) {
    const skew::Profile p = longTexts(400, 20'000);  // 8,000,006 bytes in 401 distinct texts
    try {
        skew::stepRanges(p, skew::StepPattern(".*a.{30}b.*"));
        ADD_FAILURE() << "the pattern was matched";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("the step pattern '.*a.{30}b.*' is too expensive to match against this capture's 401 "
                                        "distinct NVTX texts (8.0 MB)"));
        EXPECT_THAT(e.what(), HasSubstr("Simplify it"));
    }
    for (const char* pattern : {"", "step .*"}) {
        auto ranges = skew::stepRanges(p, skew::StepPattern(pattern));
        ASSERT_EQ(ranges.size(), 1u);
        ASSERT_EQ(ranges[0].size(), 1u) << pattern;
        EXPECT_EQ(ranges[0][0], std::make_pair(int64_t(1'000'000), int64_t(2'000'000)));
    }
    // a pattern whose compiled program exceeds RE2's 32 MB: named as too expensive, a usage error
    EXPECT_THAT(skew::StepPattern::check("\\pL{1000}\\pL{1000}"),
                HasSubstr("the pattern is too expensive: RE2 compiles it to more than its 32 MB budget"));
    RunResult r = runSkewscope({"analyze", real(), "--step-regex", "\\pL{1000}\\pL{1000}"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("too expensive"));
}

// No thread can be started (RLIMIT_NPROC reached, as an unprivileged user: root is not limited, so
// root runs it as nobody): the run does its work on the calling thread, with the same report.
TEST(Limits, ThreadsThatCannotStartMeanFewerThreadsNotAnAbort) {
    const std::string dir = tempDir("nproc");
    const std::string in = dir + "/run.sqlite";
    std::filesystem::copy_file(real(), in);
    std::filesystem::permissions(dir, std::filesystem::perms(0755), std::filesystem::perm_options::replace);
    std::filesystem::permissions(in, std::filesystem::perms(0644), std::filesystem::perm_options::replace);
    RunResult normal = runSkewscope({"analyze", "--no-cache", in});
    ASSERT_EQ(normal.exitCode, 0) << normal.err;
    std::vector<std::string> args;
    if (::geteuid() == 0) args = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
    for (const char* a : {"prlimit", "--nproc=1", "--"}) args.push_back(a);
    for (std::string a : {binDir() + "/skewscope", std::string("analyze"), std::string("--no-cache"), in}) args.push_back(a);
    // (under the sanitizers, LeakSanitizer's exit check needs a thread of its own, which the limit
    // forbids: it stays off for this run; AddressSanitizer and UBSan still check it)
    RunResult limited = runCommand("env", args, "SKEWSCOPE_LOAD_THREADS=16 ASAN_OPTIONS=detect_leaks=0:halt_on_error=1");
    EXPECT_EQ(limited.exitCode, 0) << limited.err;
    EXPECT_EQ(limited.out, normal.out);
}

// render --range that the timeline cannot show as asked (outside the run, wider than 1.25 runs,
// narrower than its 50 ns) is drawn adjusted, with a warning that says how and why; a range inside the run draws silently.
TEST(Limits, RangeTheTimelineAdjustsIsWarnedAbout) {
    const std::string dir = tempDir("range");
    auto v = testjson::parse(runSkewscope({"analyze", real(), "--format", "json"}).out);
    const double s0 = double(v["window_ns"]["start"].i64()) / 1e9, s1 = double(v["window_ns"]["end"].i64()) / 1e9;
    auto render = [&](const std::string& a, const std::string& b) {
        return runSkewscope({"render", real(), "--view", "timeline", "--size", "400x300", "--output", dir + "/t.png",
                             "--range", a, b},
                            "QT_QPA_PLATFORM=offscreen");
    };
    char a[64], b[64];
    std::snprintf(a, sizeof a, "%.9f", s0 + (s1 - s0) / 4);
    std::snprintf(b, sizeof b, "%.9f", s0 + (s1 - s0) / 2);
    RunResult inside = render(a, b);
    EXPECT_EQ(inside.exitCode, 0) << inside.err;
    EXPECT_EQ(withoutWhatIfWarning(inside.err), "");
    RunResult before = render("-5", "-1");
    EXPECT_EQ(before.exitCode, 0) << before.err;
    EXPECT_THAT(before.err, HasSubstr("skewscope: warning: --range -5 -1 is drawn as "));
    EXPECT_THAT(before.err, HasSubstr("(seconds): it lies outside the run"));
    // a window of 1e308 s (its end in ns is beyond double's range)
    RunResult huge = render("0", "1e308");
    EXPECT_EQ(huge.exitCode, 0) << huge.err;
    EXPECT_THAT(huge.err, HasSubstr("skewscope: warning: --range 0 1e+308 is drawn as "));
    EXPECT_THAT(huge.err, HasSubstr("the timeline stays on the run"));
    // 1 ps wide, in the middle of the run
    std::snprintf(a, sizeof a, "%.12f", s0 + (s1 - s0) / 2);
    std::snprintf(b, sizeof b, "%.12f", s0 + (s1 - s0) / 2 + 1e-12);
    RunResult narrow = render(a, b);
    EXPECT_EQ(narrow.exitCode, 0) << narrow.err;
    EXPECT_THAT(narrow.err, HasSubstr("skewscope: warning: --range "));
    EXPECT_THAT(narrow.err, HasSubstr(" is drawn as "));
    EXPECT_THAT(narrow.err, HasSubstr("it is narrower than the timeline's smallest window (50 ns)"));
}

TEST(Trivial, EmptyOutputIsAUsageError) {
    for (const char* option : {"--output", "-o"}) {
        RunResult r = runSkewscope({"analyze", real(), option, ""});
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_EQ(r.err, std::string("skewscope: ") + option +
                             " needs a path (or - for standard output), not an empty one\n(skewscope --help shows the usage)\n");
        EXPECT_EQ(r.out, "");
    }
}

// A capture compared with itself (the same file, whatever the spelling): every group pair carries
// the caution, in the text and the JSON.
TEST(Trivial, ComparingAFileWithItselfIsCautioned) {
    const std::string dir = tempDir("self-compare");
    const std::string link = dir + "/same.sqlite";
    std::filesystem::create_symlink(real(), link);
    const std::string caution = "A and B are the same file: every difference is zero by construction; compare two captures of the run";
    auto v = testjson::parse(runSkewscope({"compare", real(), "--vs", link, "--format", "json"}).out);
    ASSERT_GE(v["groups"].size(), 1u);
    for (const auto& g : v["groups"].arr) {
        ASSERT_GE(g["cautions"].size(), 1u);
        EXPECT_EQ(g["cautions"][0].str, caution);
    }
    EXPECT_THAT(runSkewscope({"compare", real(), "--vs", real()}).out, HasSubstr(caution));
    // two different captures: no such caution
    auto other = testjson::parse(runSkewscope({"compare", real(), "--vs", realDataDir() + "/nsysai-mfu_2gpu_after.sqlite", "--format", "json"}).out);
    for (const auto& g : other["groups"].arr)
        for (const auto& c : g["cautions"].arr) EXPECT_NE(c.str, caution);
}

// Standard output on a full disk: every command says so and exits 1 (cache info, clear and --help
// exited 0).
TEST(Trivial, EveryCommandExitsNonZeroWhenStandardOutputFails) {
    const std::vector<std::vector<std::string>> commands = {
        {"--help"}, {"--version"}, {"cache", "info"}, {"cache", "clear"}, {"info", real()}, {"info", real(), "--format", "json"},
        {"analyze", real()}, {"analyze", real(), "--format", "json"}, {"compare", real(), "--vs", real()}};
    for (const auto& c : commands) {
        SCOPED_TRACE(c[0] + (c.size() > 1 ? " " + c[1] : std::string()));
        std::vector<std::string> args = {"-c", "exec \"$0\" \"$@\" >/dev/full", binDir() + "/skewscope"};
        args.insert(args.end(), c.begin(), c.end());
        RunResult r = runCommand("sh", args);
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_THAT(r.err, HasSubstr("cannot write standard output: No space left on device"));
    }
}
