// The timeline's state without a widget (as Qt Creator tests its TimelineZoomControl): zoom, pan and
// fit kept on the run, a collective brought into view, the measured range; the row layout (heights,
// NCCL streams first, gaps between ranks), collapsing, the frame's areas and the scroll limits, on a
// hand-built session whose rows are known by construction. No TimelineView is created here.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "analysis/analysis.h"
#include "profile_builder.h"
#include "session.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_zoom.h"

using namespace skewui;
using namespace testutil;

namespace {

constexpr int64_t kMs = 1'000'000;
const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

// `ranks` ranks with an AllGather on stream 56 each; rank 0 also has a GEMM on stream 7
std::shared_ptr<Session> session(int ranks) {
    ProfileBuilder b;
    for (int r = 0; r < ranks; ++r) {
        b.rank(r);
        b.kernel(r, 56, 1000 * kMs + r * kMs, 1010 * kMs, AG);
    }
    b.kernel(0, 7, 990 * kMs, 995 * kMs, "nvjet_tst_gemm");
    auto s = std::make_shared<Session>();
    s->profile = b.build();
    s->analysis = skew::analyze(s->profile);
    indexSession(*s);
    return s;
}

TEST(TimelineZoom, ZoomKeepsTheTimeUnderThePointer) {
    TimelineZoom z;
    z.setRun(0, 1e9);
    EXPECT_EQ(z.start(), 0.0);
    EXPECT_EQ(z.end(), 1e9);
    ASSERT_TRUE(z.zoomAt(0.5, 0.25e9));  // a quarter into the view stays a quarter into it
    EXPECT_EQ(z.start(), 0.125e9);
    EXPECT_EQ(z.end(), 0.625e9);
    // in: at most to 50 ns; out: at most to 1.25 runs, still around the anchor
    z.zoomAt(1e-12, 0.3e9);
    EXPECT_DOUBLE_EQ(z.end() - z.start(), TimelineZoom::kMinSpanNs);
    EXPECT_NEAR(z.start(), 0.3e9 - 0.35 * 50, 1e-6);
    z.fit();
    z.zoomAt(100, 0.25e9);
    EXPECT_EQ(z.end() - z.start(), 1.25e9);
    EXPECT_EQ(z.start(), 0.25e9 - 0.25 * 1.25e9);
    EXPECT_FALSE(z.zoomAt(100, 0.5e9));  // already as far out as it goes
}

TEST(TimelineZoom, PanStopsHalfAViewPastTheRun) {
    TimelineZoom z;
    z.setRun(0, 1e9);
    ASSERT_TRUE(z.panBy(0.5));
    EXPECT_EQ(z.start(), 0.5e9);
    EXPECT_EQ(z.end(), 1.5e9);
    EXPECT_FALSE(z.panBy(1));  // half a view past the end already
    ASSERT_TRUE(z.panBy(-3));
    EXPECT_EQ(z.start(), -0.5e9);
    EXPECT_FALSE(z.setRange(5, 5));  // an empty range is ignored
    EXPECT_EQ(z.start(), -0.5e9);
    z.fit();
    EXPECT_EQ(z.start(), 0.0);
    EXPECT_EQ(z.end(), 1e9);
    // a run shorter than 50 ns still shows 50 ns
    z.setRun(100, 110);
    EXPECT_EQ(z.start(), 100.0);
    EXPECT_EQ(z.end(), 150.0);
}

TEST(TimelineZoom, CollectivesComeIntoView) {
    TimelineZoom z;
    z.setRun(0, 1e9);
    ASSERT_TRUE(z.setRange(0, 1e8));
    skew::Collective c;
    c.minStart = 500'000'000;
    c.maxEnd = 510'000'000;
    ASSERT_TRUE(z.bringIntoView(c));  // off the view: to its middle, keeping the zoom
    EXPECT_EQ(z.start(), 455'000'000.0);
    EXPECT_EQ(z.end(), 555'000'000.0);
    EXPECT_FALSE(z.bringIntoView(c));  // in view: nothing moves
    ASSERT_TRUE(z.fitCollective(c));  // F: the collective and a quarter of its span each side
    EXPECT_EQ(z.start(), 497'500'000.0);
    EXPECT_EQ(z.end(), 512'500'000.0);
    c.maxEnd = c.minStart + 300'000'000;  // wider than the view: the view widens to 1.5 times it
    ASSERT_TRUE(z.bringIntoView(c));
    EXPECT_EQ(z.end() - z.start(), 450'000'000.0);
}

TEST(TimelineZoom, MeasuredRange) {
    TimelineZoom z;
    EXPECT_FALSE(z.hasMeasure());
    z.setMeasure(5, 2);
    ASSERT_TRUE(z.hasMeasure());
    EXPECT_EQ(z.measureStart(), 2.0);
    EXPECT_EQ(z.measureEnd(), 5.0);
    z.setMeasure(NAN, 3);
    EXPECT_FALSE(z.hasMeasure());
}

TEST(TimelineLayout, RowsPerRankNcclStreamsFirst) {
    auto s = session(2);
    TimelineLayout L;
    L.setSession(s.get());
    L.layout(300);
    // 3 lanes share 300 - 2 x (header 20 + CPU 12 + gap 4) = 228 px: 76 each, at most 36
    using R = TimelineRow;
    const std::vector<R>& rows = L.rows();
    ASSERT_EQ(rows.size(), 7u);
    const int stream56 = 1, stream7 = 0;  // Rank::lanes are by stream id
    const R want[] = {{R::Header, 0, -1, 0, 20}, {R::Lane, 0, stream56, 20, 36}, {R::Lane, 0, stream7, 56, 36}, {R::Cpu, 0, -1, 92, 12},
                      {R::Header, 1, -1, 108, 20}, {R::Lane, 1, 0, 128, 36}, {R::Cpu, 1, -1, 164, 12}};
    for (size_t i = 0; i < rows.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(rows[i].kind, want[i].kind);
        EXPECT_EQ(rows[i].rank, want[i].rank);
        EXPECT_EQ(rows[i].lane, want[i].lane);
        EXPECT_EQ(rows[i].y, want[i].y);
        EXPECT_EQ(rows[i].h, want[i].h);
    }
    EXPECT_EQ(L.contentHeight(), 180);
    EXPECT_EQ(L.rowOf(0, stream7), 2);
    EXPECT_EQ(L.cpuRowOf(1), 6);
    EXPECT_EQ(L.rowAtContentY(0), 0);
    EXPECT_EQ(L.rowAtContentY(91), 2);
    EXPECT_EQ(L.rowAtContentY(105), -1);  // the gap between the ranks
    EXPECT_EQ(L.rowAtContentY(500), -1);
    // a small area: lanes at their 18 px minimum
    L.layout(100);
    EXPECT_EQ(L.rows()[1].h, 18);
    EXPECT_EQ(L.contentHeight(), 2 * (20 + 12 + 4) + 3 * 18);
}

TEST(TimelineLayout, CollapsedRanksAreTheirHeader) {
    auto s = session(2);
    TimelineLayout L;
    L.setSession(s.get());
    EXPECT_FALSE(L.collapsed(0));
    ASSERT_TRUE(L.setCollapsed(0, true));
    EXPECT_FALSE(L.setCollapsed(0, true));  // no change
    EXPECT_FALSE(L.setCollapsed(7, true));  // no such rank
    L.layout(300);
    ASSERT_EQ(L.rows().size(), 4u);  // rank 0's header, rank 1's header, lane and CPU row
    EXPECT_EQ(L.rowOf(0, 1), 0);     // a collapsed rank's lanes are its header
    EXPECT_EQ(L.cpuRowOf(0), -1);
    EXPECT_EQ(L.rows()[1].y, 24);
    // many ranks start collapsed: one summary row each
    auto many = session(17);
    TimelineLayout M;
    M.setSession(many.get());
    M.layout(300);
    EXPECT_EQ(M.rows().size(), 17u);
    EXPECT_TRUE(M.collapsed(16));
}

TEST(TimelineLayout, FrameAreasAndScroll) {
    auto s = session(2);
    TimelineLayout L;
    L.setSession(s.get());
    const QSize size(800, 500);
    EXPECT_EQ(L.areaHeight(size), 408);  // less the overview, ruler, gaps and legend
    L.layout(L.areaHeight(size));
    L.setGutterWanted(260);
    TimelineFrame f = L.frame(size);
    EXPECT_EQ(f.gutter, 200);  // a quarter of the width at most
    EXPECT_FALSE(f.scroll);
    EXPECT_EQ(f.overview, QRect(QPoint(200, 4), QPoint(794, 41)));
    EXPECT_EQ(f.ruler, QRect(QPoint(200, 46), QPoint(794, 71)));
    EXPECT_EQ(f.rows, QRect(QPoint(200, 72), QPoint(794, 479)));
    EXPECT_EQ(f.legend, QRect(QPoint(0, 480), QPoint(799, 499)));
    EXPECT_EQ(L.clampScroll(50, f), 0);  // everything fits
    // 150 px tall: the rows overflow, a scroll bar takes 12 px, and the scroll stops at the last row
    const QSize small(800, 150);
    L.layout(L.areaHeight(small));
    f = L.frame(small);
    EXPECT_TRUE(f.scroll);
    EXPECT_EQ(f.rows.right(), 800 - 12 - 6);
    EXPECT_EQ(f.rows.height(), 58);
    EXPECT_EQ(L.clampScroll(1000, f), L.contentHeight() - 58);
    EXPECT_EQ(L.clampScroll(-5, f), 0);
}

}  // namespace
