#pragma once
// Replots that wait until they are seen (issue 24: a reload of a big capture replotted every view,
// hidden tabs included, and the shown one three or four times, in the one event of the swap).
//
// replotWhenShown(plot) replots a plot that is on screen at once, as QCustomPlot::replot() does. A
// plot hidden in a shown window (a tab not shown, a collapsed pane) is only marked: it replots when
// it is shown, before it is painted. A plot in no shown window (`render`, a view made for an export)
// replots at once, as before. While a ReplotBatch is open (the window's swap of a capture), a plot
// on screen is marked too, and replots once, in an event of its own, after the batch: the old
// picture stays until then. Any replot of the plot clears the mark.

class QCustomPlot;

namespace skewui {

void replotWhenShown(QCustomPlot* plot);

// Holds the replots asked for while it lives (UI thread only; batches nest).
class ReplotBatch {
public:
    ReplotBatch();
    ~ReplotBatch();
    ReplotBatch(const ReplotBatch&) = delete;
    ReplotBatch& operator=(const ReplotBatch&) = delete;
};

}  // namespace skewui
