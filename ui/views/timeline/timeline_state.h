#pragma once
// What one frame of the timeline is drawn and hit-tested from: the session, the rows laid out for
// the frame's size and scroll, the visible range, the selection. The widget builds one per paint
// (for its own size, or an export's) and per mouse event; the render passes, the markers and the
// hit test read it, so none of them holds state of its own.

#include <QRect>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/whatif_schedule.h"
#include "session.h"
#include "views/timeline/overview_strip.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_text.h"
#include "views/timeline/timeline_zoom.h"

namespace skewui {

// What Show in Timeline and the search marked: a kernel (outlined) or, without a lane, a time span
// on a rank (an NVTX range: its CPU row) or on every row; none while start is NaN.
struct TimelineHighlight {
    double start = NAN, end = NAN;  // aligned ns
    int rank = -1, lane = -1;       // lane >= 0: kernel `kernel` of that lane
    uint32_t kernel = 0;
    bool valid() const { return !std::isnan(start); }
};

struct TimelineState {
    const Session& s;
    const TimelineLayout& layout;
    const TimelineZoom& zoom;
    const OverviewStrip& strip;
    TimelineText& text;
    TimelineFrame f;
    int scrollY = 0;    // content y at the top of the rows area (clamped for this frame)
    int selected = -1;  // the selected collective
    double hoverX = -1; // the hover line and time (on screen only), widget x
    TimelineHighlight highlight = {};
    const skew::IdealSchedule* ideal = nullptr;  // the what-if's ghost bars, shown when set
    bool idealPending = false;                   // asked for, being computed

    const std::vector<TimelineRow>& rows() const { return layout.rows(); }
    double t0() const { return zoom.start(); }
    double t1() const { return zoom.end(); }
    double nsPerPx() const { return (t1() - t0()) / std::max(1, f.rows.width()); }
    // ns -> x in the rows area, and back
    double x(double t) const { return f.rows.left() + (t - t0()) / nsPerPx(); }
    double timeAtX(double x) const { return t0() + (x - f.rows.left()) * (t1() - t0()) / std::max(1, f.rows.width()); }
    double rowTop(int row) const { return double(f.rows.top() + rows()[size_t(row)].y - scrollY); }
    // the row under a widget y, -1
    int rowAt(int y) const {
        if (y < f.rows.top() || y > f.rows.bottom()) return -1;
        return layout.rowAtContentY(y - f.rows.top() + scrollY);
    }
    bool collapsed(int rank) const { return layout.collapsed(rank); }
};

// the overview ticks' colour key, left of the strip
inline QRectF keyRect(const TimelineFrame& f) {
    const int half = f.overview.height() / 2;
    return QRectF(8, f.overview.top() + half, f.gutter - 14, f.overview.height() - half);
}

}  // namespace skewui
