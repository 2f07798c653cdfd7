// Nothing waited on forever, nothing left behind (issue 21): a FIFO where SQLite keeps a journal or
// where a snapshot should be is refused instead of hanging; `nsys` gets a time limit and is stopped
// with its scratch folder removed when it runs over or the run is interrupted; SIGINT/SIGTERM
// during a write removes the temporary file; outputs get the umask's mode and a read-only output is
// not replaced.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "util/atomic_file.h"

extern char** environ;

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

const std::string kReal = "nsysai-mfu_2gpu_before.sqlite";

std::string realCopy(const std::string& dir) {
    std::string p = dir + "/run.sqlite";
    fs::copy_file(realDataDir() + "/" + kReal, p, fs::copy_options::overwrite_existing);
    return p;
}

size_t entries(const std::string& dir) { return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator())); }

// A stand-in for `nsys` that writes its process id to `pidFile` and then waits (as a hung nsys
// would) in place: the process skewscope started is the one that waits.
std::string hangingNsys(const std::string& dir, const std::string& pidFile) {
    std::string bin = dir + "/bin";
    fs::create_directories(bin);
    {
        std::ofstream f(bin + "/nsys");
        f << "#!/bin/sh\necho $$ > '" << pidFile << ".tmp'\nmv '" << pidFile << ".tmp' '" << pidFile << "'\nexec sleep 120\n";
    }
    fs::permissions(bin + "/nsys", fs::perms::owner_all);
    return bin;
}

// True when no process has the id any more (skewscope reaped it: the id is not reused meanwhile).
bool gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

pid_t readPid(const std::string& file) {
    std::ifstream in(file);
    pid_t pid = 0;
    in >> pid;
    return pid;
}

}  // namespace

// SQLite opens a hot journal's file without O_NONBLOCK: a FIFO named x.sqlite-journal made every
// read of x.sqlite wait forever for a writer. `timeout` only guards the test run.
TEST(NoHangs, FifoAsTheJournalIsRefused) {
    std::string dir = tempDir("fifo-journal");
    std::string in = realCopy(dir);
    ASSERT_EQ(::mkfifo((in + "-journal").c_str(), 0600), 0);
    RunResult r = runCommand("timeout", {"120", binDir() + "/skewscope", "info", "--no-cache", in});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(r.err, "skewscope: " + in + "-journal is not a regular file (a pipe, device, socket or folder where SQLite keeps its "
                     "rollback journal); Skewscope does not read through it. Remove it, or copy the export elsewhere\n");
    fs::remove_all(dir);
}

// A FIFO planted where the export's snapshot is kept: not read (it would block), the export read
// instead, the report the same as without the cache.
TEST(NoHangs, FifoAtTheSnapshotPathIsNotWaitedOn) {
    std::string dir = tempDir("fifo-snapshot");
    std::string in = realCopy(dir);
    const std::string env = "SKEWSCOPE_CACHE_DIR=" + dir + "/cache";
    RunResult first = runSkewscope({"analyze", in}, env);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    std::vector<fs::path> snaps;
    for (const auto& e : fs::directory_iterator(dir + "/cache"))
        if (e.path().extension() == ".snap") snaps.push_back(e.path());
    ASSERT_EQ(snaps.size(), 1u);
    fs::remove(snaps[0]);
    ASSERT_EQ(::mkfifo(snaps[0].c_str(), 0600), 0);
    RunResult r = runCommand("timeout", {"120", binDir() + "/skewscope", "analyze", in}, env);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, runSkewscope({"analyze", "--no-cache", in}).out);
    fs::remove_all(dir);
}

// `nsys export` that never finishes: stopped after SKEWSCOPE_NSYS_TIMEOUT_S, exit 3 with what to
// do, the scratch folder removed, the process gone. A time limit that is not a number is named.
TEST(NoHangs, NsysThatNeverFinishesIsStoppedAfterItsTimeLimit) {
    std::string dir = tempDir("nsys-hangs");
    std::string bin = hangingNsys(dir, dir + "/nsys.pid");
    std::string tmp = dir + "/tmp";
    fs::create_directories(tmp);
    { std::ofstream(dir + "/capture.nsys-rep") << "report"; }
    const std::string env = "PATH=" + bin + ":/usr/bin:/bin TMPDIR=" + tmp;
    RunResult r = runSkewscope({"info", dir + "/capture.nsys-rep"}, env + " SKEWSCOPE_NSYS_TIMEOUT_S=1");
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("did not finish within 1 s and was stopped (SKEWSCOPE_NSYS_TIMEOUT_S sets the limit)"));
    EXPECT_EQ(entries(tmp), 0u) << "the scratch folder was left behind";
    pid_t nsys = readPid(dir + "/nsys.pid");
    ASSERT_GT(nsys, 0);
    EXPECT_TRUE(gone(nsys)) << "nsys (pid " << nsys << ") still runs";

    RunResult bad = runSkewscope({"info", dir + "/capture.nsys-rep"}, env + " SKEWSCOPE_NSYS_TIMEOUT_S=1e3");
    EXPECT_EQ(bad.exitCode, 3);
    EXPECT_EQ(bad.err, "skewscope: SKEWSCOPE_NSYS_TIMEOUT_S takes whole seconds from 1 to 604800, not '1e3'\n");
    fs::remove_all(dir);
}

// Ctrl-C during the conversion: skewscope dies of SIGINT as before, but nsys is stopped and the
// scratch folder is gone.
TEST(Interrupted, CtrlCDuringConversionStopsNsysAndRemovesItsFolder) {
    std::string dir = tempDir("nsys-ctrl-c");
    const std::string pidFile = dir + "/nsys.pid";
    std::string bin = hangingNsys(dir, pidFile);
    std::string tmp = dir + "/tmp";
    fs::create_directories(tmp);
    { std::ofstream(dir + "/capture.nsys-rep") << "report"; }
    std::vector<std::string> envs;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "PATH=", 5) && std::strncmp(*e, "TMPDIR=", 7)) envs.emplace_back(*e);
    envs.push_back("PATH=" + bin + ":/usr/bin:/bin");
    envs.push_back("TMPDIR=" + tmp);
    envs.push_back("SKEWSCOPE_CACHE_DIR=" + dir + "/cache");
    std::vector<char*> envp;
    for (auto& e : envs) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string exe = binDir() + "/skewscope", cmd = "info", rep = dir + "/capture.nsys-rep";
    char* argv[] = {exe.data(), cmd.data(), rep.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()), 0);
    // until nsys runs (it writes its pid), or skewscope ended without starting it
    int status = 0;
    bool ended = false;
    while (!fs::exists(pidFile) && !(ended = ::waitpid(pid, &status, WNOHANG) == pid))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_FALSE(ended) << "skewscope ended before nsys ran";
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
    EXPECT_EQ(entries(tmp), 0u) << "the scratch folder was left behind";
    pid_t nsys = readPid(pidFile);
    ASSERT_GT(nsys, 0);
    EXPECT_TRUE(gone(nsys)) << "nsys (pid " << nsys << ") still runs";
    if (!gone(nsys)) ::kill(nsys, SIGKILL);
    fs::remove_all(dir);
}

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
        EXPECT_EQ(withoutWhatIfWarning(r.err), "skewscope: cannot write " + ro + ": it exists and is read-only (mode 0444); not replacing it. "
                         "Make it writable or remove it first\n");
        EXPECT_EQ(slurp(ro), "keep me");
    }
    EXPECT_EQ(entries(dir), 5u);  // three new, the kept one, the read-only one: no temporary file
    fs::remove_all(dir);
}
