#pragma once
// The run being written, whatever simulates its timeline: the checked config, the ranks (process,
// device, streams, file, clock shift), one open export per file with its static tables, the rank
// labels and spec order of the truth; the mapping from the model timeline to file and aligned
// times; and the files' completion (ANALYSIS_DETAILS, commit, row counts).

#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "export_db.h"
#include "gen_common.h"
#include "generator.h"
#include "kernel_kinds.h"

namespace skewgen {
namespace detail {

class Run {
public:
    Run(const GenConfig& config, const std::string& outPath) : cfg(config), out(outPath) {}

    [[noreturn]] static void fail(const std::string& msg) { throw std::runtime_error("skewgen: " + msg); }

    // Checks the config (throws std::runtime_error) and notes the missing collectives.
    void validate();
    // Kernel kinds, ranks, files with their static tables, labels and the spec's rank order.
    void setup();
    // ANALYSIS_DETAILS of every file, commit, the row counts; the truth.
    GenResult finish();

    Db& db(const RankInfo& r) { return *dbs[size_t(r.file)]; }
    // Model time (ns since the session start) on the rank's file clock, and on the aligned base.
    static int64_t ft(const RankInfo& r, int64_t model) { return model + kFileBase - r.shift + r.clockErr; }
    static int64_t aligned(int64_t model) { return model + kFileBase; }
    // Whether a kernel starting at model time `modelStart` is kept by the config's trimming.
    bool inWindow(int64_t modelStart) const {
        const int64_t rel = modelStart - kFirstStepModel;
        if (cfg.trimStartNs >= 0 && rel < cfg.trimStartNs) return false;
        if (cfg.trimEndNs >= 0 && rel >= cfg.trimEndNs) return false;
        return true;
    }

    const GenConfig& cfg;
    std::string out;
    std::vector<Kind> kinds;  // compute kinds, then the 4 NCCL kinds from ncclKind0 (Dbs refer to it)
    int ncclKind0 = 0;
    std::vector<RankInfo> ranks;
    std::vector<std::unique_ptr<Db>> dbs;
    std::vector<int64_t> fileShift;
    std::set<std::pair<int, int>> missing;  // (rank, FSDP index)
    GenResult res;
};

}  // namespace detail
}  // namespace skewgen
