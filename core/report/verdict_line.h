#pragma once
// A group's verdict in one line of plain words, the first thing its answers say (docs/analysis.md,
// Answers): the big events and their late ranks, what made them late, and the capture advice that
// follows from it; made from the group's answers and the analysis's capture advice.

#include <string>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace skew {

// "5 big (20.62-54.97 ms), rotating ranks; 3 CPU launch, 2 GPU dependency behind GEMMs on stream 7
// → record CPU sampling"; "10 big (27.00-42.00 ms) at positions 13 and 20 of the step, rotating
// ranks; ..." when big events recur at positions of the step; without big events, "no big collective (largest start skew 291.6 us),
// late rank rotates; late arrivers: 5 GPU dependency".
std::string verdictLine(const Profile& p, const Analysis& a, const Group& g);

// "20.62-54.97 ms" (one unit said once), "850 ns to 1.20 ms", or one duration when lo == hi.
std::string durationRange(int64_t lo, int64_t hi);

}  // namespace skew
