#pragma once
// The timeline's legend band under the rows: its entries (a swatch and a name each) wrapped onto as
// many lines as the width needs (TimelineLayout reserves them), the keys' hint when it fits, and the
// note on rows cut off below at the end of its last line (it covered the rows' labels and markers
// when it sat over the rows: review defect 8).

#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

#include "views/timeline/timeline_state.h"

class QPainter;

namespace skewui {

// The widths the layout reserves lines for: every entry with its longest text (the late arrivers'
// "(big only at this zoom)"; with `ideal`, the ideal schedule's entry first), and the longest note
// on rows cut off below for the session (its row count, its two longest rank labels).
std::vector<int> timelineLegendWidths(const TimelineText& text, bool ideal);
int timelineRowsNoteWidth(const TimelineText& text, const Session* s);

void paintTimelineLegend(QPainter& p, const TimelineState& st);
void paintTimelineRowsNote(QPainter& p, const TimelineState& st);  // over the legend band, in f.note

// "9 more rows below (dev 5 to dev 7)" when rows are cut off at the bottom, else empty
QString rowsBelowNote(const TimelineState& st);

// The legend as painted: each entry's box (swatch and text) with its text, and the note's box
// (empty without a note), widget coordinates
struct LegendBoxes {
    std::vector<std::pair<QRectF, QString>> entries;
    QRectF note;
    QString noteText;
};
LegendBoxes timelineLegendBoxes(const TimelineState& st);

}  // namespace skewui
