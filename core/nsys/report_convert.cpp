#include "nsys/report_convert.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/errors.h"
#include "util/interrupt_cleanup.h"

extern char** environ;

namespace skew {
namespace {

std::string findOnPath(const std::string& exe) {
    const char* p = std::getenv("PATH");
    if (!p) return {};
    std::string path = p;
    size_t pos = 0;
    while (pos <= path.size()) {
        size_t next = path.find(':', pos);
        if (next == std::string::npos) next = path.size();
        std::string dir = path.substr(pos, next - pos);
        if (dir.empty()) dir = ".";
        std::string cand = dir + "/" + exe;
        if (::access(cand.c_str(), X_OK) == 0) return cand;
        pos = next + 1;
    }
    return {};
}

// nsys's environment: ours, with TMPDIR in the scratch folder (what nsys leaves there goes with it).
std::vector<std::string> childEnvironment(const std::string& scratch) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "TMPDIR=", 7) != 0) env.emplace_back(*e);
    env.push_back("TMPDIR=" + scratch);
    return env;
}

// Waits for `pid` until `deadline`; true with its status when it ended, false when time ran out.
bool waitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline, int& status) {
    while (true) {
        pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) return true;
        if (r < 0 && errno != EINTR) return true;  // (not our child any more: nothing to wait for)
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// Stops nsys and whatever it started: SIGTERM to its process group, SIGKILL 2 s later.
void stopGroup(pid_t pid) {
    int status = 0;
    ::kill(-pid, SIGTERM);
    if (waitUntil(pid, std::chrono::steady_clock::now() + std::chrono::seconds(2), status)) {
        ::kill(-pid, SIGKILL);  // (children it left behind)
        return;
    }
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace

int nsysTimeoutSeconds() {
    const char* e = std::getenv("SKEWSCOPE_NSYS_TIMEOUT_S");
    if (!e || !*e) return kNsysTimeoutS;
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(e, &end, 10);
    if (*e < '0' || *e > '9' || !end || *end != '\0' || errno != 0 || v < 1 || v > 604800)
        throw InputError("SKEWSCOPE_NSYS_TIMEOUT_S takes whole seconds from 1 to 604800, not '" + std::string(e) + "'");
    return int(v);
}

std::string convertReport(const std::string& path) {
    std::string nsys = findOnPath("nsys");
    std::string suggested = path.substr(0, path.rfind('.')) + ".sqlite";
    if (nsys.empty())
        throw InputError(path + " is an Nsight Systems report, not an SQLite export, and `nsys` is not on PATH; "
                         "convert it with: nsys export --type sqlite --output " + suggested + " " + path);
    const int timeout = nsysTimeoutSeconds();
    // Convert into a private folder: never write next to (or over) the user's files.
    const char* tmp = std::getenv("TMPDIR");
    std::string dirTmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/skewscope-XXXXXX";
    if (!::mkdtemp(dirTmpl.data())) throw InputError("cannot create a temporary folder to convert " + path);
    CleanupPath scratch(dirTmpl, CleanupKind::Folder);  // removed on Ctrl-C
    auto removeScratch = [&] {
        std::error_code ec;
        std::filesystem::remove_all(dirTmpl, ec);
        scratch.release();
    };
    std::string out = dirTmpl + "/" + std::filesystem::path(path).stem().string() + ".sqlite";
    const std::string command = "`nsys export --type sqlite --output " + out + " " + path + "`";
    // everything the child needs is made before fork: after it, only async-signal-safe calls
    std::vector<std::string> envStrings = childEnvironment(dirTmpl);
    std::vector<char*> envp;
    for (auto& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
    const char* argv[] = {"nsys", "export", "--type", "sqlite", "--output", out.c_str(), path.c_str(), nullptr};
    pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);  // its own group: stopped with whatever it starts
        int devnull = ::open("/dev/null", O_WRONLY);
        if (devnull >= 0) ::dup2(devnull, 1);
        ::execve(nsys.c_str(), const_cast<char* const*>(argv), envp.data());
        _exit(127);
    }
    if (pid < 0) {
        removeScratch();
        throw InputError(command + " could not be started: " + std::strerror(errno));
    }
    ::setpgid(pid, pid);  // (also here: the group exists before anyone signals it)
    CleanupChild child(pid);
    int status = 0;
    if (!waitUntil(pid, std::chrono::steady_clock::now() + std::chrono::seconds(timeout), status)) {
        stopGroup(pid);
        child.release();
        removeScratch();
        throw InputError(command + " did not finish within " + std::to_string(timeout) +
                         " s and was stopped (SKEWSCOPE_NSYS_TIMEOUT_S sets the limit); convert the report yourself with: "
                         "nsys export --type sqlite --output " + suggested + " " + path);
    }
    child.release();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || ::access(out.c_str(), R_OK) != 0) {
        removeScratch();  // leave nothing behind: the partial export and the private folder
        throw InputError(command + " failed" + (WIFEXITED(status) ? " (exit code " + std::to_string(WEXITSTATUS(status)) + ")" : ""));
    }
    return out;
}

}  // namespace skew
