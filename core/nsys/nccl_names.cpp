#include "nsys/nccl_names.h"

#include <array>

namespace skew {
namespace {

constexpr std::array<const char*, static_cast<size_t>(CollOp::Count)> kNames = {
    "", "Unknown", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "Send", "Recv"};

CollOp opFromWord(std::string_view w) {
    for (size_t i = static_cast<size_t>(CollOp::AllReduce); i < kNames.size(); ++i)
        if (w == kNames[i]) return static_cast<CollOp>(i);
    return CollOp::Unknown;
}

}  // namespace

const char* opName(CollOp op) { return kNames[static_cast<size_t>(op)]; }

CollOp classifyKernelName(std::string_view name) {
    // demangled names may carry a return type: "void ncclKernel_..." on some versions
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    std::string_view rest;
    if (name.substr(0, 14) == "ncclDevKernel_") rest = name.substr(14);
    else if (name.substr(0, 11) == "ncclKernel_") rest = name.substr(11);
    else return CollOp::NotNccl;
    size_t end = rest.find_first_of("_(<");
    return opFromWord(rest.substr(0, end));
}

CollOp opFromNvtxName(std::string_view text) {
    if (text.substr(0, 4) != "nccl") return CollOp::NotNccl;
    CollOp op = opFromWord(text.substr(4));
    return op == CollOp::Unknown ? CollOp::NotNccl : op;
}

}  // namespace skew
