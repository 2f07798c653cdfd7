#pragma once
// Small statistics used across the analysis stages: percentiles as numpy computes them (linear
// interpolation between closest ranks), medians, and the chi-square upper tail.

#include <cstdint>
#include <vector>

namespace skew {

double percentile(std::vector<int64_t> values, double q);           // q in [0, 100]
double percentileSorted(const std::vector<int64_t>& sorted, double q);
double percentileSelect(std::vector<int64_t>& values, double q);   // same result, reorders `values`
int64_t percentileRounded(std::vector<int64_t> values, double q);  // llround(percentile)

// The lower median (element n/2 in order), reordering `v`; 0 when empty.
int64_t medianOf(std::vector<int64_t>& v);
// Median absolute deviation from `med`.
int64_t madOf(std::vector<int64_t> v, int64_t med);

// P(X >= x) for X chi-square distributed with `dof` degrees of freedom (the test's p-value).
double chiSquareUpperTail(double x, double dof);

}  // namespace skew
