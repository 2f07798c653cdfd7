#pragma once
// What the What-if view draws (docs/analysis.md, What-if): per step, the captured step time beside
// the step time of each scenario replayed from the capture, and the ranks by what each alone costs
// (by_rank). Built from Analysis::whatIf; the view only lays it out and paints it, and `render --view
// whatif` draws the same. While the what-if is pending (the viewer's first picture comes before it)
// the scene is empty and says it is being computed.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace skew {

struct WhatIfScene {
    static constexpr int kScenarios = 3;  // no_slow_kernels, no_late_launches, ideal
    std::string title;     // "What-if · 5 steps (NVTX step ranges) · replay error 0 ns"
    std::string sentence;  // the reports' sentence: "Without the late arrivals the median step ..."
    std::string emptyText; // not empty: nothing to draw, and why
    std::vector<uint32_t> steps;           // 1-based step numbers
    std::vector<int64_t> capturedNs;       // per step
    // per scenario and step; a scenario not computed has no values (and hasScenario false)
    std::array<std::vector<int64_t>, kScenarios> scenarioNs;
    std::array<bool, kScenarios> hasScenario{};
    struct RankBar {
        std::string label;  // "dev 3"
        double slowdown = 1.0;
    };
    std::vector<RankBar> ranks;  // largest slowdown first, at most the maximum asked for
    size_t moreRanks = 0;        // ranks left out of `ranks`

    bool empty() const { return steps.empty(); }
};

// The scenarios' names as the view's key says them ("without slow kernels", ...), in scene order.
const std::string& whatIfScenarioName(int scenario);

WhatIfScene buildWhatIfScene(const Profile& p, const Analysis& a, size_t maxRanks = 16);

// A step's tooltip: "step 3: captured 125.2 ms · without slow kernels 80.1 ms (1.56x) · ..."
std::string whatIfStepText(const WhatIfScene& s, size_t stepIndex);

}  // namespace skew
