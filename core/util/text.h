#pragma once
// Counted nouns, the way every message of the reports, the analysis and the loader says them.

#include <cstdint>
#include <string>
#include <string_view>

namespace skew {

// "1 group", "3 groups", "0 big events"
inline std::string plural(uint64_t n, std::string_view what) {
    return std::to_string(n) + " " + std::string(what) + (n == 1 ? "" : "s");
}

}  // namespace skew
