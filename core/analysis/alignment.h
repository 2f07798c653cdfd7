#pragma once
// Stage 2 (docs/analysis.md, Matching inside a group): the lanes of a group lined up into
// collectives. Each lane is anchored by time on a reference lane, the kernel shift with the most
// consistent end differences is found, and lanes are merged by end time (same op, ends within a
// tolerance); a kernel without partners opens a position of its own, missing on the other ranks.

#include <cstdint>

#include "analysis/analysis.h"

namespace skew {

struct ShiftEstimate {
    bool ok = false;
    int64_t offset = 0;  // add to the lane's ends to put them on the reference's clock
    int64_t mad = 0;     // median absolute deviation of the end differences at that shift
};

// How `lane` lines up with `ref`: the shift (up to +-12 kernels around a time anchor) at which ops
// agree over most of both lanes and end differences are most consistent.
ShiftEstimate estimateShift(const Profile& p, const GroupSlot& ref, const GroupSlot& lane);

// Fills g.cells, g.count and g.positionOps from g.lanes, on the clock of lane `refSlot`; messages
// for lanes without kernels in the window or that do not line up go to g.validation.
void alignGroup(const Profile& p, Group& g, size_t refSlot);

}  // namespace skew
