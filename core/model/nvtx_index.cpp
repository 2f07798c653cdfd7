#include "model/nvtx_index.h"

#include <algorithm>

namespace skew {

NvtxIndex::NvtxIndex(const NvtxRanges& r) : r_(r) {
    for (uint32_t i = 0; i < r.size(); ++i) threads_[r.tid[i]].ranges.push_back(i);  // ranges are sorted by start
    for (auto& [tid, t] : threads_) {
        t.blockEnd.assign((t.ranges.size() + kBlock - 1) / kBlock, INT64_MIN);
        for (size_t k = 0; k < t.ranges.size(); ++k) t.blockEnd[k / kBlock] = std::max(t.blockEnd[k / kBlock], r.end(t.ranges[k]));
    }
}

std::vector<uint32_t> NvtxIndex::enclosing(uint32_t tid, int64_t t0, int64_t t1) const {
    std::vector<uint32_t> out;
    auto it = threads_.find(tid);
    if (it == threads_.end()) return out;
    const Thread& t = it->second;
    // the ranges that began by t0, block by block; a block whose latest end is before t1 holds none
    const size_t n = size_t(std::upper_bound(t.ranges.begin(), t.ranges.end(), t0, [&](int64_t x, uint32_t i) { return x < r_.start[i]; }) -
                            t.ranges.begin());
    for (size_t b = 0; b * kBlock < n; ++b) {
        if (t.blockEnd[b] < t1) continue;
        for (size_t k = b * kBlock; k < std::min(n, (b + 1) * kBlock); ++k)
            if (r_.end(t.ranges[k]) >= t1) out.push_back(t.ranges[k]);
    }
    return out;
}

}  // namespace skew
