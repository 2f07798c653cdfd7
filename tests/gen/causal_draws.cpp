// Causal mode: the step plan and the step's random draws (see causal_draws.h).
//
// The ranges keep the CPU ahead of the GPU: a compute launch costs at most 7 us of CPU (gap + call)
// and an NCCL launch at most ~26 us, while every kernel runs at least 10 us and every chunk holds
// GEMMs of 60 us or more, so once the step's first kernel is launched the GPU never waits for a
// launch (unless a CPU stall is planted).

#include "causal_draws.h"

namespace skewgen {
namespace detail {

std::vector<CausalColl> causalPlan(const GenConfig& cfg) {
    std::vector<CausalColl> plan;
    const int L = cfg.layers;
    for (int i = 0; i < L; ++i) plan.push_back({0, 0, 0});
    for (int i = 0; i < L; ++i) {
        plan.push_back({0, 0, 0});
        plan.push_back({1, 0, 0});
    }
    int group = 1;
    if (cfg.allReduce) plan.push_back({2, 1, group++});
    if (cfg.sendRecv) plan.push_back({3, 2, group++});
    return plan;
}

namespace {

WaitDraw drawWait(Rng& rng) {
    WaitDraw w;
    w.before = rng.uni(300, 1000);
    w.callDur = rng.uni(1500, 4000);
    w.after = rng.uni(500, 1500);
    w.syncDelta = rng.uni(200, 800);
    return w;
}

void drawRank(Rng& rng, size_t collectives, int n, RankStepDraws& r) {
    r.rangeGap = rng.uni(2 * kUs, 40 * kUs);
    r.interGap = rng.uni(50 * kUs, 150 * kUs);
    r.firstGap = rng.uni(5 * kUs, 20 * kUs);
    r.watchdogAt = rng.uni(0, 2 * kMs);
    r.watchdogDur = rng.uni(1 * kUs, 3 * kUs);
    r.kernels.resize(collectives * size_t(n));
    r.chunkWaits.resize(collectives);
    r.nccl.resize(collectives);
    for (size_t c = 0; c < collectives; ++c) {
        r.chunkWaits[c] = drawWait(rng);
        for (int j = 0; j < n; ++j) {
            LaunchDraw& l = r.kernels[c * size_t(n) + size_t(j)];
            l.cpuGap = rng.uni(500, 2000);
            l.launchDur = rng.uni(2500, 5000);
            l.gpuGap = rng.uni(1 * kUs, 3 * kUs);
        }
        NcclDraw& x = r.nccl[c];
        x.pushGap = rng.uni(500, 2000);
        x.wait = drawWait(rng);
        x.launchDur = rng.uni(5 * kUs, 12 * kUs);
        x.popGap = rng.uni(500, 2000);
        x.postGap = rng.uni(1 * kUs, 3 * kUs);
        x.gpuGap = rng.uni(1 * kUs, 3 * kUs);
    }
    r.syncGap = rng.uni(2 * kUs, 10 * kUs);
    r.syncMin = rng.uni(1 * kUs, 3 * kUs);
    r.syncLatency = rng.uni(2 * kUs, 6 * kUs);
    r.rangeEndGap = rng.uni(3 * kUs, 8 * kUs);
}

}  // namespace

void drawStep(Rng& rng, const std::vector<Kind>& kinds, const std::vector<CausalColl>& plan, int chunkKernels,
              int ranks, StepDraws& out) {
    const size_t C = plan.size();
    const int n = chunkKernels;
    out.kind.assign(C * size_t(n), 0);
    out.dur.assign(C * size_t(n), 0);
    out.transfer.assign(C, 0);
    for (size_t c = 0; c < C; ++c) {
        for (int j = 0; j < n; ++j) {
            // the chunk alternates elementwise kernels and GEMMs and ends with a GEMM
            const bool gemm = (n - 1 - j) % 2 == 0;
            const int kind = gemm ? int(rng.uni(0, kGemmKinds - 1)) : kGemmKinds + int(rng.uni(0, kElemKinds - 1));
            out.kind[c * size_t(n) + size_t(j)] = kind;
            out.dur[c * size_t(n) + size_t(j)] = rng.uni(kinds[size_t(kind)].minDur, kinds[size_t(kind)].maxDur);
        }
        out.transfer[c] = rng.uni(kTransferMin[plan[c].op], kTransferMax[plan[c].op]);
    }
    out.ranks.resize(size_t(ranks));
    for (RankStepDraws& r : out.ranks) drawRank(rng, C, n, r);
}

}  // namespace detail
}  // namespace skewgen
