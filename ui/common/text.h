#pragma once
// Text helpers the views share: one way to write a duration, as core's reports write it.

#include <QString>

#include <cmath>
#include <cstdint>

#include "report/format.h"

namespace skewui {

// "12.3 us", "4.56 ms", "850 ns" (core's formatDuration), rounded to the nanosecond.
// Exact for integer durations (a saturated sum stays INT64_MAX instead of going through a double).
inline QString dur(int64_t ns) { return QString::fromStdString(skew::formatDuration(ns)); }
inline QString dur(double ns) { return QString::fromStdString(skew::formatDuration(int64_t(std::llround(ns)))); }

}  // namespace skewui
