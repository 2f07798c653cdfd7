#pragma once
// What the viewer and `render` have open: the profile, its analysis and the indexes the views read,
// loaded as one (and two of them compared). Shared by the viewer's table, views and panels; replaced
// as a whole when files are (re)loaded.

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "compare/compare.h"
#include "model/nvtx_index.h"
#include "model/profile.h"
#include "timeline/run_maps.h"
#include "timeline/timeline_index.h"

namespace skew {

class SnapshotStore;
class SummaryReader;

struct Session {
    std::vector<std::string> files;
    Profile profile;
    Analysis analysis;
    std::vector<NvtxIndex> nvtx;  // per process: the NVTX ranges around a moment (details)
    TimelineIndex timeline;  // level of detail of the run views, built once after the analysis
    SkewScale skewScale;     // the start-skew colours of the overview strip and the step map
    StepMap stepMap;         // the step map of the run (buildStepMap, no preferred group)
    // the run views' indexes (timeline, stepMap) left out of the load (the viewer's: after its first
    // picture, which does not need them): buildViewIndexes, then fillViewIndexes
    bool viewIndexesPending = false;
    double loadSeconds = 0, analyzeSeconds = 0;
};

using SessionPtr = std::shared_ptr<const Session>;

// What the views read beside the analysis, built once after it (off the viewer's UI thread): the
// NVTX index per process, the start-skew colour scale, and with `views` the timeline's level of
// detail and the step map (without: viewIndexesPending).
void indexSession(Session& s, bool views = true);

// The run views' indexes of a session loaded without them, built from its profile and analysis
// (off the UI thread: it reads the session only), then moved into it (where nothing reads them meanwhile).
struct ViewIndexes {
    TimelineIndex timeline;  // points into the session it was built from
    StepMap stepMap;
};
ViewIndexes buildViewIndexes(const Session& s);
void fillViewIndexes(Session& s, ViewIndexes&& v);

// Loads and analyses (blocking; run it off the UI thread). Throws like loadProfile. With a cache,
// files are read from their snapshots when valid (storing new ones is the caller's: after showing);
// with `summaries`, summaries and folders of them are read too (model/summary_source.h). With
// options.whatIf false the what-if is left for later (analysis/whatif.h: computeWhatIf, fillWhatIf).
// `beside` runs on a second thread while the views' indexes are built, reading the session's
// profile and analysis only (the viewer measures its table's texts there). With `deferViewIndexes`
// the run views' indexes are left for later (viewIndexesPending).
std::shared_ptr<Session> loadSession(const std::vector<std::string>& files, const AnalysisOptions& options,
                                     const std::function<bool(double)>& progress, SnapshotStore* cache = nullptr,
                                     const SummaryReader* summaries = nullptr,
                                     const std::function<void(const Session&)>& beside = {}, bool deferViewIndexes = false);

// Two captures compared (File > Compare, `skewscope A... --vs B...`): each side a whole session,
// and the pairing of their groups from core/compare. Replaced as a whole like a Session.
struct CompareSession {
    SessionPtr a, b;  // before, after
    Comparison comparison;
    // per pair, the collectives of A paired to B and of B to A (built once, by loadComparison)
    std::vector<CollectivePairing> pairings;
    Side sideA() const { return {&a->profile, &a->analysis}; }
    Side sideB() const { return {&b->profile, &b->analysis}; }
    const CollectivePairing& pairing(int pair, bool fromA) const { return pairings[size_t(pair) * 2 + (fromA ? 0 : 1)]; }
};

using CompareSessionPtr = std::shared_ptr<const CompareSession>;

// Loads and analyses both sides with the same options, then compares them (blocking; progress
// 0..0.5 is A, 0.5..1 is B). Throws like loadSession, with the side named in the message
// ("B (after): ..."), as SideError so that a caller keeps the exit code of the input error.
struct SideError : std::runtime_error {
    SideError(const std::string& what, bool input) : std::runtime_error(what), inputError(input) {}
    bool inputError;  // the files could not be read (exit code 3 on the command line)
};
std::shared_ptr<CompareSession> loadComparison(const std::vector<std::string>& filesA, const std::vector<std::string>& filesB,
                                               const AnalysisOptions& options, const std::function<bool(double)>& progress,
                                               SnapshotStore* cache = nullptr, const SummaryReader* summaries = nullptr);

}  // namespace skew
