#include "analysis/whatif_pack.h"

#include <utility>

namespace skew {
namespace {

template <typename V>
void release(V& v) {
    V().swap(v);
}

// The sources' slots, given in sweep order: a source gets a slot when it is visited (its end is
// written then, or when its collective fires, both before any reader is visited in a complete
// order); the slot is free again once its last reader has read it. Free slots are taken last freed
// first, so that the slots in use stay few and warm.
class SlotPlan {
public:
    SlotPlan(const ReplayGraph& g, bool reuse) : g_(g), reuse_(reuse), slot_(g.size(), -1), left_(g.size(), 0) {
        for (size_t i = 0; i < g.size(); ++i)
            if (g.cross[i] >= 0) ++left_[size_t(g.cross[i])];
    }

    // Kernel i is visited at sweep position p: the slot it reads (-1 none, or its source not
    // visited yet), then its own when it is a source.
    void visit(uint32_t i, size_t p, SweepKernel& k) {
        if (const int32_t src = g_.cross[i]; src >= 0) {
            k.crossSlot = slot_[size_t(src)];
            if (k.crossSlot < 0) late_.push_back({p, src});  // only in a cyclic order (reuse is off then)
            if (--left_[size_t(src)] == 0 && reuse_ && k.crossSlot >= 0) free_.push_back(k.crossSlot);
        }
        if (g_.sourceSlot[i] < 0) return;
        int32_t s;
        if (!free_.empty()) {
            s = free_.back();
            free_.pop_back();
        } else {
            s = int32_t(count_++);
        }
        slot_[i] = k.sourceSlot = s;
    }

    // The readers visited before their source (a cyclic order): the source's own slot, never
    // written when they read it.
    void finish(FlatVector<SweepKernel>& sweep) const {
        for (const auto& [p, src] : late_) sweep[p].crossSlot = slot_[size_t(src)];
    }

    int32_t slotOf(uint32_t i) const { return slot_[i]; }
    uint32_t count() const { return count_; }

private:
    const ReplayGraph& g_;
    const bool reuse_;
    std::vector<int32_t> slot_;
    std::vector<uint32_t> left_;  // per source: readers not visited yet
    std::vector<int32_t> free_;
    std::vector<std::pair<size_t, int32_t>> late_;
    uint32_t count_ = 0;
};

}  // namespace

void packForSweep(ReplayGraph& g) {
    g.sweep.resize(g.size());
    SlotPlan slots(g, g.ordered);
    size_t p = 0;
    for (const SweepRun& r : g.order) {
        if (r.lane == kFire) continue;
        const uint32_t base = g.laneBase[r.lane];
        for (uint32_t i = r.begin; i < r.end; ++i, ++p) {
            SweepKernel& k = g.sweep[p];
            k.launch = g.launch[i], k.gap = g.gap[i], k.duration = g.duration[i];
            k.median = g.median.empty() ? g.duration[i] : g.median[i];
            k.prevLag = g.prevLag[i], k.member = g.member[i], k.step = g.step[i];
            k.keepLaunch = g.keepLaunch[i], k.hasPrev = i > base;
            k.crossSlot = k.sourceSlot = -1;
            slots.visit(i, p, k);
        }
    }
    slots.finish(g.sweep);
    g.packedSlots = slots.count();
    g.memberSource.resize(g.memberNode.size());
    g.memberStep.resize(g.memberNode.size());
    for (size_t m = 0; m < g.memberNode.size(); ++m) {
        g.memberSource[m] = slots.slotOf(g.memberNode[m]);
        g.memberStep[m] = g.step[g.memberNode[m]];
    }
}

void ReplayGraph::dropLaneOrder() {
    release(launch), release(gap), release(prevLag), release(keepLaunch), release(crossSlot), release(sourceSlot), release(member);
    release(median), release(cross);
}

}  // namespace skew
