#pragma once
// What the QCustomPlot run views (step map, heatmap, What-if) share for navigating: the keys (+ or =
// and W zoom in, - and S out, A or Left and D or Right pan, 0 or Home fits, as the timeline and
// Nsight Systems), a zoom about the centre of each axis the plot zooms, a pan along the axes it
// drags, and the axes' ranges kept over a reload (F5) of the same files.

#include <QKeyEvent>
#include <qcustomplot.h>

#include "common/deferred_replot.h"
#include "views/run_view.h"

namespace skewui {

// The zoom keys' factors (W, +, = and S, -) in every time view and the View menu: a half, as
// Nsight Systems' W (0.8 felt slow: review defect 15); the wheel keeps 0.8 per notch.
constexpr double kKeyZoomIn = 0.5, kKeyZoomOut = 2.0;

// Scales each axis `plot` zooms by `factor` about the axis's centre (factor < 1 zooms in), then replots.
inline void zoomAboutCentre(QCustomPlot* plot, double factor) {
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
        if (plot->axisRect()->rangeZoom().testFlag(o))
            for (QCPAxis* ax : plot->axisRect()->rangeZoomAxes(o)) ax->scaleRange(factor, ax->range().center());
    plot->replot();
}

// Moves each horizontal axis `plot` drags by `fraction` of its visible size (> 0: later), then replots.
inline void panAlong(QCustomPlot* plot, double fraction) {
    if (plot->axisRect()->rangeDrag().testFlag(Qt::Horizontal))
        for (QCPAxis* ax : plot->axisRect()->rangeDragAxes(Qt::Horizontal)) ax->moveRange(ax->range().size() * fraction);
    plot->replot();
}

// The keys of a run view drawn by `plot`; false when `e` is not one of them (the view passes it on).
inline bool zoomKey(QKeyEvent* e, RunView& view, QCustomPlot* plot) {
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal: view.zoomBy(kKeyZoomIn); return true;
    case Qt::Key_S:
    case Qt::Key_Minus: view.zoomBy(kKeyZoomOut); return true;
    case Qt::Key_A:
    case Qt::Key_Left: panAlong(plot, -0.15); return true;
    case Qt::Key_D:
    case Qt::Key_Right: panAlong(plot, 0.15); return true;
    case Qt::Key_0:
    case Qt::Key_Home: view.fit(); return true;
    default: return false;
    }
}

// The ranges of the plot's main axes (bottom, left), to keep over a reload.
inline RunViewRange plotRange(const QCustomPlot* plot) {
    QCPAxisRect* r = plot->axisRect();
    if (!r) return {};
    const QCPRange x = r->axis(QCPAxis::atBottom)->range(), y = r->axis(QCPAxis::atLeft)->range();
    return RunViewRange{true, x.lower, x.upper, y.lower, y.upper};
}

// Sets the kept ranges again on a plot fitted to the reloaded data, on the axes a user can zoom or
// drag, each only where the kept range still overlaps the fitted one (else the fit stays); replots
// (hidden: when shown).
inline void restorePlotRange(QCustomPlot* plot, const RunViewRange& kept) {
    QCPAxisRect* r = plot->axisRect();
    if (!kept.valid || !r) return;
    auto restore = [](QCPAxis* ax, double lo, double hi) {
        const QCPRange fitted = ax->range();
        if (hi > lo && lo < fitted.upper && hi > fitted.lower) ax->setRange(lo, hi);
    };
    const Qt::Orientations moves = r->rangeZoom() | r->rangeDrag();
    if (moves.testFlag(Qt::Horizontal)) restore(r->axis(QCPAxis::atBottom), kept.x0, kept.x1);
    if (moves.testFlag(Qt::Vertical)) restore(r->axis(QCPAxis::atLeft), kept.y0, kept.y1);
    replotWhenShown(plot);  // a hidden view (a tab not shown) when it is shown
}

}  // namespace skewui
