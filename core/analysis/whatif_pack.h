#pragma once
// What-if, the graph's records for the sweep (docs/analysis.md, What-if): the cross-stream sources'
// slots renumbered in sweep order and reused once read for the last time, the members' source slots
// and steps beside the other member arrays, and the replay graph's per-kernel inputs copied into one
// record per kernel in sweep order (SweepKernel), so that a sweep streams its input from first to
// last instead of jumping between ranks. The records are either packed once for every sweep
// (packForSweep: fresh memory, worth it when many sweeps read them) or block by block into a small
// buffer that each sweep reuses (RecordFeed: no fresh memory, the lane-order arrays gathered once a
// sweep).

#include <algorithm>

#include "analysis/whatif_graph.h"

namespace skew {

// Renumbers g.crossSlot, g.sourceSlot and g.member (numbered in lane order) into slots given in
// sweep order (g.order), and fills g.memberSlot, g.memberSource, g.memberStep, g.packedSlots and
// g.memberSlots. Slots are reused only when the order is
// complete (g.ordered): in a cyclic graph's order a kernel may read its source before the source
// ends, and then reads the never-written slot.
void planSlots(ReplayGraph& g);

// Kernel i's record (lane-order id; hasPrev: not its lane's first kernel), from the lane-order arrays.
inline void packKernel(const ReplayGraph& g, uint32_t i, bool hasPrev, SweepKernel& k) {
    k.launch = g.launch[i], k.gap = g.gap[i], k.duration = g.duration[i];
    k.median = g.median.empty() ? g.duration[i] : g.median[i];
    k.prevLag = g.prevLag[i], k.crossSlot = g.crossSlot[i], k.sourceSlot = g.sourceSlot[i], k.member = g.member[i];
    k.step = g.step[i];
    k.keepLaunch = g.keepLaunch[i], k.hasPrev = hasPrev;
}

// Fills g.sweep: every kernel's record in sweep order (copied on `threads` threads), after planSlots.
// The lane-order arrays may then be dropped (ReplayGraph::dropLaneOrder).
void packForSweep(ReplayGraph& g, size_t threads);

// The records of g.order's kernels in sweep order, packed block by block into `buffer` (kept by the
// caller from sweep to sweep, so its pages are faulted in once): take(n) hands out the next n.
class RecordFeed {
public:
    static constexpr uint32_t kCapacity = 4096;  // records in the buffer (224 KB: stays in cache)
    static constexpr uint32_t kMaxTake = 1024;   // at most this many a take

    RecordFeed(const ReplayGraph& g, FlatVector<SweepKernel>& buffer) : g_(g), buf_(buffer) {
        buf_.resize(kCapacity);
        if (!g.order.empty()) i_ = g.order[0].begin;
    }

    // The next n (<= kMaxTake) records of the sweep.
    const SweepKernel* take(uint32_t n) {
        if (end_ - at_ < n) refill();
        const SweepKernel* k = buf_.data() + at_;
        at_ += n;
        return k;
    }

private:
    // The records not taken yet moved to the front, then the next kernels of the order behind them.
    void refill() {
        std::copy(buf_.begin() + at_, buf_.begin() + end_, buf_.begin());
        end_ -= at_, at_ = 0;
        const std::vector<SweepRun>& order = g_.order;
        while (end_ < kCapacity && run_ < order.size()) {
            const SweepRun& r = order[run_];
            if (r.lane == kFire || i_ == r.end) {
                if (++run_ < order.size()) i_ = order[run_].begin;
                continue;
            }
            const uint32_t base = g_.laneBase[r.lane], to = std::min(r.end, i_ + (kCapacity - end_));
            for (; i_ < to; ++i_) packKernel(g_, i_, i_ > base, buf_[end_++]);
        }
    }

    const ReplayGraph& g_;
    FlatVector<SweepKernel>& buf_;
    uint32_t at_ = 0, end_ = 0;  // records [at_, end_) of the buffer are packed, not taken yet
    size_t run_ = 0;             // the next kernel to pack: i_ of run run_
    uint32_t i_ = 0;
};

}  // namespace skew
