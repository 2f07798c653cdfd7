#pragma once
// The what-if's report card in a comparison (docs/analysis.md, Compare): when B is the run after
// the late arrivals were fixed, A's what-if predicted B's step time. The check sets the median
// step A's ideal scenario predicted beside the median step B measured (both by the what-if's step
// time: last kernel end minus first kernel start over ranks), and says by how much it was off.

#include <cstdint>
#include <string>

#include "analysis/analysis.h"

namespace skew {

struct WhatIfCheck {
    std::string why;               // not empty: no check possible, and why
    int64_t capturedMedianANs = 0; // A's median step as captured
    int64_t predictedMedianNs = 0; // A's median step in the ideal scenario (without the late arrivals)
    int64_t measuredMedianBNs = 0; // B's median step as captured
    double errorPercent = 0;       // (predicted - measured) / measured x 100: negative = predicted too fast
    bool available() const { return why.empty(); }
};

WhatIfCheck checkWhatIf(const Analysis& a, const Analysis& b);

}  // namespace skew
