#pragma once
// Causal mode: one simulated world of a run - every rank's CPU thread and streams through the
// steps - with or without the planted delays, writing its rows into the run's files or only
// timing them (the undelayed twin whose step times are the truth).
//
// Per rank and step: the CPU opens the ProfilerStep range, then for each collective of the plan
// (causal_draws.h) launches its compute chunk on the compute stream (a cudaStreamWaitEvent first
// from the third collective on: the chunk waits for the NCCL kernel two collectives before, so it
// overlaps the previous one) and the NCCL kernel on its stream (NVTX range, cudaStreamWaitEvent
// for the chunk, cuLaunchKernelEx; a planted CPU stall comes before the NVTX range);
// at the end it synchronizes until its GPU work is done and closes the range. A kernel starts its
// drawn gap after the latest of: the previous kernel of its stream, its launch call's end, the
// kernel it waits for. A collective's members all end at the latest member's start + the
// collective's transfer time.

#include <cstdint>
#include <limits>
#include <vector>

#include "causal_draws.h"
#include "run_setup.h"

namespace skewgen {
namespace detail {

// The spec's step time of one step of a world: first kernel start and last kernel end over ranks.
struct StepSpan {
    int64_t first = std::numeric_limits<int64_t>::max();
    int64_t last = std::numeric_limits<int64_t>::min();
    bool complete = true;  // every kernel of the step written (none trimmed)
    int64_t ns() const { return last >= first ? last - first : 0; }
};

class CausalWorld {
public:
    // `write`: rows go into the run's files and the truth of collectives into run.res.
    CausalWorld(Run& run, const std::vector<CausalColl>& plan, bool delays, bool write);

    // Simulates step `step` (1-based) with its draws; the span counts the kernels written (all
    // kernels when not writing).
    StepSpan runStep(int step, const StepDraws& d);

private:
    struct RankClock {
        int64_t rangeStart = 0, rangeEnd = -1, cpu = 0;
        int64_t computeEnd = 0;              // last kernel end on the compute stream
        int64_t streamEnd[3] = {0, 0, 0};    // on RankInfo::streams
        int64_t chunkEnd = 0;                // the current chunk's last kernel end (0: none)
        std::vector<int64_t> ncclEnd;        // per collective of the step
        int64_t ncclStart = 0, ncclLaunchEnd = 0;
        uint32_t ncclCorr = 0;
        uint32_t corr = kCorrBase;
        int64_t gridId = 1, eventId = 1, eventSyncId = 1, callchain = 0;
        std::vector<KRow> rows;              // the step's kernels, written at its end
    };

    void beginStep(const StepDraws& d);
    void launchChunk(int step, size_t c, int r, const StepDraws& d);
    void launchNccl(int step, size_t c, int r, const StepDraws& d);
    void finishCollective(int step, size_t c, const StepDraws& d);
    void endStep(int step, const StepDraws& d);

    int64_t kernelDuration(int step, size_t c, int j, int r, const StepDraws& d) const;
    int64_t stallBefore(int step, size_t c, int r) const;
    // A CUDA API call on the rank's main thread; returns its correlation id.
    uint32_t apiCall(int r, int64_t start, int64_t end, bool driver, int64_t nameId, bool launch);
    void kernel(int r, int64_t start, int64_t end, int kind, int stream, uint32_t corr);
    void streamWaitRow(int r, int stream, int64_t start, int64_t end, uint32_t corr);
    // GenConfig::cpuTrace: what the launching thread did in a CPU stall of `stall` ns from `cpu`
    void writeStall(int r, int64_t cpu, int64_t stall);

    uint32_t stallCorr_ = 2'000'000'000u;  // correlation ids of the stalls' CUDA API calls (no kernel)
    Run& run_;
    const GenConfig& cfg_;
    const std::vector<CausalColl>& plan_;
    const bool delays_, write_;
    const int n_;  // kernels per compute chunk
    std::vector<RankClock> clocks_;
    std::vector<int> groupIndex_;
    StepSpan span_;
};

}  // namespace detail
}  // namespace skewgen
