#pragma once
// The words the views draw that come from the analysis: what a view says when it has nothing to
// draw (empty states), the views' titles, the collective view's row and predecessor labels, the
// kernel classes' names. Computed here once, so the viewer and `render` say the same and tests check
// the words without a widget.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/kernel_class.h"
#include "model/profile.h"
#include "scene/collective_scene.h"
#include "timeline/run_maps.h"

namespace skew {

// ---- empty states -----------------------------------------------------------------------------

// Why the run has no collective to show, for the window's empty page: no kernels, no NCCL kernels,
// or NCCL kernels that matched across no two ranks (with what to do); empty when there are groups.
std::string noCollectivesText(const Profile& p, const Analysis& a);
std::string noCollectiveSelectedText();         // the collective view without a scene
std::string timelineEmptyText(bool open);       // nothing open, or no kernels in the exports
std::string preparingViewText(const std::string& view);  // a run view while its index is built after the first picture
std::string heatmapEmptyText();                 // no group to show
// The step map without steps: its texts longest first (the view shows the longest that fits).
std::vector<std::string> stepMapEmptyTexts(const StepMap& m);

// ---- titles -----------------------------------------------------------------------------------

std::string groupOpNames(const Group& g, const std::string& separator);  // "AllGather/ReduceScatter"
// "Step map · 5 steps (NVTX step ranges) · 120 collectives of group 0 · 5 big events (start skew > 20.00 ms)"
std::string stepMapTitle(const StepMap& m, const Analysis& a);
// a side of the compare view: "A (before) · 5 NVTX steps · 2 big events"
std::string stepMapSideTitle(const StepMap& m, const std::string& side);
// "Lateness heatmap · group 0 of 2 (AllReduce) · 120 collectives × 8 ranks · outlined: big events (...)"
std::string heatmapTitle(const Analysis& a, int group);
std::string heatmapGroupItem(const Analysis& a, int group);  // the group box's "group 1: SendRecv (40)"

// "NCCL transfer", "NCCL waiting", "GEMM", "other NCCL", "other": a class in a merged pixel's text
std::string kernelClassName(KernelClass c);

// ---- the collective view's labels -------------------------------------------------------------

// Beside row `row`'s bar: "+88.2 us", "late arriver: +3.34 ms", "first, waited 3.34 ms", or that
// the rank has no kernel in a partial collective.
std::string rowLabel(const CollectiveScene& sc, int row);
// The predecessor's box: "predecessor (GEMM)", or the short "pred. GEMM" where the long one finds no room.
std::string predecessorLabel(KernelClass kind, bool shortText);
// The start of the launch marker's label: "CPU launch", or "CPU launch 1.2 ms before the view" when
// the launch lies left of the visible range by `beforeViewNs`.
std::string launchLabelPrefix(std::optional<int64_t> beforeViewNs);

}  // namespace skew
