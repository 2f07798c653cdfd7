#pragma once
// Collective analysis (docs/analysis.md): what it produces, and analyze(), the pipeline that runs
// its stages in order, one file each in this folder:
//   grouping     lanes of NCCL kernels grouped across ranks by op sequence
//   alignment    each group's lanes lined up into collectives (positions x ranks)
//   clocks       per-file clock refinement from collective ends (several files)
//   collectives  per-collective skews, excess, big, late/early arrivers; validation
//   why          why the late arriver was late: launch, CPU/GPU split, predecessor, cause
//   steps        training steps from NVTX or inferred from the op period
//   group_stats  percentiles, cost, per-rank counts and means, NCCL-only time
//   anomalies    kernels far over their op's mean duration
//   answers      the three questions answered with their evidence
//   capture_advice  what the next capture should record
//   whatif       the step without late arrivals: a replay of the capture (whatif_graph, whatif_steps,
//                whatif_medians, whatif_replay)
// Pure computation over a loaded Profile; the only change it makes to the profile is the
// per-file clock refinement (times shifted, Rank::clockOffsetNs recorded).

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_class.h"
#include "analysis/stats.h"
#include "analysis/step_pattern.h"
#include "model/profile.h"

namespace skew {

struct AnalysisOptions {
    bool hasTrim = false;
    int64_t trimStartNs = 0, trimEndNs = 0;  // keep kernels whose start is in [start, end)
    int64_t bigSkewNs = 20'000'000;
    std::string stepRegex;                   // empty: defaultStepRegex()
    // stepRegex compiled once by makeAnalysisOptions (analyze compiles it when this is null or was
    // compiled from another text)
    std::shared_ptr<const StepPattern> stepPattern;
    double anomalyThreshold = 3.0;
    int64_t anomalyLimit = -1;               // rows listed; -1 all
    bool refineClocks = true;                // estimate per-file offsets from collective ends
    int64_t clockOffsetMinNs = 50'000;       // offsets smaller than this are not applied
    std::function<bool(double)> progress;    // return false to cancel (throws Cancelled)
    size_t threads = 0;                      // for the parallel stages; 0: workerThreads() (util/parallel.h)
    // false: the what-if is left out (WhatIf::pending), for computeWhatIf + fillWhatIf later
    // (analysis/whatif.h): the viewer draws its first picture without waiting for it
    bool whatIf = true;

    bool inWindow(int64_t start) const { return !hasTrim || (start >= trimStartNs && start < trimEndNs); }
};

// The analysis settings as a user gives them (ms, seconds, a pattern), from the command line or the
// viewer's settings dialog: checked and converted to AnalysisOptions in one place.
struct AnalysisSettings {
    double bigSkewMs = 20.0;
    double anomalyThreshold = 3.0;
    std::string stepRegex;  // empty: defaultStepRegex()
    bool hasTrim = false;
    double trimStartS = 0, trimEndS = 0;
    int64_t anomalyLimit = -1;  // -1: all
};
// Fills `out` from `s`; returns an empty string, or one line saying which value is unusable (not
// finite, out of range, a window that ends before it starts, a pattern that does not compile).
std::string makeAnalysisOptions(const AnalysisSettings& s, AnalysisOptions& out);
// The settings that give these options (for the dialog and for remembering them).
AnalysisSettings analysisSettings(const AnalysisOptions& o);

enum class Cause : uint8_t { Unknown, CpuLaunch, GpuDependency, GpuOther };
constexpr size_t kCauses = 4;
const char* causeName(Cause c);   // the contract's identifier: cpu_launch, gpu_dependency, ...
const char* causeLabel(Cause c);  // readable words, capitalised: "CPU launch", "GPU dependency", "Unknown"
constexpr Cause kAllCauses[kCauses] = {Cause::CpuLaunch, Cause::GpuDependency, Cause::GpuOther, Cause::Unknown};  // in the reports' order

constexpr uint32_t kMissing = 0xFFFFFFFFu;

// One rank's NCCL kernels on one stream inside a group.
struct GroupSlot {
    int rank = 0;
    int lane = 0;                   // index into Rank::lanes
    std::vector<uint32_t> kernels;  // indices into the KernelLane, start order, trimmed
    std::vector<CollOp> ops;
    uint32_t droppedLeading = 0, droppedTrailing = 0;
};

struct Percentiles {
    int64_t p50 = 0, p90 = 0, max = 0;
};

struct RankStats {
    int rank = 0;
    uint32_t lastCount = 0, firstCount = 0;
    int64_t meanLatenessNs = 0, meanLatenessExclBigNs = 0;
    int64_t ncclKernelNs = 0, ncclOnlyNs = 0;
};

struct Cost {
    int64_t totalNs = 0, baselineNs = 0, excessNs = 0, latenessSumNs = 0;
    double share = 0;
    uint32_t bigCount = 0, restCount = 0;
    int64_t bigExcessNs = 0, restExcessNs = 0;
};

struct PartialCollective {
    uint32_t index;  // 1-based
    std::vector<int> missingRanks;
};

// How well a group's lanes matched: error when no collective is complete, warn with partial
// collectives or messages.
enum class ValidationStatus : uint8_t { Ok, Warn, Error };
const char* validationStatusName(ValidationStatus s);  // ok | warn | error (the reports' words)

struct Validation {
    ValidationStatus status = ValidationStatus::Ok;
    uint32_t sequenceMismatches = 0;
    std::vector<PartialCollective> partial;
    std::vector<std::string> messages;
};

// The answers of docs/analysis.md (Answers) for one group, with the figures behind them.
enum class WhoVerdict : uint8_t { Persistent, OftenLastSmall, Rotating };
const char* verdictName(WhoVerdict v);  // persistent | often_last_small | rotating

struct BigPosition {
    uint32_t position = 0;           // 1-based place among the group's collectives of its step
    std::vector<uint32_t> steps;     // ascending
    std::vector<int> lateRanks;      // aligned with steps
    std::vector<uint32_t> collectives;  // indices into Analysis::collectives, aligned with steps
    int64_t offsetMedianNs = 0;
};

struct PredecessorCount {
    StrId name = kNoString;
    int32_t stream = 0;
    uint32_t count = 0;
    uint32_t sameStream = 0;  // of `count`, those where it ran on the NCCL kernel's own stream
    bool gemm = false;
};

// Why a verdict that names a rank (persistent, often_last_small) rests on little: the verdict stays
// as defined, the sentences and the JSON say which of these hold.
struct VerdictEvidence {
    bool fewCollectives = false;  // fewer than kVerdictCollectives collectives considered
    bool twoRanks = false;        // persistent with 2 ranks: one of them is always last in at least half
    bool notSignificant = false;  // persistent while the last counts are not significant (p >= kOftenLastP)
    bool thin() const { return fewCollectives || twoRanks || notSignificant; }
};

struct Answers {
    // 1. who arrived late: the big collectives (complete ones), in collective order
    std::vector<uint32_t> big;    // indices into Analysis::collectives
    std::vector<int> bigLateRanks;
    std::map<int, uint32_t> bigLateCount;  // per rank late in a big one, in how many; bigMostLate: the largest count
    uint32_t bigMostLate = 0;
    // 2. same rank or rotating, over complete collectives that are not big
    WhoVerdict verdict = WhoVerdict::Rotating;
    uint32_t considered = 0;      // collectives the verdict is over
    int topRank = -1;             // most last arrivals (ties: first in rank order); the JSON's rank unless rotating
    uint32_t topLastCount = 0;
    double lastShare = 0;
    double chi2 = 0, chi2P = 1;
    int64_t othersMedianExclBigNs = 0;  // median of the other ranks' mean lateness excluding big events
    int64_t meanExclBigMinNs = 0, meanExclBigMaxNs = 0;
    int meanExclBigMinRank = -1, meanExclBigMaxRank = -1;
    VerdictEvidence verdictEvidence;
    std::vector<BigPosition> positions;  // recurring positions of big events in the step
    bool bigRotate = false;
    // 3. CPU or GPU
    std::array<uint32_t, kCauses> bigCauses{};
    bool hasGpuGap = false;
    int64_t gpuGapMinNs = 0, gpuGapMaxNs = 0;  // launch-to-start of the gpu_dependency big ones
    std::vector<PredecessorCount> predecessors;  // of the gpu_dependency big ones, most frequent first
    std::array<uint32_t, kCauses> restCauses{};  // of the complete collectives that are not big
    int64_t restCpuNs = 0, restGpuNs = 0;
    // where the evidence is thin (fewer than 3 steps, fewer than 3 big events, missing ranks)
    std::vector<std::string> caveats;
};

// Where a group's training steps came from: NVTX step ranges, the op sequence's period, or none.
enum class StepSource : uint8_t { None, Nvtx, Inferred };
const char* stepSourceName(StepSource s);  // none | nvtx | inferred (the reports' words)

struct Group {
    int id = 0;
    std::vector<GroupSlot> lanes;  // one per rank, in rank order
    std::vector<uint32_t> cells;   // collectives x lanes: kernel index in the lane's KernelLane or kMissing
    uint32_t firstCollective = 0, count = 0, complete = 0;  // range in Analysis::collectives
    std::map<std::string, uint32_t> ops;  // op name -> collectives
    Validation validation;
    Percentiles startSkew, endSkew;
    Cost cost;
    std::vector<RankStats> perRank;
    StepSource stepsSource = StepSource::None;
    uint32_t stepCount = 0;
    uint32_t inferredPeriod = 0;
    int64_t stepMedianNs = 0;         // median duration of the NVTX step ranges its collectives fall in; 0 otherwise
    std::vector<CollOp> positionOps;  // op of each collective (position) of the group
    Answers answers;

    size_t width() const { return lanes.size(); }
};

struct Collective {
    int group = 0;
    uint32_t index = 0;  // 1-based in the group
    CollOp op = CollOp::Unknown;
    bool complete = false;
    bool big = false;
    int64_t minStart = 0, maxStart = 0, minEnd = 0, maxEnd = 0;
    int64_t excessNs = 0;
    int lateSlot = -1, earlySlot = -1;  // slot (lane index in the group) of the late / early arriver
    // why the late arriver was late
    int64_t latenessNs = 0, cpuNs = 0, gpuNs = 0;
    bool launched = false;              // the late arriver's kernel has its launch row (lateLaunch)
    int64_t launchToStartNs = 0;
    int predRank = -1, predLane = -1;   // predecessor kernel of the late rank (any stream)
    uint32_t predKernel = 0;
    int64_t predGapNs = 0;
    bool predIsGemm = false;
    bool predSameStream = false;        // on the NCCL kernel's own stream: queued behind it
    int64_t waitIndex = -1;             // last stream wait on the NCCL stream just before the start
    uint32_t waitCount = 0;
    Cause cause = Cause::Unknown;
    uint32_t step = 0;                  // 0: no step
    uint32_t positionInStep = 0;        // 1-based place among the group's collectives of its step; 0: no step
    int64_t offsetInStepNs = 0;

    int64_t startSkew() const { return maxStart - minStart; }
    int64_t endSkew() const { return maxEnd - minEnd; }
};

struct UnmatchedLane {
    int rank, lane;
    uint32_t kernels;
    std::string reason;
};

struct AnomalyItem {
    int group;
    uint32_t collective;  // index into Analysis::collectives
    std::vector<std::pair<int, int64_t>> rows;  // rank id, duration
};

struct Anomalies {
    double threshold = 3.0;
    uint64_t rows = 0, events = 0;
    std::vector<AnomalyItem> items;  // limited by the option, counts are not
};

struct ClockRefinement {
    int64_t offsetNs = 0;        // applied to this rank (0 when not applied)
    int64_t estimateNs = 0;      // estimated residual before applying
    int64_t residualP90Ns = 0;   // |end residual| p90 after applying
};

// One rule of docs/analysis.md (Capture advice): what the export lacks and what to record next time.
struct CaptureAdvice {
    std::string id;        // missing_devices, no_nvtx_steps, ... (the JSON's)
    std::string evidence;  // what in this capture triggered it, with its numbers (the JSON's: causes as identifiers)
    std::string advice;    // what to add (option names, environment variables)
    std::string title;     // what to do in a few words, for users: "Record CPU sampling"
    std::string words;     // `evidence` as users read it: causes by their names (causeLabel), no identifiers
    std::vector<int> groups;  // the groups whose late arrivers triggered it; empty: the capture as a whole
};

// The what-if of docs/analysis.md (What-if): per step, the captured step time and the step time of
// each scenario replayed from the capture; a scenario that cannot be computed is absent (nullopt)
// and a warning says why.
struct WhatIfStep {
    uint32_t step = 0;  // 1-based
    int64_t capturedNs = 0;
    std::optional<int64_t> noSlowKernelsNs, noLateLaunchesNs, idealNs;
};

struct WhatIfRank {
    int rank = 0;
    double slowdown = 1.0;  // Σ step times with only this rank captured (the others ideal) / Σ ideal
};

struct WhatIf {
    bool pending = false;         // not computed yet (AnalysisOptions::whatIf false): nothing below is filled
    std::string notComputed;      // left out, and why (it would not fit in memory): nothing below is filled
    uint64_t kernels = 0;         // kernels replayed
    int64_t maxErrorNs = 0;       // largest |replayed start - captured start| with captured inputs
    uint32_t uncoupled = 0;       // collectives left uncoupled (a member ended before the latest start)
    StepSource stepSource = StepSource::None;
    std::vector<WhatIfStep> steps;
    std::vector<WhatIfRank> byRank;  // largest slowdown first
    std::optional<double> noSlowKernels, noLateLaunches, ideal;  // Σ captured / Σ scenario
};

struct Analysis {
    AnalysisOptions options;
    int64_t windowStart = 0, windowEnd = 0;
    std::vector<Group> groups;
    std::vector<Collective> collectives;
    std::vector<UnmatchedLane> unmatched;
    std::vector<ClockRefinement> clocks;  // per rank
    Anomalies anomalies;
    std::vector<CaptureAdvice> advice;
    WhatIf whatIf;
    std::vector<std::string> warnings;

    // the kernel of group slot `slot` in collective `c` (index into its lane), or kMissing
    uint32_t slotKernel(const Collective& c, size_t slot) const {
        const Group& g = groups[size_t(c.group)];
        return g.cells[size_t(c.index - 1) * g.width() + slot];
    }
    int slotRank(const Collective& c, size_t slot) const { return groups[size_t(c.group)].lanes[slot].rank; }
    int lateRank(const Collective& c) const { return c.lateSlot < 0 ? -1 : slotRank(c, size_t(c.lateSlot)); }
    int earlyRank(const Collective& c) const { return c.earlySlot < 0 ? -1 : slotRank(c, size_t(c.earlySlot)); }
    const Collective* find(int group, uint32_t index) const;  // by group and 1-based index, or null
};

// A group's ops with their collectives ("AllGather 90, ReduceScatter 45"), or their names alone
// ("AllGather, ReduceScatter"), in the reports' order.
std::string opList(const Group& g, bool counts = true);

// Runs every stage. Throws Cancelled when the progress callback says so, std::invalid_argument
// for a step pattern that does not compile.
Analysis analyze(Profile& profile, const AnalysisOptions& options = {});

// Facts about collectives that every client (reports, viewer, render) uses: computed here once.
// One member of a collective: its kernel, times and lateness (start - the collective's min start).
struct Member {
    size_t slot = 0;
    int rank = 0, lane = 0;
    uint32_t kernel = 0;
    int64_t startNs = 0, endNs = 0, latenessNs = 0;
};
// The members present, in group slot (rank) order.
std::vector<Member> members(const Profile& p, const Analysis& a, const Collective& c);
// The member of group slot `slot`, or nothing when that rank lacks the collective.
std::optional<Member> member(const Profile& p, const Analysis& a, const Collective& c, size_t slot);
// The member that is kernel `kernel` of lane (rank, lane), or nothing when that kernel is not one of `c`.
std::optional<Member> memberOfKernel(const Profile& p, const Analysis& a, const Collective& c, int rank, int lane, uint32_t kernel);
// The waiting part of a member that ran [startNs, endNs): from its start to the collective's latest
// start, within the kernel; the rest of it is transfer (docs/analysis.md, Run views). The timeline's
// level of detail and the collective view split members with this one function.
inline int64_t memberWaitNs(const Collective& c, int64_t startNs, int64_t endNs) {
    return std::clamp<int64_t>(c.maxStart - startNs, 0, std::max<int64_t>(0, endNs - startNs));
}
// A kernel's launch call (KernelLane's launch columns), or nothing when it has no launch row; and
// that of the late arriver's kernel of a collective.
struct LaunchCall {
    StrId api = kNoString;
    int64_t startNs = 0, endNs = 0;
    uint32_t tid = 0;
};
std::optional<LaunchCall> launchOf(const KernelLane& lane, uint32_t kernel);
std::optional<LaunchCall> lateLaunch(const Profile& p, const Analysis& a, const Collective& c);
// Index of the complete collective with the largest start skew (ties: the first) among those
// `accept` takes (all by default), -1 when none.
int worstCollective(const Analysis& a, const std::function<bool(int)>& accept = {});
// True when end times cluster (matching trusted): end skew p50 at most 100 us or at most half the
// start skew p50. Groups where they do not are named in their validation messages.
bool endsCluster(const Group& g);

}  // namespace skew
