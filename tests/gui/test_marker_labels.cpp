// The timeline's big-event labels when zoomed out (issue 24, "+2+20.(+2+20.("): labels never
// overlap; the largest start skew keeps its label, and a label that would overlap it is dropped and
// counted by it. Laid out by hand: 6 px per character, the rows area x 100..899.
#include <gtest/gtest.h>

#include <map>

#include "views/timeline/timeline_markers.h"

using namespace skewui;

namespace {

// a marker as timelineMarkers() makes one: big ones 14 px wide, their tip at x, the row's top at top
TimelineMarker marker(int collective, double x, double top, bool big) {
    const double hw = big ? 6 : 3.5;
    return {QRectF(x - hw - 1, top - 1, 2 * hw + 2, hw * 1.3 + 3), collective, collective, x, big};
}

}  // namespace

TEST(MarkerLabels, OverlappingLabelsAreDroppedAndCountedByTheLargest) {
    // collectives 0-2: three big events on rows 6 px apart, 5 px apart in x (zoomed out); 3: a big
    // event at the right edge; 4: an ordinary late arriver (never labelled)
    const std::map<int, int64_t> skew{{0, 30'100'000}, {1, 45'240'000}, {2, 20'500'000}, {3, 25'000'000}, {4, 900'000}};
    const std::vector<TimelineMarker> mks{marker(0, 300, 50, true), marker(1, 305, 56, true), marker(2, 310, 62, true),
                                          marker(4, 500, 100, false), marker(3, 880, 200, true)};
    const auto labels = placeMarkerLabels(
        mks, QRect(100, 0, 800, 400), [&](int c) { return skew.at(c); }, [](const QString& t) { return 6.0 * t.size(); });
    // by hand (label: text width + 6, 13 px high, from the row's top - 1; room for " ×99", 24 px):
    // #1 (45.24 ms) first: right (312..372) covers #2's marker, left (238..298) #0's: equal, right.
    // #0 (30.10 ms): right (307..367) covers #1's and #2's markers, left (233..293) none: left;
    //    its room (209..293) misses #1's (312..396): kept.
    // #3 (25.00 ms): the right (887..947) is past the edge: left (813..873), kept.
    // #2 (20.50 ms): right (317..377) covers nothing, left #1's marker: right; its room (317..401,
    //    rows 61..74) overlaps #1's (312..396, 55..68): dropped, counted by #1 ("×2", 12 chars).
    ASSERT_EQ(labels.size(), 3u);
    EXPECT_EQ(labels[0].collective, 0);
    EXPECT_EQ(labels[0].text, "+30.10 ms");
    EXPECT_EQ(labels[0].box, QRectF(233, 49, 60, 13));
    EXPECT_EQ(labels[0].count, 1);
    EXPECT_EQ(labels[1].collective, 1);
    EXPECT_EQ(labels[1].text, QString("+45.24 ms \u00D72"));
    EXPECT_EQ(labels[1].box, QRectF(312, 55, 78, 13));
    EXPECT_EQ(labels[1].count, 2);
    EXPECT_EQ(labels[2].collective, 3);
    EXPECT_EQ(labels[2].text, "+25.00 ms");
    EXPECT_EQ(labels[2].box, QRectF(813, 199, 60, 13));
    EXPECT_EQ(labels[2].count, 1);
}

// Far apart (the same three events 200 px apart): every one keeps its own label, none counts.
TEST(MarkerLabels, LabelsFarApartAreAllKept) {
    const std::map<int, int64_t> skew{{0, 30'100'000}, {1, 45'240'000}, {2, 20'500'000}};
    const std::vector<TimelineMarker> mks{marker(0, 200, 50, true), marker(1, 400, 56, true), marker(2, 600, 62, true)};
    const auto labels = placeMarkerLabels(
        mks, QRect(100, 0, 800, 400), [&](int c) { return skew.at(c); }, [](const QString& t) { return 6.0 * t.size(); });
    ASSERT_EQ(labels.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(labels[size_t(i)].collective, i);
        EXPECT_EQ(labels[size_t(i)].count, 1);
        // right of each marker: x + 7, 60 px wide
        EXPECT_EQ(labels[size_t(i)].box, QRectF(200 + 200 * i + 7, 49 + 6 * i, 60, 13));
    }
}
