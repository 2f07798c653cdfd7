// The What-if view (ui/views/whatif/): per step the captured and the scenarios' step times as bars
// at the heights of core's WhatIfScene, the ranks by what each alone costs, the selected
// collective's step highlighted, and why when there is nothing to draw.

#include <QImage>

#include <gtest/gtest.h>

#include <cmath>

#include "common/palette.h"
#include "gui_util.h"
#include "session.h"
#include "views/whatif/whatif_view.h"

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
        if (r) EXPECT_GE(sc.ranks[r - 1].slowdown, sc.ranks[r].slowdown);
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
