#pragma once
// The heatmap's painting: the title elided to its rectangle, and one layerable that draws the cells
// (one scanline per rank copied down its band, lateness on a log colour scale, merged per pixel
// column by core's heatmapCells), step boundaries, big events' outlines, the selection, the cells'
// numbers when wide enough, and the panel beside the plot (colour scale, per-rank figures).

#include <qcustomplot.h>

#include "views/elided_title.h"

#include <cstdint>
#include <vector>

#include "timeline/run_maps.h"

namespace skewui {

class HeatmapView;

// The title: elided at its end to its rectangle, so that the group stays; its rectangle leaves room
// for the group box on the left.
class HeatmapTitle : public ElidedTitle {
public:
    using ElidedTitle::ElidedTitle;
};

class HeatmapLayer : public QCPLayerable {
public:
    static constexpr int kPanelW = 250;  // the panel right of the plot
    explicit HeatmapLayer(HeatmapView* v);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(false); }
    QRect clipRect() const override;
    void draw(QCPPainter* p) override;

private:
    struct Bands {  // each rank's rows in pixels from the plot's top (the y axis is reversed: slot 0 at the top)
        std::vector<int> top, bottom;
    };
    Bands bands(const QRect& area, size_t ranks) const;
    QImage cells(const skew::HeatmapCells& hc, const Bands& b, int width, int height) const;
    void drawStepLines(QCPPainter* p, const QRect& area, double p0, double p1);
    void drawBigEvents(QCPPainter* p, const QRect& area, const skew::HeatmapCells& hc, const Bands& b);
    void drawSelection(QCPPainter* p, const QRect& area);
    void drawNumbers(QCPPainter* p, const QRect& area, const Bands& b, double p0, double p1);
    void drawPanel(QCPPainter* p, const QRect& area, const Bands& b);

    HeatmapView* v_;
};

}  // namespace skewui
