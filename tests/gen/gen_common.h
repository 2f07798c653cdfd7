#pragma once
// Internals shared by the generator's rooms: time units, the file clock's constants, stream ids,
// and the seeded RNG (identical sequences on every standard library).

#include <cstdint>
#include <limits>
#include <random>

namespace skewgen {
namespace detail {

inline constexpr int64_t kUs = 1000;
inline constexpr int64_t kMs = 1000 * kUs;
inline constexpr int64_t kFileBase = 5'000'000'000LL;  // session start on each file's own clock (ns)
inline constexpr int64_t kFirstStepModel = 20 * kMs;   // step 1 begins 20 ms into the session
inline constexpr int64_t kSessionShiftPerRank = 1'234'567;  // per-rank files: utcEpochNs(r) - utcEpochNs(0)
inline constexpr uint32_t kCorrBase = 1000;
inline constexpr int kComputeStream = 7;
inline constexpr int kFsdpStream = 56;
inline constexpr int kAllReduceStreamBase = 60;  // + rank % 2: stream ids differ between ranks
inline constexpr int kSendRecvStream = 68;
inline constexpr int kNcclDomain = 1;
inline constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

// Seeded RNG with our own mapping to ranges: identical sequences on every standard library.
class Rng {
public:
    explicit Rng(uint64_t seed) : g_(seed) {}
    int64_t uni(int64_t lo, int64_t hi) {  // inclusive, hi >= lo
        if (hi <= lo) return lo;
        const uint64_t span = uint64_t(hi - lo) + 1;
        return lo + int64_t(g_() % span);
    }

private:
    std::mt19937_64 g_;
};

}  // namespace detail
}  // namespace skewgen
