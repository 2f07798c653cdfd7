// A big capture reloaded with a run view shown (issue 24: F5 froze the window for 10-22 s on 6M
// kernels and memory grew with each reload). The window is driven for real, offscreen: a generated
// 2M-kernel export is opened, then reloaded (F5) five times with the Timeline tab shown, twice with
// the Step map and twice with the Heatmap, while a 10 ms timer records the longest gap between its
// ticks, i.e. the longest the event loop was kept from running. The session, the table's texts and
// its rows' order are made by the loader's worker, the run views' indexes by a worker after the first
// picture, and the old capture is freed by another, all at a lower priority than the UI thread; the UI thread swaps the pictures, and only
// the views shown are drawn (a hidden one when it is shown), so no gap may exceed 100 ms, as the
// issue asks. The resident memory stays flat over the five reloads with the Timeline shown (the
// last two within 30% of the first two): each reload frees the capture it replaces and gives the
// memory back.
// Slow (the export is generated, then read ten times): labelled "slow" (ctest -LE slow skips it).
#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <fstream>

#include <unistd.h>

#include "gui_util.h"
#include "util/release_memory.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/load_controller.h"

using namespace skewui;

namespace {

// Resident memory of this process in MB (/proc/self/statm: size, resident, ... in pages).
double residentMb() {
    std::ifstream f("/proc/self/statm");
    long size = 0, resident = 0;
    f >> size >> resident;
    return double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// CPU time of the calling thread, ms.
double threadCpuMs() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The longest gap between ticks of a 10 ms timer (how long the event loop was kept from running),
// and the most CPU time the UI thread spent in one gap (the work of the events in it: on a shared
// machine a gap also holds the time the thread waited for a core).
class StallProbe {
public:
    StallProbe() {
        timer_.setInterval(10);
        timer_.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            longest_ = std::max(longest_, clock_.restart());
            const double cpu = threadCpuMs();
            busiest_ = std::max(busiest_, cpu - cpu_);
            cpu_ = cpu;
        });
        clock_.start();
        cpu_ = threadCpuMs();
        timer_.start();
    }
    qint64 longestMs() const { return longest_; }
    double busiestMs() const { return busiest_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 longest_ = 0;
    double cpu_ = 0, busiest_ = 0;
};

// Waits (at most 180 s: a loaded machine) until `done` holds, running the event loop.
template <typename F>
bool waitFor(F done) {
    for (int i = 0; i < 3600 && !done(); ++i) QTest::qWait(50);
    return done();
}

// ~2M kernels as the benchmark makes them (8 ranks, FSDP with 9 layers and an AllReduce, 5 compute
// kernels per collective, rows in start order), without the NCCL NVTX ranges (a smaller file), two
// big late arrivers. Sanitizer and debug builds run ten times slower: a tenth of it there.
skewgen::GenConfig bigConfig() {
    skewgen::GenConfig cfg;
    cfg.ranks = 8;
    cfg.layers = 9;
    cfg.extraKernelsPerCollective = 5;
    cfg.nvtxNccl = false;
    cfg.timeOrdered = true;
    cfg.seed = 24;
#if defined(SKEW_SANITIZED_ALLOCATOR) || !defined(NDEBUG)
    const uint64_t kernels = 200'000;
#else
    const uint64_t kernels = 2'000'000;
#endif
    cfg.steps = int((kernels + skewgen::kernelsPerStep(cfg) - 1) / skewgen::kernelsPerStep(cfg));
    cfg.late = {{2, 5, 1, 30'000'000, skewgen::LateKind::Cpu}, {3, 14, 3, 45'000'000, skewgen::LateKind::Gpu}};
    return cfg;
}

// The longest event-loop gap under a probe, and the UI thread's most CPU in one gap.
struct Stall {
    qint64 gapMs = 0;
    double cpuMs = 0;
};

// What the reloads (F5) measured: five with the Timeline tab shown (and the resident memory after
// each), then two with the Step map tab shown and two with the Heatmap shown; and showing each of
// those two tabs for the first time after a reload (their pictures were left to be drawn then).
// Measured once per process (the tests below read the same run).
struct ReloadFigures {
    bool ok = false;
    Stall timeline, stepMap, heatmap, showTabs;
    std::vector<double> rssMb;
};

// `n` reloads with the tab shown as it is; the resident memory after each into `rss`
bool reload(MainWindow& w, int n, Stall& stall, std::vector<double>* rss) {
    LoadController* loads = w.loads();
    // idle: the snapshot stored, the old capture freed, and the what-if (computed after the picture) in
    auto idle = [&] {
        return waitFor([&] { return loads->snapshotJobCount() == 0 && loads->releaseJobCount() == 0 && !w.whatIfPending(); });
    };
    StallProbe probe;
    for (int i = 0; i < n; ++i) {
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        QTest::keyClick(&w, Qt::Key_F5);
        if (!waitFor([&] { return !loaded.isEmpty(); }) || !idle()) return false;
        QTest::qWait(100);  // the new picture painted
        if (rss) rss->push_back(residentMb());
    }
    stall = {probe.longestMs(), probe.busiestMs()};
    return true;
}

// shows `tab`, which a reload left to be drawn when shown, and waits until it is painted
Stall showTab(MainWindow& w, QWidget* tab, Stall before) {
    StallProbe probe;
    w.viewTabs()->setCurrentWidget(tab);
    QTest::qWait(300);
    return {std::max(before.gapMs, probe.longestMs()), std::max(before.cpuMs, probe.busiestMs())};
}

ReloadFigures measureReloads() {
    ReloadFigures f;
    const testutil::Generated& g = testutil::generated("big", bigConfig());
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    if (!guitest::openAndWait(w, {QString::fromStdString(g.path)})) return f;
    EXPECT_EQ(w.session()->analysis.collectives.size(), g.result.collectives.size());
    w.viewTabs()->setCurrentWidget(w.timeline());
    // the snapshot of the first read is stored before the reloads (they read it, as F5 does)
    if (!waitFor([&] { return w.loads()->snapshotJobCount() == 0 && w.loads()->releaseJobCount() == 0 && !w.whatIfPending(); })) return f;
    QTest::qWait(200);
    if (!reload(w, 5, f.timeline, &f.rssMb)) return f;
    EXPECT_EQ(w.viewTabs()->currentWidget(), w.timeline());
    f.showTabs = showTab(w, w.stepMap(), f.showTabs);
    if (!reload(w, 2, f.stepMap, nullptr)) return f;
    f.showTabs = showTab(w, w.heatmap(), f.showTabs);  // the reloads with the Step map shown left it to draw
    if (!reload(w, 2, f.heatmap, nullptr)) return f;
    EXPECT_EQ(w.viewTabs()->currentWidget(), static_cast<QWidget*>(w.heatmap()));
    f.ok = true;
    std::printf("[ figures  ] %llu kernels, %zu collectives; longest event-loop stall (most UI-thread CPU in one gap), "
                "5 reloads with the Timeline shown: %lld ms (%.0f ms), 2 with the Step map: %lld ms (%.0f ms), 2 with the "
                "Heatmap: %lld ms (%.0f ms), showing the Step map and the Heatmap after a reload: %lld ms (%.0f ms); "
                "RSS after reloads 1-5: %.0f %.0f %.0f %.0f %.0f MB\n",
                (unsigned long long)g.result.kernelRows, g.result.collectives.size(), (long long)f.timeline.gapMs,
                f.timeline.cpuMs, (long long)f.stepMap.gapMs, f.stepMap.cpuMs, (long long)f.heatmap.gapMs, f.heatmap.cpuMs,
                (long long)f.showTabs.gapMs, f.showTabs.cpuMs, f.rssMb[0], f.rssMb[1], f.rssMb[2], f.rssMb[3], f.rssMb[4]);
    return f;
}

const ReloadFigures& reloadFigures() {
    static const ReloadFigures f = measureReloads();
    return f;
}

}  // namespace

// No gap over 100 ms in the event loop during a reload, whichever run view is shown, nor when a tab
// the reload left to be drawn is shown. The UI thread's share of a reload is a few milliseconds of
// work per event (December 2026, shared 2-core machine: the most CPU in one gap was 4-6 ms, the
// longest gap 20-50 ms, as the machine was loaded); before the fix it was 430-1080 ms, with 155-245
// ms of CPU in one gap (the table's sort, every view's replots, hidden ones included, and the
// window's layout). Timing under a sanitizer or in a debug build says nothing: printed only there.
TEST(BigCaptures, ReloadKeepsTheWindowResponsive) {
    const ReloadFigures& f = reloadFigures();
    ASSERT_TRUE(f.ok);
#if !defined(SKEW_SANITIZED_ALLOCATOR) && defined(NDEBUG)
    EXPECT_LE(f.timeline.gapMs, 100) << "with the Timeline shown";
    EXPECT_LE(f.stepMap.gapMs, 100) << "with the Step map shown";
    EXPECT_LE(f.heatmap.gapMs, 100) << "with the Heatmap shown";
    EXPECT_LE(f.showTabs.gapMs, 100) << "showing the Step map or the Heatmap after a reload";
    // the UI thread's own work in one gap, whatever else the machine runs (the gaps above are timed
    // alone, RUN_SERIAL: other tests' processes took its core in the middle of a gap)
    for (const Stall* s : {&f.timeline, &f.stepMap, &f.heatmap, &f.showTabs}) EXPECT_LE(s->cpuMs, 100.0);
#endif
}

TEST(BigCaptures, ReloadKeepsMemoryFlat) {
    const ReloadFigures& f = reloadFigures();
    ASSERT_TRUE(f.ok);
#ifndef SKEW_SANITIZED_ALLOCATOR
    // (a sanitizer keeps freed memory in quarantine by design: there the figures are printed only)
    // the last two reloads against the first two. One figure moves by up to a quarter with the
    // workers' timing (ten reloads after the merge of December 2026: 276 281 259 285 282 282 312 245
    // 313 310 MB, no growth); without giving the freed memory back it grew 15-20% per reload, 60% or
    // more by the fifth, which this bound catches
    EXPECT_LE(f.rssMb[3] + f.rssMb[4], (f.rssMb[0] + f.rssMb[1]) * 1.30);
#endif
}
