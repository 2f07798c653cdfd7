#include "cli/commands.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <future>
#include <stdexcept>

#include "cache/profile_cache.h"
#include "cache/summary_file.h"
#include "model/loader.h"
#include "util/errors.h"
#include "analysis/analysis.h"
#include "analysis/whatif.h"
#include "analysis/whatif_schedule.h"
#include "report/analysis_report.h"
#include "report/compare_report.h"
#include "report/info_report.h"
#include "report/trace_export.h"
#include "report/whatif_report.h"
#include "session/snapshots.h"
#include "util/atomic_file.h"
#include "util/parallel.h"
#include "util/stage_clock.h"

namespace skew {

// The warnings of a cache's settings and folder, said once per run.
static void sayCacheProblems(const ProfileCache& cache) {
    for (const auto& w : cache.warnings()) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
    if (!cache.refused().empty()) std::fprintf(stderr, "skewscope: warning: %s\n", cache.refused().c_str());
}

std::unique_ptr<ProfileCache> commandLineCache(const CommandLine& cl) {
    if (cl.noCache) return nullptr;
    auto cache = std::make_unique<ProfileCache>();
    sayCacheProblems(*cache);
    if (!cache->refused().empty()) return nullptr;  // a folder that is not ours: no cache at all
    return cache;
}

void storeSnapshots(ProfileCache* cache, const Profile& p) {
    if (std::string error = storeFreshSnapshots(cache, p); !error.empty())
        std::fprintf(stderr, "skewscope: warning: %s; the next open reads the export again\n", error.c_str());
}

void printWarnings(const std::vector<std::string>& warnings) {
    for (const auto& w : warnings) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
}

static int runCache(const CommandLine& cl) {
    ProfileCache cache;
    sayCacheProblems(cache);
    if (cl.cacheAction == "clear") {
        if (!cache.refused().empty()) return 1;  // nothing there is ours to remove
        ProfileCache::Cleared c = cache.clear();
        std::printf("removed %llu snapshot(s) from %s\n", (unsigned long long)c.removed, cache.dir().c_str());
        for (const auto& f : c.failed) std::fprintf(stderr, "skewscope: cannot remove %s\n", f.c_str());
        if (!c.failed.empty())
            std::fprintf(stderr, "skewscope: %zu snapshot(s) or folder(s) could not be removed\n", c.failed.size());
        return c.failed.empty() ? 0 : 1;
    }
    ProfileCache::Info i = cache.info();
    std::printf("profile cache: %s\n%llu snapshot(s), %.1f MB of %.0f MB (least recently used ones go first)\n", cache.dir().c_str(),
                (unsigned long long)i.entries, double(i.bytes) / 1e6, double(cache.maxBytes()) / 1e6);
    return 0;
}

// analyze --format json of an analysis whose what-if is pending: the what-if computed on a thread
// of its own while the sections before it (the collectives: nearly all of a big report) are
// written, then filled in before its section and its warnings said. The text is the same as with
// the what-if computed first; on 2 cores the what-if's serial parts and the writes overlap.
static void analysisJsonWithWhatIf(const Profile& p, Analysis& a, const std::function<void(std::string_view)>& sink) {
    std::atomic<bool> abandon{false};  // the report failed: the what-if stops at its next stage
    std::future<WhatIfOutcome> whatIf =
        std::async(std::launch::async, [&p, &a, &abandon] { return computeWhatIf(p, a, [&abandon] { return abandon.load(); }); });
    try {
        writeAnalysisJson(p, a, sink, [&] {
            const size_t said = a.warnings.size();
            fillWhatIf(a, whatIf.get());
            printWarnings({a.warnings.begin() + std::ptrdiff_t(said), a.warnings.end()});
        });
    } catch (...) {
        abandon = true;  // (the future's destructor waits for the thread)
        throw;
    }
}

static int runCompare(const CommandLine& cl) {
    auto cache = commandLineCache(cl);
    LoadOptions lo;
    lo.cache = cache.get();
    lo.summaries = &summaryFiles();
    const AnalysisOptions o = analysisOptions(cl);
    Profile pa = loadProfile(cl.files, lo);
    Profile pb = loadProfile(cl.filesB, lo);
    for (const auto* p : {&pa, &pb}) printWarnings(p->warnings);
    Analysis aa = analyze(pa, o);
    Analysis ab = analyze(pb, o);
    for (const auto* a : {&aa, &ab}) printWarnings(a->warnings);
    Side A{&pa, &aa}, B{&pb, &ab};
    Comparison c = compareCaptures(A, B);
    std::string out = cl.format == "json" ? compareJson(A, B, c) : cl.format == "md" ? compareMarkdown(A, B, c) : compareText(A, B, c);
    writeOutput(cl.output, out);
    std::fflush(stdout);
    storeSnapshots(cache.get(), pa);
    storeSnapshots(cache.get(), pb);
    return 0;
}

int runHeadless(const CommandLine& cl) {
    if (cl.command == "cache") return runCache(cl);
    if (cl.command == "summarize") return runSummarize(cl);
    if (cl.command == "compare") {
        try {
            return runCompare(cl);
        } catch (const InputError& e) {
            std::fprintf(stderr, "skewscope: %s\n", e.what());
            return 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "skewscope: %s\n", e.what());
            return 1;
        }
    }
    try {
        auto cache = commandLineCache(cl);
        LoadOptions lo;
        lo.cache = cache.get();
        lo.summaries = &summaryFiles();
        StageClock clock("cli");  // SKEWSCOPE_TIMING=1
        Profile p = loadProfile(cl.files, lo);
        clock.done("load");
        printWarnings(p.warnings);
        std::string out;
        if (cl.command == "info") {
            out = cl.format == "json" ? infoJson(p) : infoText(p);
        } else {
            AnalysisOptions o = analysisOptions(cl);
            // JSON on 2 or more threads: the what-if beside the report's writing (analysisJsonWithWhatIf),
            // for up to 64 ranks. Past that the what-if is mostly its by_rank replays, longer than the
            // report's collectives, and beside them it only adds its memory to theirs (1,024 summaries:
            // 490 MiB instead of 390, no time gained)
            const bool whatIfBeside = cl.command == "analyze" && cl.format == "json" && threadsOr(o.threads) >= 2 &&
                                      p.ranks.size() <= 64;
            if (whatIfBeside) o.whatIf = false;
            Analysis a = analyze(p, o);
            clock.done("analyze");
            printWarnings(a.warnings);
            if (cl.format == "json" || cl.command == "export") {
                // streamed: the report (or trace) of a big capture is as big as its model
                OutputFile file(cl.output);
                const auto sink = [&](std::string_view piece) { file.write(piece); };
                if (cl.command == "export") {
                    const IdealSchedule ideal = idealSchedule(p, a);  // empty, with its why, without the what-if
                    writePerfettoTrace(p, a, &ideal, sink);
                }
                else if (whatIfBeside) analysisJsonWithWhatIf(p, a, sink);
                else writeAnalysisJson(p, a, sink);
                file.commit();
                clock.done("report");
                std::fflush(stdout);
                storeSnapshots(cache.get(), p);
                return 0;
            }
            if (cl.format == "md") out = analysisMarkdown(p, a);
            else if (cl.format == "csv") out = cl.table == "steps" ? whatIfCsv(a) : analysisCsv(p, a);
            else out = analysisText(p, a);
        }
        writeOutput(cl.output, out);
        std::fflush(stdout);
        storeSnapshots(cache.get(), p);  // after the output: the user has the report already
        return 0;
    } catch (const InputError& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 1;
    }
}

}  // namespace skew
