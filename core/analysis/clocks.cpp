#include "analysis/clocks.h"

#include <cstdlib>

#include "model/lane_index.h"

namespace skew {
namespace {

// Per file: its members' ends minus the median end of each complete collective.
std::vector<std::vector<int64_t>> endResiduals(const Profile& p, const Analysis& a) {
    std::vector<std::vector<int64_t>> perFile(p.inputs.size());
    for (const Group& g : a.groups) {
        const size_t n = g.width();
        std::vector<int64_t> ends(n), sorted;
        for (uint32_t c = 0; c < g.count; ++c) {
            bool complete = true;
            for (size_t s = 0; s < n && complete; ++s) {
                uint32_t k = g.cells[size_t(c) * n + s];
                complete = k != kMissing;
                if (complete) ends[s] = p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)].end(k);
            }
            if (!complete) continue;
            sorted = ends;
            int64_t med = medianOf(sorted);
            for (size_t s = 0; s < n; ++s) perFile[size_t(p.ranks[size_t(g.lanes[s].rank)].file)].push_back(ends[s] - med);
        }
    }
    return perFile;
}

}  // namespace

bool refineClocks(Profile& p, Analysis& a, const AnalysisOptions& o) {
    auto perFile = endResiduals(p, a);
    std::vector<int64_t> fileOffset(p.inputs.size(), 0);
    std::vector<bool> has(p.inputs.size(), false);
    for (size_t f = 0; f < perFile.size(); ++f) {
        if (perFile[f].empty()) continue;
        fileOffset[f] = -medianOf(perFile[f]);
        has[f] = true;
    }
    // the first rank's file keeps its clock
    int refFile = p.ranks.empty() ? 0 : p.ranks[0].file;
    int64_t base = has[size_t(refFile)] ? fileOffset[size_t(refFile)] : 0;
    bool applied = false;
    for (size_t f = 0; f < fileOffset.size(); ++f) {
        if (!has[f]) continue;
        int64_t off = fileOffset[f] - base;
        for (auto& r : p.ranks)
            if (r.file == int(f)) a.clocks[size_t(r.id)].estimateNs = off;
        if (std::llabs(off) < o.clockOffsetMinNs) continue;
        shiftFile(p, int(f), off);
        applied = true;
    }
    if (applied)
        for (const auto& r : p.ranks)
            if (r.clockOffsetNs != 0)
                a.warnings.push_back("clock of " + r.label + " shifted by " + std::to_string(r.clockOffsetNs) +
                                     " ns so that collective ends line up (per-file host clock offset)");
    return applied;
}

void measureClockResiduals(const Profile& p, Analysis& a) {
    for (size_t r = 0; r < p.ranks.size(); ++r) a.clocks[r].offsetNs = p.ranks[r].clockOffsetNs;
    if (p.inputs.size() < 2) return;
    auto perFile = endResiduals(p, a);
    for (size_t f = 0; f < perFile.size(); ++f) {
        if (perFile[f].empty()) continue;
        for (auto& d : perFile[f]) d = std::llabs(d);
        int64_t p90 = percentileRounded(std::move(perFile[f]), 90);
        for (const auto& r : p.ranks)
            if (r.file == int(f)) a.clocks[size_t(r.id)].residualP90Ns = p90;
    }
}

void shiftFile(Profile& p, int file, int64_t off) {
    for (auto& r : p.ranks) {
        if (r.file != file) continue;
        r.clockOffsetNs += off;
        for (auto& l : r.lanes) shiftTimes(l, off);
    }
    for (auto& pr : p.processes)
        if (pr.file == file) shiftTimes(pr, off);
    p.inputs[size_t(file)].alignNs += off;
}

}  // namespace skew
