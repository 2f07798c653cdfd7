#include "session/session.h"

#include <algorithm>
#include <chrono>

#include "model/loader.h"
#include "util/errors.h"
#include "util/parallel.h"
#include "util/stage_clock.h"

namespace skew {

void indexSession(Session& s, bool views) {
    StageClock clock("session");
    s.nvtx.clear();
    s.nvtx.reserve(s.profile.processes.size());
    for (const auto& pr : s.profile.processes) s.nvtx.emplace_back(pr.nvtx);
    clock.done("nvtx index");
    s.skewScale = skewScale(s.analysis);
    clock.done("skew scale");
    s.viewIndexesPending = !views;
    if (views) fillViewIndexes(s, buildViewIndexes(s));
}

ViewIndexes buildViewIndexes(const Session& s) {
    StageClock clock("session");
    ViewIndexes v;
    v.timeline = TimelineIndex(s.profile, s.analysis);  // points into s, which never moves
    clock.done("timeline index");
    v.stepMap = buildStepMap(s.profile, s.analysis, -1);
    clock.done("step map");
    return v;
}

void fillViewIndexes(Session& s, ViewIndexes&& v) {
    s.timeline = std::move(v.timeline);
    s.stepMap = std::move(v.stepMap);
    s.viewIndexesPending = false;
}

std::shared_ptr<Session> loadSession(const std::vector<std::string>& files, const AnalysisOptions& options,
                                     const std::function<bool(double)>& progress, SnapshotStore* cache,
                                     const SummaryReader* summaries, const std::function<void(const Session&)>& beside,
                                     bool deferViewIndexes) {
    StageClock clock("session");
    auto s = std::make_shared<Session>();
    s->files = files;
    auto t0 = std::chrono::steady_clock::now();
    LoadOptions lo;
    lo.progress = [&](std::string_view, double f) { return !progress || progress(f * 0.8); };
    lo.cache = cache;
    lo.summaries = summaries;
    s->profile = loadProfile(files, lo);
    clock.done("load");
    auto t1 = std::chrono::steady_clock::now();
    AnalysisOptions ao = options;
    ao.progress = [&](double f) { return !progress || progress(0.8 + 0.2 * f); };
    s->analysis = analyze(s->profile, ao);
    clock.done("analysis");
    // the indexes write their own members; `beside` reads the profile and the analysis
    parallelFor(beside ? 2 : 1, std::min<size_t>(2, threadsOr(options.threads)), [&](size_t i) {
        if (i == 0) indexSession(*s, !deferViewIndexes);
        else beside(*s);
    });
    auto t2 = std::chrono::steady_clock::now();
    s->loadSeconds = std::chrono::duration<double>(t1 - t0).count();
    s->analyzeSeconds = std::chrono::duration<double>(t2 - t1).count();
    return s;
}

std::shared_ptr<CompareSession> loadComparison(const std::vector<std::string>& filesA, const std::vector<std::string>& filesB,
                                               const AnalysisOptions& options, const std::function<bool(double)>& progress,
                                               SnapshotStore* cache, const SummaryReader* summaries) {
    auto c = std::make_shared<CompareSession>();
    auto side = [&](const std::vector<std::string>& files, double from, const char* name) -> std::shared_ptr<Session> {
        try {
            return loadSession(files, options, [&](double f) { return !progress || progress(from + 0.5 * f); }, cache, summaries);
        } catch (const InputError& e) {
            throw SideError(std::string(name) + ": " + e.what(), true);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            throw SideError(std::string(name) + ": " + e.what(), false);
        }
    };
    std::shared_ptr<Session> a = side(filesA, 0, "A (before)"), b = side(filesB, 0.5, "B (after)");
    // one colour scale for both sides (docs/analysis.md, Run views): the same colour, the same skew
    a->skewScale = b->skewScale = skewScale(a->analysis, b->analysis);
    c->a = std::move(a);
    c->b = std::move(b);
    c->comparison = compareCaptures(c->sideA(), c->sideB());
    for (const GroupPair& p : c->comparison.pairs)
        for (bool fromA : {true, false}) c->pairings.emplace_back(c->sideA(), c->sideB(), p, fromA);
    return c;
}

}  // namespace skew
