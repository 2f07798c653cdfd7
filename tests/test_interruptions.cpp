// Nothing waited on forever, nothing left behind (issue 21): a FIFO where SQLite keeps a journal or
// where a snapshot should be is refused instead of hanging; `nsys` gets a time limit and is stopped
// with its scratch folder removed when it runs over or the run is interrupted; SIGINT/SIGTERM
// during a write removes the temporary file; outputs get the umask's mode and a read-only output is
// not replaced.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "util/atomic_file.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

const std::string kReal = "nsysai-mfu_2gpu_before.sqlite";

size_t entries(const std::string& dir) { return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator())); }

}  // namespace

// SIGTERM (or SIGINT) in the middle of writing an output: the process dies of the signal, the
// temporary file beside the output is removed and the old output is as it was.
TEST(Interrupted, SignalWhileWritingAnOutputLeavesNoTemporaryFile) {
    for (int sig : {SIGTERM, SIGINT}) {
        SCOPED_TRACE(sig);
        std::string dir = tempDir("signal-write");
        const std::string out = dir + "/report.json";
        { std::ofstream(out) << "the old report"; }
        pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            skew::OutputFile f(out);
            f.write(std::string(1 << 20, 'x'));  // half of a report written...
            ::raise(sig);                        // ... when Ctrl-C comes
            _exit(0);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
        EXPECT_EQ(entries(dir), 1u) << "a temporary file was left behind";
        EXPECT_EQ(slurp(out), "the old report");
        fs::remove_all(dir);
    }
}

// A new output is created as any program creates a file (0666 less the umask); a replaced one keeps
// its mode; a read-only one is not replaced: an error that says so, the file untouched.
TEST(Outputs, ModesFollowTheUmaskAndReadOnlyOutputsAreKept) {
    std::string dir = tempDir("output-modes");
    const std::string in = realDataDir() + "/" + kReal;
    const std::string exe = binDir() + "/skewscope";
    for (auto [mask, mode] : {std::pair<const char*, unsigned>{"077", 0600}, {"022", 0644}, {"002", 0664}}) {
        SCOPED_TRACE(mask);
        const std::string out = dir + "/new-" + mask + ".txt";
        RunResult r = runCommand("sh", {"-c", std::string("umask ") + mask + " && exec \"$0\" \"$@\"", exe, "analyze", in, "--output", out});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        struct stat st {};
        ASSERT_EQ(::stat(out.c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 07777, mode);
    }
    // replaced: keeps its 0640
    const std::string kept = dir + "/kept.txt";
    { std::ofstream(kept) << "old"; }
    fs::permissions(kept, fs::perms(0640), fs::perm_options::replace);
    ASSERT_EQ(runSkewscope({"analyze", in, "--output", kept}).exitCode, 0);
    EXPECT_EQ(unsigned(fs::status(kept).permissions()), 0640u);
    EXPECT_NE(slurp(kept), "old");
    // read-only: refused, also for root (who may write it anyway)
    const std::string ro = dir + "/readonly.txt";
    { std::ofstream(ro) << "keep me"; }
    fs::permissions(ro, fs::perms(0444), fs::perm_options::replace);
    for (std::string format : {"text", "json"}) {
        RunResult r = runSkewscope({"analyze", in, "--format", format, "--output", ro});
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_EQ(r.err, "skewscope: cannot write " + ro + ": it exists and is read-only (mode 0444); not replacing it. "
                         "Make it writable or remove it first\n");
        EXPECT_EQ(slurp(ro), "keep me");
    }
    EXPECT_EQ(entries(dir), 5u);  // three new, the kept one, the read-only one: no temporary file
    fs::remove_all(dir);
}
