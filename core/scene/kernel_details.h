#pragma once
// What the viewer says about one kernel: the hover text of a collective view's bar and the details
// shown when a kernel is clicked (any view). Plain text from the profile and its analysis, so the
// viewer's panes and tests read the same words.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/nvtx_index.h"
#include "model/profile.h"
#include "scene/collective_scene.h"

namespace skew {

// The window in which a kernel of another stream counts as what a stream wait waited for: ending at
// most this long before the wait's end, or this long after it (docs/analysis.md).
constexpr int64_t kWaitedForBeforeNs = 5'000, kWaitedForAfterNs = 2'000;

// A bar's hover text: kernel, rank and stream, times relative to the first arrival.
std::string barSummary(const Profile& p, const CollectiveScene& sc, const Bar& b);

// The details shown when a kernel is clicked (plain text, one field per line).
// `nvtx` (one index per process, built once per session) finds the NVTX ranges around the launch
// without a scan; without it an index of the launching process is built for the call.
std::string kernelDetails(const Profile& p, const Analysis& a, int collectiveIndex, int rank, int lane, uint32_t kernel,
                          const std::vector<NvtxIndex>* nvtx = nullptr);

}  // namespace skew
