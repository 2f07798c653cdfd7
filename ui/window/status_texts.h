#pragma once
// The window's status line and its empty state: what is open, how big it is and how long it took
// to load; and why nothing is shown (nothing open, no kernels, no NCCL kernels, nothing matched).

#include <QString>

#include "session.h"

namespace skewui {

// "demo.sqlite  |  Nsight Systems 2026.2.1  |  7 ranks  |  140 collectives (140 complete) in 2 groups
// |  loaded in 0.31 s"; "No exports open" without a session
QString sessionStatusText(const skew::Session* s);
// the window's title: "Skewscope - FILE", with " (1000 ranks from summaries)" when read from summaries
QString sessionTitle(const skew::Session& s);
size_t summaryCount(const skew::Profile& p);  // the inputs read from a summary
// "Compare  |  A before.sqlite (2 ranks, 33 collectives)  |  B ...  |  1 pair(s) of groups, ..."
QString comparisonStatusText(const skew::CompareSession& c);
// empty when there is something to show
QString emptyStateText(const skew::Session* s, bool loading);

}  // namespace skewui
