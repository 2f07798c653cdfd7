#pragma once
// The NVTX ranges enclosing a moment on a thread (what the CPU was inside when it launched a kernel),
// without looking at every range: per thread, the process's ranges in start order with the latest
// end of each block of 32, so a query skips every block that ends before the moment. Exact for any
// ranges, nested (push/pop) or overlapping (start/end).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/profile.h"

namespace skew {

class NvtxIndex {
public:
    explicit NvtxIndex(const NvtxRanges& ranges);
    // Indices of the ranges of thread `tid` that contain [t0, t1], outermost (earliest start) first.
    std::vector<uint32_t> enclosing(uint32_t tid, int64_t t0, int64_t t1) const;

private:
    static constexpr size_t kBlock = 32;
    struct Thread {
        std::vector<uint32_t> ranges;  // indices into the NvtxRanges, in start order
        std::vector<int64_t> blockEnd;  // latest end of each block of kBlock ranges
    };
    const NvtxRanges& r_;
    std::unordered_map<uint32_t, Thread> threads_;
};

}  // namespace skew
