#pragma once
// The timeline's layout without a widget: the frame's areas for a size (overview strip, ruler, rows,
// legend, label gutter), one row per (rank, stream) grouped by rank with a header and a CPU launch
// row, ranks collapsed to their header, and the vertical scroll. Pure geometry over the session's
// ranks and lanes, so tests check it without painting (as Qt Creator's tracing library keeps its
// row layout apart from the items it draws).

#include <QRect>
#include <QSize>

#include <utility>
#include <vector>

#include "session.h"

namespace skewui {

// Heights of the frame's bands and rows, logical pixels.
struct TimelineMetrics {
    static constexpr int kOverviewH = 38, kRulerH = 26, kLegendH = 20, kGap = 4;  // kLegendH: a line of the legend
    static constexpr int kLegendLeft = 8, kLegendRight = 4;                       // its margins
    static constexpr int kHeaderH = 20, kLaneH = 18, kMaxLaneH = 36, kCpuH = 12, kRankGap = 4;
    static constexpr int kScrollW = 12;
};

// One row of the timeline, in content coordinates (before scrolling).
struct TimelineRow {
    enum Kind { Header, Lane, Cpu } kind;
    int rank, lane;  // lane: index in Rank::lanes (Lane rows)
    int y, h;
};

// Where each part of a frame of `size` is drawn.
struct TimelineFrame {
    QSize size;
    int gutter = 0;       // the label column's width
    bool scroll = false;  // the rows overflow: a scroll bar on the right
    QRect overview, ruler, rows, legend;
    QRect note;           // where the note on rows cut off below goes (in the legend's last line); empty without a scroll
};

// Where the legend's entries go in a band `width` px wide: entry i (`widths[i]` px, its swatch,
// text and the space after it) at x `at[i].x()` on line `at[i].y()` (0 the first), wrapped onto
// as many lines as they need and at most `maxLines` (x -1: left out); `lineEnd` is where the last
// line's entries end. Pure geometry, so that the frame reserves the lines the painter fills.
struct LegendFlow {
    std::vector<QPoint> at;
    int lines = 1, lineEnd = 0;
};
LegendFlow flowLegend(const std::vector<int>& widths, int width, int maxLines = 1 << 20);

class TimelineLayout {
public:
    // The session's ranks, all expanded (more than 16: each collapsed to one summary row); scrolled
    // to the top. Rows are laid out by layout().
    void setSession(const Session* s);
    bool collapsed(int rank) const { return size_t(rank) < collapsed_.size() && collapsed_[size_t(rank)]; }
    // false when nothing changed; the rows need layout() again otherwise
    bool setCollapsed(int rank, bool collapsed);

    // The rows of a rows area `areaH` pixels tall: the lanes share what the headers and CPU rows
    // leave, 18 to 36 px each, so a few ranks fill the view and many scroll.
    void layout(int areaH);
    int areaHeight() const { return areaH_; }   // what the rows were laid out for
    int areaHeight(const QSize& size) const;    // the rows area of a frame of `size` (before a note line)

    // The legend's entries (their widths in px, swatch and space after included) and the width of
    // the longest note on rows cut off below: a frame gives the legend the lines its entries need
    // at its width (a narrow view wraps them instead of leaving some out: review defect 8), and,
    // when the rows scroll, room for the note at the end of the last line (or a line of its own)
    // instead of over the rows, where it covered a label.
    void setLegend(std::vector<int> entryWidths, int noteWidth) { legend_ = std::move(entryWidths), noteW_ = noteWidth; }
    const std::vector<int>& legendEntries() const { return legend_; }
    int legendHeight(int width, bool note) const;
    const std::vector<TimelineRow>& rows() const { return rows_; }
    int contentHeight() const { return contentH_; }

    // looked up among the rank's own rows (its header to its CPU row), not every row: a frame asks
    // once per marker and per member of the selected collective, with thousands of rows (issue 23)
    int rowOf(int rank, int lane) const;  // the Lane row, or the rank's header when collapsed; -1
    int cpuRowOf(int rank) const;
    // the rank's rows: [first, end) indexes of rows(), its header first; {0, 0} for none
    std::pair<int, int> rankRows(int rank) const {
        if (rank < 0 || size_t(rank) + 1 >= rankFirst_.size()) return {0, 0};
        return {rankFirst_[size_t(rank)], rankFirst_[size_t(rank) + 1]};
    }
    int rowAtContentY(int y) const;       // the row at content y, -1 in the gaps between ranks

    // The label gutter's width the labels want (the frame narrows it in small views).
    void setGutterWanted(int w) { gutterWanted_ = w; }
    TimelineFrame frame(const QSize& size) const;

    int scroll() const { return scrollY_; }  // content y at the top of the rows area
    void setScroll(int y) { scrollY_ = y; }
    int clampScroll(int y, const TimelineFrame& f) const;

private:
    const Session* s_ = nullptr;
    std::vector<bool> collapsed_;
    std::vector<TimelineRow> rows_;
    std::vector<int> rankFirst_;  // rank r's rows are [rankFirst_[r], rankFirst_[r + 1]); one more entry than ranks
    int contentH_ = 0;
    int areaH_ = -1;
    int gutterWanted_ = 150;
    std::vector<int> legend_;
    int noteW_ = 0;
    int scrollY_ = 0;
};

}  // namespace skewui
