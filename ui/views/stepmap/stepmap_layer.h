#pragma once
// The step map's painting: one layerable draws every collective's tick (merged per pixel by the
// largest start skew: one byte per tick per frame), the big events' markers coloured by late rank
// and sized by lateness with their labels, the selected collective's ring and the legend; without
// steps, the longest of core's texts that says why and fits above the settings button.

#include <qcustomplot.h>

#include <cstdint>
#include <vector>

#include "timeline/run_maps.h"

namespace skewui {

class StepMapView;

class StepMapLayer : public QCPLayerable {
public:
    static constexpr int kStrip = 20;  // height of the legend strip above a compare side's plot

    explicit StepMapLayer(StepMapView* v);
    // the scale and each item's level on it (1: typical, 2..255 the ramp, above the median however
    // little), set once per map: a frame then reads one byte per tick
    void setScale(const skew::SkewScale& scale);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(false); }
    QRect clipRect() const override;
    void draw(QCPPainter* p) override;

private:
    void drawWhyEmpty(QCPPainter* p, const QRect& area);
    void drawTicks(QCPPainter* p, const QRect& area);
    void drawBigEvents(QCPPainter* p, const QRect& area);
    void drawSelection(QCPPainter* p);
    void drawLegend(QCPPainter* p, const QRect& area);

    StepMapView* v_;
    skew::SkewScale scale_;
    std::vector<uint8_t> levels_;
};

}  // namespace skewui
