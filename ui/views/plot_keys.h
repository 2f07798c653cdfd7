#pragma once
// What the QCustomPlot run views (step map, heatmap, What-if) share for zooming: the keys (+ or =
// zooms in, - out, 0 or Home fits) and a zoom about the centre of each axis the plot zooms.

#include <QKeyEvent>
#include <qcustomplot.h>

#include "views/run_view.h"

namespace skewui {

// Scales each axis `plot` zooms by `factor` about the axis's centre (factor < 1 zooms in), then replots.
inline void zoomAboutCentre(QCustomPlot* plot, double factor) {
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
        if (plot->axisRect()->rangeZoom().testFlag(o))
            for (QCPAxis* ax : plot->axisRect()->rangeZoomAxes(o)) ax->scaleRange(factor, ax->range().center());
    plot->replot();
}

// The zoom keys of a run view; false when `e` is not one of them (the view passes it on).
inline bool zoomKey(QKeyEvent* e, RunView& view) {
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: view.zoomBy(0.8); return true;
    case Qt::Key_Minus: view.zoomBy(1.25); return true;
    case Qt::Key_0:
    case Qt::Key_Home: view.fit(); return true;
    default: return false;
    }
}

}  // namespace skewui
