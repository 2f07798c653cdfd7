#pragma once
// What the viewer has open: the profile and its analysis, shared by the table, the view and the
// panels. Replaced as a whole when files are (re)loaded.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/nvtx_index.h"
#include "model/profile.h"
#include "timeline/timeline_index.h"

namespace skew {
class ProfileCache;
}

namespace skewui {

struct Session {
    std::vector<std::string> files;
    skew::Profile profile;
    skew::Analysis analysis;
    std::vector<skew::NvtxIndex> nvtx;  // per process: the NVTX ranges around a moment (details)
    skew::TimelineIndex timeline;  // level of detail of the run views, built once after the analysis
    double loadSeconds = 0, analyzeSeconds = 0;
};

using SessionPtr = std::shared_ptr<const Session>;

struct LoadResult {
    std::shared_ptr<Session> session;
    std::string error;  // one line, empty when loaded
    bool cancelled = false;
};

// Loads and analyses (blocking; run it off the UI thread). Throws like loadProfile. With a cache,
// files are read from their snapshots when valid (storing new ones is the caller's: after showing).
std::shared_ptr<Session> loadSession(const std::vector<std::string>& files, const skew::AnalysisOptions& options,
                                     const std::function<bool(double)>& progress, skew::ProfileCache* cache = nullptr);

}  // namespace skewui
