#pragma once
// Stage 10 (analysis-spec.md, Capture advice): rules over what the export lacks, each naming the
// evidence in this capture that triggered it and what to record next time (Nsight Systems option
// names, NCCL and PyTorch environment variables). Option spellings were checked against the Nsight
// Systems user guide and release notes (see docs/analysis.md, Capture advice).

#include <vector>

#include "analysis/analysis.h"

namespace skew {

std::vector<CaptureAdvice> captureAdvice(const Profile& p, const Analysis& a);

}  // namespace skew
