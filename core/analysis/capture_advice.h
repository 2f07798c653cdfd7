#pragma once
// Stage 10 (docs/analysis.md, Capture advice): rules over what the export lacks, each naming the
// evidence in this capture that triggered it and what to record next time (Nsight Systems option
// names, NCCL and PyTorch environment variables). Nsight Systems options whose release is documented
// are spelled for the release that wrote the export (InputFile::nsysVersion); when that is unknown,
// or the open files come from different releases, the advice names both spellings with their
// releases. Options whose release was not found are given in every spelling without a release.
// docs/analysis.md (Capture advice) cites the page behind each boundary.

#include <compare>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.h"

namespace skew {

// An Nsight Systems release, year and minor: "2024.5.1.113" is {2024, 5}.
struct NsysRelease {
    int year = 0, minor = 0;
    auto operator<=>(const NsysRelease&) const = default;
};

// The release of an EXPORT_PRODUCT_VERSION text; nullopt when it does not start with YEAR.MINOR.
std::optional<NsysRelease> parseNsysRelease(const std::string& version);

std::vector<CaptureAdvice> captureAdvice(const Profile& p, const Analysis& a);

}  // namespace skew
