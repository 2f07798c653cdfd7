#pragma once
// Recognising NCCL kernels and their collective op from kernel names and NVTX range names.

#include <cstdint>
#include <string_view>

namespace skew {

enum class CollOp : uint8_t {
    NotNccl = 0,
    Unknown,
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Reduce,
    SendRecv,
    Send,
    Recv,
    Count
};

const char* opName(CollOp op);

// `ncclKernel_X...` / `ncclDevKernel_X...` -> X when X is a known op, Unknown when it is not
// (e.g. a generic kernel), NotNccl for every other name.
CollOp classifyKernelName(std::string_view name);

// NCCL-domain NVTX range text (`ncclAllGather`, ...) -> op; NotNccl when it names no collective.
CollOp opFromNvtxName(std::string_view text);

}  // namespace skew
