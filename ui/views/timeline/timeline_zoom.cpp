#include "views/timeline/timeline_zoom.h"

#include <algorithm>

namespace skewui {

void TimelineZoom::setRun(double start, double end) {
    run0_ = start;
    run1_ = end;
    fit();
}

bool TimelineZoom::setRange(double t0, double t1) {
    if (!(t1 > t0)) return false;
    double span = std::clamp(t1 - t0, kMinSpanNs, spanLimit());
    double mid = (t0 + t1) / 2;
    // keep the view on the run: at most half a view past either end
    const double lo = run0_ - span / 2, hi = run1_ + span / 2;
    if (span >= hi - lo) mid = (run0_ + run1_) / 2;
    else mid = std::clamp(mid, lo + span / 2, hi - span / 2);
    t0 = mid - span / 2;
    t1 = mid + span / 2;
    if (t0 == t0_ && t1 == t1_) return false;
    t0_ = t0;
    t1_ = t1;
    return true;
}

void TimelineZoom::fit() {
    t0_ = run0_;
    t1_ = std::max(run0_ + kMinSpanNs, run1_);
}

bool TimelineZoom::zoomAt(double factor, double t) {
    double span = std::clamp((t1_ - t0_) * factor, kMinSpanNs, spanLimit());
    double f = (t - t0_) / (t1_ - t0_);
    return setRange(t - f * span, t - f * span + span);
}

bool TimelineZoom::panBy(double fraction) {
    double d = (t1_ - t0_) * fraction;
    return setRange(t0_ + d, t1_ + d);
}

bool TimelineZoom::fitCollective(const skew::Collective& c) {
    double span = std::max<double>(double(c.maxEnd - c.minStart), 1000);
    return setRange(double(c.minStart) - span * 0.25, double(c.maxEnd) + span * 0.25);
}

bool TimelineZoom::bringIntoView(const skew::Collective& col) {
    if (!(double(col.maxEnd) < t0_ || double(col.minStart) > t1_ || double(col.maxEnd - col.minStart) > t1_ - t0_)) return false;
    double span = std::max(t1_ - t0_, double(col.maxEnd - col.minStart) * 1.5);
    double mid = (double(col.minStart) + double(col.maxEnd)) / 2;
    return setRange(mid - span / 2, mid + span / 2);
}

void TimelineZoom::setMeasure(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) {
        measureA_ = measureB_ = NAN;
    } else {
        measureA_ = std::min(a, b);
        measureB_ = std::max(a, b);
    }
}

}  // namespace skewui
