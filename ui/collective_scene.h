#pragma once
// The draw list of the collective view: which bars, markers and labels to paint for one
// collective, in ns relative to the collective's earliest start. Built once per selection,
// painted many times; no widgets here, so the GUI and `render` share it and tests can check it.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/nvtx_index.h"
#include "model/profile.h"

namespace skewui {

enum class BarKind { NcclWait, NcclTransfer, Other, Gemm, OtherNccl };

struct Bar {
    double x0, x1;  // ns relative to t0
    int row;        // rank row (0 at the top)
    bool sub;       // the thin lane of the rank's other streams
    BarKind kind;
    bool late = false, predecessor = false;
    int rank, lane;
    uint32_t kernel;
};

struct LaunchMarker {
    bool present = false;
    int row = 0;
    double apiStart = 0, apiEnd = 0, kernelStart = 0;  // relative ns
    std::string label;                                  // "launch -> start 8.2 us"
};

struct Row {
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
    std::vector<Row> rows;
    std::string labelStart;         // the start all of the profile's rank labels share (RankLabelElider)
    std::vector<Bar> bars;          // sorted by (sub, row, x0) for hit-testing
    LaunchMarker launch;
    std::string title, subtitle;
    int collective = -1;
    skew::Cause cause = skew::Cause::Unknown;  // the late arriver's (analysis): its key label is placed first

    // index of the bar under (x ns, row, sub) or -1; `slackNs` widens thin bars
    int hitTest(double x, int row, bool sub, double slackNs) const;
};

CollectiveScene buildScene(const skew::Profile& p, const skew::Analysis& a, int collectiveIndex);

// A bar's hover text: kernel, rank and stream, times relative to the first arrival.
std::string barSummary(const skew::Profile& p, const CollectiveScene& sc, const Bar& b);

// The details shown when a bar is clicked (plain text, one field per line).
// `nvtx` (one index per process, built once per session) finds the NVTX ranges around the launch
// without a scan; without it an index of the launching process is built for the call.
std::string kernelDetails(const skew::Profile& p, const skew::Analysis& a, int collectiveIndex, int rank, int lane,
                          uint32_t kernel, const std::vector<skew::NvtxIndex>* nvtx = nullptr);

}  // namespace skewui
