#pragma once
// What the benchmark's parts share: the clock, the fatal error, a child process timed with its peak
// memory, the timing of repeated runs, this process's memory from /proc/self/status.

#include <algorithm>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace bench {

double now();  // seconds, monotonic
[[noreturn]] void die(const std::string& msg);
std::string binDirOf(const char* argv0);  // the folder of this executable (the build's bin/)

// A child process's wall time, peak RSS (VmHWM: what top shows at its worst) and peak anonymous
// memory (RssAnon sampled every millisecond), exit code.
struct ChildRun {
    double seconds = 0;
    long peakRssKb = 0, peakAnonKb = 0;
    int exitCode = -1;
};
// Runs `args` with `env` before this process's environment; its standard output to `out`.
ChildRun runChild(const std::vector<std::string>& args, const std::vector<std::string>& env, const std::string& out = "/dev/null");

// This process's line `key` of /proc/self/status in kB (VmHWM, VmRSS, RssAnon), 0 when absent.
long selfStatusKb(const char* key);

// The q-quantile (0..1) of `v` by the nearest rank (v is sorted here); 0 for none.
double quantile(std::vector<double> v, double q);

// best and median of `n` runs of f, in ms of wall-clock time (or of the process's CPU time, all
// threads: the machine may be shared, and CPU time does not count waiting for a core)
template <typename F>
std::pair<double, double> timeMs(int n, F f, bool cpu = false) {
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
        timespec a{}, b{};
        clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &a);
        f();
        clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &b);
        t.push_back(double(b.tv_sec - a.tv_sec) * 1e3 + double(b.tv_nsec - a.tv_nsec) / 1e6);
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

}  // namespace bench
