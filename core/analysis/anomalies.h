#pragma once
// Stage 8 (docs/analysis.md, Anomalies): NCCL kernels of grouped lanes whose duration exceeds the
// threshold times the mean duration of their op (over all grouped kernels of that op), as rows,
// and the distinct collectives they belong to, as events. --limit lists whole events while their
// rows fit; the counts are always of all.

#include "analysis/analysis.h"

namespace skew {

void findAnomalies(const Profile& p, Analysis& a, const AnalysisOptions& o);

}  // namespace skew
