#pragma once
// The viewer's one palette: a colour per kernel class (NCCL transfer blue, waiting light blue
// hatched, GEMM green, other NCCL teal, other grey) in every view, late red, the CPU launch purple,
// the predecessor orange; lateness and skew on one log colour scale; one colour per rank; the two
// sides of a comparison.

#include <QColor>
#include <QPainter>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "analysis/kernel_class.h"

namespace skewui::palette {

inline const QColor kTransfer(0x2f, 0x6f, 0xb5);
inline const QColor kWait(0x9c, 0xbf, 0xe3);
inline const QColor kWaitHatch(0x6f, 0x93, 0xba);
inline const QColor kGemm(0x6b, 0x8e, 0x23);
inline const QColor kOtherNccl(0x4f, 0x9e, 0x9c);
inline const QColor kOther(0xb4, 0xb4, 0xb4);
inline const QColor kLate(0xd6, 0x3c, 0x2f);
inline const QColor kLateWait(0xf0, 0xa8, 0x9f);   // the late arriver's own waiting part (collective view)
inline const QColor kLateSmall(0xe0, 0x7b, 0x39);  // a late arriver that is not big (timeline markers)
inline const QColor kLaunchNccl(0x6a, 0x1b, 0x9a); // the launch of an NCCL kernel (the late arriver's, in the collective view)
inline const QColor kLaunch(0xbd, 0xae, 0xcc);
inline const QColor kPredecessor(0xff, 0x8c, 0x00);
inline const QColor kSelect(0xff, 0xb3, 0x00);
inline const QColor kIdeal(0xc2, 0x18, 0x5b);  // the what-if's ideal schedule (the timeline's ghost bars)
inline const QColor kDetailsOutline(0x20, 0x20, 0x20);  // the bar whose details are shown
// the two sides of a comparison: A (before) amber, B (after) blue, in every chart and label
inline const QColor kSideA(0xc7, 0x7c, 0x0e);
inline const QColor kSideB(0x1f, 0x5f, 0xa8);

// The colour of a kernel class (core's KernelClass), the same in every view.
inline QColor classColor(skew::KernelClass c) {
    switch (c) {
    case skew::KernelClass::NcclTransfer: return kTransfer;
    case skew::KernelClass::NcclWait: return kWait;
    case skew::KernelClass::Gemm: return kGemm;
    case skew::KernelClass::OtherNccl: return kOtherNccl;
    default: return kOther;
    }
}

// Sequential colour scale for lateness / skew (light to dark red); t in [0, 1].
inline QColor lateScale(double t) {
    struct Stop {
        double t;
        int r, g, b;
    };
    static const Stop stops[] = {{0.0, 0xfe, 0xf0, 0xd9}, {0.35, 0xfd, 0xcc, 0x8a}, {0.6, 0xfc, 0x8d, 0x59},
                                 {0.8, 0xe3, 0x4a, 0x33}, {1.0, 0x99, 0x00, 0x0d}};
    t = std::clamp(t, 0.0, 1.0);
    for (size_t i = 1; i < std::size(stops); ++i) {
        if (t <= stops[i].t) {
            const Stop &a = stops[i - 1], &b = stops[i];
            double f = (t - a.t) / (b.t - a.t);
            return QColor(int(a.r + f * (b.r - a.r)), int(a.g + f * (b.g - a.g)), int(a.b + f * (b.b - a.b)));
        }
    }
    return QColor(0x99, 0x00, 0x0d);
}

// A start-skew tick of the overview strip and the step map at position t of core's SkewScale:
// grey-blue at or below the run's median (typical), then light to deep orange up to the big
// threshold, stopping short of the big events' red.
inline const QColor kTypicalTick(0xae, 0xb9, 0xc6);
inline QColor skewRampColor(double t) { return lateScale(0.42 + 0.3 * std::clamp(t, 0.0, 1.0)); }
inline QColor skewTickColor(double t) { return t <= 0 ? kTypicalTick : skewRampColor(t); }
// The skew colour key of the overview strip and the step map (each places its end values its own
// way): the typical colour's box, h tall, and the ramp of r's width, one pixel column per step.
inline void paintTypicalKey(QPainter& p, double x, double y, double h) { p.fillRect(QRectF(x, y, 4, h), kTypicalTick); }
inline void paintSkewRamp(QPainter& p, const QRectF& r) {
    for (int i = 0; i < int(r.width()); ++i) p.fillRect(QRectF(r.left() + i, r.top(), 1, r.height()), skewTickColor((i + 1) / r.width()));
}

// Distinct colours for ranks (late rank of a big event in the step map): Tableau 10 without its
// red, which would read as the alert red of late and big events (kLate), and without its grey,
// which would read as the typical ticks; dark indigo and teal in their places.
inline constexpr int kRankColors = 10;
inline QColor rankColor(int i) {
    static const QColor c[kRankColors] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c), QColor(0x39, 0x3b, 0x79),
                                          QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x00, 0x80, 0x80),
                                          QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};
    return c[size_t(std::max(0, i)) % std::size(c)];
}

}  // namespace skewui::palette
