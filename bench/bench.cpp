// skewscope-bench: the performance figures of the loader, the analysis and the run views.
//   skewscope-bench [--kernels N] [--file PATH] [--ranks R] [--repeat N] [--views]
// Generates (once, cached in $TMPDIR) a multi-rank export with at least N kernels, then times in one
// run: a plain SQLite scan of the columns the loader reads, loadProfile, and analyze. With --views
// (builds with the viewer only) it also builds the run views offscreen at 1920x1080 and times their
// frames, hit testing and the level-of-detail structures' memory.

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "generator.h"
#include "model/loader.h"
#include "timeline/run_maps.h"
#include "timeline/timeline_index.h"

#ifdef SKEWSCOPE_BENCH_VIEWS
#include <QApplication>
#include <QPainter>

#include <random>

#include "heatmap_view.h"
#include "session.h"
#include "stepmap_view.h"
#include "timeline_view.h"
#endif

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

long rssKb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

// One sequential scan per table over the same columns the loader reads; returns rows read.
uint64_t plainScan(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    // the loader's connection settings (flags and pragmas), so that both read the file the same way
    sqlite3_exec(db, "PRAGMA cache_size=-65536; PRAGMA mmap_size=1073741824;", nullptr, nullptr, nullptr);
    struct Q {
        const char* sql;
        int textColumn;  // read with sqlite3_column_text; the others with sqlite3_column_int64
    };
    const Q queries[] = {
        {"SELECT id, value FROM StringIds", 1},
        {"SELECT start, end, deviceId, streamId, correlationId, globalPid, demangledName, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL", -1},
        {"SELECT start, end, eventClass, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME", -1},
        {"SELECT start, end, eventType, globalTid, text, textId, domainId FROM NVTX_EVENTS", 4},
        {"SELECT start, end, deviceId, streamId, globalPid, syncType FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", -1},
    };
    uint64_t rows = 0;
    volatile int64_t sink = 0;
    for (const Q& q : queries) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, q.sql, -1, &st, nullptr) != SQLITE_OK) continue;
        int n = sqlite3_column_count(st);
        while (sqlite3_step(st) == SQLITE_ROW) {
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
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rows;
}

#ifdef SKEWSCOPE_BENCH_VIEWS
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

void benchViews(int argc, char** argv, skew::Profile&& p, skew::Analysis&& a, const std::string& file) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    auto s = std::make_shared<skewui::Session>();
    s->files = {file};
    s->profile = std::move(p);
    s->analysis = std::move(a);
    double t0 = now();
    s->timeline = skew::TimelineIndex(s->profile, s->analysis);
    const double build = now() - t0;
    const double k = double(s->profile.kernelCount());
    const auto b = s->timeline.bytes();
    std::printf("level of detail: built in %.3f s; %.2f extra bytes per kernel (block sums %.2f, launch order %.2f, collective order %.2f, "
                "unsorted ends %.2f, names %.3f, missing %.3f)\n",
                build, double(b.total()) / k, double(b.blocks) / k, double(b.launches) / k, double(b.collectives) / k,
                double(b.unsortedEnds) / k, double(b.names) / k, double(b.missing) / k);
    const QSize size(1920, 1080);
    const int runs = std::getenv("SKEWSCOPE_BENCH_VIEW_RUNS") ? std::max(1, std::atoi(std::getenv("SKEWSCOPE_BENCH_VIEW_RUNS"))) : 50;
    // the biggest late arriver, to zoom on
    int worst = 0;
    for (size_t i = 0; i < s->analysis.collectives.size(); ++i)
        if (s->analysis.collectives[i].startSkew() > s->analysis.collectives[size_t(worst)].startSkew()) worst = int(i);

    skewui::TimelineView tl;
    tl.resize(size);
    tl.setSession(s);
    tl.show();
    tl.fit();
    // a redraw after the view moved: the frame body is rebuilt (labels of an unchanged layout stay cached)
    QImage screen(size, QImage::Format_ARGB32_Premultiplied);
    auto redraw = [&] {
        tl.invalidate();
        QPainter p(&screen);
        tl.paintTo(p, size, true);  // what paintEvent does
    };
    auto full = timeMs(runs, redraw);
    auto fullCpu = timeMs(runs, redraw, true);
    std::printf("timeline, full zoom-out (%zu rows, %.0f kernels), frame redrawn on screen: best %.2f ms, median %.2f ms; CPU time best %.2f ms "
                "(target <= 16)\n",
                tl.rows().size(), k, full.first, full.second, fullCpu.first);
    tl.setSelectedCollective(worst);
    tl.fitCollective();
    auto one = timeMs(runs, redraw);
    auto oneCpu = timeMs(runs, redraw, true);
    auto exportFrame = timeMs(runs, [&] { tl.render(size); });
    std::printf("timeline, zoomed to one collective (%.2f ms visible): best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 2); "
                "as an exported image (no cached labels) best %.2f ms\n",
                (tl.rangeEnd() - tl.rangeStart()) / 1e6, one.first, one.second, oneCpu.first, exportFrame.first);
    tl.fit();
    std::mt19937 rng(7);
    const QRect area = tl.rowsArea();
    std::vector<QPointF> pts;
    for (int i = 0; i < 20000; ++i)
        pts.emplace_back(area.left() + double(rng() % uint32_t(area.width())), area.top() + double(rng() % uint32_t(area.height())));
    int hits = 0;
    auto hit = timeMs(1, [&] {
        for (const auto& q : pts) hits += tl.hitTest(q).kind != skewui::TimelineView::Hit::None;
    });
    size_t tipChars = 0;
    auto tip = timeMs(1, [&] {
        for (size_t i = 0; i < 2000; ++i) tipChars += size_t(tl.tooltipAt(pts[i]).size());
    });
    std::printf("timeline hover at full zoom-out: hit test %.2f us per position, hit test + tooltip text %.2f us (target <= 1 ms; %d of %zu hit)\n",
                hit.first * 1e3 / double(pts.size()), tip.first * 1e3 / 2000.0, hits, pts.size());

    // the core parts of those frames alone: every lane's merged columns, every CPU row's launch counts
    {
        const skew::TimelineIndex& ix = s->timeline;
        const int W = tl.rowsArea().width();
        skew::PixelMap m = skew::PixelMap::fit(double(ix.start()), double(ix.end()), W);
        std::vector<skew::ColumnSum> cols(static_cast<size_t>(W));
        std::vector<uint32_t> la(static_cast<size_t>(W)), ln(static_cast<size_t>(W));
        auto lanes = timeMs(runs, [&] {
            for (size_t r = 0; r < s->profile.ranks.size(); ++r)
                for (size_t l = 0; l < s->profile.ranks[r].lanes.size(); ++l) ix.columns(int(r), int(l), m, cols.data());
        }, true);
        auto cpu = timeMs(runs, [&] {
            for (size_t r = 0; r < s->profile.ranks.size(); ++r) ix.launchColumns(int(r), m, la.data(), ln.data());
        }, true);
        std::printf("  of which the level-of-detail queries (%d columns, CPU time): every lane %.2f ms, every CPU launch row %.2f ms\n", W,
                    lanes.first, cpu.first);
    }

    skewui::HeatmapView hm;
    hm.resize(size);
    hm.setSession(s);
    hm.show();
    const auto& g = s->analysis.groups[size_t(hm.group())];
    auto heat = timeMs(runs, [&] { hm.replot(QCustomPlot::rpImmediateRefresh); });
    auto heatCpu = timeMs(runs, [&] { hm.replot(QCustomPlot::rpImmediateRefresh); }, true);
    skew::HeatmapCells cells;
    auto heatCore = timeMs(runs, [&] {
        skew::heatmapCells(s->profile, s->analysis, hm.group(), 0, double(s->analysis.groups[size_t(hm.group())].count), hm.axisRect()->width(), cells);
    });
    std::printf("heatmap of %u collectives x %zu ranks, whole frame: best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 16)\n",
                g.count, g.width(), heat.first, heat.second, heatCpu.first);
    std::printf("  of which the cells merged by maximum (%d columns): best %.2f ms\n", hm.axisRect()->width(), heatCore.first);

    skewui::StepMapView sm;
    sm.resize(size);
    sm.setSession(s);
    sm.show();
    auto step = timeMs(runs, [&] { sm.replot(QCustomPlot::rpImmediateRefresh); });
    auto stepCpu = timeMs(runs, [&] { sm.replot(QCustomPlot::rpImmediateRefresh); }, true);
    std::printf("step map of %zu collectives in %u steps, whole frame: best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 8)\n",
                sm.map().items.size(), sm.map().steps, step.first, step.second, stepCpu.first);
}
#endif

}  // namespace

int main(int argc, char** argv) {
    uint64_t kernels = 5'000'000;
    int ranks = 8;
    int repeat = 3;
    std::string file;
    bool views = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--kernels" && i + 1 < argc) kernels = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--ranks" && i + 1 < argc) ranks = std::atoi(argv[++i]);
        else if (a == "--file" && i + 1 < argc) file = argv[++i];
        else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--views") views = true;
        else {
            std::fprintf(stderr, "usage: skewscope-bench [--kernels N] [--ranks R] [--file PATH] [--repeat N] [--views]\n");
            return 2;
        }
    }
    if (file.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        file = std::string(tmp && *tmp ? tmp : "/tmp") + "/skewscope-bench-" + std::to_string(kernels) + "-r" +
               std::to_string(ranks) + "-v2.sqlite";
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) {
            skewgen::GenConfig cfg;
            cfg.ranks = ranks;
            cfg.layers = 9;
            cfg.allReduce = true;
            cfg.extraKernelsPerCollective = 5;  // 5M kernels then hold > 100,000 FSDP collectives (the heatmap figure)
            cfg.seed = 42;
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

    plainScan(file);  // warm the page cache so both timings read from memory
    double t0 = now();
    uint64_t scanRows = plainScan(file);
    double scan = now() - t0;

    long rss0 = rssKb();
    t0 = now();
    skew::Profile p = skew::loadProfile({file});
    double load = now() - t0;
    long rss1 = rssKb();
    uint64_t k = p.kernelCount();
    uint64_t nccl = 0;
    for (const auto& r : p.ranks) nccl += r.ncclKernelCount();

    // analysis is repeated (on the same loaded profile) and the fastest run reported: the machine is noisy
    skew::Analysis a;
    double an = 1e30;
    for (int i = 0; i < repeat; ++i) {
        t0 = now();
        a = skew::analyze(p);
        an = std::min(an, now() - t0);
    }

    std::printf("kernels: %llu (%llu NCCL), launch rows kept: %llu, rows scanned: %llu\n", (unsigned long long)k,
                (unsigned long long)nccl, (unsigned long long)p.launchCount(), (unsigned long long)scanRows);
    std::printf("plain SQLite scan of the same columns (same pragmas): %.2f s (%.2f M rows/s)\n", scan, double(scanRows) / scan / 1e6);
    std::printf("loadProfile:                           %.2f s (%.2f M rows/s, %.2f M kernels/s), %.2fx the scan\n", load,
                double(scanRows) / load / 1e6, double(k) / load / 1e6, load / scan);
    std::printf("resident memory: %.1f bytes per kernel in kernel + launch arrays; RSS grew %.1f bytes per kernel\n",
                double(p.residentBytes()) / double(k), double(rss1 - rss0) * 1024.0 / double(k));
    uint32_t colls = 0;
    for (const auto& g : a.groups) colls += g.count;
    std::printf("analyze (best of %d): %.3f s for %u collectives in %zu groups = %.1f ms per million NCCL kernels (one core)\n", repeat, an, colls,
                a.groups.size(), an * 1e3 / (double(nccl) / 1e6));
    std::printf("end to end (load + analyze): %.2f s = %.2fx the plain scan\n", load + an, (load + an) / scan);
    if (views) {
#ifdef SKEWSCOPE_BENCH_VIEWS
        benchViews(argc, argv, std::move(p), std::move(a), file);
#else
        std::fprintf(stderr, "--views needs a build with the viewer (SKEWSCOPE_BUILD_UI)\n");
        return 2;
#endif
    }
    return 0;
}
