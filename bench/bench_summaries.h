#pragma once
// skewscope-bench --summaries DIR | --per-rank R: the figures of a job analysed from its summaries
// (issue 23, scale): load, analysis and what-if in this process, and `skewscope analyze DIR` in a
// fresh process on 1 and 2 threads with its peak RSS.

#include <functional>
#include <string>
#include <vector>

struct BenchChild {
    double seconds = 0;
    long peakRssKb = 0;
    int exitCode = -1;
};
// runs argv with extra environment entries; wall time and peak RSS of the child
using BenchRunChild = std::function<BenchChild(const std::vector<std::string>& args, const std::vector<std::string>& env)>;

// dir: a folder of summaries; empty with perRank > 0: a generated job of perRank per-rank exports
// (about 2,000 kernels each), generated and summarised once into $TMPDIR. Returns the exit code.
int benchSummaries(const std::string& cli, std::string dir, int perRank, int repeat, const BenchRunChild& runChild);
