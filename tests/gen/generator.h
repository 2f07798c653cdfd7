#pragma once
// Generator of realistic multi-rank Nsight Systems SQLite exports (Megatron/FSDP-like).
// Used by the tests (with its ground truth), by the demo profile and by the benchmarks.
// Writes the real table and column names/types of the 2024.5 and 2026.2 exports.

#include <cstdint>
#include <string>
#include <vector>

namespace skewgen {

enum class Layout { V2024_5, V2026_2 };
enum class LateKind { Cpu, Gpu };  // CPU launched the NCCL kernel late / GPU busy with a long GEMM

// A late arriver planted at a position of the FSDP (AllGather/ReduceScatter) group.
struct PlantedLate {
    int step = 1;            // 1-based training step
    int positionInStep = 1;  // 1-based position of the collective inside the step (FSDP group)
    int rank = 0;            // 0-based rank index (order of GenConfig ranks)
    int64_t delayNs = 30'000'000;
    LateKind kind = LateKind::Cpu;
};

// A collective of the FSDP group that one rank lacks (its kernel is not written).
struct MissingCollective {
    int rank = 0;
    int index = 1;  // 1-based index in the FSDP group's full (untrimmed) sequence
};

// A rank that starts its FSDP NCCL kernels later than the others in a share of the collectives,
// by an extra delay drawn from [minNs, maxNs] (its compute before them comes that much later):
// a slow GPU (1-2 ms, most collectives) or one that loses by little (tens of us).
struct SlowRank {
    int rank = -1;  // -1: none
    int64_t minNs = 0, maxNs = 0;
    int percent = 100;  // of the FSDP collectives
};

// Causal mode (GenConfig::causal): a compute kernel longer on one rank.
struct SlowKernel {
    int step = 1;      // 1-based training step
    int position = 1;  // 1-based collective of the step whose compute chunk holds the kernel
    int rank = 0;      // 0-based rank index
    int64_t extraNs = 3'000'000;
    int kernel = -1;   // 0-based kernel of the chunk; -1: the chunk's last kernel (a GEMM)
};

// Causal mode: the rank's CPU stalls before launching the NCCL kernel of a collective (the kernel
// its GPU runs next waits for the launch; later launches come late too).
struct CpuStall {
    int step = 1;
    int position = 2;  // 1-based collective of the step whose NCCL kernel is launched late
    int rank = 0;
    int64_t stallNs = 4'000'000;
};

struct GenConfig {
    int ranks = 8;
    std::vector<int> devices;  // device id per rank; empty: 0..ranks-1 (or all 0 when perRankFiles)
    bool perRankFiles = false; // one file per rank, each with its own session start
    Layout layout = Layout::V2026_2;
    int steps = 5;
    int layers = 9;            // per step: forward `layers` AllGather, backward `layers` AllGather +
                               // `layers` ReduceScatter (FSDP group, NCCL stream)
    bool allReduce = true;     // one AllReduce per step on a second communicator/stream
    bool sendRecv = false;     // pipeline SendRecv per step on a third stream
    bool oldKernelNames = false;      // ncclKernel_* (NCCL < 2.19) instead of ncclDevKernel_*
    bool genericNcclNames = false;    // NCCL kernels named without op; op only in NVTX NCCL range
    bool nvtxSteps = true;            // ProfilerStep#N push/pop ranges
    bool nvtxNccl = true;             // NCCL-domain ranges (ncclAllGather, ...) around launches
    int extraKernelsPerCollective = 6; // GEMM + elementwise kernels on compute stream per collective
    uint64_t seed = 1;
    std::vector<PlantedLate> late;
    SlowRank slow;
    std::vector<MissingCollective> missing;
    // Keep only kernels whose start, relative to the first step's start on the common timeline
    // (GenResult::firstStepNs), is in [trimStart, trimEnd); <0 means no bound on that side.
    // Launches, NVTX and sync rows are kept.
    int64_t trimStartNs = -1, trimEndNs = -1;
    // Per-rank host clock error in ns (perRankFiles only): all times of that rank are shifted.
    std::vector<int64_t> clockErrorNs;
    int64_t sessionStartUtcNs = 1'779'782'330'176'752'435LL;
    // Rows written as nsys writes them: each table's rows of a step in start order (every real
    // export has its tables in start order). Off by default: the tests read rows out of order, so
    // that the loader's sorts are exercised; the benchmark turns it on.
    bool timeOrdered = false;

    // Causal mode: the run is simulated by its dependencies (per rank a CPU thread launching the
    // kernels in order ahead of the GPU and synchronizing at each step's end; stream order;
    // cross-stream waits; collectives ending at their latest member's start + a transfer time), so
    // that the same config with `delays` off is the same run minus the planted delays. The classic
    // plants (late, slow, missing) are rejected in this mode. See causal_timeline.cpp.
    bool causal = false;
    bool delays = true;                   // false: the planted delays below are left out
    std::vector<SlowKernel> slowKernels;  // rotating ranks, typically
    std::vector<CpuStall> cpuStalls;
    int slowComputeRank = -1;             // a persistent slow rank: its compute kernels take
    double slowComputeFactor = 1.3;       // slowComputeFactor x their duration in every step
    // Causal mode: the export records OS runtime calls and CPU samples (tables OSRT_API,
    // COMPOSITE_EVENTS, SAMPLING_CALLCHAINS), and each CPU stall is written as what the launching
    // thread did in it (GenResult::cpuEvents): a quarter of it idle, a quarter computing
    // (collate_batch, sampled every 100 us, with a cudaMemcpyAsync call), half blocked in
    // pthread_mutex_lock (a nested futex inside); and, on the rank's other thread, a sample and a
    // poll call at the same time that are not the launching thread's.
    bool cpuTrace = false;
};

// Causal mode with cpuTrace: one event written for a CPU stall.
struct TruthCpuEvent {
    int rank = 0;
    bool launchingThread = true;  // on the thread that launches the kernels
    std::string kind;             // "osrt" (outermost), "osrt_nested", "cuda", "sample"
    std::string name;             // the call, or the sample's top function
    int64_t startNs = 0, endNs = 0;  // aligned (a sample: end == start)
};

struct TruthMember {
    int rank;
    int stream;
    int64_t startNs, endNs;  // aligned time base (ns since the earliest session start), no clock error
    uint32_t correlationId;
    int64_t launchEndNs;     // end of the launching API call, aligned
};

struct TruthCollective {
    int group;               // 0 FSDP, 1 AllReduce, 2 SendRecv (only those that exist, renumbered in order)
    int index;               // 1-based in the group's full sequence
    std::string op;
    int step;                // 1-based
    std::vector<TruthMember> members;  // one per rank that has it after trimming/missing
};

struct TruthLate {
    PlantedLate planted;
    int group;
    int index;                 // 1-based index in its group
    std::string predecessorName;  // GEMM the late kernel started behind (Gpu kind), else empty
    int predecessorStream = -1;
};

// Causal mode: one step's time as the spec's what-if defines it (last kernel end over ranks minus
// first kernel start over ranks; a kernel belongs to the step whose ProfilerStep range holds its
// launch call).
struct TruthStep {
    int step = 0;              // 1-based
    int64_t capturedNs = 0;    // of the run as written (kernels kept by trimming; 0 without kernels)
    int64_t undelayedNs = 0;   // of the same run without the planted delays (every kernel)
    bool complete = true;      // no kernel of the step trimmed away
};

struct GenResult {
    std::vector<std::string> files;
    std::vector<std::string> rankLabels;   // labels the spec gives these ranks
    std::vector<TruthCollective> collectives;
    std::vector<TruthLate> late;
    uint64_t kernelRows = 0, runtimeRows = 0, nvtxRows = 0;
    uint64_t syncRows = 0;
    int steps = 0;                         // steps generated
    int64_t firstStepNs = 0;               // aligned start of step 1 (origin of trimStartNs/trimEndNs)
    // stepRangeStartNs[r][s - 1]: aligned start of config rank r's ProfilerStep#s range (its start
    // on the main thread also when nvtxSteps is off and no range is written)
    std::vector<std::vector<int64_t>> stepRangeStartNs;
    // specOrder[i] = GenConfig rank index of the i-th rank in the spec's rank order
    // (file name, device id, pid); differs from 0..ranks-1 e.g. with >10 per-rank files
    // ("x_rank10" sorts before "x_rank2") or unsorted devices.
    std::vector<int> specOrder;
    std::vector<TruthStep> stepTimes;      // causal mode only, one per step
    std::vector<TruthCpuEvent> cpuEvents;  // causal mode with cpuTrace only
};

// Collectives (= NCCL kernels) per step and rank: FSDP group + AllReduce + SendRecv.
// Kernels per step over all ranks: ranks x collectives x (1 + extraKernelsPerCollective), before
// missing collectives and trimming.
int collectivesPerStep(const GenConfig& cfg);
uint64_t kernelsPerStep(const GenConfig& cfg);

// Writes to `outPath` (one file) or `outPath` as a stem: <stem>_rank<N>.sqlite (per-rank files).
// Existing files are replaced. Throws std::runtime_error on failure.
GenResult generate(const GenConfig& cfg, const std::string& outPath);

// The demo profile: an 8-GPU node in one file with device 0 not captured (7 ranks, devices 1..7),
// 5 steps, a few 20-55 ms late arrivers at fixed step positions with rotating ranks.
GenConfig demoConfig();

// A causal run: 8 ranks, 4 steps, 4 layers, with slow kernels on rotating ranks and CPU stalls
// planted (no slow rank); `delays = false` gives the same run without them.
GenConfig causalConfig();

}  // namespace skewgen
