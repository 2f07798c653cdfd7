#include "analysis/whatif_pack.h"

#include <algorithm>
#include <utility>

#include "util/parallel.h"

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
    // per source, by its lane-order slot (g.sourceSlot): its packed slot and its readers left
    SlotPlan(const ReplayGraph& g, bool reuse) : g_(g), reuse_(reuse), slot_(g.sources, -1), left_(g.sources, 0) {
        for (size_t i = 0; i < g.size(); ++i)
            if (g.crossSlot[i] >= 0) ++left_[size_t(g.crossSlot[i])];
    }

    // Kernel i is visited at sweep position p: the slot it reads (-1 none, or its source not
    // visited yet), then its own when it is a source.
    void visit(uint32_t i, size_t p, SweepKernel& k) {
        if (const int32_t src = g_.crossSlot[i]; src >= 0) {
            k.crossSlot = slot_[size_t(src)];
            if (k.crossSlot < 0) late_.push_back({p, src});  // only in a cyclic order (reuse is off then)
            if (--left_[size_t(src)] == 0 && reuse_ && k.crossSlot >= 0) free_.push_back(k.crossSlot);
        }
        const int32_t me = g_.sourceSlot[i];
        if (me < 0) return;
        int32_t s;
        if (!free_.empty()) {
            s = free_.back();
            free_.pop_back();
        } else {
            s = int32_t(count_++);
        }
        slot_[size_t(me)] = k.sourceSlot = s;
    }

    // The readers visited before their source (a cyclic order): the source's own slot, never
    // written when they read it.
    void finish(FlatVector<SweepKernel>& sweep) const {
        for (const auto& [p, src] : late_) sweep[p].crossSlot = slot_[size_t(src)];
    }

    int32_t slotOf(uint32_t i) const { return g_.sourceSlot[i] < 0 ? -1 : slot_[size_t(g_.sourceSlot[i])]; }
    uint32_t count() const { return count_; }

private:
    const ReplayGraph& g_;
    const bool reuse_;
    std::vector<int32_t> slot_;
    std::vector<uint32_t> left_;
    std::vector<int32_t> free_;
    std::vector<std::pair<size_t, int32_t>> late_;
    uint32_t count_ = 0;
};

}  // namespace

void packForSweep(ReplayGraph& g, size_t threads) {
    g.sweep.resize(g.size());
    // each run's first sweep position, then the records copied in parallel (chunks of runs; the
    // fresh pages they fault in are zeroed by the threads that touch them)
    std::vector<size_t> at(g.order.size() + 1, 0);
    for (size_t r = 0; r < g.order.size(); ++r)
        at[r + 1] = at[r] + (g.order[r].lane == kFire ? 0 : g.order[r].end - g.order[r].begin);
    constexpr size_t kChunk = 4096;
    parallelFor((g.order.size() + kChunk - 1) / kChunk, threads, [&](size_t c) {
        for (size_t r = c * kChunk; r < std::min(g.order.size(), (c + 1) * kChunk); ++r) {
            const SweepRun& run = g.order[r];
            if (run.lane == kFire) continue;
            const uint32_t base = g.laneBase[run.lane];
            SweepKernel* k = &g.sweep[at[r]];
            for (uint32_t i = run.begin; i < run.end; ++i, ++k) {
                k->launch = g.launch[i], k->gap = g.gap[i], k->duration = g.duration[i];
                k->median = g.median.empty() ? g.duration[i] : g.median[i];
                k->prevLag = g.prevLag[i], k->member = g.member[i], k->step = g.step[i];
                k->keepLaunch = g.keepLaunch[i], k->hasPrev = i > base;
                k->crossSlot = k->sourceSlot = -1;
            }
        }
    });
    // the slots, in sweep order
    SlotPlan slots(g, g.ordered);
    for (size_t r = 0; r < g.order.size(); ++r) {
        const SweepRun& run = g.order[r];
        if (run.lane == kFire) continue;
        size_t p = at[r];
        for (uint32_t i = run.begin; i < run.end; ++i, ++p) slots.visit(i, p, g.sweep[p]);
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
