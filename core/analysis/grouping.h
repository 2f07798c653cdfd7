#pragma once
// Stage 1 (docs/analysis.md, Kernels and collectives): lanes of NCCL kernels (one rank, one
// stream), grouped across ranks by their op histogram over whole lanes, one lane per rank; each
// group is then aligned into collectives (alignment.h). Lanes that match nothing are reported.

#include <array>

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

// How alike two mixes of collective ops are, from per-op counts or shares: 1 - their L1 distance
// over their total mass (1: the same mix; 0: no op in common; 1 for two empty mixes). Lane
// grouping compares lanes' op counts; compare pairs groups of two captures by their ops' shares.
using OpMix = std::array<double, size_t(CollOp::Count)>;
double opMixSimilarity(const OpMix& a, const OpMix& b);
// Mixes at least this alike go together (lanes into a group, groups of two captures into a pair);
// kOpMixAlikeMin is the least similarity that counts, less a margin for rounding.
constexpr double kOpMixAlike = 0.8;
constexpr double kOpMixAlikeMin = kOpMixAlike - 1e-9;

// Fills a.groups (lanes, cells, positions; ids in the order of their first rank's lane) and
// a.unmatched. Kernels outside the options' window are left out of the groups' lanes.
void groupLanes(const Profile& p, const AnalysisOptions& o, Analysis& a);

}  // namespace skew
