// Causal mode: the run simulated by its dependencies (see causal_timeline.h, causal_world.h).
//
// Two worlds step through the same draws (causal_draws.h): the one written (with the planted
// delays unless GenConfig::delays is off) and its undelayed twin, timed only. Because every draw
// is made whatever the delays, the twin is exactly the run written with delays off, and its step
// times are the truth a what-if of the delayed run must predict.
//
// Why the what-if can be exact on these runs: within a step the CPU runs ahead of the GPU (launch
// gaps are shorter than kernels), so only each rank's first kernel of a step is bound by its
// launch; every other kernel starts its own drawn gap after its GPU dependencies (or after a launch
// delayed by a planted CPU stall). Undelayed kernel durations are the same on every rank, and slow
// kernels are planted on one rank per position, so the median of a kernel's counterparts is its
// undelayed duration. Every step ends with collectives, which end together on all ranks, so the
// next step starts on every rank at the same offset in both worlds.

#include "causal_timeline.h"

#include "causal_draws.h"
#include "causal_world.h"

namespace skewgen {
namespace detail {

void validateCausal(const GenConfig& cfg) {
    if (!cfg.late.empty() || !cfg.missing.empty() || cfg.slow.rank >= 0)
        Run::fail("causal mode plants slow kernels, CPU stalls and a slow rank, not late arrivers or missing collectives");
    const int C = collectivesPerStep(cfg);
    const int n = cfg.extraKernelsPerCollective;
    for (const SlowKernel& k : cfg.slowKernels) {
        if (k.step < 1 || k.step > cfg.steps) Run::fail("slow kernel: step out of range");
        if (k.position < 1 || k.position > C) Run::fail("slow kernel: position out of range");
        if (k.rank < 0 || k.rank >= cfg.ranks) Run::fail("slow kernel: rank out of range");
        if (n < 1 || k.kernel < -1 || k.kernel >= n) Run::fail("slow kernel: no such kernel in the chunk");
        if (k.extraNs < 0) Run::fail("slow kernel: negative delay");
    }
    for (const CpuStall& s : cfg.cpuStalls) {
        if (s.step < 1 || s.step > cfg.steps) Run::fail("CPU stall: step out of range");
        if (s.position < 1 || s.position > C) Run::fail("CPU stall: position out of range");
        if (s.rank < 0 || s.rank >= cfg.ranks) Run::fail("CPU stall: rank out of range");
        if (s.stallNs < 0) Run::fail("CPU stall: negative stall");
    }
    if (cfg.slowComputeRank < -1 || cfg.slowComputeRank >= cfg.ranks) Run::fail("slow rank out of range");
    if (!(cfg.slowComputeFactor > 0)) Run::fail("slow rank factor must be positive");
}

void runCausalTimeline(Run& run) {
    const GenConfig& cfg = run.cfg;
    const std::vector<CausalColl> plan = causalPlan(cfg);
    Rng rng(cfg.seed);
    CausalWorld written(run, plan, cfg.delays, true);
    CausalWorld undelayed(run, plan, false, false);

    if (cfg.nvtxNccl)
        for (const RankInfo& r : run.ranks)
            run.db(r).nvtxText(Run::ft(r, 1 * kMs + r.idx * 7 * kUs), kNoValue, 75, "NCCL", r.gtidMain, kNcclDomain);
    run.res.firstStepNs = Run::aligned(kFirstStepModel);
    run.res.stepRangeStartNs.assign(size_t(cfg.ranks), {});

    StepDraws d;
    for (int s = 1; s <= cfg.steps; ++s) {
        drawStep(rng, run.kinds, plan, cfg.extraKernelsPerCollective, cfg.ranks, d);
        const StepSpan w = written.runStep(s, d);
        const StepSpan u = undelayed.runStep(s, d);
        run.res.stepTimes.push_back(TruthStep{s, w.ns(), u.ns(), w.complete});
    }
    run.res.steps = cfg.steps;
}

}  // namespace detail
}  // namespace skewgen
