// skewscope-bench --summaries DIR | --per-rank R (see bench_summaries.h).

#include "bench_summaries.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>

#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "cache/summary_file.h"
#include "generator.h"
#include "model/loader.h"

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double cpuNow() { return double(std::clock()) / CLOCKS_PER_SEC; }

// this process's peak resident memory (VmHWM), MB
double peakRssMb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024;
    return 0;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// Generates perRank per-rank exports (~2,000 kernels each) and summarises them, once for each
// summary format; the folder.
std::string generatedJob(const std::string& cli, int perRank, const BenchRunChild& runChild) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = std::string(tmp && *tmp ? tmp : "/tmp") + "/skewscope-bench-perrank-" + std::to_string(perRank);
    const std::string sums = base + "/summaries";
    // summaries of this build's format only (.done names it): older ones would be refused
    const std::string format = std::to_string(skew::kSummaryFormat);
    {
        std::ifstream done(sums + "/.done");
        std::string made;
        if (done >> made && made == format) return sums;
    }
    ::mkdir(base.c_str(), 0755);
    skewgen::GenConfig cfg;
    cfg.ranks = perRank;
    cfg.perRankFiles = true;
    cfg.timeOrdered = true;
    cfg.seed = 42;
    cfg.steps = std::max<int>(1, int(uint64_t(perRank) * 2000 / skewgen::kernelsPerStep(cfg)));
    double t = now();
    std::fprintf(stderr, "generating %d per-rank exports (%d steps) into %s...\n", perRank, cfg.steps, base.c_str());
    const skewgen::GenResult r = skewgen::generate(cfg, base + "/job");
    std::fprintf(stderr, "generated %llu kernels in %.1f s; summarising...\n", (unsigned long long)r.kernelRows, now() - t);
    std::vector<std::string> args = {cli, "summarize"};
    args.insert(args.end(), r.files.begin(), r.files.end());
    args.insert(args.end(), {"--output", sums});
    t = now();
    if (runChild(args, {}).exitCode != 0) return "";
    for (const std::string& f : r.files) std::remove(f.c_str());  // the summaries are what is measured
    std::ofstream(sums + "/.done") << format << "\n";
    std::fprintf(stderr, "summarised in %.1f s\n", now() - t);
    return sums;
}

}  // namespace

int benchSummaries(const std::string& cli, std::string dir, int perRank, int repeat, const BenchRunChild& runChild) {
    if (dir.empty()) dir = generatedJob(cli, perRank, runChild);
    if (dir.empty() || !exists(dir)) {
        std::fprintf(stderr, "skewscope-bench: no summaries to read\n");
        return 1;
    }
    std::printf("summaries: %s\n", dir.c_str());
    // in this process: load, analysis (the what-if included), then the what-if alone per thread count
    skew::LoadOptions lo;
    lo.summaries = &skew::summaryFiles();
    double t0 = now(), c0 = cpuNow();
    skew::Profile p = skew::loadProfile({dir}, lo);
    const double load = now() - t0, loadCpu = cpuNow() - c0;
    t0 = now(), c0 = cpuNow();
    skew::Analysis a = skew::analyze(p);
    const double analysis = now() - t0, analysisCpu = cpuNow() - c0;
    std::printf("ranks: %zu, kernels: %llu, what-if steps: %zu, by_rank: %zu ranks\n", p.ranks.size(),
                (unsigned long long)p.kernelCount(), a.whatIf.steps.size(), a.whatIf.byRank.size());
    std::printf("in this process (threads: every core): load %.3f s (CPU %.3f s), analysis %.3f s (CPU %.3f s), peak RSS %.0f MB\n", load,
                loadCpu, analysis, analysisCpu, peakRssMb());
    const skew::StepPattern pattern(a.options.stepRegex);
    for (size_t threads = 1; threads <= 2; ++threads) {
        double best = 1e30, cpu = 1e30;
        for (int i = 0; i < repeat; ++i) {
            a.options.threads = threads;
            a.whatIf = {};
            t0 = now(), c0 = cpuNow();
            skew::computeWhatIf(p, a, pattern);
            best = std::min(best, now() - t0), cpu = std::min(cpu, cpuNow() - c0);
        }
        std::printf("  what-if alone (graph, captured replay, 3 scenarios, by_rank over %zu ranks), %zu thread(s): %.3f s (CPU %.3f s)\n",
                    p.ranks.size(), threads, best, cpu);
    }
    // what a user runs: a fresh process, best of `repeat`
    std::printf("skewscope analyze DIR --format json --no-cache (a fresh process, best of %d):\n", repeat);
    for (int threads = 1; threads <= 2; ++threads) {
        BenchChild best;
        best.seconds = 1e30;
        for (int i = 0; i < repeat; ++i) {
            const BenchChild r = runChild({cli, "analyze", dir, "--format", "json", "--output", "/dev/null", "--no-cache"},
                                          {"SKEWSCOPE_LOAD_THREADS=" + std::to_string(threads)});
            if (r.exitCode != 0) {
                std::fprintf(stderr, "skewscope-bench: skewscope analyze failed (exit %d)\n", r.exitCode);
                return 1;
            }
            if (r.seconds < best.seconds) best = r;
        }
        std::printf("  %d thread(s): %.3f s, peak RSS %.0f MB\n", threads, best.seconds, double(best.peakRssKb) / 1024);
    }
    return 0;
}
