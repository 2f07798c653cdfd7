#pragma once
// The timeline's body: the pixels of its rows, painted into one opaque image per frame. Owns the
// rank blocks' backgrounds, the time grid, the selected collective's band, the stacked class shares
// of each pixel column (from core's TimelineIndex: never a colour that did not run there), kernel
// outlines once kernels are a few pixels wide, and the CPU launch rows. Rows are independent
// (disjoint pixel rows): each rank is one task on the thread pool. The rows are laid out by
// timeline_layout.h; the gutter, ruler and overlays around this image are timeline_passes.h.

#include <QImage>

#include <functional>
#include <vector>

#include "session.h"
#include "views/timeline/timeline_layout.h"

namespace skewui {

// bottom-to-top order of the stacked classes in a pixel column (the legend lists them too)
constexpr skew::KernelClass kStackOrder[] = {skew::KernelClass::NcclTransfer, skew::KernelClass::NcclWait, skew::KernelClass::Gemm,
                                             skew::KernelClass::OtherNccl, skew::KernelClass::Other};

// A round step (1, 2 or 5 times a power of ten) of at least `raw`: the time grid and the ruler.
double niceStep(double raw);

struct RasterFrame {
    const Session* session = nullptr;          // nothing open: backgrounds only
    const std::vector<TimelineRow>* rows = nullptr;
    std::function<bool(int rank)> collapsed;   // a rank's header carries its lanes' shares
    double t0 = 0, t1 = 1;                     // visible range, aligned ns
    int scrollY = 0;                           // content y at the top of the rows area
    int width = 1, height = 1;                 // the rows area, logical pixels
    qreal dpr = 1;
    int selected = -1;                         // collective whose band is drawn, -1
};

// Paints `f` into `img` (reused when it already has the size and format).
void paintTimelineBody(const RasterFrame& f, QImage& img);

}  // namespace skewui
