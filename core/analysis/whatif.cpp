#include "analysis/whatif.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "analysis/whatif_graph.h"
#include "analysis/whatif_medians.h"
#include "analysis/whatif_pack.h"
#include "analysis/whatif_replay.h"
#include "analysis/whatif_steps.h"
#include "util/errors.h"
#include "util/memory_budget.h"
#include "util/parallel.h"
#include "util/stage_clock.h"
#include "util/text.h"

namespace skew {
namespace {

// The replays a what-if runs: captured, the three scenarios, then one per rank (that rank
// captured, the others ideal).
enum Run : size_t { kCaptured, kNoSlow, kNoLate, kIdeal, kFirstRank };

// A thread with more sweeps than this reads records packed once for all of them (packForSweep: 56
// bytes a kernel of fresh memory, whose pages the kernel clears as they are first touched); with
// fewer, each sweep packs them block by block into a buffer it reuses (the lane-order arrays read
// once a sweep). On the 6M-kernel benchmark export (12 replays: 1 sweep on 1 thread, 1 on each of
// 2) the fresh pages cost more than the gathers; a 1,024-rank job's 65 sweeps gather too often.
constexpr size_t kPackedAfter = 2;

ReplayInputs inputsOf(size_t run, size_t ranks) {
    ReplayInputs in = capturedInputs(ranks);
    in.measureError = run == kCaptured;
    const bool median = run == kNoSlow || run >= kIdeal, drop = run == kNoLate || run >= kIdeal;
    for (size_t r = 0; r < ranks; ++r) {
        const bool kept = run >= kFirstRank && r == run - kFirstRank;
        in.median[r] = median && !kept;
        in.dropLaunch[r] = drop && !kept;
    }
    return in;
}

// Per step, the step time of a replay (-1 for a step without kernels).
std::vector<int64_t> stepTimes(const ReplayOutcome& o) {
    std::vector<int64_t> t(o.stepStart.size(), -1);
    for (size_t s = 1; s < t.size(); ++s)
        if (o.stepEnd[s] != INT64_MIN) t[s] = o.stepEnd[s] - o.stepStart[s];
    return t;
}

// The captured step times, from the capture itself (not a replay).
std::vector<int64_t> capturedStepTimes(const ReplayGraph& g) {
    ReplayOutcome o;
    o.stepStart.assign(size_t(g.steps) + 1, INT64_MAX);
    o.stepEnd.assign(size_t(g.steps) + 1, INT64_MIN);
    for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t s = g.step[i];
        if (!s) continue;
        o.stepStart[s] = std::min(o.stepStart[s], g.start[i]);
        o.stepEnd[s] = std::max(o.stepEnd[s], g.start[i] + g.duration[i]);
    }
    return stepTimes(o);
}

int64_t sumOver(const std::vector<WhatIfStep>& steps, const std::vector<int64_t>& t) {
    int64_t sum = 0;
    for (const WhatIfStep& s : steps) sum += t[s.step];
    return sum;
}

std::optional<double> ratio(int64_t num, int64_t den) {
    if (den <= 0) return std::nullopt;
    return double(num) / double(den);
}

void warnReplay(const WhatIf& w, const ReplayGraph& g, std::vector<std::string>& warnings) {
    if (g.uncoupled)
        warnings.push_back("what-if: " + std::to_string(g.uncoupled) +
                           " collective(s) replay uncoupled: a member ended before the latest member started, or a kernel after "
                           "a member started before it (clocks of the files disagree, or kernels matched as one collective did not run together)");
    if (w.maxErrorNs <= 1000 && g.ordered) return;
    const std::string why = !g.ordered ? "the dependencies found form a cycle (clocks of the files disagree)"
                                       : "the capture's overlaps on a stream or before launch calls returned";
    warnings.push_back("what-if: the replay with captured inputs differs from the capture by up to " + std::to_string(w.maxErrorNs) +
                       " ns: " + why);
}

// Whether the replays read records packed once (see kPackedAfter), given how many there are.
bool packsRecords(size_t runs, size_t threads) {
    const size_t tasks = std::min(runs, threads);
    return (runs + tasks - 1) / tasks > kPackedAfter * kReplayBatch;
}

// Left out for want of memory: the reason, said in the warning and by the views.
std::string memoryReason(uint64_t kernels, uint64_t need, const MemoryBudget& budget) {
    // the need rounded up, the budget down: never "needs about 1000 MB, more than the 1000 MB"
    auto mb = [](uint64_t b, bool up) { return std::to_string((b >> 20) + (up && (b & ((1u << 20) - 1)) ? 1 : 0)) + " MB"; };
    return "its replay of " + plural(kernels, "kernel") + " needs about " + mb(need, true) + " of memory, more than the " + mb(*budget.bytes, false) +
           (budget.source == "available memory" ? " available" : " " + budget.source + " allows") +
           " (set SKEWSCOPE_WHATIF_MAX_MB to a number of MB to allow more)";
}

// The what-if into `w`, its warnings appended to `warnings`; `a` is only read (its whatIf and
// warnings may be `w` and `warnings` themselves: analyze()'s stage).
void whatIfInto(const Profile& p, const Analysis& a, const StepPattern& pattern, const std::function<bool()>& stop, WhatIf& w,
                std::vector<std::string>& warnings) {
    auto check = [&] {
        if (stop && stop()) throw Cancelled();
    };
    StageClock clock("what-if");
    const ReplayKernels k = windowKernels(p, a);
    if (k.count == 0) return;  // nothing to replay, nothing to say
    // before the first large allocation: a replay that does not fit is left out, not swapped
    // through or killed (Linux overcommits: it would not fail, the OOM killer would end the process)
    // (packed as one thread would: the estimate, and the report, the same on any thread count)
    // (packed when the sweeps would pack: never for the two replays of a capture without launch rows)
    const MemoryBudget budget = memoryBudget("SKEWSCOPE_WHATIF_MAX_MB");
    if (!budget.ignored.empty()) warnings.push_back("what-if: " + budget.ignored);
    const size_t mostRuns = p.launchCount() > 0 ? kFirstRank + p.ranks.size() : kNoSlow + 1;
    if (std::string why = replayMemoryProblem(a, k.count, packsRecords(mostRuns, 1), 0, budget); !why.empty()) {
        w.notComputed = why;
        warnings.push_back("what-if: not computed: " + w.notComputed);
        return;
    }
    KernelSteps steps = kernelSteps(p, a, k, pattern);
    w.stepSource = steps.source;
    clock.done("steps");
    check();
    std::vector<int64_t> median = steps.count ? medianDurations(p, a, k, steps.step, steps.count) : std::vector<int64_t>();
    clock.done("medians");
    check();
    ReplayGraph g = buildReplayGraph(p, a, k, std::move(steps.step), steps.count, std::move(median), kCachedEnds, check);
    w.kernels = k.count;
    w.uncoupled = g.uncoupled;
    const bool launches = p.launchCount() > 0;
    size_t runs = kCaptured + 1;
    if (steps.count) runs = launches ? kFirstRank + p.ranks.size() : kNoSlow + 1;
    std::vector<ReplayOutcome> out(runs);
    // the replays in sweeps of up to kReplayBatch consecutive runs, as few sweeps as that takes but
    // at least one a thread, handed out to the threads one by one (a thread slowed by other work on
    // the machine takes fewer)
    const size_t tasks = std::min(runs, threadsOr(a.options.threads));
    const size_t sweeps = std::max(tasks, (runs + kReplayBatch - 1) / kReplayBatch), perSweep = (runs + sweeps - 1) / sweeps;
    if (packsRecords(runs, tasks)) {
        packForSweep(g, a.options.threads);  // every sweep reads the records packed once
        g.dropLaneOrder();
    }
    clock.done("graph");
    check();
    parallelFor((runs + perSweep - 1) / perSweep, tasks, [&](size_t b) {
        std::vector<ReplayInputs> in;
        for (size_t i = b * perSweep; i < std::min(runs, (b + 1) * perSweep); ++i) in.push_back(inputsOf(i, p.ranks.size()));
        std::vector<ReplayOutcome> o = replay(g, in);
        for (size_t x = 0; x < o.size(); ++x) out[b * perSweep + x] = std::move(o[x]);
    });
    clock.done("replays");
    check();
    w.maxErrorNs = out[kCaptured].maxErrorNs;
    warnReplay(w, g, warnings);
    if (!steps.count) {
        warnings.push_back("what-if: no scenario computed: no training steps (no NVTX step ranges, no repeating collective sequence)");
        return;
    }
    const std::vector<int64_t> captured = capturedStepTimes(g);
    std::vector<std::vector<int64_t>> times(runs);
    for (size_t i = 0; i < runs; ++i) times[i] = stepTimes(out[i]);
    for (uint32_t s = 1; s <= steps.count; ++s) {
        if (captured[s] < 0) continue;
        WhatIfStep st{s, captured[s], times[kNoSlow][s], std::nullopt, std::nullopt};
        if (launches) st.noLateLaunchesNs = times[kNoLate][s], st.idealNs = times[kIdeal][s];
        w.steps.push_back(st);
    }
    const int64_t total = sumOver(w.steps, captured);
    w.noSlowKernels = ratio(total, sumOver(w.steps, times[kNoSlow]));
    if (!launches) {
        warnings.push_back("what-if: no_late_launches, ideal and by_rank not computed: the exports have no launch rows (CUDA API trace)");
        return;
    }
    w.noLateLaunches = ratio(total, sumOver(w.steps, times[kNoLate]));
    const int64_t ideal = sumOver(w.steps, times[kIdeal]);
    w.ideal = ratio(total, ideal);
    std::vector<bool> stepped(p.ranks.size(), false);
    for (const SweepRun& run : g.order)
        for (uint32_t i = run.begin; run.lane != kFire && i < run.end && !stepped[g.laneRank[run.lane]]; ++i)
            stepped[g.laneRank[run.lane]] = g.step[i] != 0;
    for (size_t r = 0; r < p.ranks.size(); ++r)
        if (auto s = stepped[r] ? ratio(sumOver(w.steps, times[kFirstRank + r]), ideal) : std::nullopt) w.byRank.push_back({int(r), *s});
    std::stable_sort(w.byRank.begin(), w.byRank.end(), [](const WhatIfRank& x, const WhatIfRank& y) { return x.slowdown > y.slowdown; });
}

// whatIfInto, or when an allocation fails all the same (a limit of the address space, a machine
// that does not overcommit): the what-if left out as for want of memory, its warnings so far too.
void whatIfOrWhy(const Profile& p, const Analysis& a, const StepPattern& pattern, const std::function<bool()>& stop, WhatIf& w,
                 std::vector<std::string>& warnings) {
    const size_t said = warnings.size();
    try {
        whatIfInto(p, a, pattern, stop, w, warnings);
    } catch (const std::bad_alloc&) {
        warnings.resize(said);
        w = WhatIf{};
        w.notComputed = "out of memory while replaying the capture (set SKEWSCOPE_WHATIF_MAX_MB to leave it out at once)";
        warnings.push_back("what-if: not computed: " + w.notComputed);
    }
}

}  // namespace

uint64_t whatIfBytes(uint64_t kernels, uint64_t members, bool packed) {
    // per kernel, at the most at once: the graph's lane-order arrays (start, launch, gap, duration,
    // median: 8 bytes each; cross, member, source and cross slots, prevLag, step: 4; keepLaunch: 1),
    // and either the build's own (lane, coupled collective, a wait list's head: 4 each) or the
    // records packed for the sweeps. Per member of a collective: its node, lane, slots, step (4
    // each), transfer (8), the build's list of members (4 + 8), and the sweep order's runs (a run
    // ends at each member, and each collective fires in one: 2 of 12 bytes). And the sweeps' own:
    // the ends a sweep keeps (kCachedEnds of 128 bytes) and as much again for member starts and
    // records gathered block by block, counted for two threads: the report says this number, and it
    // must not change with the thread count (each thread past two takes up to 4 MB more).
    constexpr uint64_t laneOrder = 5 * 8 + 6 * 4 + 1, build = 3 * 4, member = 5 * 4 + 8 + 4 + 8 + 2 * sizeof(SweepRun);
    constexpr uint64_t sweeps = 2 * (2 * uint64_t(kCachedEnds) * 128);
    return kernels * (laneOrder + (packed ? sizeof(SweepKernel) : build)) + members * member + sweeps;
}

std::string replayMemoryProblem(const Analysis& a, uint64_t kernels, bool packed, uint64_t extraPerKernel, const MemoryBudget& budget) {
    uint64_t members = 0;
    for (const Group& g : a.groups) members += uint64_t(g.count) * g.width();
    const uint64_t need = whatIfBytes(kernels, members, packed) + kernels * extraPerKernel;
    return budget.bytes && need > *budget.bytes ? memoryReason(kernels, need, budget) : std::string();
}

void computeWhatIf(const Profile& p, Analysis& a, const StepPattern& pattern) { whatIfOrWhy(p, a, pattern, {}, a.whatIf, a.warnings); }

WhatIfOutcome computeWhatIf(const Profile& p, const Analysis& a, const std::function<bool()>& stop) {
    // the pattern analyze() compiled and kept in the options
    const std::shared_ptr<const StepPattern> compiled = a.options.stepPattern && a.options.stepPattern->source() == a.options.stepRegex
                                                            ? a.options.stepPattern
                                                            : std::make_shared<const StepPattern>(a.options.stepRegex);
    WhatIfOutcome o;
    whatIfOrWhy(p, a, *compiled, stop, o.whatIf, o.warnings);
    return o;
}

void fillWhatIf(Analysis& a, WhatIfOutcome o) {
    a.whatIf = std::move(o.whatIf);
    a.warnings.insert(a.warnings.end(), std::make_move_iterator(o.warnings.begin()), std::make_move_iterator(o.warnings.end()));
}

}  // namespace skew
