#pragma once
// SKEWSCOPE_TIMING=1 prints the time of each stage of a pipeline to stderr, one line per stage
// ("analyze: grouping     12.34 ms"): for profiling, not for tests. Off, it costs one branch.

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace skew {

class StageClock {
public:
    explicit StageClock(const char* pipeline) : pipeline_(pipeline) {}

    void done(const char* stage) {
        if (!on_) return;
        auto t = std::chrono::steady_clock::now();
        std::fprintf(stderr, "%s: %-16s %8.2f ms\n", pipeline_, stage, std::chrono::duration<double, std::milli>(t - last_).count());
        last_ = t;
    }

private:
    const char* pipeline_;
    bool on_ = std::getenv("SKEWSCOPE_TIMING") != nullptr;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace skew
