#pragma once
// Text helpers the views share: one way to write a duration, as core's reports write it.

#include <QString>

#include <cmath>
#include <cstdint>

#include "report/format.h"

namespace skewui {

// "12.3 us", "4.56 ms", "850 ns" (core's formatDuration), rounded to the nanosecond.
inline QString dur(double ns) { return QString::fromStdString(skew::formatDuration(int64_t(std::llround(ns)))); }

}  // namespace skewui
