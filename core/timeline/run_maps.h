#pragma once
// core/timeline: the data of the run-wide views other than the timeline's lanes. The overview strip
// (collectives by start skew, step boundaries), the step map (collectives by step and offset in the
// step), the lateness heatmap (collectives x ranks, merged per pixel column by maximum so that a big
// event is never averaged away) and the skew distributions. Pure functions over a Profile and its
// Analysis; the viewer and `render --view` draw from them, tests check them against brute force.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/profile.h"
#include "timeline/timeline_index.h"

namespace skew {

// Overview strip: per pixel column, the largest start skew of the collectives whose late arriver
// started in it (their latest start: where the timeline's late-arrival markers are; -1: none) and
// whether one of them is big.
struct OverviewColumns {
    std::vector<int64_t> maxSkew;
    std::vector<uint8_t> big;
};
void overviewColumns(const Analysis& a, const PixelMap& m, OverviewColumns& out);

// Position of `v` on the logarithmic scale [lo, hi], in [0, 1]: 0 at or below lo, 1 at or above hi.
// Every log colour scale of the run views (start skews, lateness) places values with this.
double logPosition(double v, double lo, double hi);

// The colour scale of start skews and lateness in every run view (overview strip, step map, heatmap),
// one per run and shared by its groups, and by both sides of a compare: at or below `lo` a value is
// within noise (kNoiseFactor x the median start skew of the complete collectives, at least 1 us) and
// drawn neutral; from there it is logarithmic up to the big threshold `hi` (at least ten times lo),
// so that what stands out from the typical spreads over the colours and means the same everywhere.
constexpr int64_t kNoiseFactor = 3;
struct SkewScale {
    int64_t median = 0;              // ns: the median start skew it was made from
    int64_t lo = 1000, hi = 10'000;  // ns: the noise bound and the big threshold
    double position(int64_t skewNs) const;  // in [0, 1]; 0: within noise
};
SkewScale skewScale(const Analysis& a);
// One scale for two runs compared: the median over both runs' complete collectives.
SkewScale skewScale(const Analysis& a, const Analysis& b);

// Start time of each step of a group (index step - 1): the earliest (collective min start - offset
// in step) over the step's collectives. Empty without steps.
std::vector<int64_t> stepStarts(const Analysis& a, int group);
// The group whose steps the run views show: the largest group with steps, or -1.
int stepGroup(const Analysis& a);

// Step map: rows are steps, x is the offset in the step.
struct StepMap {
    struct Item {
        uint32_t step;     // 1-based
        int64_t offsetNs;  // offset in step of the collective's earliest start
        uint32_t collective;
    };
    std::vector<int> groups;          // groups shown (all groups with NVTX steps share their rows)
    StepSource source = StepSource::None;
    uint32_t steps = 0;
    int64_t spanNs = 0;               // the longest step: max (offset + min start to max end)
    std::vector<Item> items;          // sorted by (step, offset)
    std::vector<uint32_t> stepBegin;  // items of step s: [stepBegin[s - 1], stepBegin[s])
    std::vector<uint32_t> big;        // indices into items of big collectives
    int64_t maxBigLatenessNs = 0;
    std::string why;                  // without steps: why there are none

    bool empty() const { return steps == 0; }
};
// `preferredGroup` is used when no group has NVTX steps (inferred steps number each group apart).
StepMap buildStepMap(const Profile& p, const Analysis& a, int preferredGroup);
// The step map of one group alone (its NVTX or inferred steps), e.g. one side of a comparison.
StepMap buildGroupStepMap(const Profile& p, const Analysis& a, int group);
// Index into items of the collective nearest to `offsetNs` on `step` within maxDistNs, or -1.
int64_t nearestStepItem(const StepMap& m, uint32_t step, double offsetNs, double maxDistNs);

// Lateness of a collective's member in a slot: its start - the collective's min start; -1 missing.
int64_t memberLateness(const Profile& p, const Analysis& a, uint32_t collective, size_t slot);

// Heatmap of one group: collective positions [p0, p1) (0-based, fractional; position k covers
// [k, k + 1)) over `width` pixel columns, one row per slot. Each cell holds the largest lateness of
// the collectives overlapping the column.
struct HeatmapCells {
    int width = 0, lanes = 0;  // columns, group slots (one row per rank)
    std::vector<int64_t> lateness;     // width x lanes (column-major: x * lanes + s); -1 missing, -2 no collective
    std::vector<uint32_t> collective;  // the collective holding that maximum (or the column's first)
    std::vector<uint8_t> bigLate;      // 1: a big collective's late arriver is in this cell
    std::vector<uint8_t> big;          // per column: a big collective overlaps it
    int64_t maxLateness = 0;           // over the cells
};
void heatmapCells(const Profile& p, const Analysis& a, int group, double p0, double p1, int width, HeatmapCells& out);

// Start or end skews of a group's complete collectives, ascending (the empirical CDF's x values).
std::vector<int64_t> sortedSkews(const Analysis& a, int group, bool endSkew);

}  // namespace skew
