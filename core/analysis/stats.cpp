#include "analysis/stats.h"

#include <algorithm>
#include <cmath>

namespace skew {

double percentile(std::vector<int64_t> v, double q) {
    std::sort(v.begin(), v.end());
    return percentileSorted(v, q);
}

double percentileSorted(const std::vector<int64_t>& v, double q) {
    if (v.empty()) return 0;
    double pos = q / 100.0 * double(v.size() - 1);
    size_t lo = size_t(std::floor(pos));
    size_t hi = std::min(lo + 1, v.size() - 1);
    double frac = pos - double(lo);
    return double(v[lo]) + (double(v[hi]) - double(v[lo])) * frac;
}

double percentileSelect(std::vector<int64_t>& v, double q) {
    if (v.empty()) return 0;
    double pos = q / 100.0 * double(v.size() - 1);
    size_t lo = size_t(std::floor(pos));
    std::nth_element(v.begin(), v.begin() + long(lo), v.end());
    double a = double(v[lo]);
    if (lo + 1 >= v.size()) return a;
    double b = double(*std::min_element(v.begin() + long(lo) + 1, v.end()));  // the next one in order
    return a + (b - a) * (pos - double(lo));
}

int64_t percentileRounded(std::vector<int64_t> v, double q) { return int64_t(std::llround(percentileSelect(v, q))); }

int64_t medianOf(std::vector<int64_t>& v) {
    if (v.empty()) return 0;
    size_t m = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(m), v.end());
    return v[m];
}

int64_t madOf(std::vector<int64_t> v, int64_t med) {
    for (auto& x : v) x = x > med ? x - med : med - x;
    return medianOf(v);
}

double chiSquareUpperTail(double x, double dof) {
    // Q(a, x/2) with a = dof/2: the regularized upper incomplete gamma function, by its series
    // (x < a + 1) or its continued fraction (modified Lentz), as in Numerical Recipes 6.2.
    if (!(dof > 0) || !(x > 0)) return 1.0;
    const double a = dof / 2, y = x / 2;
    const double front = std::exp(-y + a * std::log(y) - std::lgamma(a));
    if (y < a + 1) {
        double ap = a, sum = 1.0 / a, del = sum;
        for (int n = 0; n < 10000; ++n) {
            ap += 1;
            del *= y / ap;
            sum += del;
            if (std::fabs(del) < std::fabs(sum) * 1e-16) break;
        }
        return std::clamp(1.0 - sum * front, 0.0, 1.0);
    }
    const double tiny = 1e-300;
    double b = y + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < 1e-16) break;
    }
    return std::clamp(front * h, 0.0, 1.0);
}

}  // namespace skew
