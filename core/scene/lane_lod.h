#pragma once
// Level of detail of the collective view's thin "other streams" lane: per pixel column, the class of
// kernel that occupied most of that column's time, so a merged pixel shows what actually ran there
// (never a GEMM colour over time no GEMM used). Pure functions over the scene's bars, checked against
// a brute force over the profile.

#include <vector>

#include "analysis/kernel_class.h"
#include "scene/collective_scene.h"

namespace skew {

// Pixel column i covers [x0Ns + i * nsPerPx, x0Ns + (i + 1) * nsPerPx), ns relative to the scene's t0.
struct PixelColumns {
    double x0Ns = 0, nsPerPx = 1;
    int count = 0;
};

// Busy time per class in each column of one row's thin lane (kernels of several streams add up).
struct ColumnBusy {
    double other = 0, otherNccl = 0, gemm = 0;
};
std::vector<ColumnBusy> laneBusy(const CollectiveScene& sc, int row, const PixelColumns& cols);

// The class that took most of the column's time (Gemm, OtherNccl or Other); None where nothing ran.
// Exact ties (rare: equal busy time to the nanosecond) go to GEMM, then other NCCL, then other: each
// of them did run there.
KernelClass dominantClass(const ColumnBusy& b);
std::vector<KernelClass> laneColumns(const CollectiveScene& sc, int row, const PixelColumns& cols);

// Consecutive columns of one class, [first, last] inclusive; None columns are left out.
struct LaneRun {
    int first, last;
    KernelClass cls;
};
std::vector<LaneRun> laneRuns(const std::vector<KernelClass>& columns);

}  // namespace skew
