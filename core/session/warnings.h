#pragma once
// What the viewer warns a user with about what it has open (its warning bar), built here once so
// that the viewer does not assemble it from the profile and the analysis itself.

#include <string>
#include <vector>

#include "session/session.h"

namespace skew {

// One line per warning: what reading the exports and the analysis warned about (what the command
// line prints to stderr), then each group whose matching did not validate, then each NCCL lane
// left out of every group (both are also in the reports, not on stderr).
std::vector<std::string> sessionWarnings(const Session& s);

// Both captures' reading and analysis warnings, each line prefixed with its side ("A: ", "B: ").
std::vector<std::string> comparisonWarnings(const CompareSession& c);

}  // namespace skew
