#include "analysis/grouping.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <unordered_map>

#include "analysis/alignment.h"

namespace skew {

// NCCL-domain NVTX ranges per process and thread, to give generic NCCL kernels their op.
class KernelOps::NvtxOps {
public:
    explicit NvtxOps(const Profile& p) : perProcess_(p.processes.size()) {
        std::vector<CollOp> textOp(p.strings.size(), CollOp::NotNccl);
        std::vector<bool> looked(p.strings.size(), false);  // per text id: its op known
        for (size_t pi = 0; pi < p.processes.size(); ++pi) {
            const NvtxRanges& r = p.processes[pi].nvtx;
            for (size_t i = 0; i < r.size(); ++i) {
                CollOp& op = textOp[r.text[i]];
                if (!looked[r.text[i]]) op = opFromNvtxName(p.strings.str(r.text[i])), looked[r.text[i]] = true;
                if (op == CollOp::NotNccl) continue;
                perProcess_[pi][r.tid[i]].push_back({r.start[i], r.end(i), op});
            }
        }
    }
    CollOp opAt(int process, uint32_t tid, int64_t t0, int64_t t1) const {
        const auto& m = perProcess_[size_t(process)];
        auto it = m.find(tid);
        if (it == m.end()) return CollOp::Unknown;
        const auto& v = it->second;  // sorted by start (NVTX ranges are)
        auto u = std::upper_bound(v.begin(), v.end(), t0, [](int64_t t, const R& r) { return t < r.start; });
        // innermost enclosing range: walk back over a few candidates
        for (int n = 0; u != v.begin() && n < 8; ++n) {
            --u;
            if (u->start <= t0 && u->end >= t1) return u->op;
        }
        return CollOp::Unknown;
    }

private:
    struct R {
        int64_t start, end;
        CollOp op;
    };
    std::vector<std::unordered_map<uint32_t, std::vector<R>>> perProcess_;
};

KernelOps::KernelOps(const Profile& p) : p_(p) {}
KernelOps::~KernelOps() = default;

CollOp KernelOps::operator()(const Rank& r, const KernelLane& l, uint32_t k) const {
    CollOp op = p_.opOfName(l.name[k]);
    if (op != CollOp::Unknown) return op;
    if (!l.hasLaunch(k)) return op;
    if (!nvtx_) nvtx_ = std::make_unique<NvtxOps>(p_);
    return nvtx_->opAt(r.process, l.launchTid[k], l.launchStart(k), l.launchEnd(k));
}

namespace {

constexpr size_t kOps = size_t(CollOp::Count);

struct LaneCand {
    int rank = 0, lane = 0;
    uint32_t total = 0;                // NCCL kernels of the lane, window or not (for grouping)
    std::vector<uint32_t> kernels;     // those in the window
    std::vector<CollOp> ops;
    OpMix mix{};                       // NCCL kernels per op, window or not
    int64_t first = 0, last = 0;
    bool used = false;
};

std::vector<LaneCand> laneCandidates(const Profile& p, const AnalysisOptions& o) {
    KernelOps opOfKernel(p);
    std::vector<LaneCand> cands;
    for (size_t ri = 0; ri < p.ranks.size(); ++ri) {
        const Rank& r = p.ranks[ri];
        for (size_t li = 0; li < r.lanes.size(); ++li) {
            const KernelLane& l = r.lanes[li];
            if (l.ncclKernels == 0) continue;
            LaneCand c;
            c.rank = int(ri);
            c.lane = int(li);
            // Groups are formed from whole lanes, so that a rank whose kernels all fall outside
            // the window still shows up (as missing) instead of silently narrowing the group.
            bool any = false;
            for (uint32_t k = 0; k < l.size(); ++k) {
                if (p.opOfName(l.name[k]) == CollOp::NotNccl) continue;
                CollOp op = opOfKernel(r, l, k);
                c.mix[size_t(op)] += 1;
                ++c.total;
                if (!any) c.first = l.start[k];
                any = true;
                c.last = std::max(c.last, l.end(k));
                if (!o.inWindow(l.start[k])) continue;
                c.kernels.push_back(k);
                c.ops.push_back(op);
            }
            if (c.total > 0) cands.push_back(std::move(c));
        }
    }
    return cands;
}

}  // namespace

double opMixSimilarity(const OpMix& a, const OpMix& b) {
    double diff = 0, total = 0;
    for (size_t k = 0; k < a.size(); ++k) diff += std::abs(a[k] - b[k]), total += a[k] + b[k];
    return total == 0 ? 1.0 : 1.0 - diff / total;
}

void groupLanes(const Profile& p, const AnalysisOptions& o, Analysis& a) {
    std::vector<LaneCand> cands = laneCandidates(p, o);
    std::vector<size_t> order(cands.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return cands[x].total > cands[y].total; });
    for (size_t oi : order) {
        LaneCand& seed = cands[oi];
        if (seed.used) continue;
        seed.used = true;
        const KernelLane& sl = p.ranks[size_t(seed.rank)].lanes[size_t(seed.lane)];
        // the longest unassigned lane seeds a group; each other rank joins with its most similar lane
        std::vector<size_t> members{oi};
        for (size_t ri = 0; ri < p.ranks.size(); ++ri) {
            if (int(ri) == seed.rank) continue;
            size_t best = SIZE_MAX;
            double bestSim = kOpMixAlikeMin;  // at least 80% of the ops agree
            for (size_t ci = 0; ci < cands.size(); ++ci) {
                LaneCand& c = cands[ci];
                if (c.used || c.rank != int(ri)) continue;
                if (c.last < seed.first || c.first > seed.last) continue;  // no time overlap
                double sim = opMixSimilarity(c.mix, seed.mix);
                if (p.ranks[ri].lanes[size_t(c.lane)].stream == sl.stream) sim += 1e-6;  // tie-break only
                if (sim > bestSim) bestSim = sim, best = ci;
            }
            if (best != SIZE_MAX) {
                cands[best].used = true;
                members.push_back(best);
            }
        }
        size_t inWindow = 0;
        for (size_t m : members) inWindow += cands[m].kernels.size();
        if (inWindow == 0) continue;  // the whole group lies outside the window
        if (members.size() < 2) {
            a.unmatched.push_back({seed.rank, seed.lane, uint32_t(seed.kernels.size()),
                                   "no lane of another rank carries the same op sequence (stream " + std::to_string(sl.stream) + ")"});
            continue;
        }
        std::sort(members.begin(), members.end(), [&](size_t x, size_t y) { return cands[x].rank < cands[y].rank; });
        // the reference of the alignment: the (first) member with the most kernels in the window
        size_t refSlot = 0;
        for (size_t s = 1; s < members.size(); ++s)
            if (cands[members[s]].kernels.size() > cands[members[refSlot]].kernels.size()) refSlot = s;
        Group g;
        for (size_t m : members) {
            LaneCand& c = cands[m];
            GroupSlot gl;
            gl.rank = c.rank;
            gl.lane = c.lane;
            gl.kernels = std::move(c.kernels);
            gl.ops = std::move(c.ops);
            g.lanes.push_back(std::move(gl));
        }
        alignGroup(p, g, refSlot);
        a.groups.push_back(std::move(g));
    }
    // groups in the order of their first rank's lane (stable, readable ids)
    std::stable_sort(a.groups.begin(), a.groups.end(), [&](const Group& x, const Group& y) {
        const auto& lx = x.lanes[0];
        const auto& ly = y.lanes[0];
        if (lx.rank != ly.rank) return lx.rank < ly.rank;
        return p.ranks[size_t(lx.rank)].lanes[size_t(lx.lane)].stream < p.ranks[size_t(ly.rank)].lanes[size_t(ly.lane)].stream;
    });
    for (size_t i = 0; i < a.groups.size(); ++i) a.groups[i].id = int(i);
}

}  // namespace skew
