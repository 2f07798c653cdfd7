#pragma once
// The late-arrival markers of the timeline: where each one is drawn at this zoom (every late arriver
// while collectives are far enough apart, big events at any zoom), the big ones' start-skew labels,
// and which groups are thinned to big events only. Painted by the overlay pass, clicked through the
// hit test: both take them from here.

#include <QRectF>
#include <QString>

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
};

// Groups whose ordinary late arrivers are left out at this zoom: more collectives in view than a
// tenth of the rows' pixels (their markers would merge into a solid band); big events stay.
std::vector<int> thinnedGroups(const TimelineState& st);
// The markers to draw, by x.
std::vector<TimelineMarker> timelineMarkers(const TimelineState& st);
// The big markers' labels: beside the marker on the side that covers fewer other markers (right when
// equal, left when the right has no room); one per row within 60 px.
std::vector<TimelineMarkerLabel> markerLabels(const TimelineState& st, const std::vector<TimelineMarker>& mks);
// (rank, lane) of a collective's group slot
int laneOfSlot(const skew::Analysis& a, int collective, int slot, int& rank);

}  // namespace skewui
