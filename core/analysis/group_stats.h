#pragma once
// Stage 7 (docs/analysis.md, Cost of start skew and Per rank in a group), over complete
// collectives: start and end skew percentiles, the cost and its big/rest split, each rank's last
// and first counts, mean lateness (with and without big events), NCCL kernel time and the part of
// it not overlapped by any non-NCCL kernel of the rank; the "end times do not cluster" check.

#include <vector>

#include "analysis/analysis.h"
#include "analysis/collectives.h"

namespace skew {

void groupStatistics(const Profile& p, Analysis& a, const AnalysisOptions& o, const std::vector<GroupSums>& sums);

// Sum of the kernel durations of `lane`'s kernels `kernels`, and the part of that time not covered
// by any non-NCCL kernel (kernels starting in the window only) of the rank's other lanes.
void ncclTime(const Profile& p, const Rank& r, const KernelLane& lane, const std::vector<uint32_t>& kernels,
              const AnalysisOptions& o, int64_t& kernelNs, int64_t& onlyNs);

}  // namespace skew
