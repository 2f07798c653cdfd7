#pragma once
// The timeline's zoom and scroll state without a widget (as Qt Creator's TimelineZoomControl): the
// run's extent, the visible range kept on it, and the measured range. Every navigation of the view
// (wheel, drag, keys, the ruler, the overview strip, --range) ends in setRange, which keeps the span
// between 50 ns and 1.25 runs and the view at most half a view past either end of the run.

#include <cmath>

#include "analysis/analysis.h"

namespace skewui {

class TimelineZoom {
public:
    static constexpr double kMinSpanNs = 50;

    // The run [start, end), ns; the view fits it.
    void setRun(double start, double end);
    double runStart() const { return run0_; }
    double runEnd() const { return run1_; }

    double start() const { return t0_; }  // the visible range, ns
    double end() const { return t1_; }

    // false when the range did not change (an empty range is ignored)
    bool setRange(double t0, double t1);
    void fit();                                    // the whole run
    bool zoomAt(double factor, double t);          // factor < 1 zooms in; the time t stays where it is
    bool panBy(double fraction);                   // of the visible span
    bool fitCollective(const skew::Collective& c); // the collective and a quarter of its span each side
    // a selected collective off the view (or wider than it) brought to the middle, keeping the zoom
    // when it fits
    bool bringIntoView(const skew::Collective& c);

    // the measured range (NaN: none), ordered
    void setMeasure(double a, double b);
    bool hasMeasure() const { return !std::isnan(measureA_); }
    double measureStart() const { return measureA_; }
    double measureEnd() const { return measureB_; }

private:
    double spanLimit() const { return std::max(1e6, (run1_ - run0_) * 1.25); }

    double run0_ = 0, run1_ = 1;
    double t0_ = 0, t1_ = 1;
    double measureA_ = NAN, measureB_ = NAN;
};

}  // namespace skewui
