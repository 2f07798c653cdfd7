#include "model/lane_index.h"

#include <algorithm>
#include <limits>

namespace skew {

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
