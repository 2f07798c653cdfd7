#include "analysis/group_stats.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "model/lane_index.h"
#include "util/parallel.h"
#include "util/saturating.h"

namespace skew {

bool endsCluster(const Group& g) {
    return g.complete > 0 && (g.endSkew.p50 <= 100'000 || g.endSkew.p50 * 2 <= g.startSkew.p50);
}

void ncclTime(const Profile& p, const Rank& r, const KernelLane& lane, const std::vector<uint32_t>& kernels,
              const AnalysisOptions& o, int64_t& kernelNs, int64_t& onlyNs) {
    // lanes that hold non-NCCL kernels, each with where its last search ended: the kernels come in
    // start order, so each lane's search goes on from there
    std::vector<std::pair<const KernelLane*, size_t>> others;
    for (const KernelLane& l : r.lanes)
        if (l.ncclKernels < l.size()) others.emplace_back(&l, 0);
    std::vector<std::pair<int64_t, int64_t>> cover;
    for (uint32_t k : kernels) {
        const int64_t a = lane.start[k], b = lane.end(k);
        kernelNs = satAdd(kernelNs, b - a);
        cover.clear();
        for (auto& [other, hint] : others) {
            forEachOverlapping(
                *other, a, b,
                [&](size_t i) {
                    if (other->ncclKernels && p.opOfName(other->name[i]) != CollOp::NotNccl) return;
                    if (!o.inWindow(other->start[i])) return;
                    cover.emplace_back(std::max(a, other->start[i]), std::min(b, other->end(i)));
                },
                &hint);
        }
        // the union of the covering intervals
        int64_t covered = 0;
        if (!cover.empty()) {
            std::sort(cover.begin(), cover.end());
            int64_t curA = cover[0].first, curB = cover[0].second;
            for (size_t i = 1; i < cover.size(); ++i) {
                if (cover[i].first > curB) {
                    covered += curB - curA;
                    curA = cover[i].first;
                    curB = cover[i].second;
                } else {
                    curB = std::max(curB, cover[i].second);
                }
            }
            covered += curB - curA;
        }
        onlyNs = satAdd(onlyNs, (b - a) - covered);
    }
}

void groupStatistics(const Profile& p, Analysis& a, const AnalysisOptions& o, const std::vector<GroupSums>& sums) {
    // each member lane's NCCL-only time, on every core (the dearest part: an overlap sweep per kernel)
    std::vector<std::pair<size_t, size_t>> slots;  // (group, slot)
    for (size_t gi = 0; gi < a.groups.size(); ++gi)
        for (size_t s = 0; s < a.groups[gi].width(); ++s) slots.emplace_back(gi, s);
    std::vector<std::pair<int64_t, int64_t>> times(slots.size(), {0, 0});  // kernel ns, NCCL-only ns
    parallelFor(slots.size(), o.threads, [&](size_t i) {
        const GroupSlot& gl = a.groups[slots[i].first].lanes[slots[i].second];
        const Rank& r = p.ranks[size_t(gl.rank)];
        ncclTime(p, r, r.lanes[size_t(gl.lane)], gl.kernels, o, times[i].first, times[i].second);
    });
    size_t slot = 0;
    for (Group& g : a.groups) {
        const size_t n = g.width();
        std::vector<int64_t> ss, es;
        ss.reserve(g.complete);
        es.reserve(g.complete);
        g.perRank.assign(n, {});
        uint32_t notBig = 0;
        for (uint32_t c = 0; c < g.count; ++c) {
            const Collective& col = a.collectives[g.firstCollective + c];
            if (!col.complete) continue;
            ss.push_back(col.startSkew());
            es.push_back(col.endSkew());
            if (col.big) ++g.cost.bigCount, g.cost.bigExcessNs = satAdd(g.cost.bigExcessNs, col.excessNs);
            else ++g.cost.restCount, g.cost.restExcessNs = satAdd(g.cost.restExcessNs, col.excessNs), ++notBig;
            ++g.perRank[size_t(col.lateSlot)].lastCount;
            ++g.perRank[size_t(col.earlySlot)].firstCount;
        }
        g.cost.excessNs = g.cost.totalNs - g.cost.baselineNs;
        g.cost.share = g.cost.totalNs > 0 ? double(g.cost.excessNs) / double(g.cost.totalNs) : 0.0;
        auto pct = [](std::vector<int64_t>& v) {
            Percentiles q;
            if (v.empty()) return q;
            q.max = *std::max_element(v.begin(), v.end());
            q.p50 = int64_t(std::llround(percentileSelect(v, 50)));  // selection, no full sort
            q.p90 = int64_t(std::llround(percentileSelect(v, 90)));
            return q;
        };
        g.startSkew = pct(ss);
        g.endSkew = pct(es);
        const GroupSums& gs = sums[size_t(g.id)];
        for (size_t s = 0; s < n; ++s) {
            RankStats& rs = g.perRank[s];
            const GroupSlot& gl = g.lanes[s];
            rs.rank = gl.rank;
            rs.meanLatenessNs = g.complete ? int64_t(std::llround(double(gs.latenessSum[s]) / double(g.complete))) : 0;
            rs.meanLatenessExclBigNs = notBig ? int64_t(std::llround(double(gs.latenessSumNotBig[s]) / double(notBig))) : 0;
            std::tie(rs.ncclKernelNs, rs.ncclOnlyNs) = times[slot++];
        }
        if (g.complete > 0 && !endsCluster(g)) {
            g.validation.messages.push_back("end times do not cluster (end skew p50 " + std::to_string(g.endSkew.p50) +
                                            " ns vs start skew p50 " + std::to_string(g.startSkew.p50) +
                                            " ns): matching may pair the wrong kernels");
            if (g.validation.status == ValidationStatus::Ok) g.validation.status = ValidationStatus::Warn;
        }
    }
}

}  // namespace skew
