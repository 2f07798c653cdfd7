#pragma once
// The what-if (analysis/whatif.h) in the reports: the JSON's top-level "what_if", the one sentence
// that leads the answers of the text and Markdown reports, and the CSV per-step table
// (`analyze --format csv --table steps`).

#include <string>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace skew {

class JsonWriter;

void whatIfJson(JsonWriter& w, const Profile& p, const Analysis& a);

// "Without the late arrivals the median step would take 70.40 ms instead of 125.2 ms (1.78x);
// dev 3 alone costs 1.21x" ("would be no faster: 82.78 ms against 82.52 ms captured (1.00x)" when
// the scenario's median is not below the captured; "each rank alone costs 1.53x: no one rank stands
// out", or "3 ranks alone cost 1.53x each (dev 1, dev 4, dev 6)" when ranks tie at two decimals), or
// why it was not computed; empty when there were no kernels; while the viewer computes it after its
// first picture (WhatIf::pending), that it is being computed.
std::string whatIfSentence(const Profile& p, const Analysis& a);

// One row per step: step,captured_ns,no_slow_kernels_ns,no_late_launches_ns,ideal_ns (empty where
// a scenario was not computed).
std::string whatIfCsv(const Analysis& a);

}  // namespace skew
