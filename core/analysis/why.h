#pragma once
// Stage 5 (docs/analysis.md, Why the late arriver was late), per collective: the launch row of the
// late arriver's kernel (same process and correlation id, eventClass 0/1), the split of its lateness
// into a CPU part (the launch call ended after the first arrival) and a GPU part, the predecessor
// (the kernel of that rank, any stream, whose end is latest just before the start), stream-wait
// records on its stream, and the cause. Collectives are visited in time order, so every search
// gallops from the previous answer.

#include <vector>

#include "analysis/analysis.h"

namespace skew {

constexpr int64_t kPredBeforeNs = 100'000;   // predecessor window: [start - 100 us, start + 2 us]
constexpr int64_t kPredAfterNs = 2'000;
constexpr int64_t kWaitWindowNs = 1'000'000;  // stream waits shown as evidence: ending in the last 1 ms

class WhyFinder {
public:
    explicit WhyFinder(const Profile& p);
    // Fills the why fields of `c` (a collective of `g` with at least two members).
    void explain(const Group& g, Collective& c);

private:
    const Profile& p_;
    GemmNames gemm_;
    std::vector<std::vector<size_t>> predHints_;  // per rank and lane

};

}  // namespace skew
