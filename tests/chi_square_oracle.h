#pragma once
// The chi-square upper tail written from its closed forms (odd and even degrees of freedom): the
// oracle of core's series and continued fraction (analysis/stats), shared by the tests that check
// p-values. It shares no code with core.

#include <cmath>

namespace testutil {

inline double chi2TailClosedForm(double x, int dof) {
    if (dof % 2 == 0) {
        double sum = 0, term = 1;
        for (int i = 0; i < dof / 2; ++i) {
            sum += term;
            term *= x / 2 / (i + 1);
        }
        return std::exp(-x / 2) * sum;
    }
    double sum = 0, term = std::sqrt(x);  // x^(r-1/2) / (1*3*...*(2r-1))
    for (int r = 1; r <= (dof - 1) / 2; ++r) {
        sum += term;
        term *= x / (2 * r + 1);
    }
    return std::erfc(std::sqrt(x / 2)) + 2 * std::exp(-x / 2) / std::sqrt(2 * M_PI) * sum;
}

}  // namespace testutil
