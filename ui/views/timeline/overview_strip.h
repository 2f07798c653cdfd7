#pragma once
// The overview strip above the timeline: the whole run at once, every collective a tick coloured
// (and sized) by its start skew on a log scale, merged per pixel column by maximum so a big event
// never disappears, step boundaries, and the timeline's visible range as a handle. Painted by the
// timeline view into a band of its own frame (so exports carry it); the view routes the mouse here.

#include <QImage>
#include <QRect>
#include <QString>

#include <vector>

#include "session.h"
#include "timeline/run_maps.h"

class QPainter;

namespace skewui {

class OverviewStrip {
public:
    void setSession(SessionPtr s);
    // the whole run: [start, end) ns
    double start() const { return t0_; }
    double end() const { return t1_; }

    void paint(QPainter& p, const QRect& r, double visible0, double visible1, int selected) const;
    double timeAt(const QRect& r, double x) const;
    double xOf(const QRect& r, double t) const;
    // the handle of the visible range (at least 6 px wide, so it can be grabbed when zoomed far in)
    QRectF handle(const QRect& r, double visible0, double visible1) const;
    QString tooltip(const QRect& r, double x) const;
    // the colour key of the ticks, in a band of `r`'s size (the timeline draws it left of the strip)
    void paintKey(QPainter& p, const QRectF& r, const QFont& font) const;
    // the key's width with its end values and a ramp `rampW` px wide; whether a band `r` shows the values
    static constexpr double kRampW = 32, kMinRampW = 12;
    int keyWidth(const QFont& font, double rampW = kRampW) const;
    int keyWidthStacked(const QFont& font) const;  // the values under the ramp instead of beside it
    bool keyShowsValues(const QRectF& r, const QFont& font) const;
    QString keyTooltip() const;

private:
    skew::PixelMap map(const QRect& r) const;
    void ensureColumns(const QRect& r) const;
    void paintBase(QPainter& p, const QRect& r, const QFont& font) const;

    SessionPtr s_;
    double t0_ = 0, t1_ = 1;
    skew::SkewScale scale_;
    std::vector<int64_t> steps_;
    mutable int cachedWidth_ = -1;
    mutable skew::OverviewColumns cols_;
    mutable QImage base_;  // the run's ticks and steps at the last size
};

}  // namespace skewui
