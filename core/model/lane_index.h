#pragma once
// Interval queries over one lane's kernels. A lane is sorted by start, but kernels of one stream
// can still overlap, so ends are not monotonic: a binary search on ends is wrong. The lane keeps a
// prefix maximum of its ends per block of kLaneBlock kernels (KernelLane::blockMaxEnd, half a byte
// per kernel), which bounds where a kernel ending after t can be. Used by the analysis (NCCL-only
// time, predecessors), the collective view and the details, so they all answer alike.

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>

#include "model/profile.h"

namespace skew {

constexpr size_t kLaneBlock = 16;

// The same index over any rows sorted by start with an end(i) and a blockMaxEnd (kernel lanes,
// stream waits): (re)built after the rows' times change; the first row that may end after t
// (every row before it ends at or before t).
template <typename Rows>
void buildIntervalIndex(Rows& rows) {
    const size_t n = rows.size();
    rows.blockMaxEnd.assign((n + kLaneBlock - 1) / kLaneBlock, 0);
    int64_t m = INT64_MIN;
    for (size_t i = 0; i < n; ++i) {
        if (rows.end(i) > m) m = rows.end(i);
        if (i % kLaneBlock == kLaneBlock - 1 || i + 1 == n) rows.blockMaxEnd[i / kLaneBlock] = m;
    }
    rows.blockMaxEnd.shrink_to_fit();
}

// upper_bound(v, x) found by galloping from `hint` (the previous answer): queries made in time
// order move the answer a little each time instead of costing a full binary search.
template <typename T>
size_t gallopUpper(const std::vector<T>& v, size_t hint, T x) {
    size_t n = v.size();
    if (hint > n) hint = n;
    size_t lo, hi;
    if (hint < n && v[hint] <= x) {  // answer is after hint
        size_t step = 1;
        lo = hint + 1;
        hi = hint + 1;
        while (hi < n && v[hi] <= x) {
            lo = hi + 1;
            hi = hi + step < n ? hi + step : n;
            step *= 2;
        }
    } else {  // answer is at or before hint
        size_t step = 1;
        hi = hint;
        lo = hint;
        while (lo > 0 && v[lo - 1] > x) {
            hi = lo - 1;
            lo = lo > step ? lo - step : 0;
            step *= 2;
        }
    }
    while (lo < hi) {  // upper_bound in [lo, hi)
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// `blockHint`, when given, keeps the block of the previous answer (start it at 0): queries in time
// order then find the next by galloping from it instead of a binary search over the whole index.
template <typename Rows>
size_t firstRowEndingAfter(const Rows& rows, int64_t t, size_t* blockHint = nullptr) {
    const auto& bm = rows.blockMaxEnd;
    // the first block whose prefix maximum exceeds t: all rows of earlier blocks end by t
    size_t b = blockHint ? (*blockHint = gallopUpper(bm, *blockHint, t)) : size_t(std::upper_bound(bm.begin(), bm.end(), t) - bm.begin());
    size_t i = b * kLaneBlock, end = std::min(rows.size(), i + kLaneBlock);
    while (i < end && rows.end(i) <= t) ++i;
    return i;
}
// Calls f(i) for each row whose end lies in [lo, hi], in start order.
template <typename Rows, typename F>
void forEachEndingIn(const Rows& rows, int64_t lo, int64_t hi, F&& f) {
    for (size_t i = firstRowEndingAfter(rows, lo - 1); i < rows.size() && rows.start[i] <= hi; ++i)
        if (rows.end(i) <= hi) f(i);
}

// (Re)builds lane.blockMaxEnd; call after the lane's times change.
inline void buildLaneIndex(KernelLane& lane) { buildIntervalIndex(lane); }

// The first kernel that may end after t: every kernel before it ends at or before t.
inline size_t firstEndingAfter(const KernelLane& lane, int64_t t, size_t* blockHint = nullptr) {
    return firstRowEndingAfter(lane, t, blockHint);
}

// Calls f(i) for each kernel i with start < b and end > a (it overlaps [a, b)), in start order;
// `blockHint` as firstRowEndingAfter's (the NCCL-only time asks once per NCCL kernel and other lane,
// in time order).
template <typename F>
void forEachOverlapping(const KernelLane& lane, int64_t a, int64_t b, F&& f, size_t* blockHint = nullptr) {
    for (size_t i = firstEndingAfter(lane, a, blockHint); i < lane.size() && lane.start[i] < b; ++i)
        if (lane.end(i) > a) f(i);
}

// The kernel whose end is latest among ends in [lo, hi] (ties: the later one in start order),
// kernel `skip` excluded; -1 when there is none. `startHint`, when given, is the previous answer of
// upper_bound(start, hi) for galloping (queries in time order cost a few steps each).
int64_t latestEndIn(const KernelLane& lane, int64_t lo, int64_t hi, int64_t skip = -1, size_t* startHint = nullptr);

}  // namespace skew
