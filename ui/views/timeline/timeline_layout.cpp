#include "views/timeline/timeline_layout.h"

#include <algorithm>

namespace skewui {

using M = TimelineMetrics;

void TimelineLayout::setSession(const Session* s) {
    s_ = s;
    scrollY_ = 0;
    collapsed_.clear();
    if (s_) {
        const size_t n = s_->profile.ranks.size();
        collapsed_.assign(n, n > 16);  // many ranks: start with one summary row each
    }
}

bool TimelineLayout::setCollapsed(int rank, bool c) {
    if (size_t(rank) >= collapsed_.size() || collapsed_[size_t(rank)] == c) return false;
    collapsed_[size_t(rank)] = c;
    return true;
}

LegendFlow flowLegend(const std::vector<int>& widths, int width, int maxLines) {
    LegendFlow f;
    const int right = width - M::kLegendRight;
    int x = M::kLegendLeft, line = 0;
    for (int w : widths) {
        if (x > M::kLegendLeft && x + w > right) {  // the next line (an entry wider than a line still takes one)
            if (line + 1 >= maxLines) {
                f.at.push_back(QPoint(-1, line));
                continue;
            }
            ++line;
            x = M::kLegendLeft;
        }
        f.at.push_back(QPoint(x, line));
        x += w;
    }
    f.lines = line + 1;
    f.lineEnd = x;
    return f;
}

int TimelineLayout::legendHeight(int width, bool note) const {
    const LegendFlow f = flowLegend(legend_, width);
    const bool noteLine = note && f.lineEnd + noteW_ > width - M::kLegendRight;
    return (f.lines + (noteLine ? 1 : 0)) * M::kLegendH;
}

int TimelineLayout::areaHeight(const QSize& size) const {
    return size.height() - legendHeight(size.width(), false) - (M::kGap + M::kOverviewH + M::kGap + M::kRulerH);
}

void TimelineLayout::layout(int areaH) {
    areaH_ = areaH;
    rows_.clear();
    rankFirst_.clear();
    int y = 0;
    if (s_ && s_->timeline.valid()) {
        const skew::Profile& p = s_->profile;
        int lanes = 0, fixed = 0;
        for (size_t r = 0; r < p.ranks.size(); ++r) {
            fixed += M::kHeaderH + M::kRankGap + (collapsed_[r] ? 0 : M::kCpuH);
            if (!collapsed_[r]) lanes += int(p.ranks[r].lanes.size());
        }
        const int laneH = lanes ? std::clamp((areaH - fixed) / lanes, M::kLaneH, M::kMaxLaneH) : M::kLaneH;
        for (size_t r = 0; r < p.ranks.size(); ++r) {
            rankFirst_.push_back(int(rows_.size()));
            rows_.push_back({TimelineRow::Header, int(r), -1, y, M::kHeaderH});
            y += M::kHeaderH;
            if (!collapsed_[r]) {
                for (int l : s_->timeline.laneOrder(int(r))) {
                    rows_.push_back({TimelineRow::Lane, int(r), l, y, laneH});
                    y += laneH;
                }
                rows_.push_back({TimelineRow::Cpu, int(r), -1, y, M::kCpuH});
                y += M::kCpuH;
            }
            y += M::kRankGap;
        }
        rankFirst_.push_back(int(rows_.size()));
    }
    contentH_ = y;
}

int TimelineLayout::rowOf(int rank, int lane) const {
    const auto [first, end] = rankRows(rank);
    for (size_t i = size_t(first); i < size_t(end); ++i) {
        const TimelineRow& r = rows_[i];
        if (r.rank != rank) continue;
        if (r.kind == TimelineRow::Lane && r.lane == lane) return int(i);
        if (r.kind == TimelineRow::Header && collapsed(rank)) return int(i);
    }
    return -1;
}

int TimelineLayout::cpuRowOf(int rank) const {
    const auto [first, end] = rankRows(rank);
    for (size_t i = size_t(first); i < size_t(end); ++i)
        if (rows_[i].rank == rank && rows_[i].kind == TimelineRow::Cpu) return int(i);
    return -1;
}

int TimelineLayout::rowAtContentY(int cy) const {
    // rows are sorted by y: binary search
    auto it = std::upper_bound(rows_.begin(), rows_.end(), cy, [](int v, const TimelineRow& r) { return v < r.y; });
    if (it == rows_.begin()) return -1;
    --it;
    if (cy >= it->y + it->h) return -1;  // the gap between ranks
    return int(it - rows_.begin());
}

TimelineFrame TimelineLayout::frame(const QSize& size) const {
    TimelineFrame f;
    f.size = size;
    f.gutter = std::clamp(size.width() / 4, 110, gutterWanted_);  // a narrow view keeps most of its width for the rows
    const int top = M::kGap + M::kOverviewH + M::kGap;
    const int rowsTop = top + M::kRulerH;
    int rowsBottom = size.height() - legendHeight(size.width(), false);
    f.scroll = contentH_ > rowsBottom - rowsTop;
    if (f.scroll) rowsBottom = size.height() - legendHeight(size.width(), true);  // (the rows still overflow)
    const int right = size.width() - (f.scroll ? M::kScrollW : 0) - 6;
    f.overview = QRect(QPoint(f.gutter, M::kGap), QPoint(right, M::kGap + M::kOverviewH - 1));
    f.ruler = QRect(QPoint(f.gutter, top), QPoint(right, rowsTop - 1));
    f.rows = QRect(QPoint(f.gutter, rowsTop), QPoint(right, rowsBottom - 1));
    f.legend = QRect(QPoint(0, rowsBottom), QPoint(size.width() - 1, size.height() - 1));
    if (f.scroll) f.note = QRect(size.width() - M::kLegendRight - noteW_, size.height() - M::kLegendH, noteW_, M::kLegendH);
    return f;
}

int TimelineLayout::clampScroll(int y, const TimelineFrame& f) const { return std::clamp(y, 0, std::max(0, contentH_ - f.rows.height())); }

}  // namespace skewui
