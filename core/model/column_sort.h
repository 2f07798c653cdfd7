#pragma once
// Sorting the loader's parallel columns (a lane's kernels, a process's NVTX ranges and stream
// waits, launch rows by correlation id) by one permutation, in memory a task reuses.

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "model/columns.h"
#include "model/profile.h"

namespace skew::reader {

// Memory one task's sorts reuse: touching fresh pages is the dearest part of sorting a big lane.
struct SortScratch {
    struct Key {
        int64_t start, dur;
        uint32_t index;
    };
    std::vector<Key> keys;
    std::vector<uint64_t> keys16;  // a lane's (start, 32-bit duration, index) keys, two words each
    std::vector<uint32_t> perm;
    std::vector<uint64_t> column;  // one column at a time, reordered
};

// Reorders one column by a permutation (perm[i]: the old index of new element i).
template <typename T>
void permute(SortScratch& s, const std::vector<uint32_t>& perm, std::vector<T>& v) {
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>);
    s.column.resize((perm.size() * sizeof(T) + 7) / 8);
    T* tmp = reinterpret_cast<T*>(s.column.data());
    for (size_t i = 0; i < perm.size(); ++i) tmp[i] = v[perm[i]];
    std::copy(tmp, tmp + perm.size(), v.begin());
}
inline void permute(SortScratch& s, const std::vector<uint32_t>& perm, Durations& d) {
    d.visit([&](auto& v) { permute(s, perm, v); });
}
inline void permute(SortScratch& s, const std::vector<uint32_t>& perm, CodedIds& c) {
    c.visit([&](auto& v) { permute(s, perm, v); });
}

// Reorders parallel columns by one permutation.
template <typename... Cols>
void applyPermutation(SortScratch& s, const std::vector<uint32_t>& perm, Cols&... cols) {
    (permute(s, perm, cols), ...);
}

// Parallel columns sorted by (start, end), that is by (start, duration), ties in read order;
// skipped when already sorted. Narrow durations sort on 16-byte keys.
template <typename... Cols>
void sortByStartDuration(SortScratch& s, std::vector<int64_t>& start, Durations& duration, Cols&... cols) {
    const size_t n = start.size();
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i)
        sorted = start[i - 1] < start[i] || (start[i - 1] == start[i] && duration[i - 1] <= duration[i]);
    if (sorted) return;
    s.perm.resize(n);
    if (!duration.wide()) {
        // (start, duration << 32 | index): start is compared as signed, the second word as unsigned
        s.keys16.resize(2 * n);
        struct K {
            int64_t start;
            uint64_t rest;
        };
        K* k = reinterpret_cast<K*>(s.keys16.data());
        for (size_t i = 0; i < n; ++i) k[i] = {start[i], uint64_t(duration[i]) << 32 | uint32_t(i)};
        std::sort(k, k + n, [](const K& a, const K& b) { return a.start != b.start ? a.start < b.start : a.rest < b.rest; });
        for (size_t i = 0; i < n; ++i) start[i] = k[i].start, s.perm[i] = uint32_t(k[i].rest);
    } else {
        s.keys.resize(n);
        for (size_t i = 0; i < n; ++i) s.keys[i] = {start[i], duration[i], uint32_t(i)};
        std::sort(s.keys.begin(), s.keys.end(), [](const SortScratch::Key& a, const SortScratch::Key& b) {
            return a.start != b.start ? a.start < b.start : a.dur != b.dur ? a.dur < b.dur : a.index < b.index;
        });
        for (size_t i = 0; i < n; ++i) start[i] = s.keys[i].start, s.perm[i] = s.keys[i].index;
    }
    applyPermutation(s, s.perm, duration, cols...);
}

inline void sortLane(SortScratch& s, KernelLane& l) { sortByStartDuration(s, l.start, l.duration, l.name, l.correlationId); }

}  // namespace skew::reader
