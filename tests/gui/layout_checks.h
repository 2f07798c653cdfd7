#pragma once
// Checks of the collective view's layout shared by the layout tests at scale 1 and at Qt scale
// factor 1.5: every label inside the plot and off the bars, bar rectangles taken from QCustomPlot's
// own axes (not from the layout under test).

#include <gtest/gtest.h>

#include <string>

#include "views/collective/collective_view.h"

namespace guitest {

using skewui::Bar;
using skewui::CollectiveScene;
using skewui::CollectiveView;
using skewui::LabelKind;
using skewui::LaneRect;
using skewui::PlacedLabel;
using skewui::SceneLayout;
using skewui::kMainHalf;
using skewui::kSubHalf;
using skewui::kSubY;
using skewui::rowLabelKind;

// a bar's pixel rectangle from the plot's axes (not from the layout under test)
inline QRectF axisBarRect(const CollectiveView& v, const Bar& b) {
    double yc = b.sub ? b.row + kSubY : double(b.row), half = b.sub ? kSubHalf : kMainHalf;
    double a = v.xAxis->coordToPixel(b.x0 / 1e6), e = v.xAxis->coordToPixel(b.x1 / 1e6);
    double t = v.yAxis->coordToPixel(yc - half), u = v.yAxis->coordToPixel(yc + half);
    return QRectF(QPointF(a, std::min(t, u)), QPointF(std::max(e, a + 1), std::max(t, u)));
}

inline const char* kindName(LabelKind k) {
    switch (k) {
    case LabelKind::Late: return "late";
    case LabelKind::Launch: return "launch";
    case LabelKind::Predecessor: return "predecessor";
    case LabelKind::First: return "first";
    case LabelKind::Missing: return "missing";
    default: return "lateness";
    }
}

// Every shown label inside the plot, over no bar, lane, predecessor box, launch marker or other
// label; the late arriver's, the launch's and every rank's label shown.
inline void checkLabels(const CollectiveView& v) {
    const SceneLayout& L = v.sceneLayout();
    const CollectiveScene& sc = v.scene();
    const QRectF plot(v.axisRect()->rect());
    ASSERT_EQ(QRect(L.plot), v.axisRect()->rect());
    std::vector<QRectF> bars;
    for (size_t i = 0; i < sc.bars.size(); ++i) {
        QRectF r = axisBarRect(v, sc.bars[i]);
        // the layout's rectangles are the axes' rectangles (main rows at least 1.5 px wide)
        if (!sc.bars[i].sub) {
            EXPECT_NEAR(L.bars[i].left(), r.left(), 1.0);
            EXPECT_NEAR(L.bars[i].top(), r.top(), 1.0);
            EXPECT_NEAR(L.bars[i].bottom(), r.bottom(), 1.0);
        }
        r = r.intersected(plot);
        if (!r.isEmpty()) bars.push_back(r);
    }
    for (const LaneRect& r : L.lanes) bars.push_back(r.rect);
    for (const QRectF& r : L.predRects) bars.push_back(r);
    if (L.launch.shown) bars.push_back(L.launch.marker.boundingRect());
    for (size_t i = 0; i < L.labels.size(); ++i) {
        const PlacedLabel& l = L.labels[i];
        if (!l.shown) continue;
        SCOPED_TRACE(std::string(kindName(l.kind)) + " label '" + l.text.toStdString() + "' of row " + std::to_string(l.row));
        EXPECT_TRUE(plot.contains(l.rect)) << "label (" << l.rect.left() << "," << l.rect.top() << " " << l.rect.width() << "x"
                                           << l.rect.height() << ") plot (" << plot.left() << "," << plot.top() << " " << plot.width()
                                           << "x" << plot.height() << ")";
        for (const QRectF& b : bars)
            EXPECT_FALSE(l.rect.intersects(b)) << "covers a bar at (" << b.left() << "," << b.top() << " " << b.width() << "x" << b.height() << ")";
        for (size_t j = i + 1; j < L.labels.size(); ++j)
            if (L.labels[j].shown) {
                EXPECT_FALSE(l.rect.intersects(L.labels[j].rect)) << "overlaps '" << L.labels[j].text.toStdString() << "'";
            }
    }
    // what must be shown at the default zoom
    for (size_t r = 0; r < sc.rows.size(); ++r) {
        const PlacedLabel* l = L.label(rowLabelKind(sc, int(r)), int(r));
        ASSERT_TRUE(l) << "row " << r;
        EXPECT_TRUE(l->shown) << "no room for '" << l->text.toStdString() << "' of row " << r;
    }
    // the label naming each predecessor box drawn (the key label of a GPU-caused lateness)
    for (size_t k = 0; k < L.predecessors.size(); ++k) {
        const int row = sc.bars[size_t(L.predecessors[k])].row;
        const PlacedLabel* l = L.label(LabelKind::Predecessor, row);
        ASSERT_TRUE(l) << "no predecessor label for row " << row;
        EXPECT_TRUE(l->shown) << "no room for '" << l->text.toStdString() << "' of row " << row;
    }
    if (sc.launch.present) {
        const PlacedLabel* l = L.label(LabelKind::Launch);
        ASSERT_TRUE(l);
        EXPECT_TRUE(l->shown) << "launch label hidden";
        EXPECT_TRUE(L.launch.shown);
    }
}

}  // namespace guitest
