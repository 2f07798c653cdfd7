#pragma once
// The timeline's render passes around and over its body image (timeline_raster.h), in the order the
// widget paints them: the gutter's rank blocks and labels, the ruler with the overview strip's key
// and the measured range, the overlays on the rows (kernel names, the selected collective, lines to
// the CPU launches, late-arrival markers and their labels, the measured range); the legend band is
// timeline_legend.h's. Each reads one TimelineState and paints; the same passes draw the
// screen and every export.

#include <QColor>
#include <QLineF>
#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

#include "views/timeline/timeline_state.h"

class QPainter;

namespace skewui {

void paintTimelineBackgrounds(QPainter& p, const TimelineState& st);  // the gutter's part of the rank blocks
void paintTimelineGutter(QPainter& p, const TimelineState& st);       // rank, stream and CPU row labels
void paintTimelineRuler(QPainter& p, const TimelineState& st);        // ticks, spans, the skew key, measure, hover time
void paintTimelineOverlays(QPainter& p, const TimelineState& st);     // clipped to the rows

// The what-if's ideal schedule as ghost bars (timeline_ghosts.cpp), drawn among the overlays when
// the state has one; its legend entry (empty without one); whether a row in view is too dense for it.
void paintIdealSchedule(QPainter& p, const TimelineState& st);
QString idealLegendText(const TimelineState& st);
bool idealTooDense(const TimelineState& st);

// The ruler's boxes as painted: the measured range's length, the time under the mouse (empty when
// not shown), and the tick labels drawn (none under those two)
struct RulerBoxes {
    QRectF measure, hover;
    std::vector<std::pair<QRectF, QString>> tickLabels;
};
RulerBoxes timelineRulerBoxes(const TimelineState& st);

// The lines to the CPU launches as drawn (each broken where it would cross a kernel's name), and the
// boxes of the kernel names drawn over the rows
struct LaunchLines {
    std::vector<QLineF> lines;
    std::vector<QRectF> names;
};
LaunchLines timelineLaunchLines(const TimelineState& st);
constexpr QRgb kLaunchLine = 0xffa57dc6;  // their colour

}  // namespace skewui
