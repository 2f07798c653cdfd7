#pragma once
// Turns one or several exports into a Profile: each file from its snapshot (model/snapshot_store.h)
// or read as tasks on every core (model/file_reader.h: tables split into row-id ranges, rows sorted
// in C++), then merged in file order, put on one time base and assembled into ranks.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"

namespace skew {

class SnapshotStore;
class SummaryReader;

struct LoadOptions {
    // Snapshots of files read before (model/snapshot_store.h; the profile cache implements it):
    // files with a valid one are read from it; null: every file is read from its export.
    SnapshotStore* cache = nullptr;
    // Reads summaries (model/summary_source.h): a summary among the paths is read instead of an
    // export, and a folder stands for every summary in it, by name. Null: every path is an export.
    const SummaryReader* summaries = nullptr;
    // Called now and then (about every 30 ms, on the thread that called loadProfile, while files are
    // read on up to one thread per core) with the phase and the overall fraction done; return false
    // to cancel (loadProfile then throws Cancelled).
    std::function<bool(std::string_view phase, double fraction)> progress;
};

// Throws InputError for input that cannot be read, Cancelled when cancelled.
Profile loadProfile(const std::vector<std::string>& paths, const LoadOptions& options = {});

// How many exports a load keeps open at once (their metadata read, or their tables being read):
// what the open-file limit (RLIMIT_NOFILE's soft limit) leaves after the reading tasks'
// connections (`threads` of them) and a reserve, at most kMaxOpenExports; at least 1. More files
// are read one window after the other (docs/analysis.md, Loading).
constexpr size_t kMaxOpenExports = 256;
size_t openFileWindow(size_t threads);

// Label rule of the spec (Ranks) applied to loaded ranks; exposed for tests.
void assignRankLabels(Profile& profile);

// The "no kernels on device(s) ..." warning for the device ids of one file's ranks (empty when none
// is missing); its length is bounded by the number of ranks, whatever the ids.
std::string describeMissingDevices(const std::vector<int>& devices);

}  // namespace skew
