#pragma once
// Sums of durations that cannot overflow: a malformed export can hold kernels whose durations add
// up past int64; the sum then sticks at the limit instead of wrapping (undefined behaviour).

#include <cstdint>
#include <limits>

namespace skew {

inline int64_t satAdd(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

inline int64_t satMul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return (a > 0) == (b > 0) ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

}  // namespace skew
