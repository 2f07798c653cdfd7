#pragma once
// Stage 1 (docs/analysis.md, Kernels and collectives): lanes of NCCL kernels (one rank, one
// stream), grouped across ranks by their op histogram over whole lanes, one lane per rank; each
// group is then aligned into collectives (alignment.h). Lanes that match nothing are reported.

#include "analysis/analysis.h"

namespace skew {

// The op of an NCCL kernel: from its name, else from the NCCL-domain NVTX range that encloses its
// launch on the launching thread, else Unknown. NotNccl for other kernels.
class KernelOps {
public:
    explicit KernelOps(const Profile& p);
    ~KernelOps();
    CollOp operator()(const Rank& r, const KernelLane& l, uint32_t k) const;

private:
    class NvtxOps;
    const Profile& p_;
    mutable std::unique_ptr<NvtxOps> nvtx_;  // built on first need: only op-less names need it
};

// Fills a.groups (lanes, cells, positions; ids in the order of their first rank's lane) and
// a.unmatched. Kernels outside the options' window are left out of the groups' lanes.
void groupLanes(const Profile& p, const AnalysisOptions& o, Analysis& a);

}  // namespace skew
