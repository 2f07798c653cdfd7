#pragma once
// The draw list of the collective view: which bars, markers and labels to paint for one
// collective, in ns relative to the collective's earliest start. Built once per selection,
// painted many times; no widgets here, so the viewer and `render` share it and tests check it.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/kernel_class.h"
#include "model/profile.h"

namespace skew {

struct Bar {
    double x0, x1;  // ns relative to t0
    int row;        // rank row (0 at the top)
    bool sub;       // the thin lane of the rank's other streams
    KernelClass kind;  // a member's two parts (NcclWait, NcclTransfer) on its row; Gemm, OtherNccl, Other in the thin lane
    bool late = false, predecessor = false;
    int rank, lane;
    uint32_t kernel;
};

struct LaunchMarker {
    bool present = false;
    int row = 0;
    double apiStart = 0, apiEnd = 0, kernelStart = 0;  // relative ns
    std::string label;                                  // "cudaLaunchKernel: launch to start 8.2 us"
};

struct SceneRow {
    int rank;
    std::string label;
    int64_t latenessNs = 0;
    bool missing = false;
    bool late = false, early = false;
};

struct CollectiveScene {
    int64_t t0 = 0;                 // aligned ns of the earliest member start
    double fitX0 = 0, fitX1 = 1;    // the range that shows the whole collective (and its launch)
    double endX = 0;                // the latest member end (the view fits its labels right of it)
    std::vector<SceneRow> rows;
    std::string labelStart;         // the start all of the profile's rank labels share (commonLabelStart)
    std::vector<Bar> bars;          // sorted by (sub, row, x0) for hit-testing
    LaunchMarker launch;
    std::string title, subtitle;
    int collective = -1;
    Cause cause = Cause::Unknown;   // the late arriver's (analysis): its key label is placed first

    // index of the bar under (x ns, row, sub) or -1; `slackNs` widens thin bars
    int hitTest(double x, int row, bool sub, double slackNs) const;
};

CollectiveScene buildScene(const Profile& p, const Analysis& a, int collectiveIndex);

}  // namespace skew
