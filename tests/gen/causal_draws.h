#pragma once
// Causal mode: the plan of a step (its collectives in launch order) and the random parts of one
// step - kernel kinds and undelayed durations (the same on every rank), transfer times, and per
// rank the CPU's call durations and gaps and the GPU's start gaps - drawn in an order that does not
// depend on the planted delays, so that a run with and without them draws the same numbers.

#include <cstdint>
#include <vector>

#include "gen_common.h"
#include "generator.h"
#include "kernel_kinds.h"

namespace skewgen {
namespace detail {

// One collective of a step: its op (0 AllGather, 1 ReduceScatter, 2 AllReduce, 3 SendRecv), its
// stream (index into RankInfo::streams) and its truth group (0 FSDP, then AllReduce, SendRecv).
struct CausalColl {
    int op;
    int streamRole;
    int group;
};

// FSDP: `layers` AllGather, then `layers` (AllGather, ReduceScatter); then AllReduce, SendRecv.
std::vector<CausalColl> causalPlan(const GenConfig& cfg);

struct LaunchDraw {
    int64_t cpuGap;     // CPU work before the launch call
    int64_t launchDur;  // the launch call
    int64_t gpuGap;     // the kernel starts this long after its last dependency (launch or GPU)
};

// A cudaStreamWaitEvent call and the synchronization row it leaves.
struct WaitDraw {
    int64_t before, callDur, after;
    int64_t syncDelta;  // the row ends this long after the awaited kernel's end (< any gpuGap)
};

struct NcclDraw {
    int64_t pushGap;  // CPU work before the NVTX push of the NCCL call
    WaitDraw wait;    // the NCCL stream waits for the compute chunk
    int64_t launchDur, popGap, postGap, gpuGap;
};

struct RankStepDraws {
    int64_t rangeGap;  // the ProfilerStep range starts this long after the session's step origin
    int64_t interGap;  // (steps > 1: after the previous range's end + interGap)
    int64_t firstGap;  // first launch after the range start
    int64_t watchdogAt, watchdogDur;
    std::vector<LaunchDraw> kernels;   // collectives x chunk kernels
    std::vector<WaitDraw> chunkWaits;  // per collective: its chunk waits for the collective two before
    std::vector<NcclDraw> nccl;        // per collective
    int64_t syncGap, syncMin, syncLatency, rangeEndGap;
};

struct StepDraws {
    std::vector<int> kind;          // collectives x chunk kernels: compute kind of kernel j of chunk c
    std::vector<int64_t> dur;       // its undelayed duration
    std::vector<int64_t> transfer;  // per collective
    std::vector<RankStepDraws> ranks;
};

// Draws one step. `kinds` are the run's compute kinds (kernel_kinds.h).
void drawStep(Rng& rng, const std::vector<Kind>& kinds, const std::vector<CausalColl>& plan, int chunkKernels,
              int ranks, StepDraws& out);

}  // namespace detail
}  // namespace skewgen
