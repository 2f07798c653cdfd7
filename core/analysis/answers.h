#pragma once
// Stage 9 (docs/analysis.md, Answers): per group, the three questions of a late-arriver
// investigation answered from the numbers of the earlier stages, with the figures behind each
// answer, and caveats where the evidence is thin.
//  1. who arrived late: the big collectives and their late ranks;
//  2. the same rank or rotating: persistent / often_last_small / rotating over the collectives
//     that are not big (chi-square test of the last counts against uniform), and where big events
//     fall in the step (recurring positions) and whether they rotate;
//  3. CPU or GPU: cause counts of the big events, launch-to-start gaps and predecessors of the
//     GPU-caused ones, the CPU and GPU lateness of the rest.

#include "analysis/analysis.h"

namespace skew {

// The verdict's thresholds (docs/analysis.md): last in at least half, twice the others' median
// mean lateness; or a last count significant at p < 0.001.
constexpr double kOftenLastP = 0.001;
// A verdict that names a rank over fewer collectives than this is said to rest on thin evidence.
constexpr uint32_t kVerdictCollectives = 20;

void answerQuestions(const Profile& p, Analysis& a);

}  // namespace skew
