#pragma once
// Kernel classes by the specification's name rules, written apart from core (nsys/nccl_names,
// analysis/kernel_class) for the brute forces that check what the views draw: an NCCL kernel's name
// starts with ncclKernel_ or ncclDevKernel_ (after the "void " some demangled names carry); a GEMM's
// name contains gemm, cutlass, xmma, nvjet, cublas, wgmma or matmul, in any case.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace testutil {

inline bool isNcclKernelName(std::string_view n) {
    if (n.substr(0, 5) == "void ") n.remove_prefix(5);
    return n.substr(0, 11) == "ncclKernel_" || n.substr(0, 14) == "ncclDevKernel_";
}

inline bool isGemmKernelName(std::string_view n) {
    std::string l(n);
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* t : {"gemm", "cutlass", "xmma", "nvjet", "cublas", "wgmma", "matmul"})
        if (l.find(t) != std::string::npos) return true;
    return false;
}

}  // namespace testutil
