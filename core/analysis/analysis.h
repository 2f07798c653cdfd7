#pragma once
// Collective analysis (analysis-spec.md): matching NCCL kernels across ranks into collectives,
// skew and cost statistics, why the late arriver was late, steps and anomalies.
// Pure computation over a loaded Profile; the only change it makes to the profile is the
// per-file clock refinement (times shifted, Rank::clockOffsetNs recorded).

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analysis/step_pattern.h"
#include "model/profile.h"

namespace skew {

struct AnalysisOptions {
    bool hasTrim = false;
    int64_t trimStartNs = 0, trimEndNs = 0;  // keep kernels whose start is in [start, end)
    int64_t bigSkewNs = 20'000'000;
    std::string stepRegex;                   // empty: defaultStepRegex()
    double anomalyThreshold = 3.0;
    int64_t anomalyLimit = -1;               // rows listed; -1 all
    bool refineClocks = true;                // estimate per-file offsets from collective ends
    int64_t clockOffsetMinNs = 50'000;       // offsets smaller than this are not applied
    std::function<bool(double)> progress;    // return false to cancel (throws Cancelled)
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
const char* causeName(Cause c);

constexpr uint32_t kMissing = 0xFFFFFFFFu;

// One rank's NCCL kernels on one stream inside a group.
struct GroupLane {
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

struct Validation {
    std::string status = "ok";  // ok | warn | error
    uint32_t sequenceMismatches = 0;
    std::vector<PartialCollective> partial;
    std::vector<std::string> messages;
};

struct Group {
    int id = 0;
    std::vector<GroupLane> lanes;  // one per rank, in rank order
    std::vector<uint32_t> cells;   // collectives x lanes: kernel index in the lane's KernelLane or kMissing
    uint32_t firstCollective = 0, count = 0, complete = 0;  // range in Analysis::collectives
    std::map<std::string, uint32_t> ops;  // op name -> collectives
    Validation validation;
    Percentiles startSkew, endSkew;
    Cost cost;
    std::vector<RankStats> perRank;
    std::string stepsSource = "none";
    uint32_t stepCount = 0;
    uint32_t inferredPeriod = 0;
    std::vector<CollOp> positionOps;  // op of each collective (position) of the group

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
    int64_t launch = -1;                // index into the late rank's process Launches, -1 none
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
    uint32_t samples = 0;
};

struct Analysis {
    AnalysisOptions options;
    int64_t windowStart = 0, windowEnd = 0;
    std::vector<Group> groups;
    std::vector<Collective> collectives;
    std::vector<UnmatchedLane> unmatched;
    std::vector<ClockRefinement> clocks;  // per rank
    Anomalies anomalies;
    std::vector<std::string> warnings;

    // member accessors
    bool has(const Collective& c, size_t slot) const { return slotKernel(c, slot) != kMissing; }
    uint32_t slotKernel(const Collective& c, size_t slot) const {
        const Group& g = groups[size_t(c.group)];
        return g.cells[size_t(c.index - 1) * g.width() + slot];
    }
    int slotRank(const Collective& c, size_t slot) const { return groups[size_t(c.group)].lanes[slot].rank; }
};

// Runs everything. Throws Cancelled when the progress callback says so.
Analysis analyze(Profile& profile, const AnalysisOptions& options = {});

// Helpers exposed for the tests and the viewer.
double percentile(std::vector<int64_t> values, double q);  // numpy 'linear'
double percentileSorted(const std::vector<int64_t>& sorted, double q);
double percentileSelect(std::vector<int64_t>& values, double q);  // same result, reorders `values`
bool isGemmName(const std::string& name);

}  // namespace skew
