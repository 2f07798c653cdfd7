#pragma once
// The collective view's CPU row (core's scene/cpu_activity.h): under the last rank, what the late
// arriver's launching thread did between the first other rank's launch and its own, in four bands:
// NVTX ranges, CUDA API calls, OS runtime calls, CPU samples (ticks). The window is shaded; while
// the export is read, or when it cannot be, the row says so. Laid out in pixels here (tests check
// the rectangles), painted by the view's bar layer.

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

#include "scene/cpu_activity.h"
#include "views/collective/collective_layout.h"

namespace skewui {

QColor cpuKindColor(skew::CpuKind k);

struct CpuRowItem {
    QRectF rect;
    skew::CpuKind kind = skew::CpuKind::CudaApi;
    QString name;
    int64_t ns = 0;
};

struct CpuRowLayout {
    bool shown = false;
    QRectF band;          // the row's full width, its height
    QRectF window;        // the window, clipped to the plot
    std::vector<CpuRowItem> items;  // on screen, in the activity's order (spans by kind, then samples)
    QString status;       // "reading thread 4242's calls from ...", or a note; empty when items are drawn
    bool drawn[4] = {false, false, false, false};  // per CpuKind: something of it is on screen
};

// `activity` null: the export is being read. `row`: the row index the CPU row takes.
CpuRowLayout layoutCpuRow(const skew::CpuWindow& w, const skew::CpuActivity* activity, int64_t t0, const AxisMapping& m, double row);
void paintCpuRow(QPainter* p, const CpuRowLayout& L, const QFont& font);
// the hover text of the item under `pos`, empty when none
QString cpuRowToolTip(const CpuRowLayout& L, const QPointF& pos);

}  // namespace skewui
