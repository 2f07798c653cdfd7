#include "compare/whatif_check.h"

#include <vector>

#include "analysis/stats.h"

namespace skew {

WhatIfCheck checkWhatIf(const Analysis& a, const Analysis& b) {
    WhatIfCheck c;
    std::vector<int64_t> capturedA, predicted, measured;
    for (const WhatIfStep& s : a.whatIf.steps) {
        capturedA.push_back(s.capturedNs);
        if (s.idealNs) predicted.push_back(*s.idealNs);
    }
    for (const WhatIfStep& s : b.whatIf.steps) measured.push_back(s.capturedNs);
    // a what-if left out (for want of memory) has no steps either: its own reason first
    if (!a.whatIf.notComputed.empty()) c.why = "A's what-if was not computed: " + a.whatIf.notComputed;
    else if (!b.whatIf.notComputed.empty()) c.why = "B's what-if was not computed: " + b.whatIf.notComputed;
    else if (capturedA.empty()) c.why = "A has no training steps to replay";
    else if (predicted.size() != capturedA.size()) c.why = "A's ideal scenario was not computed (see A's warnings)";
    else if (measured.empty()) c.why = "B has no training steps to measure";
    if (!c.available()) return c;
    c.capturedMedianANs = percentileRounded(capturedA, 50);
    c.predictedMedianNs = percentileRounded(predicted, 50);
    c.measuredMedianBNs = percentileRounded(measured, 50);
    if (c.measuredMedianBNs > 0)
        c.errorPercent = double(c.predictedMedianNs - c.measuredMedianBNs) / double(c.measuredMedianBNs) * 100.0;
    return c;
}

}  // namespace skew
