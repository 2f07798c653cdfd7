#pragma once
// What-if, the no_slow_kernels durations (docs/analysis.md, What-if): each non-NCCL kernel with a
// step takes the median duration of its counterparts on the ranks of its group (ranks joined by a
// collective group, transitively): same step, same stream role, same place among that step's
// kernels of its name on that stream. A stream's role is the group whose NCCL kernels it carries,
// else its place among the rank's streams that carry none. NCCL kernels and kernels without a step
// keep their captured duration.

#include <cstdint>
#include <vector>

#include "analysis/whatif_graph.h"

namespace skew {

// Per lane-order id: the duration the kernel has in no_slow_kernels.
std::vector<int64_t> medianDurations(const Profile& p, const Analysis& a, const ReplayKernels& k, const std::vector<uint32_t>& step,
                                     uint32_t steps);

}  // namespace skew
