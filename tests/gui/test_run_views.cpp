// GUI tests of the run views (offscreen): the timeline's truthful pixels and markers, navigation,
// selection both ways between the table and every view, the step map and heatmap against the
// generator's truth, and `render --view` drawing exactly what the viewer exports.

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "views/collective/collective_view.h"
#include "gen_fixture.h"
#include "views/heatmap/heatmap_view.h"
#include "export_checks.h"
#include "gui_util.h"
#include "window/main_window.h"
#include "model/loader.h"
#include "report/format.h"
#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "models/ranks_model.h"
#include "common/palette.h"
#include "views/run_view_factory.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"

using namespace testutil;
using namespace skewui;
using namespace guitest;

void PrintTo(const QString& s, std::ostream* os) { *os << '"' << s.toStdString() << '"'; }

namespace {

// a few hundred thousand kernels over 8 ranks, two planted late arrivers far apart
const Generated& large() {
    static skewgen::GenConfig cfg = [] {
        skewgen::GenConfig c;
        c.ranks = 8;
        c.layers = 9;
        c.allReduce = true;
        c.seed = 99;
        c.steps = int(300'000 / skewgen::kernelsPerStep(c)) + 1;
        c.late = {{40, 5, 3, 30'000'000, skewgen::LateKind::Cpu}, {150, 14, 6, 45'000'000, skewgen::LateKind::Gpu}};
        return c;
    }();
    return generated("large-timeline", cfg);
}

SessionPtr load(const std::string& path) {
    return loadSession({path}, {}, {});
}

int collectiveIndex(const skew::Analysis& a, int group, int index) {
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].group == group && int(a.collectives[i].index) == index) return int(i);
    return -1;
}

bool near(QRgb a, const QColor& b, int tol = 6) {
    return std::abs(qRed(a) - b.red()) <= tol && std::abs(qGreen(a) - b.green()) <= tol && std::abs(qBlue(a) - b.blue()) <= tol;
}

// ---- the timeline's pixels ---------------------------------------------------------------------

// Real 2xH100 export, collective 32: dev 1's GEMM runs 2.14-2.24 ms after the first arrival and
// elementwise kernels fill 2.25-3.34 ms. Zoomed out so that many kernels share a pixel, no GEMM
// pixel may appear over the elementwise kernels, and the GEMM must show where it ran.
TEST(RunViews, TimelineDrawsGemmOnlyWhereGemmRan) {
    SessionPtr s = load(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite");
    const skew::Collective& c = s->analysis.collectives[size_t(collectiveIndex(s->analysis, 0, 32))];
    const double t0 = double(c.minStart);
    TimelineView v;
    v.resize(700, 400);
    v.setSession(s);
    v.setRange(t0 + 1'900'000, t0 + 3'500'000);  // 1.6 ms over ~500 px: ~3 us per pixel, several kernels per pixel near edges
    QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    int rank = -1, lane = -1;
    for (size_t r = 0; r < s->profile.ranks.size(); ++r)
        for (size_t l = 0; l < s->profile.ranks[r].lanes.size(); ++l)
            if (s->profile.ranks[r].label == "dev 1" && s->profile.ranks[r].lanes[l].stream == 15) rank = int(r), lane = int(l);
    ASSERT_GE(rank, 0);
    const QRect rr = v.rowRect(v.rowOf(rank, lane));
    const skew::PixelMap m = v.pixelMap();
    int gemmWhereGemm = 0;
    for (int x = 0; x < m.width; ++x) {
        const double a = m.boundary(x), b = m.boundary(x + 1);
        bool green = false;
        for (int y = rr.top(); y < rr.bottom(); ++y) green |= near(img.pixel(v.rowsArea().left() + x, y), palette::kGemm);
        if (a >= t0 + 2'250'000 && b <= t0 + 3'339'000) {
            EXPECT_FALSE(green) << "GEMM drawn over elementwise kernels at column " << x;
        }
        if (a >= t0 + 2'140'000 && b <= t0 + 2'243'000) gemmWhereGemm += green;
    }
    EXPECT_GT(gemmWhereGemm, 20);
}

TEST(RunViews, TimelineFirstAndLastKernelsAtTheEdges) {
    SessionPtr s = load(demo().path);
    TimelineView v;
    v.resize(1200, 800);
    v.setSession(s);
    const skew::TimelineIndex& ix = s->timeline;
    EXPECT_EQ(v.rangeStart(), double(ix.start()));
    EXPECT_EQ(v.rangeEnd(), double(ix.end()));
    QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    const QRect area = v.rowsArea();
    EXPECT_EQ(v.pixelMap().column(double(ix.start())), 0);
    EXPECT_EQ(v.pixelMap().column(double(ix.end()) - 1), area.width() - 1);
    bool first = false, last = false;
    for (size_t r = 0; r < s->profile.ranks.size(); ++r)
        for (size_t l = 0; l < s->profile.ranks[r].lanes.size(); ++l) {
            const auto& kl = s->profile.ranks[r].lanes[l];
            const QRect rr = v.rowRect(v.rowOf(int(r), int(l)));
            const int y = rr.top() + rr.height() - 2;  // the bottom pixel row of the bars
            auto painted = [&](int x) {
                QRgb p = img.pixel(x, y);
                return !near(p, QColor(0xfb, 0xfc, 0xfd), 3) && !near(p, QColor(0xf4, 0xf6, 0xf9), 3);
            };
            if (kl.start[0] == ix.start()) first |= painted(area.left());
            if (kl.end(kl.size() - 1) == ix.end()) last |= painted(area.left() + area.width() - 1);
            // and nothing is drawn left of the first column or right of the last
            EXPECT_FALSE(near(img.pixel(area.left() - 1, y), palette::kTransfer) || near(img.pixel(area.left() - 1, y), palette::kGemm));
        }
    EXPECT_TRUE(first);
    EXPECT_TRUE(last);
}

TEST(RunViews, LateArriversVisibleAtFullZoomOutOfALargeExport) {
    const Generated& g = large();
    SessionPtr s = load(g.path);
    ASSERT_GE(s->profile.kernelCount(), 300'000u);
    TimelineView v;
    v.resize(1920, 1080);
    v.setSession(s);  // fitted: the whole run
    QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(g.result.late.size(), 2u);
    for (const auto& tl : g.result.late) {
        SCOPED_TRACE("planted step " + std::to_string(tl.planted.step));
        int ci = collectiveIndex(s->analysis, tl.group, tl.index);
        ASSERT_GE(ci, 0);
        const skew::Collective& c = s->analysis.collectives[size_t(ci)];
        ASSERT_TRUE(c.big);
        const skew::GroupSlot& gl = s->analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
        EXPECT_EQ(s->profile.ranks[size_t(gl.rank)].label, g.result.rankLabels[size_t(tl.planted.rank)]);
        // the marker sits on the late rank's NCCL row at the late start, in the big-event colour
        const QRect rr = v.rowRect(v.rowOf(gl.rank, gl.lane));
        const QPointF at(v.xAtTime(double(c.maxStart)), rr.top() + 3);
        EXPECT_TRUE(near(img.pixel(at.toPoint()), palette::kLate, 20)) << QColor(img.pixel(at.toPoint())).name().toStdString();
        TimelineView::Hit h = v.hitTest(at);
        EXPECT_EQ(h.kind, TimelineView::Hit::Marker);
        EXPECT_EQ(h.collective, ci);
        EXPECT_NE(v.tooltipAt(at).indexOf("big event"), -1);
    }
}

// The big markers' "+54.97 ms" labels are drawn after every marker: no small late-arriver triangle
// is painted over one (they were, on dev 2, 3 and 5 at 1600x900), and each label sits beside its
// own marker, on the side where it covers no other marker.
TEST(RunViews, BigMarkerLabelsAreNotPaintedOverByOtherMarkers) {
    SessionPtr s = load(demo().path);
    TimelineView v;
    v.resize(1600, 900);
    v.setSession(s);
    ASSERT_TRUE(v.thinnedGroups().empty());  // every late arriver has its marker at this width
    const QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    const std::vector<QRectF> labels = v.markerLabelRects();
    ASSERT_EQ(labels.size(), demo().result.late.size());
    for (const QRectF& box : labels) {
        SCOPED_TRACE("label at " + std::to_string(int(box.left())) + "," + std::to_string(int(box.top())));
        int small = 0, inside = 0;
        for (int y = int(std::ceil(box.top())) + 1; y < int(box.bottom()) - 1; ++y)
            for (int x = int(std::ceil(box.left())) + 1; x < int(box.right()) - 1; ++x, ++inside)
                small += near(img.pixel(x, y), palette::kLateSmall, 24) || near(img.pixel(x, y), palette::kLate, 12);
        EXPECT_GT(inside, 300);
        EXPECT_EQ(small, 0);
    }
    // each label is beside its big marker (the marker's tip within 10 px of the label's near edge)
    for (const auto& tl : demo().result.late) {
        const skew::Collective& c = s->analysis.collectives[size_t(collectiveIndex(s->analysis, tl.group, tl.index))];
        const double x = v.xAtTime(double(c.maxStart));
        int beside = 0;
        for (const QRectF& box : labels) beside += std::min(std::abs(box.left() - x), std::abs(box.right() - x)) <= 10;
        EXPECT_EQ(beside, 1) << tl.index;
    }
}

// A view too short for every row says how many rows are cut off below, and whose: at 1400x500 (wide
// enough for the legend's entries and the note on one line) the demo's rows area (408 px) holds dev 1 to dev 4 (90 px each: header, three 18 px lanes, CPU row,
// gap) and dev 5's header and first lane; the other 3 rows of dev 5 and the 5 each of dev 6 and
// dev 7 are below. Scrolled to the end, or tall enough, nothing is.
TEST(RunViews, TimelineSaysHowManyRowsAreCutOffBelow) {
    SessionPtr s = load(demo().path);
    TimelineView v;
    v.resize(1400, 500);
    v.setSession(s);
    ASSERT_EQ(v.rowsArea().height(), 408);
    EXPECT_EQ(v.rowsBelowNote(), "13 more rows below (dev 5 to dev 7)");
    v.scrollRows(90 * 2);  // of the 222 px it can scroll
    EXPECT_EQ(v.rowsBelowNote(), "3 more rows below (dev 7)");
    v.scrollRows(10'000);
    EXPECT_EQ(v.rowsBelowNote(), "");
    v.scrollRows(-10'000);
    v.setRankCollapsed(s->analysis.groups[0].lanes[0].rank, true);  // dev 1 to its header: 66 px less
    EXPECT_EQ(v.rowsBelowNote(), "9 more rows below (dev 6 to dev 7)");
    v.setRankCollapsed(s->analysis.groups[0].lanes[0].rank, false);
    v.resize(1400, 900);
    EXPECT_EQ(v.rowsBelowNote(), "");
}

// Ordinary late arrivers are left out while a group has more collectives in view than a tenth of
// the rows' pixels (big events never): the legend says so. At 800 px the demo's group 0 (135
// collectives) is thinned out, group 1 (5) is not; zoomed in to a fifth of the run it is not either.
TEST(RunViews, ThinnedOutLateArriversAreSaidToBe) {
    SessionPtr s = load(demo().path);
    const skew::Analysis& a = s->analysis;
    TimelineView v;
    v.resize(800, 500);
    v.setSession(s);
    ASSERT_LT(v.rowsArea().width() / 10, int(a.groups[0].count));
    EXPECT_EQ(v.thinnedGroups(), std::vector<int>{0});
    // a non-big late arriver of group 0 has no marker; a big one has
    const QRect ra = v.rowsArea();
    auto markerAt = [&](int ci) {
        const skew::Collective& c = a.collectives[size_t(ci)];
        const auto& gl = a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
        const int row = v.rowOf(gl.rank, gl.lane);
        const QRect rr = v.rowRect(row);
        if (rr.top() < ra.top() || rr.top() > ra.bottom()) return -2;  // off screen
        TimelineView::Hit h = v.hitTest(QPointF(v.xAtTime(double(c.maxStart)), rr.top() + 2));
        return h.kind == TimelineView::Hit::Marker ? h.collective : -1;
    };
    const int big = collectiveIndex(a, 0, 5), ordinary = collectiveIndex(a, 0, 3);
    ASSERT_TRUE(a.collectives[size_t(big)].big);
    ASSERT_FALSE(a.collectives[size_t(ordinary)].big);
    EXPECT_EQ(markerAt(big), big);
    EXPECT_EQ(markerAt(ordinary), -1);  // on screen, and no marker there
    const QImage thinned = v.render(v.size());
    v.resize(1600, 900);
    EXPECT_TRUE(v.thinnedGroups().empty());
    EXPECT_EQ(markerAt(ordinary), ordinary);
    v.resize(800, 500);
    v.setRange(v.rangeStart(), v.rangeStart() + (v.rangeEnd() - v.rangeStart()) / 5);
    EXPECT_TRUE(v.thinnedGroups().empty());
    // the legend's entry is longer when it says so: the legend band differs from the full view's
    const QImage all = v.render(v.size());
    const QRect legend(0, 500 - 20, 800, 20);
    EXPECT_NE(thinned.copy(legend), all.copy(legend));
}

// The overview's ticks sit at each collective's late arriver's start, as the rows' markers do: at
// full zoom-out (the strip and the rows share their columns) every big event's red tick is in the
// column of its marker; the tooltip says where the ticks are.
TEST(RunViews, OverviewTicksAtTheLateArriversStartLikeTheMarkers) {
    SessionPtr s = load(demo().path);
    TimelineView v;
    v.resize(1600, 900);
    v.setSession(s);
    const QRect ov = v.overviewArea(), ra = v.rowsArea();
    ASSERT_EQ(ov.left(), ra.left());
    ASSERT_EQ(ov.width(), ra.width());
    const QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    for (const auto& tl : demo().result.late) {
        SCOPED_TRACE("planted index " + std::to_string(tl.index));
        const skew::Collective& c = s->analysis.collectives[size_t(collectiveIndex(s->analysis, tl.group, tl.index))];
        const int x = int(std::floor(v.xAtTime(double(c.maxStart))));
        // full height at the late start; at the first arrival only the low line back to it
        EXPECT_TRUE(near(img.pixel(x, ov.top() + 12), palette::kLate, 10)) << QColor(img.pixel(x, ov.top() + 12)).name().toStdString();
        const int first = int(std::floor(v.xAtTime(double(c.minStart))));
        EXPECT_FALSE(near(img.pixel(first, ov.top() + 12), palette::kLate, 10));
        EXPECT_TRUE(near(img.pixel((first + x) / 2, ov.bottom() - 2), palette::kLate, 10));
    }
    const QString tip = v.tooltipAt(QPointF(ov.center()));
    EXPECT_NE(tip.indexOf("ticks: each collective at its late arriver's start (where the markers below are)"), -1) << tip.toStdString();
}

// Hovering each member kernel of a planted collective: the tooltip's lateness is the member's start
// minus the earliest member start, both from the generator; only the planted rank is the late arriver.
TEST(RunViews, KernelTooltipShowsTheMembersLatenessFromTheTruth) {
    SessionPtr s = load(demo().path);
    const skew::Analysis& a = s->analysis;
    TimelineView v;
    v.resize(1600, 900);
    v.setSession(s);
    ASSERT_FALSE(demo().result.late.empty());
    for (const auto& tl : demo().result.late) {
        SCOPED_TRACE("planted index " + std::to_string(tl.index));
        const skewgen::TruthCollective* tc = nullptr;
        for (const auto& t : demo().result.collectives)
            if (t.group == tl.group && t.index == tl.index) tc = &t;
        ASSERT_TRUE(tc);
        int64_t minStart = INT64_MAX;
        for (const auto& m : tc->members) minStart = std::min(minStart, m.startNs);
        const int ci = collectiveIndex(a, tl.group, tl.index);
        ASSERT_GE(ci, 0);
        const skew::Collective& c = a.collectives[size_t(ci)];
        const skew::Group& g = a.groups[size_t(c.group)];
        ASSERT_EQ(g.width(), tc->members.size());
        for (const auto& m : tc->members) {
            int rank = -1;
            for (const auto& r : s->profile.ranks)
                if (r.label == demo().result.rankLabels[size_t(m.rank)]) rank = r.id;
            ASSERT_GE(rank, 0);
            size_t slot = 0;
            while (slot < g.width() && g.lanes[slot].rank != rank) ++slot;
            ASSERT_LT(slot, g.width());
            const int lane = g.lanes[slot].lane;
            const uint32_t k = a.slotKernel(c, slot);
            const skew::KernelLane& kl = s->profile.ranks[size_t(rank)].lanes[size_t(lane)];
            const double d = double(kl.end(k) - kl.start[k]);
            v.setRange(double(kl.start[k]) - d, double(kl.end(k)) + d);  // the kernel is the middle third
            const QPointF at((v.xAtTime(double(kl.start[k])) + v.xAtTime(double(kl.end(k)))) / 2, v.rowRect(v.rowOf(rank, lane)).center().y());
            TimelineView::Hit h = v.hitTest(at);
            ASSERT_EQ(h.kind, TimelineView::Hit::Kernel);
            ASSERT_EQ(h.index, int64_t(k));
            const int64_t lateness = m.startNs - minStart;
            const QString want = lateness == 0 ? QString("lateness 0 (first)") : "lateness +" + QString::fromStdString(skew::formatDuration(lateness));
            const QString tip = v.tooltipAt(at);
            EXPECT_NE(tip.indexOf(want), -1) << tip.toStdString() << " wants " << want.toStdString();
            EXPECT_EQ(tip.indexOf("late arriver") != -1, m.rank == tl.planted.rank) << tip.toStdString();
        }
    }
}

// Zoomed to one collective (F): each member's NCCL launch is a bar in its rank's CPU row ending at
// the launch end the generator recorded, and a line joins it to the kernel's start; Shift+drag
// measures a range and Z zooms to it; dragging the overview's handle pans by the strip's scale.
TEST(RunViews, CpuRowsLaunchLinesMeasureAndOverview) {
    SessionPtr s = load(demo().path);
    const skew::Analysis& a = s->analysis;
    TimelineView v;
    v.resize(1400, 900);
    v.show();
    v.setSession(s);
    const double full = v.rangeEnd() - v.rangeStart();
    const skewgen::TruthLate& tl = demo().result.late.front();
    const int ci = collectiveIndex(a, tl.group, tl.index);
    ASSERT_GE(ci, 0);
    v.setSelectedCollective(ci);
    QTest::keyClick(&v, Qt::Key_F);
    const skew::Collective& c = a.collectives[size_t(ci)];
    const double span = double(c.maxEnd - c.minStart);
    EXPECT_NEAR(v.rangeStart(), double(c.minStart) - span * 0.25, 1);
    EXPECT_NEAR(v.rangeEnd(), double(c.maxEnd) + span * 0.25, 1);
    const QImage img = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    const skewgen::TruthCollective* tc = nullptr;
    for (const auto& t : demo().result.collectives)
        if (t.group == tl.group && t.index == tl.index) tc = &t;
    ASSERT_TRUE(tc);
    const QColor lineColour(0xa5, 0x7d, 0xc6);
    auto anyIn = [&](QRect r, const QColor& col) {
        r = r.intersected(img.rect());
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                if (near(img.pixel(x, y), col, 4)) return true;
        return false;
    };
    int checked = 0;
    for (const auto& m : tc->members) {
        int rank = -1;
        for (const auto& r : s->profile.ranks)
            if (r.label == demo().result.rankLabels[size_t(m.rank)]) rank = r.id;
        ASSERT_GE(rank, 0);
        int lane = -1;
        for (size_t l = 0; l < s->profile.ranks[size_t(rank)].lanes.size(); ++l)
            if (s->profile.ranks[size_t(rank)].lanes[l].stream == m.stream) lane = int(l);
        ASSERT_GE(lane, 0);
        SCOPED_TRACE("rank " + std::to_string(rank));
        const QRect cpu = v.rowRect(v.cpuRowOf(rank)), row = v.rowRect(v.rowOf(rank, lane));
        const int xe = int(v.xAtTime(double(m.launchEndNs)));
        SCOPED_TRACE("launch end x " + std::to_string(xe) + ", rows from x " + std::to_string(v.rowsArea().left()));
        // the launch bar ends in the launch end's pixel column (at least one pixel wide)
        EXPECT_TRUE(anyIn(QRect(xe - 2, cpu.top() + 2, 3, cpu.height() - 4), palette::kLaunchNccl));
        // the line from the launch end (CPU row) to the kernel's start (its stream's row), midway
        const QPointF from(v.xAtTime(double(m.launchEndNs)), cpu.top() + 1), to(v.xAtTime(double(m.startNs)), row.bottom());
        const QPoint mid = ((from + to) / 2).toPoint();
        EXPECT_TRUE(anyIn(QRect(mid - QPoint(2, 2), QSize(5, 5)), lineColour));
        ++checked;
    }
    EXPECT_EQ(checked, int(tc->members.size()));
    // Shift+drag over the rows measures; Z zooms to the measured range
    const QRect area = v.rowsArea();
    const int xa = area.left() + 300, xb = area.left() + 700;
    const double ta = v.timeAtX(xa), tb = v.timeAtX(xb);
    QTest::mousePress(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(xa, area.top() + 10));
    QTest::mouseMove(&v, QPoint(xb, area.top() + 10));
    QTest::mouseRelease(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(xb, area.top() + 10));
    EXPECT_NEAR(v.measureStart(), ta, 1);
    EXPECT_NEAR(v.measureEnd(), tb, 1);
    QTest::keyClick(&v, Qt::Key_Z);
    EXPECT_NEAR(v.rangeStart(), ta, 1);
    EXPECT_NEAR(v.rangeEnd(), tb, 1);
    // the overview maps the whole run over its width: dragging the handle 50 px pans by 50 of them
    const QRect ov = v.overviewArea();
    QTest::keyClick(&v, Qt::Key_Home);
    const double runStart = v.rangeStart();
    v.setRange(ta, tb);
    const double handleX = ov.left() + (ta + (tb - ta) / 2 - runStart) / full * ov.width();
    QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(int(handleX), ov.center().y()));
    QTest::mouseMove(&v, QPoint(int(handleX) + 50, ov.center().y()));
    QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(int(handleX) + 50, ov.center().y()));
    EXPECT_NEAR(v.rangeStart() - ta, 50 * full / ov.width(), full / ov.width() * 2);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), tb - ta, 1);
}

TEST(RunViews, TimelineNavigation) {
    SessionPtr s = load(demo().path);
    TimelineView v;
    v.resize(1200, 700);
    v.show();
    v.setSession(s);
    const double full = v.rangeEnd() - v.rangeStart();
    const QRect area = v.rowsArea();
    // Ctrl+wheel zooms at the cursor: the time under the cursor stays put (as in Nsight Systems;
    // the plain wheel scrolls the rows: Habits.TimelineWheelAsNsightOrAsPreferred)
    const QPointF at(area.left() + area.width() * 0.3, area.top() + 20);
    const double t = v.timeAtX(at.x());
    QWheelEvent wheel(at, v.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&v, &wheel);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), full * 0.8, full * 1e-9);
    EXPECT_NEAR(v.timeAtX(at.x()), t, full * 1e-9);
    QWheelEvent ctrl(at, v.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&v, &ctrl);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), full * 0.64, full * 1e-9);
    // W / S zoom, A / D pan, Home fits
    double span = v.rangeEnd() - v.rangeStart();
    QTest::keyClick(&v, Qt::Key_W);
    EXPECT_LT(v.rangeEnd() - v.rangeStart(), span);
    QTest::keyClick(&v, Qt::Key_S);
    EXPECT_NEAR(v.rangeEnd() - v.rangeStart(), span, span * 1e-9);
    double start = v.rangeStart();
    QTest::keyClick(&v, Qt::Key_D);
    EXPECT_GT(v.rangeStart(), start);
    QTest::keyClick(&v, Qt::Key_A);
    EXPECT_NEAR(v.rangeStart(), start, span * 1e-9);
    // drag pans
    start = v.rangeStart();
    QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(area.center().x(), area.top() + 5));
    QTest::mouseMove(&v, QPoint(area.center().x() - 100, area.top() + 5));
    QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(area.center().x() - 100, area.top() + 5));
    EXPECT_NEAR(v.rangeStart() - start, 100 * span / area.width(), span * 1e-6);
    QTest::keyClick(&v, Qt::Key_Home);
    EXPECT_DOUBLE_EQ(v.rangeEnd() - v.rangeStart(), full);
    // drag on the ruler zooms to that range and keeps it marked, with its length on the ruler
    const QRect ruler = v.rulerArea();
    const int xa = ruler.left() + 200, xb = ruler.left() + 500;
    const double ta = v.timeAtX(xa), tb = v.timeAtX(xb);
    QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(xa, ruler.center().y()));
    QTest::mouseMove(&v, QPoint(xb, ruler.center().y()));
    QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(xb, ruler.center().y()));
    EXPECT_NEAR(v.rangeStart(), ta, 1);
    EXPECT_NEAR(v.rangeEnd(), tb, 1);
    EXPECT_NEAR(v.measureStart(), ta, 1);
    EXPECT_NEAR(v.measureEnd(), tb, 1);
    EXPECT_NE(v.tooltipAt(QPointF(ruler.center())).indexOf("measured"), -1);
    QTest::keyClick(&v, Qt::Key_Escape);
    EXPECT_TRUE(std::isnan(v.measureStart()));
    // a rank collapses to one summary row and expands again from its name
    const size_t rows = v.rows().size();
    const QRect header = v.rowRect(0);
    QTest::mouseClick(&v, Qt::LeftButton, {}, QPoint(20, header.center().y()));
    EXPECT_TRUE(v.rankCollapsed(0));
    EXPECT_EQ(v.rows().size(), rows - s->profile.ranks[0].lanes.size() - 1);
    QTest::mouseClick(&v, Qt::LeftButton, {}, QPoint(20, v.rowRect(0).center().y()));
    EXPECT_FALSE(v.rankCollapsed(0));
    EXPECT_EQ(v.rows().size(), rows);
}

// ---- selection both ways -----------------------------------------------------------------------

TEST(RunViews, SelectionSyncsBetweenTableTimelineStepMapAndHeatmap) {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    const skew::Analysis& a = w.session()->analysis;
    const auto& truth = demo().result.late;
    auto tableCollective = [&] {
        QModelIndex cur = w.table()->selectionModel()->currentIndex();
        return cur.isValid() ? w.filter()->mapToSource(cur).row() : -1;
    };
    // table -> views
    int c0 = collectiveIndex(a, 0, truth[0].index);
    w.selectCollective(c0);
    EXPECT_EQ(w.timeline()->selectedCollective(), c0);
    EXPECT_EQ(w.stepMap()->selectedCollective(), c0);
    EXPECT_EQ(w.heatmap()->selectedCollective(), c0);
    // timeline -> table: click the late member of another planted collective
    const int c1 = collectiveIndex(a, 0, truth[1].index);
    const skew::Collective& col1 = a.collectives[size_t(c1)];
    w.viewTabs()->setCurrentWidget(w.timeline());
    TimelineView* tl = w.timeline();
    tl->setRange(double(col1.minStart) - 5e6, double(col1.maxEnd) + 5e6);
    const skew::GroupSlot& gl1 = a.groups[0].lanes[size_t(col1.lateSlot)];
    const uint32_t k1 = a.slotKernel(col1, size_t(col1.lateSlot));
    const auto& kl1 = w.session()->profile.ranks[size_t(gl1.rank)].lanes[size_t(gl1.lane)];
    QPoint p1(int(tl->xAtTime((double(kl1.start[k1]) + double(kl1.end(k1))) / 2)), tl->rowRect(tl->rowOf(gl1.rank, gl1.lane)).center().y() + 2);
    QTest::mouseClick(tl, Qt::LeftButton, {}, p1);
    EXPECT_EQ(w.currentCollective(), c1);
    EXPECT_EQ(tableCollective(), c1);
    EXPECT_EQ(w.stepMap()->selectedCollective(), c1);
    EXPECT_EQ(w.heatmap()->selectedCollective(), c1);
    EXPECT_NE(w.details()->toPlainText().indexOf("Correlation id: " + QString::number(kl1.correlationId[k1])), -1);
    // step map -> table: click a planted big event's marker
    const int c2 = collectiveIndex(a, 0, truth[2].index);
    w.viewTabs()->setCurrentWidget(w.stepMap());
    StepMapView* sm = w.stepMap();
    sm->replot();
    QTest::mouseClick(sm, Qt::LeftButton, {}, sm->collectivePos(c2).toPoint());
    EXPECT_EQ(w.currentCollective(), c2);
    EXPECT_EQ(tableCollective(), c2);
    EXPECT_EQ(w.timeline()->selectedCollective(), c2);
    EXPECT_EQ(w.heatmap()->selectedCollective(), c2);
    // heatmap -> table: click the cell of another planted event's late rank
    const int c3 = collectiveIndex(a, 0, truth[3].index);
    const skew::Collective& col3 = a.collectives[size_t(c3)];
    w.viewTabs()->setCurrentWidget(w.heatmap());
    HeatmapView* hm = w.heatmap();
    hm->replot();
    QTest::mouseClick(hm, Qt::LeftButton, {}, hm->cellCenter(c3, col3.lateSlot).toPoint());
    EXPECT_EQ(w.currentCollective(), c3);
    EXPECT_EQ(tableCollective(), c3);
    EXPECT_EQ(w.timeline()->selectedCollective(), c3);
    EXPECT_EQ(w.stepMap()->selectedCollective(), c3);
    const uint32_t k3 = a.slotKernel(col3, size_t(col3.lateSlot));
    const auto& gl3 = a.groups[0].lanes[size_t(col3.lateSlot)];
    EXPECT_NE(w.details()->toPlainText().indexOf("Correlation id: " +
                                                 QString::number(w.session()->profile.ranks[size_t(gl3.rank)].lanes[size_t(gl3.lane)].correlationId[k3])),
              -1);
    EXPECT_NE(w.details()->toPlainText().indexOf("Late arriver: yes"), -1);
}

// Home, 0, + and - are the Navigate menu's window shortcuts: pressed in a run view they act on it
// (the timeline fits the whole run, the step map every step, the heatmap every collective), never
// on the collective view hidden behind the tab.
TEST(RunViews, NavigateKeysActOnTheViewTabShown) {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    const QCPRange collective = w.view()->xAxis->range();
    // (the timeline zooms on Ctrl+wheel, as Nsight Systems; the plots on the wheel)
    auto wheelIn = [](QWidget* v, QPointF at, Qt::KeyboardModifiers m = Qt::NoModifier) {
        QWheelEvent e(at, v->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, m, Qt::NoScrollPhase, false);
        QApplication::sendEvent(v, &e);
    };
    // the timeline: zoomed in by W and the wheel, Home fits the whole run again
    TimelineView* tl = w.timeline();
    w.viewTabs()->setCurrentWidget(tl);
    tl->setFocus();
    const double runStart = double(w.session()->timeline.start()), runEnd = double(w.session()->timeline.end()), run = runEnd - runStart;
    ASSERT_EQ(tl->rangeStart(), runStart);
    QTest::keyClick(tl, Qt::Key_W);  // a half, as Nsight Systems' W; the wheel 0.8 a notch
    wheelIn(tl, QPointF(tl->rowsArea().center()), Qt::ControlModifier);
    ASSERT_NEAR(tl->rangeEnd() - tl->rangeStart(), run * 0.4, run * 1e-9);
    QTest::keyClick(tl, Qt::Key_Home);
    EXPECT_EQ(tl->rangeStart(), runStart);
    EXPECT_EQ(tl->rangeEnd(), runEnd);
    // + and - zoom it by the keys' factors, 0 fits
    QTest::keyClick(tl, Qt::Key_Plus);
    EXPECT_NEAR(tl->rangeEnd() - tl->rangeStart(), run * 0.5, run * 1e-9);
    QTest::keyClick(tl, Qt::Key_Plus);
    QTest::keyClick(tl, Qt::Key_Minus);
    EXPECT_NEAR(tl->rangeEnd() - tl->rangeStart(), run * 0.5, run * 1e-9);
    QTest::keyClick(tl, Qt::Key_0);
    EXPECT_EQ(tl->rangeStart(), runStart);
    EXPECT_EQ(tl->rangeEnd(), runEnd);
    EXPECT_EQ(w.view()->xAxis->range(), collective);  // the collective view was left alone
    // the step map: the fit shows every step and the whole step span, with a margin
    StepMapView* sm = w.stepMap();
    w.viewTabs()->setCurrentWidget(sm);
    sm->setFocus();
    sm->replot();
    const double span = double(sm->map().spanNs) / 1e6;
    ASSERT_GT(span, 1.0);
    const QCPRange fitX(-span * 0.02, span * 1.06), fitY(0.4, double(sm->map().steps) + 0.6);
    ASSERT_EQ(sm->xAxis->range(), fitX);
    wheelIn(sm, QPointF(sm->axisRect()->rect().center()));
    ASSERT_LT(sm->xAxis->range().size(), fitX.size() * 0.95);
    QTest::keyClick(sm, Qt::Key_Home);
    EXPECT_EQ(sm->xAxis->range(), fitX);
    EXPECT_EQ(sm->yAxis->range(), fitY);
    QTest::keyClick(sm, Qt::Key_Plus);
    EXPECT_NEAR(sm->xAxis->range().size(), fitX.size() * 0.5, 1e-9);
    EXPECT_NEAR(sm->yAxis->range().size(), fitY.size() * 0.5, 1e-9);
    QTest::keyClick(sm, Qt::Key_Minus);
    EXPECT_NEAR(sm->xAxis->range().size(), fitX.size(), 1e-9);
    QTest::keyClick(sm, Qt::Key_Plus);
    QTest::keyClick(sm, Qt::Key_0);
    EXPECT_EQ(sm->xAxis->range(), fitX);
    // the heatmap: the fit shows every collective of its group; it zooms along x only
    HeatmapView* hm = w.heatmap();
    w.viewTabs()->setCurrentWidget(hm);
    hm->setFocus();
    hm->replot();
    const double n = w.session()->analysis.groups[size_t(hm->group())].count;
    const QCPRange all(0.5, n + 0.5), ranks = hm->yAxis->range();
    ASSERT_EQ(hm->xAxis->range(), all);
    wheelIn(hm, QPointF(hm->axisRect()->rect().center()));
    ASSERT_LT(hm->xAxis->range().size(), n * 0.95);
    QTest::keyClick(hm, Qt::Key_Home);
    EXPECT_EQ(hm->xAxis->range(), all);
    QTest::keyClick(hm, Qt::Key_Plus);
    EXPECT_NEAR(hm->xAxis->range().size(), n * 0.5, 1e-9);
    EXPECT_EQ(hm->yAxis->range(), ranks);
    QTest::keyClick(hm, Qt::Key_Minus);
    EXPECT_NEAR(hm->xAxis->range().size(), n, 1e-9);
    QTest::keyClick(hm, Qt::Key_Plus);
    QTest::keyClick(hm, Qt::Key_0);
    EXPECT_EQ(hm->xAxis->range(), all);
    EXPECT_EQ(w.view()->xAxis->range(), collective);
    // back on the collective view the keys zoom and fit it
    w.viewTabs()->setCurrentWidget(w.view());
    w.view()->setFocus();
    QTest::keyClick(w.view(), Qt::Key_Plus);
    EXPECT_NEAR(w.view()->xAxis->range().size(), collective.size() * 0.5, collective.size() * 1e-9);
    QTest::keyClick(w.view(), Qt::Key_Home);
    EXPECT_EQ(w.view()->xAxis->range(), collective);
    EXPECT_EQ(tl->rangeStart(), runStart);
}

// A click in a run view on a collective the table's filters hide: the filters that hide it are
// cleared (the others stay), the table lists and selects it as the views, details and Ranks tab
// show it, and the status bar says which filters went.
TEST(RunViews, ClickOnACollectiveTheFiltersHideListsItInTheTable) {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    const skew::Analysis& a = w.session()->analysis;
    auto tableCollective = [&] {
        QModelIndex cur = w.table()->selectionModel()->currentIndex();
        return cur.isValid() ? w.filter()->mapToSource(cur).row() : -1;
    };
    auto* status = w.findChild<QLabel*>("statusText");
    ASSERT_TRUE(status);
    w.setFilters({}, 0, {}, 0, true);  // group 0, big only
    ASSERT_EQ(w.filter()->rowCount(), 5);
    // a collective of group 0 that is not big, clicked in the heatmap on its late rank's cell
    int small = -1;
    for (uint32_t i = 0; i < a.groups[0].count && small < 0; ++i) {
        const skew::Collective& c = a.collectives[a.groups[0].firstCollective + i];
        if (!c.big && c.complete && c.lateSlot >= 0 && c.index > 10) small = int(a.groups[0].firstCollective + i);
    }
    ASSERT_GE(small, 0);
    const skew::Collective& sc = a.collectives[size_t(small)];
    ASSERT_FALSE(w.filter()->accepts(small));
    w.viewTabs()->setCurrentWidget(w.heatmap());
    HeatmapView* hm = w.heatmap();
    hm->replot();
    ASSERT_EQ(hm->group(), 0);
    QTest::mouseClick(hm, Qt::LeftButton, {}, hm->cellCenter(small, sc.lateSlot).toPoint());
    EXPECT_EQ(w.currentCollective(), small);
    EXPECT_EQ(tableCollective(), small);
    EXPECT_EQ(w.view()->scene().collective, small);
    EXPECT_EQ(w.timeline()->selectedCollective(), small);
    EXPECT_EQ(w.ranksGroup(), 0);
    // "big only" went, the group filter stayed
    EXPECT_EQ(w.filter()->rowCount(), int(a.groups[0].count));
    EXPECT_EQ(status->text(), QString("Filters cleared to show G0 #%1: big only.").arg(sc.index));
    // a collective of group 1 while the group filter and a minimum skew hide it, from the timeline
    w.setFilters({}, 0, {}, 5, false);
    int other = -1;
    for (uint32_t i = 0; i < a.groups[1].count && other < 0; ++i) {
        const skew::Collective& c = a.collectives[a.groups[1].firstCollective + i];
        if (c.complete && c.startSkew() < 5'000'000) other = int(a.groups[1].firstCollective + i);
    }
    ASSERT_GE(other, 0);
    w.viewTabs()->setCurrentWidget(w.timeline());
    emit w.timeline()->collectiveClicked(other);  // as a click on one of its kernels sends it
    EXPECT_EQ(w.currentCollective(), other);
    EXPECT_EQ(tableCollective(), other);
    EXPECT_EQ(w.filter()->rowCount(), int(a.collectives.size()));
    EXPECT_EQ(w.ranksGroup(), 1);
    EXPECT_EQ(status->text(), QString("Filters cleared to show G1 #%1: group 0, skew \u2265 5.00 ms.").arg(a.collectives[size_t(other)].index));
    // a collective the filters list: nothing cleared, nothing said
    w.setFilters({}, 1, {}, 0, false);
    status->clear();
    const int listed = int(a.groups[1].firstCollective);
    emit w.timeline()->collectiveClicked(listed);
    EXPECT_EQ(tableCollective(), listed);
    EXPECT_EQ(w.filter()->rowCount(), int(a.groups[1].count));
    EXPECT_EQ(status->text(), QString());
}

// The start/end skew CDF shows the Ranks tab's group (the filter's, else the selected
// collective's), every complete collective of it, and names it in its title.
TEST(RunViews, SkewCdfFollowsTheRanksTabsGroup) {
    MainWindow w;
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    const skew::Analysis& a = w.session()->analysis;
    ASSERT_EQ(a.groups.size(), 2u);
    ASSERT_NE(a.groups[0].complete, a.groups[1].complete);
    SkewCdfChart* chart = w.skewCdf();
    auto ranksTab = [&] {
        for (int i = 0; i < w.tabs()->count(); ++i)
            if (w.tabs()->tabText(i).startsWith("Ranks")) return w.tabs()->tabText(i);
        return QString();
    };
    for (int g : {1, 0, 1}) {
        SCOPED_TRACE("group " + std::to_string(g));
        ASSERT_TRUE(w.selectCollective(g, 3));
        EXPECT_EQ(ranksTab(), QString("Ranks: group %1").arg(g));
        const skew::Group& grp = a.groups[size_t(g)];
        // one point per complete collective of the group, between the curve's 0 and 1 ends
        EXPECT_EQ(chart->startCurve()->dataCount(), int(grp.complete) + 2);
        EXPECT_EQ(chart->endCurve()->dataCount(), int(grp.complete) + 2);
        int64_t maxStart = 0;
        for (uint32_t i = 0; i < grp.count; ++i) {
            const skew::Collective& c = a.collectives[grp.firstCollective + i];
            if (c.complete) maxStart = std::max(maxStart, c.startSkew());
        }
        EXPECT_DOUBLE_EQ(chart->startCurve()->dataMainKey(int(grp.complete)), double(maxStart));
        EXPECT_EQ(chart->title(), QString("Group %1: %2 complete collectives").arg(g).arg(grp.complete));
    }
    // the group filter decides when it is set
    w.setFilters({}, 1, {}, 0, false);
    EXPECT_EQ(chart->startCurve()->dataCount(), int(a.groups[1].complete) + 2);
    EXPECT_TRUE(chart->title().startsWith("Group 1:"));
}

// ---- step map and heatmap against the truth ------------------------------------------------------

// Every step labelled when the rows leave a line for each: a 12-step run in a step map of a
// 1024x700 window's size (the ticker's own count of about 5 labelled every third step); a hundred
// steps in the same height thinned to labels a line apart.
TEST(RunViews, StepMapLabelsEveryStepThatHasRoom) {
    for (int steps : {12, 100}) {
        skewgen::GenConfig cfg;
        cfg.ranks = 4;
        cfg.steps = steps;
        cfg.layers = 1;
        SessionPtr s = load(testutil::generated("stepmap-steps-" + std::to_string(steps), cfg).path);
        StepMapView v;
        v.resize(580, 420);
        v.setSession(s);
        v.replot(QCustomPlot::rpImmediateRefresh);
        v.replot(QCustomPlot::rpImmediateRefresh);
        const QVector<double> ticks = v.yAxis->tickVector();
        const int line = QFontMetrics(v.yAxis->tickLabelFont()).height();
        for (int i = 1; i < ticks.size(); ++i)
            EXPECT_GE(std::abs(v.yAxis->coordToPixel(ticks[i]) - v.yAxis->coordToPixel(ticks[i - 1])), line) << steps << " " << i;
        if (steps == 12) {
            QVector<double> all;
            for (int k = 1; k <= 12; ++k) all << double(k);
            EXPECT_EQ(ticks, all);
        } else {
            EXPECT_LT(ticks.size(), 100);
            EXPECT_GT(ticks.size(), 5);
        }
    }
}

TEST(RunViews, StepMapMarkersAtThePlantedStepsAndOffsets) {
    SessionPtr s = load(demo().path);
    StepMapView v;
    v.resize(1400, 800);
    v.setSession(s);
    v.replot();
    QImage img = v.toPixmap(1400, 800).toImage().convertToFormat(QImage::Format_RGB32);
    for (const auto& tl : demo().result.late) {
        int ci = collectiveIndex(s->analysis, tl.group, tl.index);
        const skew::Collective& c = s->analysis.collectives[size_t(ci)];
        EXPECT_EQ(int(c.step), tl.planted.step);
        QPointF at = v.collectivePos(ci);
        // the marker is drawn there, in its late rank's colour, and clicking there finds it
        EXPECT_NEAR(at.x(), v.xAxis->coordToPixel(double(c.offsetInStepNs) / 1e6), 1e-9);
        EXPECT_NEAR(at.y(), v.yAxis->coordToPixel(double(tl.planted.step)), 1e-9);
        const int rank = s->analysis.groups[0].lanes[size_t(c.lateSlot)].rank;
        EXPECT_TRUE(near(img.pixel(at.toPoint()), palette::rankColor(rank), 8)) << QColor(img.pixel(at.toPoint())).name().toStdString();
        EXPECT_EQ(v.collectiveAt(at), ci);
        EXPECT_NE(v.tooltipAt(at).indexOf(QString("#%1 ").arg(tl.index)), -1) << v.tooltipAt(at).toStdString();
        EXPECT_NE(v.tooltipAt(at).indexOf("big event"), -1);
    }
}

// Step-map ticks on the run's start-skew scale (docs/analysis.md, Run views: within noise up to 3x
// the median start skew of the complete collectives, then logarithmic to the big threshold): the
// neutral grey-blue within noise, an orange of the log ramp above it. The demo's ordinary collectives
// all lie within 1.24x the median: every one is neutral (before, any tick above the median was
// orange and normal collectives looked skewed). The scale's ends and each tick's place on it come
// from the generator's truth, not from core's SkewScale.
TEST(RunViews, StepMapTicksColouredOnTheRunsSkewScale) {
    SessionPtr s = load(demo().path);
    const skew::Analysis& a = s->analysis;
    std::map<std::pair<int, uint32_t>, int64_t> truthSkew;  // (group, index) -> start skew
    std::vector<int64_t> complete;
    for (const auto& tc : demo().result.collectives) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
        truthSkew[{tc.group, uint32_t(tc.index)}] = hi - lo;
        if (tc.members.size() == demo().result.rankLabels.size()) complete.push_back(hi - lo);
    }
    std::sort(complete.begin(), complete.end());
    ASSERT_EQ(complete.size() % 2, 0u);
    const double median = (double(complete[complete.size() / 2 - 1]) + double(complete[complete.size() / 2])) / 2;
    const double lo = std::max(1000.0, 3.0 * double(std::llround(median)));
    const double hi = std::max(double(a.options.bigSkewNs), 10 * lo);
    EXPECT_EQ(skew::skewScale(a).lo, int64_t(lo));
    auto position = [&](int64_t skew) { return skew <= lo ? 0.0 : skew >= hi ? 1.0 : std::log(skew / lo) / std::log(hi / lo); };
    StepMapView v;
    v.resize(1400, 800);
    v.setSession(s);
    v.replot();
    const QImage img = v.toPixmap(1400, 800).toImage().convertToFormat(QImage::Format_RGB32);
    const skew::StepMap& m = v.map();
    int typical = 0, above = 0;
    for (size_t i = 0; i < m.items.size(); ++i) {
        const int ci = int(m.items[i].collective);
        const skew::Collective& c = a.collectives[size_t(ci)];
        if (c.big) continue;
        const QPointF at = v.collectivePos(ci);
        const int x = int(std::floor(at.x())), y = int(std::lround(at.y()));
        bool shared = false;  // another tick in the same pixel column of the step: merged by maximum
        for (size_t j = 0; j < m.items.size(); ++j)
            shared |= j != i && m.items[j].step == m.items[i].step && int(std::floor(v.collectivePos(int(m.items[j].collective)).x())) == x;
        if (shared) continue;
        SCOPED_TRACE("G" + std::to_string(c.group) + " #" + std::to_string(c.index));
        const double t = position(truthSkew.at({c.group, c.index}));
        EXPECT_TRUE(near(img.pixel(x, y), palette::skewTickColor(t), 3)) << QColor(img.pixel(x, y)).name().toStdString();
        (t == 0 ? typical : above) += 1;
        if (t == 0) {
            EXPECT_TRUE(near(img.pixel(x, y), palette::kTypicalTick, 0));
        }
    }
    EXPECT_GT(typical, 100);
    EXPECT_EQ(above, 0);
}

// No rank colour reads as the alert red of late and big events (dev 4's marker was Tableau's red,
// 22 from kLate in RGB), nor as the grey of typical ticks; the colours stay apart from each other.
TEST(RunViews, RankColoursAvoidTheAlertRed) {
    auto dist = [](const QColor& x, const QColor& y) {
        return std::hypot(double(x.red() - y.red()), double(x.green() - y.green()), double(x.blue() - y.blue()));
    };
    for (int i = 0; i < palette::kRankColors; ++i) {
        SCOPED_TRACE(i);
        EXPECT_GE(dist(palette::rankColor(i), palette::kLate), 80) << palette::rankColor(i).name().toStdString();
        EXPECT_GE(dist(palette::rankColor(i), palette::kTypicalTick), 80);
        for (int j = 0; j < i; ++j) EXPECT_GE(dist(palette::rankColor(i), palette::rankColor(j)), 60) << j;
    }
    EXPECT_EQ(palette::rankColor(palette::kRankColors + 3), palette::rankColor(3));
}

TEST(RunViews, StepMapWithoutStepsOffersTheStepPattern) {
    // the demo has NVTX steps: no button
    MainWindow w2;
    w2.show();
    ASSERT_TRUE(openAndWait(w2, {QString::fromStdString(demo().path)}));
    w2.viewTabs()->setCurrentWidget(w2.stepMap());
    EXPECT_FALSE(w2.stepMap()->map().empty());
    EXPECT_FALSE(w2.stepMap()->settingsButton()->isVisible());
    skew::AnalysisOptions o;
    o.stepRegex = "^no such step$";
    // with the steps forced away: same session, no steps -> message and button
    auto s = std::make_shared<Session>();
    s->files = {demo().path};
    s->profile = skew::loadProfile({demo().path});
    s->analysis = skew::analyze(s->profile, o);
    for (auto& g : s->analysis.groups) g.stepsSource = skew::StepSource::None, g.stepCount = 0;
    for (auto& c : s->analysis.collectives) c.step = 0;
    indexSession(*s);
    StepMapView v;
    v.resize(900, 500);
    v.show();
    v.setSession(s);
    EXPECT_TRUE(v.map().empty());
    EXPECT_TRUE(v.settingsButton()->isVisible());
    EXPECT_NE(QString::fromStdString(v.map().why).indexOf("step pattern ^no such step$"), -1);
    QSignalSpy asked(&v, &StepMapView::settingsRequested);
    QTest::mouseClick(v.settingsButton(), Qt::LeftButton);
    EXPECT_EQ(asked.size(), 1);
    // in the window the button opens Analysis > Settings (a dialog; closed again here)
    w2.stepMap()->setSession(s);
    bool dialog = false;
    QTimer::singleShot(200, [&] {
        if (QWidget* m = QApplication::activeModalWidget()) {
            dialog = m->windowTitle() == "Analysis settings";
            m->close();
        }
    });
    QTest::mouseClick(w2.stepMap()->settingsButton(), Qt::LeftButton);
    EXPECT_TRUE(dialog);
    // the real 2xH100 capture: SendRecv only and no step ranges, so no steps at all
    ASSERT_TRUE(openAndWait(w2, {QString::fromStdString(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite")}));
    w2.viewTabs()->setCurrentWidget(w2.stepMap());
    EXPECT_TRUE(w2.stepMap()->map().empty());
    EXPECT_TRUE(w2.stepMap()->settingsButton()->isVisible());
    EXPECT_NE(QString::fromStdString(w2.stepMap()->map().why).indexOf("no period"), -1);
}

TEST(RunViews, HeatmapCellUnderAPlantedEventIsThatCollectiveAndRank) {
    SessionPtr s = load(demo().path);
    HeatmapView v;
    v.resize(1400, 600);
    v.setSession(s);
    v.replot();
    QImage img = v.toPixmap(1400, 600).toImage().convertToFormat(QImage::Format_RGB32);
    for (const auto& tl : demo().result.late) {
        int ci = collectiveIndex(s->analysis, tl.group, tl.index);
        const skew::Collective& c = s->analysis.collectives[size_t(ci)];
        const auto& gl = s->analysis.groups[0].lanes[size_t(c.lateSlot)];
        EXPECT_EQ(s->profile.ranks[size_t(gl.rank)].label, demo().result.rankLabels[size_t(tl.planted.rank)]);
        QPointF at = v.cellCenter(ci, c.lateSlot);
        auto [hc, hs] = v.cellAt(at);
        EXPECT_EQ(hc, ci);
        EXPECT_EQ(hs, c.lateSlot);
        EXPECT_NE(v.tooltipAt(at).indexOf("late arriver"), -1) << v.tooltipAt(at).toStdString();
        // the darkest colours: the top of the log scale
        QColor px(img.pixel(at.toPoint()));
        EXPECT_GT(px.red(), 120);
        EXPECT_LT(px.green(), 60) << px.name().toStdString();
    }
    // zoomed out to fewer pixels than collectives, each planted event still owns its column's maximum
    v.resize(500, 400);
    v.replot();
    for (const auto& tl : demo().result.late) {
        int ci = collectiveIndex(s->analysis, tl.group, tl.index);
        const skew::Collective& c = s->analysis.collectives[size_t(ci)];
        auto [hc, hs] = v.cellAt(v.cellCenter(ci, c.lateSlot));
        EXPECT_EQ(hc, ci);
        EXPECT_EQ(hs, c.lateSlot);
    }
}

// The heatmap shows one group; with two or more a box left of the title picks it, and the title
// says which of how many ("group 0 of 2"): the demo opens on group 0 (135 collectives), the box
// switches to group 1 (5 AllReduce), selecting a group-0 collective switches back. One group: no box.
// The heatmap's x axis names the step lines only where it draws them: a capture without steps has none.
// A heatmap of 400 ranks in rows under a pixel high: each rank keeps the pixel row its centre falls
// in, shared with its neighbours, which shows the latest of them. Eight late arrivers (10 ms, on 8
// consecutive ranks) all show red in their collective's column; rows only drawn for some ranks hid
// about one rank in four.
TEST(RunViews, HeatmapOfHundredsOfRanksHidesNoLateArriver) {
    skewgen::GenConfig cfg;
    cfg.ranks = 400;
    cfg.steps = 1;
    cfg.layers = 12;  // 36 collectives: the 8 late ones leave the median start skew (the noise bound's) ordinary
    cfg.allReduce = false;
    for (int k = 0; k < 8; ++k) cfg.late.push_back({1, 2 + 3 * k, 201 + k, 10'000'000, skewgen::LateKind::Gpu});
    const testutil::Generated& g = testutil::generated("heatmap-400-ranks", cfg);
    SessionPtr s = load(g.path);
    HeatmapView v;
    v.resize(1200, 360);
    v.setSession(s);
    const QImage img = v.toPixmap(1200, 360).toImage().convertToFormat(QImage::Format_RGB32);
    const QRect cells = v.axisRect()->rect();
    ASSERT_LT(double(cells.height()) / 400.0, 1.0);
    ASSERT_EQ(g.result.late.size(), 8u);
    for (const auto& tl : g.result.late) {
        SCOPED_TRACE("rank " + std::to_string(tl.planted.rank) + ", #" + std::to_string(tl.index));
        const int x = int(std::lround(v.xAxis->coordToPixel(double(tl.index))));
        const int y = int(std::lround(v.yAxis->coordToPixel(double(tl.planted.rank))));
        bool red = false;
        for (int yy = y - 1; yy <= y + 1; ++yy) {
            const QColor c(img.pixel(x, yy));
            red = red || (c.red() > c.green() + 60 && c.red() > c.blue() + 60);
        }
        EXPECT_TRUE(red) << QColor(img.pixel(x, y)).name().toStdString();
    }
}

TEST(RunViews, HeatmapAxisNamesStepLinesOnlyWhereThereAreSteps) {
    HeatmapView v;
    v.resize(1200, 500);
    v.setSession(load(demo().path));
    EXPECT_EQ(v.xAxis->label(), "collective (in order; lines: step boundaries)");
    v.setSession(load(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"));  // no NVTX steps, none inferred
    EXPECT_EQ(v.xAxis->label(), "collective (in order)");
}

TEST(RunViews, HeatmapGroupBoxPicksTheGroup) {
    SessionPtr s = load(demo().path);
    HeatmapView v;
    v.resize(1400, 600);
    v.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
    v.setSession(s);
    QComboBox* box = v.groupBox();
    ASSERT_TRUE(box->isVisible());
    ASSERT_EQ(box->count(), 2);
    EXPECT_EQ(box->itemText(0), "group 0: AllGather/ReduceScatter (135)");
    EXPECT_EQ(box->itemText(1), "group 1: AllReduce (5)");
    EXPECT_EQ(v.group(), 0);
    EXPECT_EQ(box->currentIndex(), 0);
    EXPECT_TRUE(v.title().startsWith("Lateness heatmap  \u00B7  group 0 of 2 (AllGather/ReduceScatter)  \u00B7  135 collectives \u00D7 7 ranks"))
        << v.title().toStdString();
    // the box sits in the title row, clear of the title's text and of the cells
    const QRect cells = v.axisRect()->rect();
    EXPECT_LE(box->geometry().bottom(), cells.top());
    EXPECT_EQ(v.shownTitle(), v.title());
    EXPECT_LT(box->geometry().right(), v.titleTextRect().left());
    EXPECT_LE(v.titleTextRect().right(), v.width());
    // pick group 1 in the box
    box->setCurrentIndex(1);
    emit box->activated(1);
    EXPECT_EQ(v.group(), 1);
    EXPECT_TRUE(v.title().startsWith("Lateness heatmap  \u00B7  group 1 of 2 (AllReduce)  \u00B7  5 collectives \u00D7 7 ranks"));
    v.replot();
    EXPECT_EQ(v.cells().lanes, int(s->analysis.groups[1].width()));
    // a collective of group 0 selected elsewhere brings group 0 back, in the box too
    v.setSelectedCollective(collectiveIndex(s->analysis, 0, 102));
    EXPECT_EQ(v.group(), 0);
    EXPECT_EQ(box->currentIndex(), 0);
    // narrow (the heatmap tab of a 1024 px window): the title elides at its end, keeping the group,
    // beside the box; its full text is the tooltip
    v.resize(640, 500);
    v.replot();
    EXPECT_NE(v.shownTitle(), v.title());
    EXPECT_TRUE(v.shownTitle().startsWith("Lateness heatmap  \u00B7  group 0 of 2")) << v.shownTitle().toStdString();
    EXPECT_TRUE(v.shownTitle().endsWith(QChar(0x2026)));
    EXPECT_LT(box->geometry().right(), v.titleTextRect().left());
    EXPECT_LE(v.titleTextRect().right(), v.width());
    EXPECT_EQ(v.tooltipAt(v.titleTextRect().center()), v.title());
    // the real 2xH100 export has one group: no box, and the title says "group 0"
    v.setSession(load(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"));
    EXPECT_FALSE(box->isVisible());
    EXPECT_TRUE(v.title().startsWith("Lateness heatmap  \u00B7  group 0 (SendRecv)")) << v.title().toStdString();
}

TEST(RunViews, SkewDistributionsOnTheRanksTab) {
    MainWindow w;
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    SkewCdfChart* chart = w.skewCdf();
    const auto starts = skew::sortedSkews(w.session()->analysis, 0, false);
    // the step curves hold every complete collective: points at each value, from 0 to 1
    ASSERT_EQ(size_t(chart->startCurve()->dataCount()), starts.size() + 2);
    EXPECT_EQ(chart->startCurve()->dataMainValue(chart->startCurve()->dataCount() - 1), 1.0);
    EXPECT_DOUBLE_EQ(chart->startCurve()->dataMainKey(int(starts.size())), double(starts.back()));
    // ends cluster far left of the starts: the end median is below the start median
    const auto ends = skew::sortedSkews(w.session()->analysis, 0, true);
    EXPECT_LT(ends[ends.size() / 2], starts[starts.size() / 2]);
    EXPECT_TRUE(chart->xAxis->scaleType() == QCPAxis::stLogarithmic);
}

// ---- render --view draws what the viewer exports ------------------------------------------------

TEST(RunViews, RenderDrawsEachViewAsTheViewerExportsIt) {
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(demo().path)}));
    const int c = collectiveIndex(w.session()->analysis, 0, 102);
    w.selectCollective(c);
    std::string dir = tempDir("run-views-render");
    struct Case {
        const char* view;
        QWidget* tab;
        std::vector<std::string> extra;
    };
    const double r0 = 5.38, r1 = 5.45;  // seconds, as --range reads them
    const Case cases[] = {{"timeline", w.timeline(), {"--range", "5.38", "5.45"}},
                          {"stepmap", w.stepMap(), {}},
                          {"heatmap", w.heatmap(), {}}};
    // what each view's SVG and PDF must say, from the generator's truth: the ranks, the big events
    // labelled with their start skew, the counts in the titles
    const auto& truth = demo().result;
    auto skewOf = [](const skewgen::TruthCollective& tc) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
        return hi - lo;
    };
    size_t group0 = 0, big = 0;
    QString skew102;
    QStringList bigLabels;
    for (const auto& tc : truth.collectives) {
        group0 += tc.group == 0;
        if (skewOf(tc) <= 20'000'000) continue;
        ++big;
        bigLabels << "+" + QString::fromStdString(skew::formatDuration(skewOf(tc)));
        if (tc.group == 0 && tc.index == 102) skew102 = bigLabels.back();
    }
    ASSERT_FALSE(skew102.isEmpty());
    const QString ranks = QString::number(truth.rankLabels.size());
    struct Expect {
        QStringList texts;       // each a part of some text element, and of the PDF's text
        bool rankLabels = true;  // every rank's label shown
    };
    const std::map<std::string, Expect> expect = {
        {"timeline", {{skew102}}},  // the 55 ms late arriver is in the range
        {"stepmap", {QStringList{QString::number(truth.steps) + " steps", QString::number(truth.collectives.size()) + " collectives",
                                 QString::number(big) + " big events"} + bigLabels, false}},  // the legend names only the late ranks
        {"heatmap", {{QString::number(group0) + " collectives \u00d7 " + ranks + " ranks", "step 1", "step " + QString::number(truth.steps)}}},
    };
    for (const Case& k : cases) {
        SCOPED_TRACE(k.view);
        w.viewTabs()->setCurrentWidget(k.tab);
        if (k.tab == w.timeline()) w.timeline()->setRange(r0 * 1e9, r1 * 1e9);
        for (const char* ext : {"png", "svg", "pdf"}) {
            const std::string mine = dir + "/viewer-" + k.view + "." + ext;
            QString err;
            ASSERT_TRUE(w.exportView(QString::fromStdString(mine), 1400, 800, &err)) << err.toStdString();
        }
        const Expect& want = expect.at(k.view);
        const SvgContent svg = readSvg(dir + "/viewer-" + k.view + ".svg");
        ASSERT_EQ(svg.error, QString());
        EXPECT_EQ(svg.viewBox, QRectF(0, 0, 1400, 800));
        EXPECT_GE(svg.shapes, 50);  // bars, cells or markers, and axes: drawn as vectors
        const PdfContent pdf = readPdf(dir + "/viewer-" + k.view + ".pdf");
        ASSERT_EQ(pdf.error, "");
        EXPECT_TRUE(pdf.header);
        EXPECT_EQ(pdf.pages, 1);
        // the pictures inside (the heatmap's cells, the bars' layer) as exact as in the PNG: no JPEG
        EXPECT_FALSE(pdf.imageEncodings.empty());
        for (const std::string& e : pdf.imageEncodings) EXPECT_EQ(e, "image");
        QStringList texts = want.texts;
        if (want.rankLabels)
            for (const auto& l : truth.rankLabels) texts << QString::fromStdString(l);
        for (const QString& t : texts) {
            EXPECT_TRUE(svg.hasTextContaining(t)) << t.toStdString() << " not in " << svg.texts.join(" | ").toStdString();
            EXPECT_NE(pdf.text.find(t.toStdString()), std::string::npos) << t.toStdString() << " not in " << pdf.text;
        }
        std::vector<std::string> args = {"render", demo().path, "--view", k.view, "--collective", "0:102", "--output", dir + "/render-" + k.view + ".png",
                                         "--size", "1400x800"};
        args.insert(args.end(), k.extra.begin(), k.extra.end());
        RunResult r = runSkewscope(args, "QT_QPA_PLATFORM=offscreen");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        QImage a(QString::fromStdString(dir + "/viewer-" + k.view + ".png")), b(QString::fromStdString(dir + "/render-" + k.view + ".png"));
        ASSERT_EQ(a.size(), QSize(1400, 800));
        ASSERT_EQ(b.size(), a.size());
        EXPECT_TRUE(a.convertToFormat(QImage::Format_ARGB32) == b.convertToFormat(QImage::Format_ARGB32));
    }
    // the timeline fitted to the run, without a selection, from the command line alone
    RunResult fit = runSkewscope({"render", demo().path, "--view", "timeline", "--output", dir + "/fit.png", "--size", "1200x700"}, "QT_QPA_PLATFORM=offscreen");
    ASSERT_EQ(fit.exitCode, 0) << fit.err;
    TimelineView v;
    v.resize(1200, 700);
    v.setSession(w.session());
    EXPECT_TRUE(QImage(QString::fromStdString(dir + "/fit.png")).convertToFormat(QImage::Format_ARGB32) ==
                v.render(QSize(1200, 700)).convertToFormat(QImage::Format_ARGB32));
    for (auto& e : std::filesystem::directory_iterator(dir)) EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
    std::filesystem::remove_all(dir);
}

// Through the RunView interface alone, each run view does what `render --view` does (the window's
// and render's dispatch can go through it): the documented sequence draws render's picture, and a
// zoom undone by fit() draws the fitted one again.
TEST(RunViews, TheInterfaceDrawsWhatRenderDraws) {
    SessionPtr s = load(demo().path);
    const int c = collectiveIndex(s->analysis, 0, 102);
    const std::string dir = tempDir("run-view-interface");
    ASSERT_EQ(runViewNames(), (std::vector<std::string>{"timeline", "stepmap", "heatmap", "whatif"}));
    const char* titles[] = {"Timeline", "Step map", "Heatmap", "What-if"};
    for (size_t i = 0; i < runViewNames().size(); ++i) {
        const std::string& name = runViewNames()[i];
        SCOPED_TRACE(name);
        std::unique_ptr<RunView> v(createRunView(name));
        ASSERT_TRUE(v);
        EXPECT_EQ(v->viewName().toStdString(), name);
        EXPECT_EQ(v->tabTitle(), titles[i]);
        EXPECT_FALSE(v->tabToolTip().isEmpty());
        EXPECT_EQ(asRunView(v->widget()), v.get());
        const bool timeline = name == "timeline";
        v->widget()->resize(1400, 800);
        v->setSession(s);
        v->setSelectedCollective(c);
        EXPECT_EQ(v->selectedCollective(), c);
        EXPECT_EQ(v->setTimeRange(5.38e9, 5.45e9), timeline);  // only the timeline has a time axis
        if (!timeline) v->fit();
        const QString mine = QString::fromStdString(dir + "/" + name + ".png");
        QString err;
        ASSERT_TRUE(v->exportTo(mine, 1400, 800, &err)) << err.toStdString();
        std::vector<std::string> args = {"render", demo().path, "--view", name, "--collective", "0:102", "--size", "1400x800",
                                         "--output", dir + "/render-" + name + ".png"};
        if (timeline) args.insert(args.end(), {"--range", "5.38", "5.45"});
        RunResult r = runSkewscope(args, "QT_QPA_PLATFORM=offscreen");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_TRUE(QImage(mine).convertToFormat(QImage::Format_ARGB32) ==
                    QImage(QString::fromStdString(dir + "/render-" + name + ".png")).convertToFormat(QImage::Format_ARGB32));
        // zoomed in, then fitted: the whole run as after opening it
        v->fit();
        ASSERT_TRUE(v->exportTo(mine, 1400, 800, &err));
        const QImage fitted = QImage(mine).convertToFormat(QImage::Format_ARGB32);
        v->zoomBy(0.5);
        ASSERT_TRUE(v->exportTo(mine, 1400, 800, &err));
        EXPECT_FALSE(QImage(mine).convertToFormat(QImage::Format_ARGB32) == fitted);
        v->fit();
        ASSERT_TRUE(v->exportTo(mine, 1400, 800, &err));
        EXPECT_TRUE(QImage(mine).convertToFormat(QImage::Format_ARGB32) == fitted);
    }
    EXPECT_EQ(createRunView("collective"), nullptr);  // not a run view
    std::filesystem::remove_all(dir);
}

TEST(RunViews, RenderViewUsageErrors) {
    EXPECT_EQ(runSkewscope({"render", demo().path, "--view", "bogus", "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", demo().path, "--view", "heatmap", "--range", "1", "2", "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", demo().path, "--view", "timeline", "--range", "2", "1", "--output", "/tmp/x.png"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", demo().path, "--output", "/tmp/x.png"}).exitCode, 2);  // the collective view needs --collective
    EXPECT_EQ(runSkewscope({"render", demo().path, "--view", "stepmap", "--collective", "0:999", "--output", "/tmp/x.png"}).exitCode, 1);
}

}  // namespace
