#include "scene/collective_scene.h"

#include <algorithm>
#include <tuple>

#include "model/lane_index.h"
#include "report/analysis_report.h"
#include "report/format.h"
#include "scene/rank_labels.h"

namespace skew {

int CollectiveScene::hitTest(double x, int row, bool sub, double slackNs) const {
    // bars are sorted by (sub, row, x0): find the row's range, then the bars around x
    auto key = [](const Bar& b) { return std::make_tuple(b.sub, b.row, b.x0); };
    auto lo = std::lower_bound(bars.begin(), bars.end(), std::make_tuple(sub, row, -1e300),
                               [&](const Bar& b, const std::tuple<bool, int, double>& k) { return key(b) < k; });
    auto hi = std::upper_bound(bars.begin(), bars.end(), std::make_tuple(sub, row, 1e300),
                               [&](const std::tuple<bool, int, double>& k, const Bar& b) { return k < key(b); });
    // bars of one row may overlap (kernels of several streams share the thin lane), so look at the
    // ones starting up to x + slack and keep the closest
    auto end = std::upper_bound(lo, hi, x + slackNs, [](double v, const Bar& b) { return v < b.x0; });
    int best = -1;
    double bestDist = 1e300;
    for (auto it = end; it != lo;) {
        --it;
        double d = x < it->x0 ? it->x0 - x : x > it->x1 ? x - it->x1 : 0;
        if (d <= slackNs && d < bestDist) {
            bestDist = d;
            best = int(it - bars.begin());
            if (d == 0 && !sub) break;
        }
    }
    return best;
}

CollectiveScene buildScene(const Profile& p, const Analysis& a, int ci) {
    CollectiveScene sc;
    if (ci < 0 || size_t(ci) >= a.collectives.size()) return sc;
    sc.collective = ci;
    const Collective& c = a.collectives[size_t(ci)];
    const Group& g = a.groups[size_t(c.group)];
    sc.t0 = c.minStart;
    const double t0 = double(c.minStart);
    double lo = 0, hi = double(c.maxEnd - c.minStart);
    sc.title = collectiveTitle(p, a, c);
    sc.labelStart = commonLabelStart(rankLabels(p));
    sc.subtitle = whyText(p, a, c);
    if (c.lateSlot >= 0) sc.cause = c.cause;
    for (size_t s = 0; s < g.width(); ++s) {
        const GroupSlot& gl = g.lanes[s];
        const Rank& r = p.ranks[size_t(gl.rank)];
        SceneRow row{gl.rank, r.label, 0, false, int(s) == c.lateSlot, int(s) == c.earlySlot};
        uint32_t k = a.slotKernel(c, s);
        int rowIdx = int(sc.rows.size());
        if (k == kMissing) {
            row.missing = true;
            sc.rows.push_back(row);
            continue;
        }
        const Member m = *member(p, a, c, s);
        row.latenessNs = m.latenessNs;
        sc.rows.push_back(row);
        // waiting up to the latest start, transfer after it (a zero-length member that started
        // before the latest start keeps its empty waiting part)
        const double xs = double(m.startNs) - t0, xe = double(m.endNs) - t0;
        const double xw = double(m.startNs + memberWaitNs(c, m.startNs, m.endNs)) - t0;
        const bool late = int(s) == c.lateSlot;
        if (c.maxStart > m.startNs) sc.bars.push_back({xs, xw, rowIdx, false, KernelClass::NcclWait, late, false, gl.rank, gl.lane, k});
        sc.bars.push_back({xw, xe, rowIdx, false, KernelClass::NcclTransfer, late, false, gl.rank, gl.lane, k});
    }
    // the late arriver's CPU launch
    if (auto launch = lateLaunch(p, a, c)) {
        const GroupSlot& gl = g.lanes[size_t(c.lateSlot)];
        uint32_t k = a.slotKernel(c, size_t(c.lateSlot));
        sc.launch.present = true;
        sc.launch.row = c.lateSlot;
        sc.launch.apiStart = double(launch->startNs) - t0;
        sc.launch.apiEnd = double(launch->endNs) - t0;
        sc.launch.kernelStart = double(p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].start[k]) - t0;
        sc.launch.label = p.strings.str(launch->api) + ": launch to start " + formatDuration(c.launchToStartNs);
    }
    double span = std::max(hi - lo, 1000.0);
    sc.fitX0 = lo - span * 0.08;
    sc.fitX1 = hi + span * 0.22;  // room for the lateness labels right of the aligned ends
    sc.endX = hi;
    // Context: the other streams' kernels around the collective (3 spans each side).
    GemmNames isGemm(p.strings);
    const double ctx0 = lo - 3 * span, ctx1 = hi + 3 * span;
    for (size_t s = 0; s < g.width(); ++s) {
        const GroupSlot& gl = g.lanes[s];
        const Rank& r = p.ranks[size_t(gl.rank)];
        for (size_t li = 0; li < r.lanes.size(); ++li) {
            const KernelLane& kl = r.lanes[li];
            // the kernels overlapping the context (kernels of one stream can overlap: the lane index)
            forEachOverlapping(kl, c.minStart + int64_t(ctx0), c.minStart + int64_t(ctx1) + 1, [&](size_t i) {
                if (int(li) == gl.lane && a.slotKernel(c, s) == i) return;  // the member itself is on the main row
                bool nccl = p.opOfName(kl.name[i]) != CollOp::NotNccl;
                bool pred = int(s) == c.lateSlot && c.predLane == int(li) && c.predKernel == i;
                KernelClass kind = nccl ? KernelClass::OtherNccl : isGemm(kl.name[i]) ? KernelClass::Gemm : KernelClass::Other;
                sc.bars.push_back({double(kl.start[i]) - t0, double(kl.end(i)) - t0, int(s), true, kind, false, pred, gl.rank, int(li),
                                   uint32_t(i)});
            });
        }
    }
    std::stable_sort(sc.bars.begin(), sc.bars.end(), [](const Bar& x, const Bar& y) {
        if (x.sub != y.sub) return !x.sub;
        if (x.row != y.row) return x.row < y.row;
        return x.x0 < y.x0;
    });
    return sc;
}

}  // namespace skew
