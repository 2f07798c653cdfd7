#include "model/lane_index.h"

#include <algorithm>
#include <limits>

namespace skew {

void buildLaneIndex(KernelLane& lane) {
    const size_t n = lane.size();
    lane.blockMaxEnd.assign((n + kLaneBlock - 1) / kLaneBlock, 0);
    int64_t m = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < n; ++i) {
        m = std::max(m, lane.end(i));
        if (i % kLaneBlock == kLaneBlock - 1 || i + 1 == n) lane.blockMaxEnd[i / kLaneBlock] = m;
    }
    lane.blockMaxEnd.shrink_to_fit();
}

size_t firstEndingAfter(const KernelLane& lane, int64_t t) {
    const auto& bm = lane.blockMaxEnd;
    // the first block whose prefix maximum exceeds t: all kernels of earlier blocks end by t
    size_t b = size_t(std::upper_bound(bm.begin(), bm.end(), t) - bm.begin());
    size_t i = b * kLaneBlock, end = std::min(lane.size(), i + kLaneBlock);
    while (i < end && lane.end(i) <= t) ++i;
    return i;
}

int64_t latestEndIn(const KernelLane& lane, int64_t lo, int64_t hi, int64_t skip, size_t* startHint) {
    // candidates start by hi (a kernel ends after it starts)
    size_t i = startHint ? (*startHint = gallopUpper(lane.start, *startHint, hi))
                         : size_t(std::upper_bound(lane.start.begin(), lane.start.end(), hi) - lane.start.begin());
    int64_t best = -1, bestEnd = 0;
    while (i > 0) {
        // at a block boundary: the prefix maximum of everything before says whether to go on
        if (i % kLaneBlock == 0) {
            int64_t before = lane.blockMaxEnd[i / kLaneBlock - 1];
            if (before < lo || (best >= 0 && before <= bestEnd)) break;
        }
        --i;
        if (int64_t(i) == skip) continue;
        int64_t e = lane.end(i);
        if (e >= lo && e <= hi && (best < 0 || e > bestEnd)) best = int64_t(i), bestEnd = e;
    }
    return best;
}

}  // namespace skew
