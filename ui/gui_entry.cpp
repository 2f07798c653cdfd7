#include "gui_entry.h"

#include <QApplication>
#include <QIcon>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cache/profile_cache.h"
#include "cache/summary_file.h"
#include "cli/commands.h"
#include "views/collective/collective_view.h"
#include "window/main_window.h"
#include "nsys/export_reader.h"
#include "session.h"
#include "views/compare/compare_view.h"
#include "views/run_view_factory.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_zoom.h"
#include "report/format.h"

// the resources live in a static library; Q_INIT_RESOURCE must be called outside a namespace
static void initResources() { Q_INIT_RESOURCE(resources); }

namespace skewui {

// Qt warns on every start when XDG_RUNTIME_DIR is unset (containers, CI, ssh): give it a private one.
static void ensureRuntimeDir() {
    if (std::getenv("XDG_RUNTIME_DIR")) return;
    std::string dir = "/tmp/skewscope-runtime-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && st.st_uid == ::getuid() && (st.st_mode & 0777) == 0700) setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
}

static void setIdentity() {
    QCoreApplication::setOrganizationName("Skewscope");
    QCoreApplication::setApplicationName("skewscope");
    QCoreApplication::setApplicationVersion(SKEWSCOPE_VERSION);
}

void keepCNumbersAndMessages() {
    std::setlocale(LC_NUMERIC, "C");
    std::setlocale(LC_MESSAGES, "C");
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);  // as the system's C locale: "1,993" where a view groups
    QLocale::setDefault(c);
}

int runGui(int argc, char** argv, const std::vector<std::string>& files, const std::vector<std::string>& filesB) {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM")) {
        std::fprintf(stderr,
                     "skewscope: no display to open the viewer on (DISPLAY is not set).\n"
                     "  Headless: skewscope analyze FILE...  or  skewscope render FILE... --collective K --output shot.png\n"
                     "  Or run the viewer under Xvfb: xvfb-run skewscope FILE...\n");
        return 1;
    }
    ensureRuntimeDir();
    QApplication app(argc, argv);
    keepCNumbersAndMessages();
    setIdentity();
    initResources();
    QApplication::setWindowIcon(QIcon(":/skewscope.svg"));
    MainWindow w;
    w.show();
    openFromCommandLine(w, files, filesB);
    return app.exec();
}

void openFromCommandLine(MainWindow& w, const std::vector<std::string>& files, const std::vector<std::string>& filesB) {
    QStringList list, listB;
    for (const auto& f : files) list << QString::fromStdString(f);
    for (const auto& f : filesB) listB << QString::fromStdString(f);
    if (!listB.isEmpty()) w.openComparison(list, listB);
    else if (!list.isEmpty()) w.openFiles(list);
}

static int exportScene(const skew::CommandLine& cl, CollectiveScene scene, const Session* s = nullptr);
static int renderCompare(const skew::CommandLine& cl);
static int exportRunView(const skew::CommandLine& cl, const std::shared_ptr<Session>& s, int collective);

// The collective the command line names ([G:]K or worst), -1 when none is given, -2 after an error.
static int namedCollective(const skew::CommandLine& cl, const skew::Analysis& a) {
    if (cl.collective < 0) {
        int worst = skew::worstCollective(a);
        if (worst < 0) {
            std::fprintf(stderr, "skewscope: no complete collective to render\n");
            return -2;
        }
        return worst;
    }
    if (cl.collective == 0) return -1;  // the run views without a selection
    if (size_t(cl.group) >= a.groups.size()) {
        std::fprintf(stderr, "skewscope: no group %d: the exports have %zu group(s) of matched collectives\n", cl.group, a.groups.size());
        return -2;
    }
    const skew::Group& g = a.groups[size_t(cl.group)];
    if (uint32_t(cl.collective) > g.count) {
        std::fprintf(stderr, "skewscope: group %d has %u collectives; --collective takes 1 to %u\n", cl.group, g.count, g.count);
        return -2;
    }
    return int(g.firstCollective) + cl.collective - 1;
}

// The offscreen platform says it cannot propagate size hints whenever a window is laid out: noise
// on render's stderr, not a problem of the picture. Everything else goes to Qt's handler.
QtMessageHandler qtHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
    if (msg.contains("does not support propagateSizeHints")) return;
    if (qtHandler) qtHandler(type, ctx, msg);
}

int runRender(int argc, char** argv, const skew::CommandLine& cl) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ensureRuntimeDir();
    qtHandler = qInstallMessageHandler(quietOffscreen);
    QApplication app(argc, argv);
    keepCNumbersAndMessages();
    setIdentity();
    if (cl.view == "compare") return renderCompare(cl);
    std::shared_ptr<Session> s;
    std::unique_ptr<skew::ProfileCache> cache;
    try {
        cache = skew::commandLineCache(cl);
        s = loadSession(cl.files, skew::analysisOptions(cl), {}, cache.get(), &skew::summaryFiles());
    } catch (const skew::InputError& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 1;
    }
    skew::printWarnings(s->profile.warnings);
    skew::printWarnings(s->analysis.warnings);
    const int c = namedCollective(cl, s->analysis);
    int rc = 1;
    if (c != -2) rc = cl.view == "collective" ? exportScene(cl, buildScene(s->profile, s->analysis, c), s.get()) : exportRunView(cl, s, c);
    skew::storeSnapshots(cache.get(), s->profile);
    return rc;
}

// The collective view as the viewer draws it, with the CPU row when the late arrival is a late CPU
// launch (its export read here, on this thread).
static int exportScene(const skew::CommandLine& cl, CollectiveScene scene, const Session* s) {
    CollectiveView view;
    view.resize(cl.width, cl.height);
    const int c = scene.collective;
    view.setScene(std::move(scene));
    if (s && c >= 0) {
        const skew::CpuWindow w = skew::cpuWindowFor(s->profile, s->analysis, c);
        view.setCpuWindow(w);
        if (w.present) view.setCpuActivity(std::make_shared<const skew::CpuActivity>(skew::readCpuActivity(s->profile, w)));
    }
    QString err;
    if (!view.exportTo(QString::fromStdString(cl.output), cl.width, cl.height, &err)) {
        std::fprintf(stderr, "skewscope: %s\n", err.toStdString().c_str());
        return 1;
    }
    return 0;
}

}  // namespace skewui

namespace skewui {

// --range as the timeline keeps it: a range outside the run, narrower than the timeline's
// smallest window or otherwise moved is drawn as adjusted, and render says so (never silently).
static void warnAdjustedRange(const skew::CommandLine& cl, const RunView& v) {
    double t0 = 0, t1 = 0, run0 = 0, run1 = 0;
    const double a = cl.rangeStart * 1e9, b = cl.rangeEnd * 1e9;
    if (!v.timeRange(t0, t1, run0, run1)) return;
    const double tolerance = std::max(1.0, (t1 - t0) * 1e-9);  // (rounding of the window's ends; b may be infinite)
    if (std::abs(t0 - a) <= tolerance && std::abs(t1 - b) <= tolerance) return;
    std::string why = b <= run0 || a >= run1 ? skew::strprintf("it lies outside the run (%.9f s to %.9f s)", run0 / 1e9, run1 / 1e9)
                      : b - a < TimelineZoom::kMinSpanNs ? skew::strprintf("it is narrower than the timeline's smallest window (%.0f ns)", TimelineZoom::kMinSpanNs)
                      : skew::strprintf("the timeline stays on the run (%.9f s to %.9f s): at most half a window past either end, "
                                        "at most 1.25 runs wide", run0 / 1e9, run1 / 1e9);
    std::fprintf(stderr, "skewscope: warning: --range %.9g %.9g is drawn as %.9f %.9f (seconds): %s\n", cl.rangeStart, cl.rangeEnd,
                 t0 / 1e9, t1 / 1e9, why.c_str());
}

// `render --view timeline|stepmap|heatmap|whatif`: the viewer's own widget, set up as the viewer would be
// after selecting the collective (and zooming to --range), exported by the viewer's export.
static int exportRunView(const skew::CommandLine& cl, const std::shared_ptr<Session>& s, int collective) {
    std::unique_ptr<RunView> v(createRunView(cl.view));
    if (!v) {
        std::fprintf(stderr, "skewscope: no view named %s\n", cl.view.c_str());
        return 1;
    }
    v->widget()->resize(cl.width, cl.height);
    v->setSession(s);
    v->setSelectedCollective(collective);
    if (!(cl.hasRange && v->setTimeRange(cl.rangeStart * 1e9, cl.rangeEnd * 1e9))) v->fit();
    if (cl.hasRange) warnAdjustedRange(cl, *v);
    if (auto* tv = dynamic_cast<TimelineView*>(v.get()); tv && cl.ideal) {
        auto ideal = std::make_shared<const skew::IdealSchedule>(skew::idealSchedule(s->profile, s->analysis));
        if (ideal->empty()) std::fprintf(stderr, "skewscope: warning: no ideal schedule to draw: %s\n", ideal->why.c_str());
        tv->setIdealSchedule(std::move(ideal));
    }
    QString err;
    if (!v->exportTo(QString::fromStdString(cl.output), cl.width, cl.height, &err)) {
        std::fprintf(stderr, "skewscope: %s\n", err.toStdString().c_str());
        return 1;
    }
    return 0;
}

}  // namespace skewui

namespace skewui {

// `render A... --vs B... --view compare`: the viewer's compare view, set up as the viewer would be
// after opening the comparison (and selecting --collective of A, with its pair shown), exported by
// the viewer's export.
static int renderCompare(const skew::CommandLine& cl) {
    std::shared_ptr<CompareSession> c;
    std::unique_ptr<skew::ProfileCache> cache;
    try {
        cache = skew::commandLineCache(cl);
        c = loadComparison(cl.files, cl.filesB, skew::analysisOptions(cl), {}, cache.get(), &skew::summaryFiles());
    } catch (const SideError& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return e.inputError ? 3 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 1;
    }
    for (const SessionPtr& side : {c->a, c->b}) {
        skew::printWarnings(side->profile.warnings);
        skew::printWarnings(side->analysis.warnings);
    }
    int rc = 0;
    const int ci = namedCollective(cl, c->a->analysis);
    int pair = 0;
    if (ci == -2) rc = 1;
    else if (ci >= 0) {
        const int g = c->a->analysis.collectives[size_t(ci)].group;
        pair = -1;
        for (size_t i = 0; i < c->comparison.pairs.size(); ++i)
            if (c->comparison.pairs[i].a == g) pair = int(i);
        if (pair < 0) {
            std::fprintf(stderr, "skewscope: group %d of A was not compared with a group of B (skewscope compare says why)\n", g);
            rc = 1;
        }
    }
    if (rc == 0) {
        CompareView v;
        v.setComparison(c, pair);
        if (ci >= 0) v.selectCollective(false, ci);
        QString err;
        if (!v.exportTo(QString::fromStdString(cl.output), cl.width, cl.height, &err)) {
            std::fprintf(stderr, "skewscope: %s\n", err.toStdString().c_str());
            rc = 1;
        }
    }
    skew::storeSnapshots(cache.get(), c->a->profile);
    skew::storeSnapshots(cache.get(), c->b->profile);
    return rc;
}

}  // namespace skewui
