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
    static constexpr int kStrip = 20;  // height of a line of the legend strip above the plot

    explicit StepMapLayer(StepMapView* v);
    // the scale and each item's level on it (1: typical, 2..255 the ramp, above the median however
    // little), set once per map: a frame then reads one byte per tick
    void setScale(const skew::SkewScale& scale);
    // the lines the legend above a plot of this width needs (0: none drawn); `font`: the view's
    int legendLines(double width, const QFont& font) const;
    // the legend as last drawn: its rectangle, whether the ticks' key is in it, the ranks named
    QRectF legendRect() const { return legendRect_; }
    bool legendTickKey() const { return legendTickKey_; }
    size_t legendRanks() const { return legendRanks_; }

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
    struct LegendParts {
        QString head, tick, lo, hi;
        std::vector<int> ranks;       // the big events' late ranks, in order
        std::vector<double> rankW;    // each one's width in the legend
        double headW = 0, tickW = 0;  // the head's, the ticks' key's (text, colours and ends)
    };
    LegendParts legendParts(const QFontMetrics& fm) const;

    StepMapView* v_;
    skew::SkewScale scale_;
    std::vector<uint8_t> levels_;
    QRectF legendRect_;
    bool legendTickKey_ = false;
    size_t legendRanks_ = 0;
};

}  // namespace skewui
