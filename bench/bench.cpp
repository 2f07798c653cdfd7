// skewscope-bench: the performance figures of the loader, the analysis and the run views.
//   skewscope-bench [--kernels N] [--file PATH] [--ranks R] [--repeat N] [--shuffled] [--views] [--whatif-only]
//   skewscope-bench --viewer [--kernels N | --file PATH | --open PATH...] [--repeat N]
//   skewscope-bench --summaries DIR | --per-rank R [--repeat N]   (a job from its summaries: bench_summaries.h)
// Generates (once, cached in $TMPDIR) a multi-rank export with at least N kernels (each table in
// start order, as nsys writes them; --shuffled: out of order, as the tests read them), then times in one
// run: a plain SQLite scan of the columns the loader reads, loadProfile, and analyze. With --views
// (builds with the viewer only) it also builds the run views offscreen at 1920x1080 and times their
// frames, hit testing and the level-of-detail structures' memory. The what-if (replay and every
// scenario) is timed on its own after the analysis; --whatif-only times only that. --viewer (alone)
// opens the export, or the --open inputs (files, summaries, folders), in the real window offscreen,
// cold and from the cache, and prints the time to the first picture, the frame times and the memory
// against the CLI's (bench_viewer.cpp). Parts: bench_util (child processes, timing), bench_views.

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "bench_summaries.h"
#include "generator.h"
#include "cache/profile_cache.h"
#include "model/loader.h"
#include "nsys/export_reader.h"
#include "timeline/run_maps.h"
#include "timeline/timeline_index.h"

#include "bench_util.h"
#ifdef SKEWSCOPE_BENCH_VIEWS
#include "bench_views.h"
#endif

namespace {

using bench::ChildRun;
using bench::die;
using bench::now;
using bench::runChild;

// The columns the loader reads, per table; the scans read exactly these.
struct ScanQuery {
    const char* table;
    std::vector<const char*> columns;
    int textColumn;  // read with sqlite3_column_text; the others with sqlite3_column_int64
};
const ScanQuery kScanQueries[] = {
    {"StringIds", {"id", "value"}, 1},
    {"CUPTI_ACTIVITY_KIND_KERNEL", {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "demangledName", "shortName"}, -1},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", {"start", "end", "eventClass", "globalTid", "correlationId", "nameId"}, -1},
    {"NVTX_EVENTS", {"start", "end", "eventType", "globalTid", "text", "textId"}, 4},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", {"start", "end", "deviceId", "streamId", "globalPid", "syncType"}, -1},
};

// A query's columns joined by `sep`; with `textLength` the text column as its length (a number).
std::string columnList(const ScanQuery& q, const char* sep, bool textLength) {
    std::string out;
    for (size_t c = 0; c < q.columns.size(); ++c) {
        if (c) out += sep;
        out += textLength && int(c) == q.textColumn ? "length(" + std::string(q.columns[c]) + ")" : std::string(q.columns[c]);
    }
    return out;
}

// A scan of every table's columns, or of the part `part` of `parts` of each table by row id (the
// split scans of several threads); one connection per call, the loader's pragmas. Any failure ends
// the benchmark: a scan that silently read less would make every ratio a lie.
uint64_t plainScan(const std::string& path, int part = 0, int parts = 1) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) die("cannot open " + path);
    const std::string pragmas = "PRAGMA cache_size=-2048; PRAGMA mmap_size=" +
                                std::to_string(std::getenv("SKEWSCOPE_MMAP_MB") ? std::atoll(std::getenv("SKEWSCOPE_MMAP_MB")) << 20
                                                                                : skew::kDefaultMmapBytes) +
                                ";";
    if (sqlite3_exec(db, pragmas.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) die("cannot set the pragmas");
    uint64_t rows = 0;
    volatile int64_t sink = 0;
    for (const ScanQuery& q : kScanQueries) {
        int64_t lo = INT64_MIN, hi = INT64_MAX;
        if (parts > 1) {
            sqlite3_stmt* b = nullptr;
            std::string sql = skew::rowidBoundsSql(q.table);  // two seeks: min(rowid), max(rowid) together would scan
            if (sqlite3_prepare_v2(db, sql.c_str(), -1, &b, nullptr) != SQLITE_OK || sqlite3_step(b) != SQLITE_ROW) die("cannot size " + sql);
            int64_t a = sqlite3_column_int64(b, 0), z = sqlite3_column_int64(b, 1) + 1;
            sqlite3_finalize(b);
            lo = a + (z - a) * part / parts;
            hi = part + 1 == parts ? z : a + (z - a) * (part + 1) / parts;
        }
        std::string sql = "SELECT " + columnList(q, ", ", false) + " FROM " + q.table + " WHERE rowid >= ?1 AND rowid < ?2";
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) die("cannot prepare " + sql + ": " + sqlite3_errmsg(db));
        sqlite3_bind_int64(st, 1, lo);
        sqlite3_bind_int64(st, 2, hi);
        int n = sqlite3_column_count(st), rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            int64_t acc = 0;
            for (int c = 0; c < n; ++c) {
                if (c == q.textColumn) {
                    const unsigned char* t = sqlite3_column_text(st, c);
                    acc += t ? t[0] : 0;
                } else {
                    acc += sqlite3_column_int64(st, c);
                }
            }
            sink = sink + acc;
            ++rows;
        }
        if (rc != SQLITE_DONE) die("scan of " + std::string(q.table) + " failed: " + sqlite3_errmsg(db));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rows;
}

// The same columns summed inside SQLite (`SELECT total(a + b + ...)`, text columns by length):
// every value is decoded but none is fetched out of SQLite, the least a scan can cost (what the
// sqlite3 shell does with an aggregate). A stricter yardstick than the scan above.
double aggregateScan(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) die("cannot open " + path);
    if (sqlite3_exec(db, "PRAGMA cache_size=-2048;", nullptr, nullptr, nullptr) != SQLITE_OK) die("cannot set the pragmas");
    double sum = 0;
    for (const ScanQuery& q : kScanQueries) {
        sqlite3_stmt* st = nullptr;
        const std::string agg = "SELECT total(" + columnList(q, " + ", true) + ") FROM " + q.table;
        if (sqlite3_prepare_v2(db, agg.c_str(), -1, &st, nullptr) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) die("cannot run " + agg);
        sum += sqlite3_column_double(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return sum;
}

// The scan split over `n` threads, each on its own connection, by row id.
uint64_t splitScan(const std::string& path, int n) {
    std::vector<uint64_t> rows(static_cast<size_t>(n), 0);
    std::vector<std::thread> t;
    for (int i = 0; i < n; ++i) t.emplace_back([&, i] { rows[size_t(i)] = plainScan(path, i, n); });
    for (auto& x : t) x.join();
    uint64_t total = 0;
    for (auto r : rows) total += r;
    return total;
}

struct Timed {
    double load = 1e30, analyze = 1e30;
    skew::Profile profile;
    skew::Analysis analysis;
};

// loadProfile then analyze, `repeat` times; the fastest of each (the machine may be shared).
Timed loadAndAnalyze(const std::string& file, int repeat, skew::ProfileCache* cache) {
    Timed t;
    for (int i = 0; i < repeat; ++i) {
        skew::LoadOptions lo;
        lo.cache = cache;
        double t0 = now();
        skew::Profile p = skew::loadProfile({file}, lo);
        double t1 = now();
        skew::Analysis a = skew::analyze(p);
        double t2 = now();
        t.load = std::min(t.load, t1 - t0);
        t.analyze = std::min(t.analyze, t2 - t1);
        if (i + 1 == repeat) t.profile = std::move(p), t.analysis = std::move(a);
    }
    return t;
}

// The what-if alone (it is part of the analysis): graph, captured replay, the three scenarios and
// one replay per rank, on 1 and 2 threads, best of `repeat`.
void benchWhatIf(skew::Profile& p, skew::Analysis& a, int repeat) {
    const skew::StepPattern pattern(a.options.stepRegex);
    double best[2] = {1e30, 1e30}, cpu[2] = {1e30, 1e30};  // wall, and CPU time of the process (every thread)
    for (size_t t = 1; t <= 2; ++t)
        for (int i = 0; i < repeat; ++i) {
            a.options.threads = t;
            a.whatIf = {};
            const double t0 = now(), c0 = double(std::clock()) / CLOCKS_PER_SEC;
            skew::computeWhatIf(p, a, pattern);
            best[t - 1] = std::min(best[t - 1], now() - t0);
            cpu[t - 1] = std::min(cpu[t - 1], double(std::clock()) / CLOCKS_PER_SEC - c0);
        }
    const skew::WhatIf& w = a.whatIf;
    std::printf("  what-if (replay graph, captured replay, 3 scenarios, by_rank over %zu ranks; %llu kernels, %zu steps): %.3f s on "
                "1 thread (CPU %.3f s), %.3f s on 2 threads (CPU %.3f s); replay error %lld ns, ideal slowdown %.3fx\n",
                p.ranks.size(), (unsigned long long)w.kernels, w.steps.size(), best[0], cpu[0], best[1], cpu[1], (long long)w.maxErrorNs,
                w.ideal.value_or(0.0));
}

}  // namespace

int main(int argc, char** argv) {
#ifdef SKEWSCOPE_BENCH_VIEWS
    if (argc >= 2 && std::string(argv[1]) == "--viewer-child")  // one run of --viewer (bench_viewer.cpp)
        return bench::benchViewerChild(argc, argv, std::vector<std::string>(argv + 2, argv + argc));
#endif
    uint64_t kernels = 6'000'000;
    int ranks = 8;
    int repeat = 3;
    std::string file, summaries;
    int perRank = 0;
    bool views = false, shuffled = false, whatIfOnly = false, viewer = false;
    std::vector<std::string> opens;  // --viewer's inputs instead of the export: files, summaries, folders
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--kernels" && i + 1 < argc) kernels = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--ranks" && i + 1 < argc) ranks = std::atoi(argv[++i]);
        else if (a == "--file" && i + 1 < argc) file = argv[++i];
        else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--views") views = true;
        else if (a == "--shuffled") shuffled = true;
        else if (a == "--whatif-only") whatIfOnly = true;
        else if (a == "--viewer") viewer = true;
        else if (a == "--open" && i + 1 < argc) opens.emplace_back(argv[++i]);
        else if (a == "--summaries" && i + 1 < argc) summaries = argv[++i];
        else if (a == "--per-rank" && i + 1 < argc) perRank = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: skewscope-bench [--kernels N] [--ranks R] [--file PATH] [--repeat N] [--shuffled] [--views] [--whatif-only]\n"
                         "                       [--viewer [--open PATH]...] | --summaries DIR | --per-rank R\n");
            return 2;
        }
    }
    auto spawn = [](const std::vector<std::string>& args, const std::vector<std::string>& env) { const ChildRun r = runChild(args, env); return BenchChild{r.seconds, r.peakRssKb, r.exitCode}; };
    if (!summaries.empty() || perRank > 0) return benchSummaries(bench::binDirOf(argv[0]) + "/skewscope", summaries, perRank, repeat, spawn);
    if (viewer && !opens.empty()) {
#ifdef SKEWSCOPE_BENCH_VIEWS
        return bench::benchViewer(argv[0], opens, repeat);
#else
        std::fprintf(stderr, "--viewer needs a build with the viewer (SKEWSCOPE_BUILD_UI)\n");
        return 2;
#endif
    }
    if (file.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        file = std::string(tmp && *tmp ? tmp : "/tmp") + "/skewscope-bench-" + std::to_string(kernels) + "-r" +
               std::to_string(ranks) + (shuffled ? "-v2.sqlite" : "-ordered-v3.sqlite");
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) {
            skewgen::GenConfig cfg;
            cfg.ranks = ranks;
            cfg.layers = 9;
            cfg.allReduce = true;
            cfg.extraKernelsPerCollective = 5;  // 5M kernels then hold > 100,000 FSDP collectives (the heatmap figure)
            cfg.seed = 42;
            cfg.timeOrdered = !shuffled;  // as nsys writes its tables (every real export), or out of order
            cfg.steps = int((kernels + skewgen::kernelsPerStep(cfg) - 1) / skewgen::kernelsPerStep(cfg));
            cfg.late = {{2, 5, 1, 30'000'000, skewgen::LateKind::Cpu}, {3, 14, 3, 45'000'000, skewgen::LateKind::Gpu}};
            double t = now();
            std::fprintf(stderr, "generating %s (%d steps)...\n", file.c_str(), cfg.steps);
            auto r = skewgen::generate(cfg, file);
            std::fprintf(stderr, "generated %llu kernels in %.1f s\n", (unsigned long long)r.kernelRows, now() - t);
        }
    }
    struct stat st {};
    ::stat(file.c_str(), &st);
    std::printf("export: %s (%.0f MB)\n", file.c_str(), double(st.st_size) / 1e6);
    if (viewer) {
#ifdef SKEWSCOPE_BENCH_VIEWS
        return bench::benchViewer(argv[0], {file}, repeat);
#else
        std::fprintf(stderr, "--viewer needs a build with the viewer (SKEWSCOPE_BUILD_UI)\n");
        return 2;
#endif
    }
    if (whatIfOnly) {  // the what-if figure alone: load, analyze, then time the what-if
        Timed t = loadAndAnalyze(file, 1, nullptr);
        benchWhatIf(t.profile, t.analysis, repeat);
        return 0;
    }

    // the scans: one thread over every table, and two threads each over half of every table
    plainScan(file);  // warm the page cache so every timing reads from memory
    double scan = 1e30, split = 1e30, aggregate = 1e30;
    uint64_t scanRows = 0;
    for (int i = 0; i < repeat; ++i) {
        double t0 = now();
        scanRows = plainScan(file);
        scan = std::min(scan, now() - t0);
        t0 = now();
        if (splitScan(file, 2) != scanRows) die("the split scan read another number of rows");
        split = std::min(split, now() - t0);
        t0 = now();
        aggregateScan(file);
        aggregate = std::min(aggregate, now() - t0);
    }
    std::printf("rows scanned: %llu\n", (unsigned long long)scanRows);
    std::printf("single-thread SQLite scan of the columns read: %.2f s (%.2f M rows/s)\n", scan, double(scanRows) / scan / 1e6);
    std::printf("two threads, each scanning half of every table by row id: %.2f s = %.2fx the single scan\n", split, split / scan);
    std::printf("the same columns summed inside SQLite (no value fetched out of it): %.2f s = %.2fx the single scan\n", aggregate,
                aggregate / scan);

    // What a user sees: `skewscope analyze` in a fresh process (its own memory, nothing warm but
    // the page cache), cold (no profile cache) with 1 and 2 loading threads, then reopened from its
    // snapshot. Best of `repeat` runs each; the peaks are those of that run.
    const std::string cli = bench::binDirOf(argv[0]) + "/skewscope";
    const std::string cacheDir = file + ".bench-cache";
    skew::ProfileCache(cacheDir).clear();
    auto best = [&](const std::vector<std::string>& args, const std::vector<std::string>& env) {
        ChildRun b;
        b.seconds = 1e30;
        for (int i = 0; i < repeat; ++i) {
            ChildRun r = runChild(args, env);
            if (r.exitCode != 0) die("skewscope analyze failed");
            if (r.seconds < b.seconds) b = r;
        }
        return b;
    };
    const std::vector<std::string> analyzeCold = {cli, "analyze", file, "--format", "text", "--output", "/dev/null", "--no-cache"};
    ChildRun coldRuns[2];
    for (int t = 1; t <= 2; ++t) coldRuns[t - 1] = best(analyzeCold, {"SKEWSCOPE_LOAD_THREADS=" + std::to_string(t)});
    if (runChild({cli, "analyze", file, "--format", "text", "--output", "/dev/null"}, {"SKEWSCOPE_CACHE_DIR=" + cacheDir}).exitCode != 0)
        die("skewscope analyze failed");  // this run writes the snapshot
    ChildRun reopen[2], json[2];
    for (int t = 1; t <= 2; ++t) {
        const std::string threads = "SKEWSCOPE_LOAD_THREADS=" + std::to_string(t);
        reopen[t - 1] = best({cli, "analyze", file, "--format", "text", "--output", "/dev/null"}, {"SKEWSCOPE_CACHE_DIR=" + cacheDir, threads});
        json[t - 1] = best({cli, "analyze", file, "--format", "json", "--output", "/dev/null", "--no-cache"}, {threads});
    }

    // in this process: the same load and analysis split into their parts
    ::setenv("SKEWSCOPE_LOAD_THREADS", "1", 1);
    Timed cold = loadAndAnalyze(file, 1, nullptr);
    ::unsetenv("SKEWSCOPE_LOAD_THREADS");
    skew::Profile& p = cold.profile;
    const uint64_t k = p.kernelCount();
    uint64_t nccl = 0;
    for (const auto& r : p.ranks) nccl += r.ncclKernelCount();
    uint32_t colls = 0;
    for (const auto& g : cold.analysis.groups) colls += g.count;
    std::printf("kernels: %llu (%llu NCCL), launch rows kept: %llu, %u collectives\n", (unsigned long long)k, (unsigned long long)nccl,
                (unsigned long long)p.launchCount(), colls);

    auto child = [&](const char* what, const ChildRun& r) {
        std::printf("%s: %.2f s = %.2fx the single scan (%.2fx the summing scan); peak anonymous memory %.1f bytes per kernel, peak RSS "
                    "%.0f MB = %.1f bytes per kernel\n",
                    what, r.seconds, r.seconds / scan, r.seconds / aggregate, double(r.peakAnonKb) * 1024 / double(k),
                    double(r.peakRssKb) / 1024, double(r.peakRssKb) * 1024 / double(k));
    };
    std::printf("\nskewscope analyze FILE --format text (a fresh process; load, full analysis, report):\n");
    child("  cold, 1 loading thread  ", coldRuns[0]);
    child("  cold, 2 loading threads ", coldRuns[1]);
    child("  reopened from its snapshot, 1 thread ", reopen[0]);
    child("  reopened from its snapshot, 2 threads", reopen[1]);
    child("  cold, 1 thread, --format json  ", json[0]);
    child("  cold, 2 threads, --format json ", json[1]);

    std::printf("\nparts, in this process (1 loading thread):\n");
    std::printf("  load %.2f s, analysis %.3f s = %.1f ms per million kernels loaded (%.1f ms per million NCCL kernels), one core\n",
                cold.load, cold.analyze, cold.analyze * 1e3 / (double(k) / 1e6), cold.analyze * 1e3 / (double(nccl) / 1e6));
    std::printf("  model: %.1f bytes per kernel in the kernel and launch columns\n", double(p.residentBytes()) / double(k));
    benchWhatIf(p, cold.analysis, repeat);
    {
        skew::ProfileCache cache(cacheDir);
        cache.clear();
        double t0 = now();
        std::string error;
        p.inputs[0].identity = skew::identifyFile(file);  // a load without a cache does not stat its file
        if (!cache.store(p, 0, &error)) die(error);
        std::printf("  snapshot written in %.2f s (%.0f MB)\n", now() - t0, double(cache.info().bytes) / 1e6);
        cache.clear();
    }
    ::rmdir(cacheDir.c_str());
    {
        // what the viewer's progress bar and Cancel button see, on every core: the first report of
        // reading progress, and a cancel 1 s into the read until loadProfile has returned (every
        // reading thread joined)
        const double t0 = now();
        double firstCall = -1, firstReport = -1, cancelAt = -1;
        skew::LoadOptions lo;
        lo.progress = [&](std::string_view phase, double fraction) {
            const double t = now();
            if (firstCall < 0) firstCall = t - t0;
            if (phase == "reading" && fraction > 0 && firstReport < 0) firstReport = t - t0;
            if (t - t0 < 1.0) return true;
            if (cancelAt < 0) cancelAt = t;
            return false;
        };
        bool cancelled = false;
        try {
            skew::loadProfile({file}, lo);
        } catch (const skew::Cancelled&) {
            cancelled = true;
        }
        const double stopped = now();
        if (!cancelled) die("the load was not cancelled");
        if (firstReport < 0) die("no reading progress within the first second");
        std::printf("  progress: first report %.0f ms after the open, first rows read reported at %.0f ms; cancel 1 s in: every "
                    "thread stopped %.0f ms later\n",
                    firstCall * 1e3, firstReport * 1e3, (stopped - cancelAt) * 1e3);
    }
    if (views) {
#ifdef SKEWSCOPE_BENCH_VIEWS
        bench::benchViews(argc, argv, std::move(cold.profile), std::move(cold.analysis), file);
#else
        std::fprintf(stderr, "--views needs a build with the viewer (SKEWSCOPE_BUILD_UI)\n");
        return 2;
#endif
    }
    return 0;
}
