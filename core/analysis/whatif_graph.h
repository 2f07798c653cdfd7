#pragma once
// What-if, the replay graph (docs/analysis.md, What-if): every kernel of every rank in the window,
// with what it waits for (its stream's previous kernel, its launch call, one kernel of another
// stream of its device, its collective) and its residual gap, in flat arrays in an order where
// every dependency comes first (whatif_replay.h sweeps them). Kernels are first numbered in "lane
// order" (rank by rank, lane by lane, start order), the ids the step and duration inputs use.

#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "analysis/analysis.h"

namespace skew {

// A vector whose resize() leaves new elements uninitialized (each is written before it is read),
// and whose large blocks ask Linux for huge pages: the graph's arrays of millions of kernels are
// filled once, neither zeroed first nor faulted in 4 KB at a time.
void* allocateFlat(size_t bytes);
void freeFlat(void* p) noexcept;

template <typename T>
struct NoInit : std::allocator<T> {
    using value_type = T;
    template <typename U>
    struct rebind {
        using other = NoInit<U>;
    };
    NoInit() = default;
    template <typename U>
    NoInit(const NoInit<U>&) {}
    T* allocate(size_t n) { return static_cast<T*>(allocateFlat(n * sizeof(T))); }
    void deallocate(T* p, size_t) noexcept { freeFlat(p); }
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
template <typename T>
using FlatVector = std::vector<T, NoInit<T>>;

// A kernel that starts at most this long after a kernel of another stream of its device ends, and
// later than its own stream and launch allow, waited for that kernel (no synchronization rows).
constexpr int64_t kInferredWaitNs = 5'000;

// One lane's kernels in the window [lo, hi) and the lane-order id of the first.
struct ReplayLane {
    int rank = 0, lane = 0;
    uint32_t lo = 0, hi = 0;
    uint32_t base = 0;
};

struct ReplayKernels {
    std::vector<ReplayLane> lanes;       // rank by rank, every lane of each rank
    std::vector<uint32_t> firstLane;     // per rank (+1): its lanes are [firstLane[r], firstLane[r + 1])
    uint32_t count = 0;
    const ReplayLane& lane(int rank, int lane) const { return lanes[firstLane[size_t(rank)] + size_t(lane)]; }
    // lane-order id of kernel k of (rank, lane), or kMissing outside the window
    uint32_t id(int rank, int lane, uint32_t k) const {
        const ReplayLane& l = this->lane(rank, lane);
        return k >= l.lo && k < l.hi ? l.base + (k - l.lo) : kMissing;
    }
};
ReplayKernels windowKernels(const Profile& p, const Analysis& a);

// The graph, per kernel in lane order (flat arrays, read in sweep order by whatif_replay.h). Bounds
// of a start: the previous kernel of its lane's end + prevLag, the cross-stream source's end, the
// launch bound; the start is their maximum + gap. A lag is negative only where the capture shows the
// kernel starting before that bound (its stream predecessor still running, its launch call not yet
// returned): the capture's own overlap, kept so that it replays.
constexpr int64_t kNoBound = INT64_MIN;

// One step of the sweep: kernels [begin, end) of one lane, or (lane == kFire) collective `begin`
// firing: its members end.
struct SweepRun {
    uint32_t lane = 0, begin = 0, end = 0;
};
constexpr uint32_t kFire = 0xFFFFFFFFu;

// One kernel as the sweep reads it (whatif_replay.h): the graph's per-kernel inputs side by side,
// in sweep order (the order's runs one after another), so that every sweep reads them once, from
// first to last (the lane-order arrays, read run by run, jump between ranks at every run).
// (no default values: a FlatVector of them is left unwritten until packed)
struct SweepKernel {
    int64_t launch, gap, duration, median;  // median: duration where there are no medians
    int32_t prevLag, crossSlot, sourceSlot, member;
    uint32_t step;
    uint8_t keepLaunch, hasPrev;  // hasPrev: not its lane's first kernel
};

struct ReplayGraph {
    FlatVector<int64_t> start;       // captured
    FlatVector<int64_t> launch;      // launch call's end (at most the captured start); kNoBound without a launch
    FlatVector<int64_t> gap;         // captured start - the latest bound, >= 0
    FlatVector<int64_t> duration;    // captured
    std::vector<int64_t> median;     // no_slow_kernels' duration (captured for NCCL kernels); empty: as captured
    FlatVector<int32_t> cross;       // cross-stream source, -1 none
    // the sweep keeps the ends of cross-stream sources only: each source's slot, and each kernel's
    // source's slot (-1 none)
    FlatVector<int32_t> sourceSlot, crossSlot;
    uint32_t sources = 0;
    FlatVector<int32_t> prevLag;
    FlatVector<int32_t> member;      // its start's slot (memberSlot below), -1: not in a coupled collective
    std::vector<uint32_t> step;      // 1-based, 0 none
    FlatVector<uint8_t> keepLaunch;  // keeps its launch bound when launches are dropped
    std::vector<uint32_t> laneBase, laneRank;  // per lane (ReplayKernels' order)
    std::vector<SweepRun> order;     // an order where everything a kernel waits for comes first
    // coupled collectives: members memberNode[memberBegin[c] .. memberBegin[c + 1])
    std::vector<uint32_t> memberBegin, memberNode;
    std::vector<int64_t> transfer;   // per member: captured end - the latest member start, >= 0
    std::vector<uint32_t> memberLane;  // per member
    // What the sweep reads (whatif_pack.h): every kernel's record in sweep order, packed once
    // (packForSweep) or, empty, block by block by each sweep from the arrays above; per member, its
    // source slot and step (a member's end is written when it fires). The source slots (crossSlot,
    // sourceSlot, memberSource) are given in sweep order and reused once their last reader has read
    // (packedSlots of them), so the ends kept at a time stay few.
    FlatVector<SweepKernel> sweep;
    std::vector<int32_t> memberSource;
    std::vector<uint32_t> memberStep;
    uint32_t packedSlots = 0;
    // per member, the slot its start is kept in until its collective fires (member above holds it
    // too, per kernel): given in sweep order and reused once fired (memberSlots of them)
    std::vector<int32_t> memberSlot;
    uint32_t memberSlots = 0;
    uint32_t steps = 0;
    size_t ranks = 0;
    uint32_t uncoupled = 0;          // collectives left as plain kernels (see buildReplayGraph)
    uint32_t waits = 0;              // cross-stream waits found
    bool ordered = true;             // false: the dependencies had a cycle (the capture's clocks disagree)
    size_t size() const { return start.size(); }
    // Frees the lane-order arrays that only the packing and the tests read (launch, gap, prevLag,
    // keepLaunch, crossSlot, sourceSlot, member, median), once `sweep` is packed.
    void dropLaneOrder();
};

// The cross-stream ends a sweep may keep at once in the rounds' order (lane after lane, each as far
// as it goes), past which the graph takes the order in captured time: the ends (128 bytes each, one
// value per scenario of a sweep) stay within 2 MB, in the core's own cache.
constexpr uint32_t kCachedEnds = 16384;

// `step` and `median` are per lane-order id. A collective whose members do not all end at or after
// its latest start, or where a member's stream successor starts before that start (clocks of
// per-rank files that disagree), is left uncoupled: its kernels replay as plain kernels.
// Both are kept in the graph (moved in); an empty `median` is the captured durations. `check`, when
// given, is called between the build's stages (a cancel throws from it: the viewer's what-if stops
// within one stage, at most about 0.4 s on 6M kernels (the first), not at the end of the build).
ReplayGraph buildReplayGraph(const Profile& p, const Analysis& a, const ReplayKernels& k, std::vector<uint32_t> step, uint32_t steps,
                             std::vector<int64_t> median, uint32_t cachedEnds = kCachedEnds,
                             const std::function<void()>& check = {});

}  // namespace skew
