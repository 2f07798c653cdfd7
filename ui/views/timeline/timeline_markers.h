#pragma once
// The late-arrival markers of the timeline: where each one is drawn at this zoom (every late arriver
// while collectives are far enough apart, big events at any zoom), the big ones' start-skew labels,
// and which groups are thinned to big events only. Painted by the overlay pass, clicked through the
// hit test: both take them from here.

#include <QRectF>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

#include "views/timeline/timeline_state.h"

namespace skewui {

struct TimelineMarker {
    QRectF r;  // where it can be clicked
    int collective;
    int row;
    double x;  // the late arriver's start
    bool big;
};

struct TimelineMarkerLabel {
    QRectF box;
    QString text;
    int collective;
    int count = 1;  // the big events it stands for (the others' labels would have overlapped it)
};

// Groups whose ordinary late arrivers are left out at this zoom: more collectives in view than a
// tenth of the rows' pixels (their markers would merge into a solid band); big events stay.
std::vector<int> thinnedGroups(const TimelineState& st);
// The markers to draw, by x.
std::vector<TimelineMarker> timelineMarkers(const TimelineState& st);
// The big markers' labels ("+45.24 ms"): beside the marker on the side that covers fewer other
// markers (right when equal, left when the right has no room). Labels never overlap: the largest
// start skew is placed first, and a label that would overlap one already placed (with room kept
// for a count) is dropped and counted by it, which then says how many it stands for
// ("+45.24 ms ×3"). Sorted by left edge.
std::vector<TimelineMarkerLabel> markerLabels(const TimelineState& st, const std::vector<TimelineMarker>& mks);
// The same over markers sorted by x, in `area` (the rows), a collective's start skew and a text's
// width given (tests lay them out by hand).
std::vector<TimelineMarkerLabel> placeMarkerLabels(const std::vector<TimelineMarker>& mks, const QRect& area,
                                                   const std::function<int64_t(int)>& skewNs,
                                                   const std::function<double(const QString&)>& textWidth);
// (rank, lane) of a collective's group slot
int laneOfSlot(const skew::Analysis& a, int collective, int slot, int& rank);

}  // namespace skewui
