#pragma once
// What is under a point of the timeline, and its hover text: a marker (on top), a kernel of a stream
// row, a CPU launch, or a rank's header; found with the lane's own index (kernelAt) and the markers'
// x order, never by scanning what is drawn. Read from a TimelineState like the render passes.

#include <QPointF>
#include <QString>

#include <cstdint>

#include "views/timeline/timeline_state.h"

namespace skewui {

struct TimelineHit {
    enum Kind { None, Kernel, Launch, Marker, Header } kind = None;
    int rank = -1, lane = -1;
    int64_t index = -1;   // the kernel in lane (rank, lane); a launch hit: the kernel it launched
    int collective = -1;  // the kernel's collective, or the marker's
};

TimelineHit timelineHitTest(const TimelineState& st, const QPointF& pos);
// rich text: the overview strip's and its key's, the ruler's time, a marker's late arriver, a
// kernel's, a launch call's, a header's action, and what a merged pixel column holds
QString timelineToolTip(const TimelineState& st, const QPointF& pos);

}  // namespace skewui
