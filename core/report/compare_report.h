#pragma once
// `skewscope compare` outputs: JSON ({"a": <analyze JSON>, "b": <analyze JSON>, "groups": [{"a", "b",
// "delta"}], ...}) and a text or Markdown page that opens with the verdict in numbers per pair of
// groups ("start-skew cost 54.4% -> 12.0% of NCCL kernel time; big events 5 -> 0; ...").

#include <string>

#include "compare/compare.h"

namespace skew {

std::string compareJson(const Side& a, const Side& b, const Comparison& c);
std::string compareText(const Side& a, const Side& b, const Comparison& c);
std::string compareMarkdown(const Side& a, const Side& b, const Comparison& c);

// "A's what-if predicted a median step of 16.71 ms without the late arrivals (captured 23.24 ms);
// B measured 16.71 ms: the prediction is 0.0% off", or why there is no check; for the reports and
// the viewer.
std::string whatIfCheckText(const WhatIfCheck& c);

// The verdict of one pair in numbers, for the reports and the viewer.
std::string verdictLine(const Side& a, const Side& b, const GroupPair& pair);

}  // namespace skew
