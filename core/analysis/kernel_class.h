#pragma once
// What kind of kernel a name is, beyond NCCL (nsys/nccl_names.h): GEMMs, by the name patterns of
// docs/analysis.md (case-insensitive gemm|cutlass|xmma|nvjet|cublas|wgmma|matmul).

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.h"

namespace skew {

// The class of work a kernel, or a part of one, is: one set for the whole program (the timeline's
// level of detail, the collective view's bars and thin lanes, every palette). A collective member is
// NCCL waiting from its start to the collective's latest start (memberWaitNs) and NCCL transfer after
// it; an NCCL kernel in no collective is other NCCL. The values index arrays (ColumnSum::ns, colour
// tables): keep them stable. None (nothing ran: an idle pixel column) comes after the classes.
enum class KernelClass : uint8_t { NcclTransfer, NcclWait, Gemm, OtherNccl, Other, None };
constexpr int kKernelClasses = 5;  // None is not counted

bool isGemmName(const std::string& name);

// isGemmName per string id, each name looked at once.
class GemmNames {
public:
    explicit GemmNames(const StringTable& strings) : strings_(strings) {}
    bool operator()(StrId name) const;

private:
    const StringTable& strings_;
    mutable std::vector<int8_t> known_;  // per string id: -1 not looked at yet, 0 no, 1 GEMM
};

}  // namespace skew
