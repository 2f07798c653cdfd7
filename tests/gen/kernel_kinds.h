#pragma once
// The kernels a generated run launches: the compute kinds (GEMMs, elementwise, reductions) with
// their launch attributes and duration ranges, the NCCL kernels' names per op and naming scheme,
// and the NCCL transfer time ranges.

#include <cstdint>
#include <string>
#include <vector>

#include "gen_common.h"
#include "generator.h"

namespace skewgen {
namespace detail {

struct Kind {
    std::string name, shortName, mangled;
    bool gemm = false;
    int regs = 32, gx = 1, gy = 1, gz = 1, bx = 128, by = 1, bz = 1;
    int staticSmem = 0, dynSmem = 0, smemExecuted = 32768, limitConfig = 0;
    int64_t localTotal = 250871808;
    int cx = 0, cy = 0, cz = 0, cpolicy = 1, cmaxPot = 0, cmaxActive = 0;
    int64_t minDur = 10 * kUs, maxDur = 60 * kUs;
};

inline constexpr int kGemmKinds = 4;  // compute kinds 0..3 are GEMMs, 4..7 elementwise/reductions
inline constexpr int kElemKinds = 4;

// Compute kinds 0..kGemmKinds-1 are GEMMs, then kElemKinds elementwise/reduction kernels.
std::vector<Kind> computeKinds();

// The NCCL kernel of `op` (0 AllGather, 1 ReduceScatter, 2 AllReduce, 3 SendRecv) as `cfg` names it.
Kind ncclKind(const GenConfig& cfg, int op);

extern const char* const kOpNames[4];
extern const char* const kNvtxNcclNames[4];
extern const int64_t kTransferMin[4];
extern const int64_t kTransferMax[4];

}  // namespace detail
}  // namespace skewgen
