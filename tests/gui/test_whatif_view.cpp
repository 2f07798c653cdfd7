// The What-if view (ui/views/whatif/): per step the captured and the scenarios' step times as bars
// at the heights of core's WhatIfScene, the ranks by what each alone costs, the selected
// collective's step highlighted, and why when there is nothing to draw; and the timeline's ghost bars
// of the ideal schedule.

#include <QImage>
#include <QSet>

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/whatif.h"
#include "common/palette.h"
#include "gui_util.h"
#include "session.h"
#include "views/timeline/timeline_view.h"
#include "views/whatif/whatif_view.h"
#include "whatif_hand_profile.h"

using namespace skewui;
using namespace guitest;

namespace {

bool near(QRgb a, const QColor& b, int tol = 6) {
    return std::abs(qRed(a) - b.red()) <= tol && std::abs(qGreen(a) - b.green()) <= tol && std::abs(qBlue(a) - b.blue()) <= tol;
}

int collectiveIndex(const skew::Analysis& a, int group, int index) {
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].group == group && int(a.collectives[i].index) == index) return int(i);
    return -1;
}

}  // namespace

TEST(WhatIfView, BarsAtTheScenesStepTimesAndTheSelectedStepHighlighted) {
    SessionPtr s = loadSession({demo().path}, {}, {});
    WhatIfView v;
    v.resize(1400, 800);
    v.setSession(s);
    const skew::WhatIfScene& sc = v.scene();
    ASSERT_EQ(int(sc.steps.size()), demo().result.steps);  // the demo's 5 NVTX steps
    ASSERT_TRUE(sc.hasScenario[0] && sc.hasScenario[1] && sc.hasScenario[2]);
    EXPECT_EQ(v.legend->itemCount(), 4);  // captured and three scenarios; the ranks' bars have no key entry
    EXPECT_EQ(v.subtitle().toStdString(), sc.sentence);
    // select the planted late arriver 0:102 (step 4 in the generator's truth): its step is highlighted
    const int c = collectiveIndex(s->analysis, 0, 102);
    int plantedStep = 0;
    for (const auto& tl : demo().result.late)
        if (tl.group == 0 && tl.index == 102) plantedStep = tl.planted.step;
    ASSERT_EQ(plantedStep, 4);
    v.setSelectedCollective(c);
    v.replot();
    const QImage img = v.toPixmap(1400, 800).toImage().convertToFormat(QImage::Format_RGB32);
    QCPAxis* x = v.stepsRect()->axis(QCPAxis::atBottom);
    QCPAxis* y = v.stepsRect()->axis(QCPAxis::atLeft);
    const int top = v.stepsRect()->top() + 2;  // above every bar: the highlight or the background
    EXPECT_FALSE(near(img.pixel(int(x->coordToPixel(4.45)), top), Qt::white, 2));
    EXPECT_TRUE(near(img.pixel(int(x->coordToPixel(1.45)), top), Qt::white, 2));
    for (size_t i = 0; i < sc.steps.size(); ++i) {
        SCOPED_TRACE(i);
        // the captured bar, first of its step's four, ends at the captured step time: its colour
        // a few pixels below the top, not above it
        const int bx = int(x->coordToPixel(double(sc.steps[i]) - 0.3));
        const int barTop = int(std::lround(y->coordToPixel(double(sc.capturedNs[i]) / 1e6)));
        EXPECT_TRUE(near(img.pixel(bx, barTop + 3), palette::kSideA)) << QColor(img.pixel(bx, barTop + 3)).name().toStdString();
        EXPECT_FALSE(near(img.pixel(bx, barTop - 3), palette::kSideA));
        // the ideal bar, last of the four
        const int ix = int(x->coordToPixel(double(sc.steps[i]) + 0.3));
        const int idealTop = int(std::lround(y->coordToPixel(double(sc.scenarioNs[2][i]) / 1e6)));
        EXPECT_TRUE(near(img.pixel(ix, idealTop + 3), palette::kSideB)) << QColor(img.pixel(ix, idealTop + 3)).name().toStdString();
        EXPECT_FALSE(near(img.pixel(ix, idealTop - 3), palette::kSideB));
        // hovering the step says its numbers
        const QPointF at(bx, barTop + 3);
        EXPECT_EQ(v.stepAt(at), int(i));
        EXPECT_EQ(v.tooltipAt(at).toStdString(), skew::whatIfStepText(sc, i));
    }
    EXPECT_EQ(v.stepAt(QPointF(x->coordToPixel(0.0), y->coordToPixel(1.0))), -1);  // left of step 1
    // the ranks: as many bars as ranks (the demo's 7), the costliest on top, each to its slowdown
    ASSERT_EQ(sc.ranks.size(), demo().result.rankLabels.size());
    QCPAxis* rx = v.ranksRect()->axis(QCPAxis::atBottom);
    QCPAxis* ry = v.ranksRect()->axis(QCPAxis::atLeft);
    for (size_t r = 0; r < sc.ranks.size(); ++r) {
        if (r) {
            EXPECT_GE(sc.ranks[r - 1].slowdown, sc.ranks[r].slowdown);
        }
        const int end = int(std::lround(rx->coordToPixel(sc.ranks[r].slowdown)));
        const int ry0 = int(std::lround(ry->coordToPixel(double(r))));
        EXPECT_TRUE(near(img.pixel(end - 3, ry0), palette::kLate));
        EXPECT_FALSE(near(img.pixel(end + 3, ry0), palette::kLate));
    }
}

TEST(WhatIfView, WithoutStepsItSaysWhyAndDrawsNoBars) {
    SessionPtr s = loadSession({realPath("nsysai-h100_2gpu_1s.sqlite").toStdString()}, {}, {});
    WhatIfView v;
    v.resize(1000, 600);
    v.setSession(s);
    EXPECT_TRUE(v.scene().empty());
    EXPECT_EQ(v.subtitle(), "What-if: not computed: no training steps (no NVTX step ranges, no repeating collective sequence).");
    EXPECT_EQ(v.plottableCount(), 0);
    EXPECT_FALSE(v.legend->visible());
    // the step pattern may find the steps: the view offers the settings, as the step map does
    ASSERT_FALSE(v.settingsButton()->isHidden());
    QSignalSpy asked(&v, &WhatIfView::settingsRequested);
    QTest::mouseClick(v.settingsButton(), Qt::LeftButton);
    EXPECT_EQ(asked.count(), 1);
    v.setSession(nullptr);
    EXPECT_TRUE(v.settingsButton()->isHidden());
    EXPECT_EQ(v.subtitle(), "Open a capture to replay its steps without the late arrivals.");
}

TEST(WhatIfView, LeftOutForWantOfMemoryItSaysSoAndOffersNoStepSettings) {
    setenv("SKEWSCOPE_WHATIF_MAX_MB", "0", 1);
    SessionPtr s = loadSession({realPath("nsysai-mfu_2gpu_before.sqlite").toStdString()}, {}, {});
    unsetenv("SKEWSCOPE_WHATIF_MAX_MB");
    const std::string& why = s->analysis.whatIf.notComputed;
    ASSERT_EQ(why.rfind("its replay of ", 0), 0u) << why;
    EXPECT_NE(why.find("more than the 0 MB SKEWSCOPE_WHATIF_MAX_MB allows"), std::string::npos) << why;
    WhatIfView v;
    v.resize(1000, 600);
    v.setSession(s);
    EXPECT_TRUE(v.scene().empty());
    EXPECT_EQ(v.subtitle().toStdString(), "The what-if was not computed: " + why + ".");
    EXPECT_EQ(v.plottableCount(), 0);
    EXPECT_TRUE(v.settingsButton()->isHidden());  // a step pattern would not make it fit
}

// The key's names whole at any width: one row where the four fit, two rows of two where they do not
// (the What-if tab at 1024x700 is about 580 px wide; in one row QCustomPlot cut each name short).
TEST(WhatIfView, TheKeyNamesEachSeriesWholeInOneRowOrTwo) {
    SessionPtr s = loadSession({demo().path}, {}, {});
    WhatIfView v;
    v.setSession(s);
    v.show();  // (resized as a shown widget is: at once, with its resize event)
    ASSERT_EQ(v.legend->itemCount(), 4);
    for (int width : {1200, 560, 1200}) {
        v.resize(width, 600);
        v.replot();
        QSet<int> rows;
        for (int i = 0; i < v.legend->itemCount(); ++i) {
            const QCPAbstractLegendItem* item = v.legend->item(i);
            EXPECT_GE(item->outerRect().width(), item->minimumOuterSizeHint().width()) << width << " px, item " << i;
            EXPECT_LE(item->outerRect().right(), width) << width << " px, item " << i;
            rows.insert(item->outerRect().top());
        }
        EXPECT_EQ(rows.size(), width == 1200 ? 1 : 2) << width << " px";
    }
}

// The timeline's ghost bars (I): the what-if's ideal schedule of the hand profile
// (whatif_hand_profile.h; its ideal times are worked out in test_whatif_schedule.cpp), computed off
// the GUI thread when first shown, drawn in the lower part of each row where the ideal replay puts
// each kernel: rank 0's late AllGather of step 2 runs [1308, 1408] us but ideally [1113, 1213].
TEST(WhatIfView, TimelineGhostBarsWhereTheIdealReplayPutsEachKernel) {
    using namespace whatifhand;
    auto s = std::make_shared<Session>();
    s->profile = handProfile();
    s->analysis = skew::analyze(s->profile);
    indexSession(*s);
    TimelineView v;
    v.resize(1200, 520);
    v.setSession(s);
    v.setRange(double(T), double(T + 1500 * kUs));
    int lane = -1;
    for (size_t l = 0; l < s->profile.ranks[0].lanes.size(); ++l)
        if (s->profile.ranks[0].lanes[l].stream == 56) lane = int(l);
    ASSERT_GE(lane, 0);
    const QRect rr = v.rowRect(v.rowOf(0, lane));
    const int band = rr.top() + int(rr.height() * 0.82);  // inside the ghost band, on the captured bar
    auto at = [&](const QImage& img, int64_t us) { return QColor(img.pixel(int(v.xAtTime(double(T + us * kUs))) + 1, band)); };
    auto pinkish = [](const QColor& c) { return c.red() > c.green() + 40 && c.red() > c.blue(); };
    const QImage before = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    EXPECT_FALSE(pinkish(at(before, 1160)));
    EXPECT_FALSE(v.showIdeal());
    v.setFocus();
    QTest::keyClick(&v, Qt::Key_I);
    EXPECT_TRUE(v.showIdeal());
    for (int i = 0; i < 1000 && (v.idealComputing() || !v.idealSchedule()); ++i) QTest::qWait(10);
    ASSERT_NE(v.idealSchedule(), nullptr);
    ASSERT_FALSE(v.idealSchedule()->empty()) << v.idealSchedule()->why;
    const QImage after = v.render(v.size()).convertToFormat(QImage::Format_RGB32);
    EXPECT_TRUE(pinkish(at(after, 1160))) << at(after, 1160).name().toStdString();  // ideal [1113, 1213], nothing captured
    // step 1's AllGather: ideal [112, 212], captured [112, 412]: tinted over the captured bar
    EXPECT_GT(at(after, 150).red(), at(before, 150).red() + 20);
    EXPECT_EQ(at(after, 300), at(before, 300));    // captured only
    EXPECT_EQ(at(after, 1350), at(before, 1350));  // captured only: the late AllGather
    // off again: no ghost
    QTest::keyClick(&v, Qt::Key_I);
    EXPECT_FALSE(pinkish(at(v.render(v.size()).convertToFormat(QImage::Format_RGB32), 1160)));
    // a new session drops the schedule (it is the old session's)
    v.setShowIdeal(false);
    v.setSession(s);
    EXPECT_EQ(v.idealSchedule(), nullptr);
}

// Asked for while the session's what-if is still being computed (the viewer computes it after the
// first picture), the ideal schedule waits for it: the two replays never take their memory at once,
// and the schedule's job reads the what-if only once it is in. Then it is computed as before.
TEST(WhatIfView, TheIdealScheduleWaitsForTheWhatIfThenIsComputed) {
    using namespace whatifhand;
    auto s = std::make_shared<Session>();
    s->profile = handProfile();
    skew::AnalysisOptions o;
    o.whatIf = false;  // as the viewer's first analysis: the what-if pending
    s->analysis = skew::analyze(s->profile, o);
    ASSERT_TRUE(s->analysis.whatIf.pending);
    indexSession(*s);
    TimelineView v;
    v.resize(1200, 520);
    v.setSession(s);
    v.setShowIdeal(true);
    for (int i = 0; i < 30; ++i) QTest::qWait(10);
    EXPECT_TRUE(v.idealComputing());          // said as under way ("computing...")
    EXPECT_EQ(v.idealSchedule(), nullptr);    // but nothing computed while the what-if is pending
    skew::fillWhatIf(s->analysis, skew::computeWhatIf(s->profile, s->analysis));
    ASSERT_FALSE(s->analysis.whatIf.pending);
    v.whatIfLoaded();
    for (int i = 0; i < 1000 && (v.idealComputing() || !v.idealSchedule()); ++i) QTest::qWait(10);
    ASSERT_NE(v.idealSchedule(), nullptr);
    EXPECT_FALSE(v.idealSchedule()->empty()) << v.idealSchedule()->why;
    EXPECT_FALSE(v.idealComputing());
    // a what-if that came in while the view was not waiting starts nothing
    v.whatIfLoaded();
    EXPECT_FALSE(v.idealComputing());
}

// A 16-rank run at 1024x700: as many rank bars as fit at 20 px each, the others counted on the axis;
// exported at 1920x1080 all of them.
TEST(WhatIfView, RankBarsThatFitAndTheRestCounted) {
    skewgen::GenConfig cfg = skewgen::causalConfig();
    cfg.ranks = 16;
    const testutil::Generated& g = testutil::generated("whatif-16-ranks", cfg);
    SessionPtr s = loadSession({g.path}, {}, {});
    WhatIfView v;
    v.resize(1024, 700);
    v.setSession(s);
    v.replot();
    ASSERT_EQ(v.scene().ranks.size(), 16u);
    QCPAxis* y = v.ranksRect()->axis(QCPAxis::atLeft);
    const size_t fit = size_t(v.ranksRect()->rect().height() / 20);
    ASSERT_LT(fit, 16u);
    EXPECT_EQ(v.shownRanks(), fit);
    EXPECT_EQ(y->range().upper, double(fit) - 0.4);
    QCPAxis* x = v.ranksRect()->axis(QCPAxis::atBottom);
    const QString axis = "slowdown when only this rank keeps its captured kernels and launches (x)";
    EXPECT_EQ(x->label(), axis + QString("\n%1 more rank(s) not drawn, each %2x or less")
                                     .arg(16 - fit)
                                     .arg(QString::number(v.scene().ranks[fit - 1].slowdown, 'f', 2)));
    EXPECT_EQ(y->label(), " ");
    v.toPixmap(1920, 1080);  // an export at that size lays the view out for it
    EXPECT_EQ(v.shownRanks(), 16u);
    EXPECT_EQ(x->label(), axis);
}
