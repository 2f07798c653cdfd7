// skewscope-bench --viewer: the viewer on a big capture, as a user meets it (issue 25, issue 23's
// viewer part). Each run is a child process of its own (`--viewer-child`): the real MainWindow at
// 1920x1080 on the offscreen platform opens the inputs through File > Open's path (openFiles, the
// load controller's worker, the swap of every view), and the child prints
//   - the time from the open to the first painted collective view (the first picture), to the
//     first painted table with rows (a usable table), to the worker's session (load + analysis),
//     to the whole window (sessionLoaded: the answers' page too), and to the what-if filled in
//     (whatIfLoaded: computed in the background after the first picture);
//   - the frame times (p50/p99: the operation and the synchronous repaint it causes) of a scripted
//     sequence on the timeline (zoom in and out at the centre, pans, row scrolls, a collective fitted),
//     the step map and the heatmap (zoom, pan);
//   - its memory: VmHWM and VmRSS at the end.
// The parent runs `repeat` children cold (SKEWSCOPE_NO_CACHE=1) and `repeat` from the profile cache
// (a snapshot written first by `skewscope analyze`), and `skewscope analyze` itself for the CLI's
// peak RSS (wait4's ru_maxrss) under the same environment; it prints medians of the runs.

#include "bench_views.h"

#include <QApplication>
#include <QKeyEvent>
#include <QPixmap>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <unistd.h>

#include "bench_util.h"
#include "gui_entry.h"
#include "models/collective_filter.h"
#include "views/collective/collective_view.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/load_controller.h"
#include "window/main_window.h"

namespace bench {

namespace {

// Calls `after` once, when `watched` has finished painting (the paint run here, then timed) and
// `ready` holds; then it stops watching.
class PaintProbe : public QObject {
public:
    PaintProbe(QWidget* watched, std::function<bool()> ready, std::function<void()> after)
        : ready_(std::move(ready)), after_(std::move(after)) {
        watched->installEventFilter(this);
    }
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() != QEvent::Paint || done_ || !ready_()) return false;
        o->event(e);  // the paint itself, so that the time taken after it counts it
        done_ = true;
        o->removeEventFilter(this);
        after_();
        return true;
    }
    bool done() const { return done_; }

private:
    std::function<bool()> ready_;
    std::function<void()> after_;
    bool done_ = false;
};

// processes events until `until` holds or `seconds` passed; false on the timeout. It sleeps while
// no event comes (a timer wakes it every 5 ms): a busy loop here would take a core from the loader.
bool spin(const std::function<bool()>& until, double seconds) {
    const double end = now() + seconds;
    QTimer tick;
    tick.start(5);
    while (!until()) {
        if (now() > end) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

// every op of `ops` then the view's synchronous repaint, in ms; events processed between frames
// (and in `cpuMs` the UI thread's CPU time of each: what a machine shared with other work disturbs less)
std::vector<double> frames(QWidget* view, const std::vector<std::function<void()>>& ops, std::vector<double>& cpuMs) {
    std::vector<double> ms;
    auto cpuNow = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    };
    for (const auto& op : ops) {
        const double t0 = now(), c0 = cpuNow();
        op();
        view->repaint();
        ms.push_back((now() - t0) * 1e3);
        cpuMs.push_back(cpuNow() - c0);
        QCoreApplication::processEvents();
    }
    return ms;
}

void key(QWidget* w, Qt::Key k) {
    QKeyEvent press(QEvent::KeyPress, k, Qt::NoModifier);
    QCoreApplication::sendEvent(w, &press);
}

void printFrames(const std::string& what, QWidget* view, const std::vector<std::function<void()>>& ops) {
    std::vector<double> cpu;
    const std::vector<double> ms = frames(view, ops, cpu);
    const char* w = what.c_str();
    std::printf("%s_p50 %.3f\n%s_p99 %.3f\n%s_max %.3f\n%s_n %zu\n%s_cpu_p50 %.3f\n%s_cpu_p99 %.3f\n", w, quantile(ms, 0.5), w,
                quantile(ms, 0.99), w, *std::max_element(ms.begin(), ms.end()), w, ms.size(), w, quantile(cpu, 0.5), w, quantile(cpu, 0.99));
}

// The timeline's script: from the whole run, 8 zoom-ins by 0.5 at the centre, 8 pans of a quarter,
// 6 row scrolls by 300 px down and back, 8 zoom-outs, a collective fitted; three times.
std::vector<std::function<void()>> timelineScript(skewui::TimelineView* tl, int collective) {
    std::vector<std::function<void()>> ops;
    for (int round = 0; round < 3; ++round) {
        ops.push_back([tl] { tl->fit(); });
        const double cx = tl->rowsArea().center().x();
        for (int i = 0; i < 8; ++i) ops.push_back([tl, cx] { tl->zoomAt(0.5, cx); });
        for (int i = 0; i < 8; ++i) ops.push_back([tl, i] { tl->panBy(i % 4 < 2 ? 0.25 : -0.25); });
        for (int i = 0; i < 6; ++i) ops.push_back([tl, i] { tl->scrollRows(i < 3 ? 300 : -300); });
        for (int i = 0; i < 8; ++i) ops.push_back([tl, cx] { tl->zoomAt(2.0, cx); });
        ops.push_back([tl, collective] {
            tl->setSelectedCollective(collective);
            tl->fitCollective();
        });
    }
    return ops;
}

// The step map's and the heatmap's script: 6 zoom-ins, 6 pans (A/D), 6 zoom-outs, fit; three times.
std::vector<std::function<void()>> plotScript(skewui::RunView* v) {
    std::vector<std::function<void()>> ops;
    QWidget* w = v->widget();
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 6; ++i) ops.push_back([v] { v->zoomBy(0.6); });
        for (int i = 0; i < 6; ++i) ops.push_back([w, i] { key(w, i < 3 ? Qt::Key_D : Qt::Key_A); });
        for (int i = 0; i < 6; ++i) ops.push_back([v] { v->zoomBy(1 / 0.6); });
        ops.push_back([v] { v->fit(); });
    }
    return ops;
}

// the tab `w` shown, and the time until it has been painted once (ms)
double showTab(skewui::MainWindow& w, QWidget* tab) {
    const double t0 = now();
    double painted = -1;
    PaintProbe probe(tab, [] { return true; }, [&] { painted = now(); });
    w.viewTabs()->setCurrentWidget(tab);
    if (!spin([&] { return probe.done(); }, 30)) die("the tab was not painted within 30 s");
    return (painted - t0) * 1e3;
}

}  // namespace

int benchViewerChild(int argc, char** argv, const std::vector<std::string>& inputs) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    setenv("SKEWSCOPE_NO_DIALOGS", "1", 1);
    QApplication app(argc, argv);
    skewui::keepCNumbersAndMessages();
    QCoreApplication::setOrganizationName("SkewscopeBench");
    QCoreApplication::setApplicationName("skewscope-bench-viewer");
    skewui::MainWindow w;
    w.resize(1920, 1080);
    w.show();
    spin([] { return false; }, 0.3);  // the empty window shown and settled
    QStringList files;
    for (const auto& f : inputs) files << QString::fromStdString(f);

    double t0 = 0, loaded = -1, picture = -1, table = -1, whole = -1, whatIf = -1;
    QObject::connect(w.loads(), &skewui::LoadController::loaded, [&] { loaded = now(); });
    QObject::connect(&w, &skewui::MainWindow::sessionLoaded, [&] { whole = now(); });
    QObject::connect(&w, &skewui::MainWindow::whatIfLoaded, [&] { whatIf = now(); });
    QObject::connect(&w, &skewui::MainWindow::loadFailed, [&](const QString& m) { die("the viewer did not open: " + m.toStdString()); });
    PaintProbe first(w.view(), [&] { return loaded > 0; }, [&] { picture = now(); });
    PaintProbe rows(w.table()->viewport(), [&] { return loaded > 0 && w.filter()->rowCount() > 0; }, [&] { table = now(); });
    t0 = now();
    w.openFiles(files);
    // SKEWSCOPE_BENCH_SHOT=PATH: the window as its first picture left it, then the timeline shown (PATH-timeline.png)
    const char* shot = std::getenv("SKEWSCOPE_BENCH_SHOT");
    bool shotTaken = false;
    // the frames below are timed with the what-if in: its job would take their cores
    if (!spin([&] {
            if (shot && !shotTaken && first.done()) shotTaken = w.grab().save(QString::fromUtf8(shot));
            return whole > 0 && first.done() && rows.done() && !w.whatIfPending();
        }, 600))
        die("the window was not ready within 600 s");
    if (whatIf < 0) whatIf = whole;  // nothing was left for later
    const long hwmOpen = selfStatusKb("VmHWM");
    std::printf("open_to_session_s %.3f\nopen_to_first_picture_s %.3f\nopen_to_table_s %.3f\nopen_to_window_s %.3f\nopen_to_whatif_s %.3f\n",
                loaded - t0, picture - t0, table - t0, whole - t0, whatIf - t0);
    const auto& s = *w.session();
    size_t rankRows = s.profile.ranks.size();
    std::printf("ranks %zu\ncollectives %zu\nhwm_open_kb %ld\n", rankRows, s.analysis.collectives.size(), hwmOpen);
    // the worker's parts (session.h): reading, then the analysis with the views' indexes
    std::printf("session_load_s %.3f\nsession_analyze_s %.3f\n", s.loadSeconds, s.analyzeSeconds);

    // the biggest late arriver, to fit
    int worst = 0;
    for (size_t i = 0; i < s.analysis.collectives.size(); ++i)
        if (s.analysis.collectives[i].startSkew() > s.analysis.collectives[size_t(worst)].startSkew()) worst = int(i);
    skewui::TimelineView* tl = w.timeline();
    std::printf("timeline_first_paint_ms %.3f\ntimeline_rows %zu\n", showTab(w, tl), tl->rows().size());
    if (shot) w.grab().save(QString::fromUtf8(shot) + "-timeline.png");
    printFrames("timeline_frame_ms", tl, timelineScript(tl, worst));
    std::printf("stepmap_first_paint_ms %.3f\n", showTab(w, w.stepMap()));
    printFrames("stepmap_frame_ms", w.stepMap(), plotScript(w.stepMap()));
    std::printf("heatmap_first_paint_ms %.3f\n", showTab(w, w.heatmap()));
    printFrames("heatmap_frame_ms", w.heatmap(), plotScript(w.heatmap()));
    // the snapshot the window stores after the open is part of its work: waited for, not cut off
    spin([&] { return w.loads()->snapshotJobCount() == 0; }, 120);
    std::printf("hwm_kb %ld\nrss_kb %ld\n", selfStatusKb("VmHWM"), selfStatusKb("VmRSS"));
    std::fflush(stdout);
    return 0;
}

namespace {

using Figures = std::map<std::string, std::vector<double>>;

void readFigures(const std::string& path, Figures& into) {
    std::ifstream in(path);
    std::string k;
    double v;
    while (in >> k >> v) into[k].push_back(v);
}

double med(const Figures& f, const std::string& k) {
    auto it = f.find(k);
    return it == f.end() ? NAN : quantile(it->second, 0.5);
}

std::string selfExe() {
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) die("cannot read /proc/self/exe");
    return std::string(buf, size_t(n));
}

}  // namespace

int benchViewer(const char* argv0, const std::vector<std::string>& inputs, int repeat) {
    char tmpl[] = "/tmp/skewscope-bench-viewer-XXXXXX";
    if (!::mkdtemp(tmpl)) die("cannot make a temporary folder");
    const std::string dir = tmpl, cacheDir = dir + "/cache", out = dir + "/figures.txt";
    const std::string cli = binDirOf(argv0) + "/skewscope";
    std::vector<std::string> child = {selfExe(), "--viewer-child"}, analyze = {cli, "analyze"};
    for (const auto& f : inputs) child.push_back(f), analyze.push_back(f);
    for (const char* a : {"--format", "text", "--output", "/dev/null"}) analyze.emplace_back(a);
    const std::vector<std::string> base = {"XDG_CONFIG_HOME=" + dir + "/config", "XDG_RUNTIME_DIR=" + dir, "QT_QPA_PLATFORM=offscreen"};
    std::printf("viewer: %zu input(s), first %s; %d run(s) each, medians; one child process per run (its own memory)\n", inputs.size(),
                inputs.front().c_str(), repeat);

    for (const bool cached : {false, true}) {
        std::vector<std::string> env = base;
        env.push_back(cached ? "SKEWSCOPE_CACHE_DIR=" + cacheDir : "SKEWSCOPE_NO_CACHE=1");
        if (cached && runChild(analyze, env).exitCode != 0) die("skewscope analyze failed");  // writes the snapshots
        Figures f;
        std::vector<double> peak, cliPeak, cliSeconds;
        for (int i = 0; i < repeat; ++i) {
            const ChildRun r = runChild(child, env, out);
            if (r.exitCode != 0) die("the viewer child failed (exit " + std::to_string(r.exitCode) + ")");
            readFigures(out, f);
            peak.push_back(double(r.peakRssKb));
            const ChildRun c = runChild(cached ? analyze : [&] {
                auto a = analyze;
                a.emplace_back("--no-cache");
                return a;
            }(), env);
            if (c.exitCode != 0) die("skewscope analyze failed");
            cliPeak.push_back(double(c.peakRssKb));
            cliSeconds.push_back(c.seconds);
        }
        const double vmb = quantile(peak, 0.5) / 1024, cmb = quantile(cliPeak, 0.5) / 1024;
        std::printf("\n%s (%.0f ranks, %.0f collectives, %.0f timeline rows):\n", cached ? "from the profile cache" : "cold (SKEWSCOPE_NO_CACHE=1)",
                    med(f, "ranks"), med(f, "collectives"), med(f, "timeline_rows"));
        std::printf("  open -> first picture (collective view painted): %.3f s (target <= %.1f s); the session (load + analysis, swapped into the window) at %.3f s\n",
                    med(f, "open_to_first_picture_s"), cached ? 0.4 : 1.5, med(f, "open_to_session_s"));
        std::printf("  of which the worker read the inputs in %.3f s and analysed them (with the views' indexes) in %.3f s\n",
                    med(f, "session_load_s"), med(f, "session_analyze_s"));
        std::printf("  open -> usable table (painted with rows): %.3f s; the whole window (answers too): %.3f s; the what-if in (computed "
                    "after the first picture): %.3f s\n",
                    med(f, "open_to_table_s"), med(f, "open_to_window_s"), med(f, "open_to_whatif_s"));
        std::printf("  first paint of a tab: timeline %.1f ms, step map %.1f ms, heatmap %.1f ms\n", med(f, "timeline_first_paint_ms"),
                    med(f, "stepmap_first_paint_ms"), med(f, "heatmap_first_paint_ms"));
        for (const char* v : {"timeline", "stepmap", "heatmap"}) {
            const std::string k = std::string(v) + "_frame_ms";
            std::printf("  %-8s frame (op + repaint, %.0f frames per run): p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 <= 16); "
                        "UI thread CPU p50 %.2f ms, p99 %.2f ms\n",
                        v, med(f, k + "_n"), med(f, k + "_p50"), med(f, k + "_p99"), med(f, k + "_max"), med(f, k + "_cpu_p50"),
                        med(f, k + "_cpu_p99"));
        }
        std::printf("  viewer peak RSS %.0f MB (at the first picture %.0f MB; at the end VmRSS %.0f MB); CLI `skewscope analyze` peak RSS "
                    "%.0f MB in %.2f s: viewer = %.2fx the CLI (target <= 1.5x)\n",
                    vmb, med(f, "hwm_open_kb") / 1024, med(f, "rss_kb") / 1024, cmb, quantile(cliSeconds, 0.5), vmb / cmb);
    }
    std::fflush(stdout);
    std::system(("rm -rf '" + dir + "'").c_str());
    return 0;
}

}  // namespace bench
