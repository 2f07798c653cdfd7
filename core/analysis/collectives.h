#pragma once
// Stage 4 (docs/analysis.md, Per collective): one Collective per position of each group, with its
// skews, excess, big flag, late and early arriver, the why of stage 5 (why.h), and the group's
// validation (partial collectives named, window-edge drops counted, sequence mismatches).

#include <vector>

#include "analysis/analysis.h"

namespace skew {

// Per group: what the group statistics need that is cheapest to sum while the members are at hand.
struct GroupSums {
    std::vector<int64_t> latenessSum, latenessSumNotBig;  // per slot, over complete collectives
};

// Fills a.collectives (group after group, each group's range in Group::firstCollective/count),
// each group's complete count, ops, cost totals and validation. Returns the per-group sums.
std::vector<GroupSums> buildCollectives(const Profile& p, Analysis& a, const AnalysisOptions& o);

}  // namespace skew
