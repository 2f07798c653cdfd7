#include "analysis/anomalies.h"

#include <array>

namespace skew {

void findAnomalies(const Profile& p, Analysis& a, const AnalysisOptions& o) {
    constexpr size_t kOps = size_t(CollOp::Count);
    Anomalies& an = a.anomalies;
    an.threshold = o.anomalyThreshold;
    std::array<double, kOps> sum{}, cnt{};
    for (const Group& g : a.groups)
        for (const GroupSlot& gl : g.lanes) {
            const KernelLane& kl = p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)];
            for (size_t i = 0; i < gl.kernels.size(); ++i) {
                sum[size_t(gl.ops[i])] += double(kl.end(gl.kernels[i]) - kl.start[gl.kernels[i]]);
                cnt[size_t(gl.ops[i])] += 1;
            }
        }
    for (const Group& g : a.groups) {
        const size_t n = g.width();
        for (uint32_t c = 0; c < g.count; ++c) {
            const uint32_t ci = g.firstCollective + c;
            const Collective& col = a.collectives[ci];
            double mean = cnt[size_t(col.op)] > 0 ? sum[size_t(col.op)] / cnt[size_t(col.op)] : 0;
            AnomalyItem item{g.id, ci, {}};
            for (size_t s = 0; s < n; ++s) {
                uint32_t k = g.cells[size_t(c) * n + s];
                if (k == kMissing) continue;
                const KernelLane& kl = p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)];
                int64_t d = kl.end(k) - kl.start[k];
                if (double(d) > o.anomalyThreshold * mean) item.rows.emplace_back(g.lanes[s].rank, d);
            }
            if (item.rows.empty()) continue;
            an.rows += item.rows.size();
            ++an.events;
            an.items.push_back(std::move(item));
        }
    }
    if (o.anomalyLimit >= 0) {
        // keep whole events while the listed rows fit the limit
        uint64_t listed = 0;
        size_t keep = 0;
        for (; keep < an.items.size(); ++keep) {
            if (listed + an.items[keep].rows.size() > uint64_t(o.anomalyLimit)) break;
            listed += an.items[keep].rows.size();
        }
        an.items.resize(keep);
    }
}

}  // namespace skew
