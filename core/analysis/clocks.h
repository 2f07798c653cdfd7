#pragma once
// Stage 3 (docs/analysis.md, Inputs): with several files, host clocks differ by more than the
// session alignment can tell. Collective ends are nearly simultaneous (NCCL finishes every rank
// together), so each file's residual offset is the negated median of its members' ends minus each
// collective's median end. Offsets of at least AnalysisOptions::clockOffsetMinNs are applied by
// shifting every time of that file; matching then runs again.

#include "analysis/analysis.h"

namespace skew {

// Estimates per-file offsets from the groups in `a` (a.clocks[].estimateNs) and applies the large
// ones to the profile (Rank::clockOffsetNs, InputFile::alignNs, every time of the file), with a
// warning each. Returns whether anything was shifted.
bool refineClocks(Profile& p, Analysis& a, const AnalysisOptions& o);

// After matching on the final clocks: a.clocks[].offsetNs and the p90 of |end - median end|.
void measureClockResiduals(const Profile& p, Analysis& a);

// Adds `off` to every time of file `file` (kernels and their index, launches, NVTX, waits).
void shiftFile(Profile& p, int file, int64_t off);

}  // namespace skew
