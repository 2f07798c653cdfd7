// Never lose the user's data: outputs never replace an input, write errors keep the old file and
// name the reason, user patterns cannot hang or crash the program, numbers are parsed strictly,
// WAL exports in read-only folders open without leaving files, a failed conversion leaves nothing.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/step_pattern.h"
#include "cli/command_line.h"
#include "model/loader.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

std::string realCopy(const std::string& dir, const std::string& name = "run.sqlite") {
    std::string p = dir + "/" + name;
    fs::copy_file(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", p, fs::copy_options::overwrite_existing);
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    return p;
}

TEST(DataSafety, OutputThatIsAnInputIsRefused) {
    std::string dir = tempDir("out-is-in");
    std::string in = realCopy(dir);
    const std::string before = slurp(in);
    fs::create_symlink(in, dir + "/link.sqlite");
    fs::create_directories(dir + "/sub");
    // the same file under other spellings: relative with ./, through a symlink, through ..
    std::vector<std::vector<std::string>> calls = {
        {"analyze", in, "--output", in},
        {"analyze", in, "--format", "json", "--output", dir + "/./run.sqlite"},
        {"analyze", in, "--output", dir + "/link.sqlite"},
        {"analyze", dir + "/link.sqlite", "--output", dir + "/sub/../run.sqlite"},
        {"info", in, "-o", in},
        {"info", in, "--format", "json", "--output", dir + "/link.sqlite"},
        {"render", in, "--collective", "1", "--output", in},
    };
    for (const auto& args : calls) {
        RunResult r = runSkewscope(args, "QT_QPA_PLATFORM=offscreen");
        EXPECT_EQ(r.exitCode, 2) << args[0] << " " << args.back() << ": " << r.err;
        EXPECT_THAT(r.err, HasSubstr("refusing to overwrite an export"));
        ASSERT_TRUE(slurp(in) == before) << "the export changed";
    }
    EXPECT_TRUE(fs::is_symlink(dir + "/link.sqlite"));
    fs::remove_all(dir);
}

TEST(DataSafety, StepPatternIsBoundedOnLongTextsAndPathologicalPatterns) {
    // 40,000 characters after "step ": the backtracking engine overflowed its stack here
    std::string text = "step " + std::string(40'000, 'x');
    skew::StepPattern def;
    EXPECT_TRUE(def.matches(text));
    EXPECT_TRUE(def.matches("ProfilerStep#12"));
    EXPECT_FALSE(def.matches("forward"));
    // a pattern with nested stars over a long text that does not match at the end: linear, not
    // exponential (a backtracking engine would not finish; the benchmark, not this test, measures time)
    skew::StepPattern evil("((((((((((a*)*)*)*)*)*)*)*)*)*)*$");
    EXPECT_TRUE(evil.matches(std::string(100'000, 'a')));
    EXPECT_FALSE(evil.matches(std::string(100'000, 'a') + "b"));
    EXPECT_THAT(skew::StepPattern::check("(?=lookahead)"), HasSubstr("invalid perl operator"));
    EXPECT_THROW(skew::StepPattern("(unclosed"), std::invalid_argument);
}

TEST(DataSafety, PathologicalStepRegexOnTheRealExportFinishes) {
    RunResult r = runCommand("timeout", {"60", binDir() + "/skewscope", "analyze", realDataDir() + "/nsysai-mfu_2gpu_before.sqlite",
                                         "--step-regex", "((((((((((a*)*)*)*)*)*)*)*)*)*)*$", "--format", "json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("\"source\": \"none\""));
    // a pattern RE2 cannot run is a usage error, before any file is read
    RunResult bad = runSkewscope({"analyze", realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", "--step-regex", "(?=x)"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_THAT(bad.err, HasSubstr("the step pattern is not valid"));
}

TEST(DataSafety, WriteErrorsKeepTheOldFileAndNameTheReason) {
    std::string dir = tempDir("write-errors");
    std::string in = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    // a full disk: /dev/full refuses every write with ENOSPC
    RunResult full = runSkewscope({"analyze", in, "--output", "/dev/full"});
    EXPECT_EQ(full.exitCode, 1);
    EXPECT_THAT(full.err, HasSubstr("No space left on device"));
    RunResult fullJson = runSkewscope({"analyze", in, "--format", "json", "--output", "/dev/full"});  // streamed
    EXPECT_EQ(fullJson.exitCode, 1);
    EXPECT_THAT(fullJson.err, HasSubstr("cannot write /dev/full: No space left on device"));
    RunResult pipe = runCommand("sh", {"-c", binDir() + "/skewscope analyze '" + in + "' > /dev/full"});
    EXPECT_EQ(pipe.exitCode, 1);
    EXPECT_THAT(pipe.err, HasSubstr("cannot write standard output: No space left on device"));
    // a write that fails half-way (file size limit): the old file stays as it was, for every format
    for (std::string ext : {"svg", "pdf", "png", "json"}) {
        SCOPED_TRACE(ext);
        std::string out = dir + "/old." + ext;
        { std::ofstream(out) << "the old file"; }
        std::string cmd = ext == "json" ? "'" + binDir() + "/skewscope' analyze '" + in + "' --format json --output '" + out + "'"
                                        : "'" + binDir() + "/skewscope' render '" + in + "' --collective 32 --size 3000x2000 --output '" + out + "'";
        RunResult r = runCommand("sh", {"-c", "trap '' XFSZ; ulimit -f 4; QT_QPA_PLATFORM=offscreen " + cmd});
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_THAT(r.err, HasSubstr("cannot write " + out + ": File too large"));
        EXPECT_EQ(slurp(out), "the old file");
    }
    // a folder that does not exist: the reason, not only "cannot write"
    RunResult missing = runSkewscope({"render", in, "--collective", "1", "--output", dir + "/nope/x.svg"}, "QT_QPA_PLATFORM=offscreen");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_THAT(missing.err, HasSubstr("No such file or directory"));
    // nothing but the old files is left in the folder (no temporary files)
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 4);
    fs::remove_all(dir);
}

TEST(DataSafety, NumbersAreParsedStrictly) {
    std::string in = realDataDir() + "/nsysai-mock.sqlite";
    struct Bad {
        std::vector<std::string> args;
        std::string message;
    };
    std::vector<Bad> bad = {
        {{"analyze", in, "--big-skew-ms", "nan"}, "--big-skew-ms needs a number of milliseconds, not 'nan'"},
        {{"analyze", in, "--big-skew-ms", "inf"}, "not 'inf'"},
        {{"analyze", in, "--big-skew-ms", "1e999"}, "not '1e999'"},
        {{"analyze", in, "--big-skew-ms", "5ms"}, "not '5ms'"},
        {{"analyze", in, "--big-skew-ms", "0x10"}, "not '0x10'"},
        {{"render", in, "--collective", "1", "--output", "/tmp/x.bmp"}, "unknown image type for /tmp/x.bmp: use .png, .svg or .pdf"},
        {{"render", in, "--collective", "1", "--output", "/tmp/png"}, "unknown image type for /tmp/png"},
        {{"analyze", in, "--big-skew-ms", "-1"}, "big-skew threshold must be a number of milliseconds from 0 to 1e9"},
        {{"analyze", in, "--big-skew-ms", "1e300"}, "from 0 to 1e9"},
        {{"analyze", in, "--anomaly-threshold", "0"}, "anomaly threshold must be a number above 0"},
        {{"analyze", in, "--anomaly-threshold", "NaN"}, "not 'NaN'"},
        {{"analyze", in, "--trim", "1", "nan"}, "--trim needs two numbers of seconds"},
        {{"analyze", in, "--trim", "1e300", "2e300"}, "time window must be two numbers of seconds within +-1e9"},
        {{"analyze", in, "--trim", "5", "1"}, "must end after it starts"},
        {{"analyze", in, "--limit", "99999999999999999999"}, "--limit needs a whole number >= 0"},
        {{"analyze", in, "--limit", "-3"}, "--limit needs a whole number >= 0"},
        {{"render", in, "--collective", "0:4294967297", "--output", "/tmp/x.png"}, "not '0:4294967297'"},
        {{"render", in, "--collective", "4294967297:1", "--output", "/tmp/x.png"}, "--collective takes [G:]K"},
        {{"render", in, "--collective", "1", "--size", "99999999999x2", "--output", "/tmp/x.png"}, "--size takes WxH"},
        {{"analyse", in}, "unknown command 'analyse'; did you mean 'analyze'?"},
        {{"inof", in}, "did you mean 'info'?"},
        {{"frobnicate", in}, "unknown command 'frobnicate'"},
    };
    for (const auto& b : bad) {
        RunResult r = runSkewscope(b.args);
        EXPECT_EQ(r.exitCode, 2) << b.args[0] << " " << b.args.back();
        EXPECT_THAT(r.err, HasSubstr(b.message));
        EXPECT_TRUE(r.out.empty());
    }
    // well-formed numbers still work, including exponents
    EXPECT_EQ(runSkewscope({"analyze", in, "--big-skew-ms", "2e1", "--anomaly-threshold", "3.5", "--limit", "0"}).exitCode, 0);
}

// The viewer's arguments: Qt's own options (with their values) go to Qt, not into the files to
// open; any other option is a usage error, not a file that does not exist.
// render draws an analysis: settings analyze refuses are refused by render (a collective view
// and a comparison) with analyze's exit code and message, before anything is loaded or drawn.
TEST(DataSafety, RenderRefusesTheAnalysisSettingsAnalyzeRefuses) {
    std::string in = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    std::string dir = tempDir("render-settings");
    const std::vector<std::vector<std::string>> bad = {
        {"--trim", "5", "1"}, {"--step-regex", "("}, {"--big-skew-ms", "-1"}, {"--anomaly-threshold", "0"}};
    for (const auto& settings : bad) {
        SCOPED_TRACE(settings[0]);
        std::vector<std::string> analyze = {"analyze", in};
        std::vector<std::string> render = {"render", in, "--collective", "worst", "--output", dir + "/c.png"};
        std::vector<std::string> compare = {"render", in, "--vs", in, "--view", "compare", "--collective", "worst", "--output", dir + "/v.png"};
        for (auto* args : {&analyze, &render, &compare}) args->insert(args->end(), settings.begin(), settings.end());
        RunResult a = runSkewscope(analyze);
        ASSERT_EQ(a.exitCode, 2) << a.err;
        for (const auto* args : {&render, &compare}) {
            RunResult r = runSkewscope(*args);
            EXPECT_EQ(r.exitCode, 2);
            EXPECT_EQ(r.err, a.err);
            EXPECT_TRUE(r.out.empty());
        }
        EXPECT_FALSE(fs::exists(dir + "/c.png"));
        EXPECT_FALSE(fs::exists(dir + "/v.png"));
    }
    // a command line that did not go through parseCommandLine does not run on defaults either
    skew::CommandLine cl;
    cl.command = "render";
    cl.settings.hasTrim = true;
    cl.settings.trimStartS = 5;
    cl.settings.trimEndS = 1;
    EXPECT_THROW(skew::analysisOptions(cl), std::invalid_argument);
    cl.settings.hasTrim = false;
    cl.settings.stepRegex = "(";
    EXPECT_THROW(skew::analysisOptions(cl), std::invalid_argument);
    cl.settings.stepRegex = "";
    EXPECT_NO_THROW(skew::analysisOptions(cl));
}

TEST(DataSafety, ViewerArgumentsLeaveQtOptionsToQt) {
    std::vector<std::string> a, b;
    std::string err;
    ASSERT_TRUE(skew::parseViewerArgs({"-qwindowgeometry", "1024x700+0+0", "x.sqlite", "-style=fusion", "--vs", "-reverse", "y.sqlite"}, a, b, err))
        << err;
    EXPECT_THAT(a, ::testing::ElementsAre("x.sqlite"));
    EXPECT_THAT(b, ::testing::ElementsAre("y.sqlite"));
    a.clear(), b.clear();
    EXPECT_FALSE(skew::parseViewerArgs({"x.sqlite", "--frob"}, a, b, err));
    EXPECT_EQ(err, "unknown option '--frob' (a file whose name starts with '-' is written ./--frob)");
    RunResult r = runSkewscope({"--frob", realDataDir() + "/nsysai-mock.sqlite"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, ::testing::HasSubstr("unknown option '--frob'"));
}

TEST(DataSafety, MissingDevicesAreSummarisedWhateverTheIds) {
    EXPECT_EQ(skew::describeMissingDevices({1, 2, 3, 4, 5, 6, 7}),
              "no kernels on device(s) 0 of the node's 8 (not captured, or idle): collectives there lack those ranks");
    EXPECT_EQ(skew::describeMissingDevices({0, 3, 4, 7}),
              "no kernels on device(s) 1, 2, 5, 6 of the node's 8 (not captured, or idle): collectives there lack those ranks");
    EXPECT_EQ(skew::describeMissingDevices({0, 1}), "");
    EXPECT_EQ(skew::describeMissingDevices({5}), "");
    std::string huge = skew::describeMissingDevices({0, 1, 100000000});
    EXPECT_EQ(huge, "device ids up to 100000000 (99999998 ids in between without kernels): unusual device ids, not checked for "
                    "missing devices");
    EXPECT_LT(skew::describeMissingDevices({0, 2147483647}).size(), 200u);
}

// Runs `program` as an unprivileged user when this process is root (root ignores folder
// permissions), through setpriv (util-linux, installed by scripts/setup-deps.sh).
RunResult runUnprivileged(const std::string& program, const std::vector<std::string>& args) {
    if (::geteuid() != 0) return runCommand(program, args);
    std::vector<std::string> all = {"--reuid=65534", "--regid=65534", "--clear-groups", program};
    all.insert(all.end(), args.begin(), args.end());
    return runCommand("setpriv", all);
}

TEST(DataSafety, WalExportInAReadOnlyFolderOpensAndLeavesNothing) {
    // as root the folder's permissions would not hold: the test needs setpriv then, and fails without it
    if (::geteuid() == 0) {
        ASSERT_EQ(std::system("command -v setpriv >/dev/null 2>&1"), 0) << "setpriv (util-linux) is missing: run scripts/setup-deps.sh";
    }
    std::string dir = tempDir("wal-readonly");
    fs::permissions(dir, fs::perms::all, fs::perm_options::replace);  // traversable for the unprivileged user
    std::string sub = dir + "/ro";
    fs::create_directories(sub);
    std::string path = realCopy(sub);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);  // a clean close: no -wal left, the file stays in WAL mode
    ASSERT_FALSE(fs::exists(path + "-wal"));
    fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, fs::perm_options::replace);
    fs::permissions(sub, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec,
                    fs::perm_options::replace);
    // the user the run runs as cannot write there (else the test proves nothing)
    RunResult probe = runUnprivileged("/bin/sh", {"-c", "touch '" + sub + "/probe'"});
    EXPECT_NE(probe.exitCode, 0) << "the folder is writable for the run: " << sub;
    ASSERT_FALSE(fs::exists(sub + "/probe")) << "the folder is writable for the run: " << sub;
    // the temp folder of the runner must be reachable too
    RunResult r = runUnprivileged(binDir() + "/skewscope", {"info", path, "--format", "json"});
    fs::permissions(sub, fs::perms::owner_all, fs::perm_options::replace);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("\"nccl_kernels\": 33"));
    EXPECT_FALSE(fs::exists(path + "-wal"));
    EXPECT_FALSE(fs::exists(path + "-shm"));
    fs::remove_all(dir);
}

TEST(DataSafety, FailedConversionLeavesNoFolder) {
    std::string dir = tempDir("nsys-fails");
    std::string bin = dir + "/bin";
    fs::create_directories(bin);
    {
        // an `nsys` that writes half an export and fails
        std::ofstream f(bin + "/nsys");
        f << "#!/bin/sh\necho partial > \"$5\"\nexit 4\n";
    }
    fs::permissions(bin + "/nsys", fs::perms::owner_all);
    { std::ofstream(dir + "/capture.nsys-rep") << "report"; }
    std::string tmp = dir + "/tmp";
    fs::create_directories(tmp);
    RunResult r = runSkewscope({"info", dir + "/capture.nsys-rep"}, "PATH=" + bin + ":/usr/bin:/bin TMPDIR=" + tmp);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_THAT(r.err, HasSubstr("failed (exit code 4)"));
    EXPECT_TRUE(fs::is_empty(tmp)) << "a temporary folder was left behind";
    fs::remove_all(dir);
}

}  // namespace
