#include "collective_scene.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <cinttypes>
#include <cstdio>

#include "analysis/why.h"
#include "model/lane_index.h"
#include "rank_labels.h"
#include "report/analysis_report.h"
#include "report/info_report.h"

using namespace skew;

namespace skewui {

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
    sc.labelStart = RankLabelElider::of(p).commonStart().toStdString();
    sc.subtitle = whyText(p, a, c);
    if (c.lateSlot >= 0) sc.cause = c.cause;
    for (size_t s = 0; s < g.width(); ++s) {
        const GroupSlot& gl = g.lanes[s];
        const Rank& r = p.ranks[size_t(gl.rank)];
        Row row{gl.rank, r.label, 0, false, int(s) == c.lateSlot, int(s) == c.earlySlot};
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
        double xs = double(m.startNs) - t0, xe = double(m.endNs) - t0, xm = double(c.maxStart) - t0;
        bool late = int(s) == c.lateSlot;
        if (xm > xs) sc.bars.push_back({xs, std::min(xm, xe), rowIdx, false, BarKind::NcclWait, late, false, gl.rank, gl.lane, k});
        sc.bars.push_back({std::min(std::max(xs, xm), xe), xe, rowIdx, false, BarKind::NcclTransfer, late, false, gl.rank, gl.lane, k});
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
                BarKind kind = nccl ? BarKind::OtherNccl : isGemm(kl.name[i]) ? BarKind::Gemm : BarKind::Other;
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

static std::string nsAndDuration(int64_t v) {
    char b[64];
    std::snprintf(b, sizeof b, "%" PRId64 " ns (%s)", v, formatDuration(v).c_str());
    return b;
}

std::string kernelDetails(const Profile& p, const Analysis& a, int ci, int rank, int lane, uint32_t kernel,
                          const std::vector<NvtxIndex>* nvtxIndexes) {
    const Rank& r = p.ranks[size_t(rank)];
    const KernelLane& kl = r.lanes[size_t(lane)];
    const Process& pr = p.processes[size_t(r.process)];
    std::string o;
    auto line = [&](const std::string& k, const std::string& v) { o += k + ": " + v + "\n"; };
    line("Kernel", p.strings.str(kl.name[kernel]));
    line("Rank", r.label + " (pid " + std::to_string(r.pid) + ", device " + std::to_string(r.device) + ")");
    line("Stream", std::to_string(kl.stream));
    line("Start", nsAndDuration(kl.start[kernel]));
    line("End", nsAndDuration(kl.end(kernel)));
    line("Duration", formatDuration(kl.end(kernel) - kl.start[kernel]));
    line("Correlation id", std::to_string(kl.correlationId[kernel]));
    if (auto launch = launchOf(kl, kernel)) {
        auto tn = pr.threadNames.find(launch->tid);
        line("Launch API", p.strings.str(launch->api));
        line("Launch thread", std::to_string(launch->tid) +
                                  (tn != pr.threadNames.end() ? " (" + p.strings.str(tn->second) + ")" : std::string()));
        line("Launch time", nsAndDuration(launch->startNs) + " to " + formatDuration(launch->endNs - launch->startNs) + " later");
        line("Launch to start", formatDuration(kl.start[kernel] - launch->endNs));
        // NVTX ranges enclosing the launch on the launching thread, outermost first
        std::string nvtx;
        std::optional<NvtxIndex> own;
        const NvtxIndex& index = nvtxIndexes ? (*nvtxIndexes)[size_t(r.process)] : own.emplace(pr.nvtx);
        for (uint32_t j : index.enclosing(launch->tid, launch->startNs, launch->endNs))
            nvtx += (nvtx.empty() ? "" : " > ") + p.strings.str(pr.nvtx.text[j]);
        line("NVTX at launch", nvtx.empty() ? "none" : nvtx);
    } else {
        line("Launch", "no CUDA runtime/driver row with this process and correlation id");
    }
    if (ci >= 0 && size_t(ci) < a.collectives.size()) {
        const Collective& c = a.collectives[size_t(ci)];
        if (auto m = memberOfKernel(p, a, c, rank, lane, kernel)) {
            const size_t s = m->slot;
            line("Collective", "group " + std::to_string(c.group) + " #" + std::to_string(c.index) + " " + opName(c.op) +
                                   (c.complete ? "" : " (partial)"));
            line("Lateness", formatDuration(m->latenessNs));
            if (c.step) line("Step", std::to_string(c.step) + ", offset " + formatDuration(c.offsetInStepNs));
            if (int(s) == c.lateSlot) {
                line("Late arriver", std::string("yes, cause ") + causeName(c.cause));
                line("Lateness split", "CPU " + formatDuration(c.cpuNs) + ", GPU " + formatDuration(c.gpuNs));
                if (c.predLane >= 0) {
                    const KernelLane& pl = r.lanes[size_t(c.predLane)];
                    line("Predecessor", p.strings.str(pl.name[c.predKernel]));
                    line("Predecessor stream", std::to_string(pl.stream) + (c.predSameStream ? " (its own stream)" : "") +
                                                   ", gap " + formatDuration(c.predGapNs) + (c.predIsGemm ? ", GEMM" : ""));
                    line("Why", predecessorText(p, c, pl));
                } else {
                    line("Predecessor", "no kernel of this rank ended within " + formatDuration(kPredBeforeNs) + " before the start");
                }
                if (c.waitCount) line("Stream waits", std::to_string(c.waitCount) + " on this stream just before the start");
            } else if (int(s) == c.earlySlot) {
                line("Early arriver", "yes");
            }
        }
    }
    return o;
}

std::string barSummary(const Profile& p, const CollectiveScene& sc, const Bar& b) {
    const Rank& r = p.ranks[size_t(b.rank)];
    const KernelLane& kl = r.lanes[size_t(b.lane)];
    std::string what;
    switch (b.kind) {
    case BarKind::NcclWait: what = b.late ? "late arriver, waiting" : "waiting for the last rank"; break;
    case BarKind::NcclTransfer: what = b.late ? "late arriver" : "transfer (after the last rank arrived)"; break;
    case BarKind::Gemm: what = "GEMM"; break;
    case BarKind::OtherNccl: what = "other NCCL kernel"; break;
    default: what = "kernel"; break;
    }
    if (b.predecessor) what += ", predecessor of the late arriver";
    auto rel = [&](int64_t t) {
        int64_t d = t - sc.t0;
        return (d < 0 ? "-" : "+") + formatDuration(d < 0 ? -d : d);
    };
    int64_t s = kl.start[b.kernel], e = kl.end(b.kernel);
    std::string name = p.strings.str(kl.name[b.kernel]);
    if (name.size() > 160) name = name.substr(0, 157) + "...";  // template names run to kilobytes
    return name + "\n" + r.label + ", stream " + std::to_string(kl.stream) + ": " + what + "\n" +
           rel(s) + " to " + rel(e) + " (" + formatDuration(e - s) + ")";
}

}  // namespace skewui
