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
// first, so that the slots in use stay few and warm. Each kernel's slots are renumbered in place
// when it is visited (each kernel is visited once).
class SlotPlan {
public:
    // per source, by its lane-order slot (g.sourceSlot as numbered): its packed slot and its readers left
    SlotPlan(ReplayGraph& g, bool reuse) : g_(g), reuse_(reuse), slot_(g.sources, -1), left_(g.sources, 0) {
        for (size_t i = 0; i < g.size(); ++i)
            if (g.crossSlot[i] >= 0) ++left_[size_t(g.crossSlot[i])];
    }

    // Kernel i is visited: the slot it reads (-1 none, or its source not visited yet), then its own
    // when it is a source.
    void visit(uint32_t i) {
        if (const int32_t src = g_.crossSlot[i]; src >= 0) {
            const int32_t s = g_.crossSlot[i] = slot_[size_t(src)];
            if (s < 0) late_.push_back({i, src});  // only in a cyclic order (reuse is off then)
            if (--left_[size_t(src)] == 0 && reuse_ && s >= 0) free_.push_back(s);
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
        slot_[size_t(me)] = g_.sourceSlot[i] = s;
    }

    // The readers visited before their source (a cyclic order): the source's own slot, never
    // written when they read it.
    void finish() const {
        for (const auto& [i, src] : late_) g_.crossSlot[i] = slot_[size_t(src)];
    }

    uint32_t count() const { return count_; }

private:
    ReplayGraph& g_;
    const bool reuse_;
    std::vector<int32_t> slot_;
    std::vector<uint32_t> left_;
    std::vector<int32_t> free_;
    std::vector<std::pair<uint32_t, int32_t>> late_;
    uint32_t count_ = 0;
};

}  // namespace

void planSlots(ReplayGraph& g) {
    SlotPlan slots(g, g.ordered);
    // members' slots: taken when the member is visited (its start written), free again once its
    // collective fired (the starts read); without a complete order, one per member
    g.memberSlot.resize(g.memberNode.size());
    std::vector<int32_t> freeMembers;
    for (size_t m = 0; m < g.memberNode.size(); ++m) g.memberSlot[m] = int32_t(m);
    g.memberSlots = g.ordered ? 0 : uint32_t(g.memberNode.size());
    for (const SweepRun& run : g.order) {
        if (run.lane == kFire) {
            for (uint32_t m = g.memberBegin[run.begin]; g.ordered && m < g.memberBegin[run.begin + 1]; ++m)
                freeMembers.push_back(g.memberSlot[m]);
            continue;
        }
        for (uint32_t i = run.begin; i < run.end; ++i) {
            slots.visit(i);
            if (const int32_t m = g.member[i]; m >= 0 && g.ordered) {
                int32_t s;
                if (!freeMembers.empty()) {
                    s = freeMembers.back();
                    freeMembers.pop_back();
                } else {
                    s = int32_t(g.memberSlots++);
                }
                g.memberSlot[size_t(m)] = g.member[i] = s;
            }
        }
    }
    slots.finish();
    g.packedSlots = slots.count();
    g.memberSource.resize(g.memberNode.size());
    g.memberStep.resize(g.memberNode.size());
    for (size_t m = 0; m < g.memberNode.size(); ++m) {
        g.memberSource[m] = g.sourceSlot[g.memberNode[m]];
        g.memberStep[m] = g.step[g.memberNode[m]];
    }
}

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
            for (uint32_t i = run.begin; i < run.end; ++i, ++k) packKernel(g, i, i > base, *k);
        }
    });
}

void ReplayGraph::dropLaneOrder() {
    release(launch), release(gap), release(prevLag), release(keepLaunch), release(crossSlot), release(sourceSlot), release(member);
    release(median), release(cross);
}

}  // namespace skew
