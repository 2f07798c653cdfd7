#pragma once
// What kind of kernel a name is, beyond NCCL (nsys/nccl_names.h): GEMMs, by the name patterns of
// docs/analysis.md (case-insensitive gemm|cutlass|xmma|nvjet|cublas|wgmma|matmul).

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.h"

namespace skew {

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
