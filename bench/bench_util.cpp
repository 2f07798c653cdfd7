// The benchmark's shared helpers (bench_util.h).
#include "bench_util.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bench {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void die(const std::string& msg) {
    std::fprintf(stderr, "skewscope-bench: %s\n", msg.c_str());
    std::exit(1);
}

std::string binDirOf(const char* argv0) {
    std::string s = argv0;
    auto slash = s.rfind('/');
    return slash == std::string::npos ? "." : s.substr(0, slash);
}

long selfStatusKb(const char* key) {
    std::ifstream in("/proc/self/status");
    const std::string k = std::string(key) + ":";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(k, 0) == 0) return std::strtol(line.c_str() + k.size(), nullptr, 10);
    return 0;
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    // nearest rank: the smallest value with at least q of the values at or below it
    size_t rank = size_t(std::ceil(q * double(v.size())));
    return v[std::min(v.size(), std::max<size_t>(rank, 1)) - 1];
}

ChildRun runChild(const std::vector<std::string>& args, const std::vector<std::string>& env, const std::string& out) {
    ChildRun r;
    // posix_spawn: this process waits until the child has exec'd, so every sample below is of the
    // child's own memory (a fork would first show this process's pages)
    std::vector<std::string> envStrings = env;  // first: getenv finds the first entry of a name
    for (char** e = environ; *e; ++e) envStrings.emplace_back(*e);
    std::vector<char*> a, ev;
    for (const auto& x : args) a.push_back(const_cast<char*>(x.c_str()));
    a.push_back(nullptr);
    for (auto& x : envStrings) ev.push_back(x.data());
    ev.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    double t0 = now();
    pid_t pid = 0;
    if (posix_spawn(&pid, a[0], &fa, nullptr, a.data(), ev.data()) != 0) die("cannot run " + args[0]);
    posix_spawn_file_actions_destroy(&fa);
    const std::string status = "/proc/" + std::to_string(pid) + "/status";
    int st = 0;
    rusage ru{};
    while (::wait4(pid, &st, WNOHANG, &ru) == 0) {
        std::ifstream in(status);
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("RssAnon:", 0) == 0) r.peakAnonKb = std::max(r.peakAnonKb, std::strtol(line.c_str() + 8, nullptr, 10));
            if (line.rfind("VmHWM:", 0) == 0) r.peakRssKb = std::max(r.peakRssKb, std::strtol(line.c_str() + 6, nullptr, 10));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    r.seconds = now() - t0;
    r.peakRssKb = std::max(r.peakRssKb, long(ru.ru_maxrss));  // the kernel's own peak, also of the last millisecond
    r.exitCode = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace bench
