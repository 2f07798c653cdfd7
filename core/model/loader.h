#pragma once
// Turns one or several exports into a Profile: one sequential scan per table, sorting in C++.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"

namespace skew {

struct LoadOptions {
    // Called now and then with the phase and the overall fraction done; return false to cancel
    // (loadProfile then throws Cancelled). May be called from the loading thread only.
    std::function<bool(std::string_view phase, double fraction)> progress;
};

// Throws InputError for input that cannot be read, Cancelled when cancelled.
Profile loadProfile(const std::vector<std::string>& paths, const LoadOptions& options = {});

// Label rule of the spec (Ranks) applied to loaded ranks; exposed for tests.
void assignRankLabels(Profile& profile);

std::string fileStem(const std::string& path);

}  // namespace skew
