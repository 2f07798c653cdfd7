#include "analysis/alignment.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "util/saturating.h"

namespace skew {
namespace {

const KernelLane& laneOf(const Profile& p, const Group& g, size_t s) {
    return p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)];
}

struct Position {
    CollOp op;
    int64_t end;  // on the reference's clock
};

}  // namespace

// Estimates how a lane lines up with the reference: the kernel shift at which ops agree and end
// differences are most consistent, and the end offset at that shift.
ShiftEstimate estimateShift(const Profile& p, const GroupSlot& ref, const GroupSlot& lane) {
    const KernelLane& kr = p.ranks[size_t(ref.rank)].lanes[size_t(ref.lane)];
    const KernelLane& kl = p.ranks[size_t(lane.rank)].lanes[size_t(lane.lane)];
    const long n = long(lane.kernels.size()), m = long(ref.kernels.size());
    const long maxShift = std::min<long>(12, std::max(n, m));
    const long sample = std::min<long>(n, 1024);
    // Anchor: the reference kernel whose end is nearest the lane's first end (clocks are aligned
    // to within a few ms), so a capture that starts many collectives later still lines up.
    long anchor = 0;
    if (n > 0 && m > 0) {
        int64_t e0 = kl.end(lane.kernels[0]);
        auto it = std::lower_bound(ref.kernels.begin(), ref.kernels.end(), e0,
                                   [&](uint32_t k, int64_t e) { return kr.end(k) < e; });
        long j = long(it - ref.kernels.begin());
        if (j > 0 && (j == m || e0 - kr.end(ref.kernels[size_t(j - 1)]) < kr.end(ref.kernels[size_t(j)]) - e0)) --j;
        anchor = j;
    }
    struct Cand {
        int64_t offset, mad;
    };
    std::vector<Cand> cands;
    std::vector<int64_t> diffs;
    for (long s = anchor - maxShift; s <= anchor + maxShift; ++s) {
        diffs.clear();
        long overlap = 0;
        for (long i = 0; i < sample; ++i) {
            long j = i + s;
            if (j < 0 || j >= m) continue;
            ++overlap;
            if (lane.ops[size_t(i)] != ref.ops[size_t(j)]) continue;
            diffs.push_back(kr.end(ref.kernels[size_t(j)]) - kl.end(lane.kernels[size_t(i)]));
        }
        // most of both lanes must line up: a shift that overlaps one or two kernels proves nothing
        if (overlap * 10 < std::min(sample, m) * 6 || long(diffs.size()) * 10 < overlap * 9 || diffs.empty()) continue;
        int64_t med = medianOf(diffs);
        cands.push_back({med, madOf(diffs, med)});
    }
    ShiftEstimate est;
    if (cands.empty()) return est;
    int64_t bestMad = cands[0].mad;
    for (const auto& c : cands) bestMad = std::min(bestMad, c.mad);
    // Evenly spaced collectives make several shifts look alike: prefer the smallest clock offset.
    const Cand* best = nullptr;
    for (const auto& c : cands)
        if (c.mad <= bestMad * 3 / 2 + 5'000 && (!best || std::llabs(c.offset) < std::llabs(best->offset))) best = &c;
    est.ok = true;
    est.offset = best->offset;
    est.mad = best->mad;
    return est;
}

void alignGroup(const Profile& p, Group& g, size_t refSlot) {
    const size_t n = g.width();
    // The reference (the most kernels in the window) defines the clock the merge runs on.
    const GroupSlot& ref = g.lanes[refSlot];
    const KernelLane& refLane = laneOf(p, g, refSlot);
    std::vector<int64_t> spacing;
    for (size_t i = 1; i < ref.kernels.size(); ++i) spacing.push_back(refLane.end(ref.kernels[i]) - refLane.end(ref.kernels[i - 1]));
    int64_t medSpacing = spacing.empty() ? 1'000'000'000 : medianOf(spacing);

    std::vector<Position> pos;
    std::vector<std::vector<uint32_t>> posOf(n);  // per slot: position id of each kernel
    std::vector<uint32_t> orderIds;               // position ids in end order
    std::vector<size_t> slotOrder{refSlot};
    for (size_t s = 0; s < n; ++s)
        if (s != refSlot) slotOrder.push_back(s);
    for (size_t s : slotOrder) {
        GroupSlot& gl = g.lanes[s];
        const KernelLane& kl = laneOf(p, g, s);
        int64_t off = 0, tol = 0;
        if (gl.kernels.empty()) {
            g.validation.messages.push_back(p.ranks[size_t(gl.rank)].label + ": no kernels of this group in the window");
        } else if (s != refSlot) {
            ShiftEstimate est = estimateShift(p, ref, gl);
            off = est.offset;
            // saturating: a profile's times need not be within the loader's bounds
            tol = std::min(std::max<int64_t>(100'000, satAdd(satMul(8, est.mad), 50'000)),
                           std::max<int64_t>(50'000, satMul(medSpacing, 45) / 100));
            if (!est.ok)
                g.validation.messages.push_back(p.ranks[size_t(gl.rank)].label +
                                                ": op sequence does not line up with " + p.ranks[size_t(ref.rank)].label);
        }
        posOf[s].assign(gl.kernels.size(), kMissing);
        std::vector<uint32_t> merged;
        merged.reserve(orderIds.size() + gl.kernels.size());
        size_t i = 0, q = 0;
        auto newPos = [&](size_t k) {
            uint32_t id = uint32_t(pos.size());
            pos.push_back({gl.ops[k], kl.end(gl.kernels[k]) + off});
            posOf[s][k] = id;
            merged.push_back(id);
        };
        while (i < gl.kernels.size() && q < orderIds.size()) {
            const Position& P = pos[orderIds[q]];
            int64_t e = kl.end(gl.kernels[i]) + off;
            if (gl.ops[i] == P.op && std::llabs(e - P.end) <= tol) {
                posOf[s][i] = orderIds[q];
                merged.push_back(orderIds[q]);
                ++i, ++q;
            } else if (e < P.end) {
                newPos(i++);
            } else {
                merged.push_back(orderIds[q++]);
            }
        }
        while (i < gl.kernels.size()) newPos(i++);
        while (q < orderIds.size()) merged.push_back(orderIds[q++]);
        orderIds.swap(merged);
    }
    // positions -> cells matrix
    std::vector<uint32_t> indexOf(pos.size());
    for (size_t k = 0; k < orderIds.size(); ++k) indexOf[orderIds[k]] = uint32_t(k);
    g.cells.assign(orderIds.size() * n, kMissing);
    for (size_t s = 0; s < n; ++s)
        for (size_t k = 0; k < posOf[s].size(); ++k) g.cells[size_t(indexOf[posOf[s][k]]) * n + s] = g.lanes[s].kernels[k];
    g.count = uint32_t(orderIds.size());
    g.positionOps.resize(orderIds.size());
    for (size_t k = 0; k < orderIds.size(); ++k) g.positionOps[k] = pos[orderIds[k]].op;
}

}  // namespace skew
