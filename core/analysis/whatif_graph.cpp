#include "analysis/whatif_graph.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <new>
#include <queue>
#include <utility>

#include <sys/mman.h>

#include "analysis/whatif_pack.h"
#include "util/parallel.h"
#include "util/stage_clock.h"

namespace skew {

void* allocateFlat(size_t bytes) {
    // every block from malloc or aligned_alloc, so that free() releases any of them
    constexpr size_t kHuge = size_t(2) << 20;
    if (bytes < 4 * kHuge) {
        void* p = std::malloc(bytes ? bytes : 1);
        if (!p) throw std::bad_alloc();
        return p;
    }
    const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages it works as before
#endif
    return p;
}

void freeFlat(void* p) noexcept { std::free(p); }

ReplayKernels windowKernels(const Profile& p, const Analysis& a) {
    ReplayKernels k;
    k.firstLane.reserve(p.ranks.size() + 1);
    for (const Rank& r : p.ranks) {
        k.firstLane.push_back(uint32_t(k.lanes.size()));
        for (size_t l = 0; l < r.lanes.size(); ++l) {
            const KernelLane& kl = r.lanes[l];
            ReplayLane rl{r.id, int(l), 0, uint32_t(kl.size()), k.count};
            if (a.options.hasTrim) {
                rl.lo = uint32_t(std::lower_bound(kl.start.begin(), kl.start.end(), a.options.trimStartNs) - kl.start.begin());
                rl.hi = uint32_t(std::lower_bound(kl.start.begin(), kl.start.end(), a.options.trimEndNs) - kl.start.begin());
                rl.hi = std::max(rl.hi, rl.lo);
            }
            k.count += rl.hi - rl.lo;
            k.lanes.push_back(rl);
        }
    }
    k.firstLane.push_back(uint32_t(k.lanes.size()));
    return k;
}

namespace {

// What building the graph needs beyond the graph: each kernel's lane, coupled collectives in their
// own numbering. (A captured end is the graph's start + duration: no array of its own, 48 MB of
// fresh pages fewer on 6M kernels.)
struct Build {
    FlatVector<uint32_t> laneOf;
    FlatVector<int32_t> coll;                      // coupled collective, -1 none
    std::vector<uint32_t> collBegin, collMembers;  // members of each coupled collective (lane-order ids)
    std::vector<int64_t> transfer;                 // aligned with collMembers
    bool hasPrev(uint32_t g, const ReplayGraph& gr) const { return g > gr.laneBase[laneOf[g]]; }
};

int64_t endOf(const ReplayGraph& gr, size_t g) { return gr.start[g] + gr.duration[g]; }

// Ends (sorted) of the stream-wait records of a rank's device on `stream`.
std::vector<int64_t> waitEnds(const Profile& p, const Rank& r, int32_t stream) {
    const StreamWaits& w = p.processes[size_t(r.process)].waits;
    std::vector<int64_t> ends;
    for (size_t i = 0; i < w.size(); ++i)
        if (w.device(i) == r.device && w.stream(i) == stream) ends.push_back(w.end(i));
    std::sort(ends.begin(), ends.end());
    return ends;
}

// Per kernel of one lane: the kernel of another lane of the same rank that ended last at or before
// its start; it is the kernel's cross-stream source when a stream-wait record on its stream ended
// since its stream predecessor started, or when it ended at most kInferredWaitNs before the start
// and later than the stream and the launch allow.
uint32_t crossWaits(const Profile& p, const ReplayKernels& k, const Rank& r, size_t lane, ReplayGraph& gr) {
    const ReplayLane& me = k.lane(r.id, int(lane));
    const std::vector<int64_t> waits = waitEnds(p, r, r.lanes[lane].stream);
    const size_t first = k.firstLane[size_t(r.id)], last = k.firstLane[size_t(r.id) + 1];
    std::vector<uint32_t> cursor(last - first, 0);
    for (size_t l = first; l < last; ++l) cursor[l - first] = k.lanes[l].base;
    size_t w = 0;
    uint32_t found = 0;
    for (uint32_t g = me.base; g < me.base + (me.hi - me.lo); ++g) {
        const int64_t t = gr.start[g];
        int64_t bestEnd = INT64_MIN;
        int32_t best = -1;
        for (size_t l = first; l < last; ++l) {
            if (l - first == lane) continue;
            const ReplayLane& other = k.lanes[l];
            const uint32_t endId = other.base + (other.hi - other.lo);
            uint32_t& c = cursor[l - first];
            while (c < endId && gr.start[c] < t) ++c;
            for (uint32_t back = 1; back <= 2 && c >= other.base + back; ++back) {
                const uint32_t x = c - back;
                const int64_t e = endOf(gr, x);
                if (e <= t && e > bestEnd) bestEnd = e, best = int32_t(x);
            }
        }
        const bool prev = g > me.base;
        const int64_t since = prev ? gr.start[g - 1] : INT64_MIN;
        while (w < waits.size() && waits[w] <= since) ++w;
        const bool recorded = w < waits.size() && waits[w] <= t;
        if (best < 0) continue;
        const int64_t local = prev ? std::max(gr.launch[g], endOf(gr, g - 1)) : gr.launch[g];
        if (recorded || (t - bestEnd <= kInferredWaitNs && bestEnd > local)) {
            gr.cross[g] = best;
            ++found;
        }
    }
    return found;
}

// Couples each collective with two members or more whose capture is consistent (see the header).
uint32_t coupleCollectives(const Analysis& a, const ReplayKernels& k, const ReplayGraph& gr, Build& b) {
    uint32_t uncoupled = 0;
    std::vector<uint32_t> ids;
    b.collBegin.push_back(0);
    for (const Collective& c : a.collectives) {
        const Group& g = a.groups[size_t(c.group)];
        ids.clear();
        int64_t maxStart = INT64_MIN;
        for (size_t s = 0; s < g.width(); ++s) {
            const uint32_t kk = a.slotKernel(c, s);
            const uint32_t id = kk == kMissing ? kMissing : k.id(g.lanes[s].rank, g.lanes[s].lane, kk);
            if (id == kMissing) continue;
            ids.push_back(id);
            maxStart = std::max(maxStart, gr.start[id]);
        }
        if (ids.size() < 2) continue;
        bool consistent = true;
        for (uint32_t id : ids) {
            consistent = consistent && endOf(gr, id) >= maxStart;
            const uint32_t next = id + 1;
            if (next < gr.size() && b.hasPrev(next, gr) && b.laneOf[next] == b.laneOf[id]) consistent = consistent && gr.start[next] >= maxStart;
        }
        if (!consistent) {
            ++uncoupled;
            continue;
        }
        const int32_t index = int32_t(b.collBegin.size() - 1);
        for (uint32_t id : ids) {
            b.coll[id] = index;
            b.collMembers.push_back(id);
            b.transfer.push_back(endOf(gr, id) - maxStart);
        }
        b.collBegin.push_back(uint32_t(b.collMembers.size()));
    }
    return uncoupled;
}

// Captured times and launch bounds of every kernel, in lane order, and the per-kernel arrays that
// start at -1 (no cross-stream source, no coupled collective, not a member). Lanes in parallel:
// each writes only its own kernels, and the threads share the faulting in of the fresh pages (a
// serial fill first would fault them all on one core).
void readKernels(const Profile& p, const ReplayKernels& k, size_t threads, ReplayGraph& gr, Build& b) {
    const size_t n = k.count;
    gr.start.resize(n), gr.launch.resize(n), gr.duration.resize(n), gr.cross.resize(n), gr.member.resize(n);
    b.laneOf.resize(n), b.coll.resize(n);
    for (const ReplayLane& rl : k.lanes) gr.laneBase.push_back(rl.base), gr.laneRank.push_back(uint32_t(rl.rank));
    parallelFor(k.lanes.size(), threads, [&](size_t l) {
        const ReplayLane& rl = k.lanes[l];
        const KernelLane& kl = p.ranks[size_t(rl.rank)].lanes[size_t(rl.lane)];
        for (uint32_t i = rl.lo; i < rl.hi; ++i) {
            const uint32_t g = rl.base + (i - rl.lo);
            gr.start[g] = kl.start[i];
            gr.duration[g] = kl.duration[i];
            gr.launch[g] = kl.hasLaunch(i) ? std::min(kl.launchEnd(i), kl.start[i]) : kNoBound;
            b.laneOf[g] = uint32_t(l);
            gr.cross[g] = gr.member[g] = b.coll[g] = -1;
        }
    });
}

// An order where everything a kernel waits for comes first, lane by lane: each lane's kernels are
// taken in order for as long as what they wait for is done (the cross-stream source taken, a
// collective whose end they need fired), then the next lane; rounds over the lanes until every
// kernel is taken. A collective fires when its last member is taken. Runs of one lane keep the
// sweep's reads sequential.
std::vector<SweepRun> sweepOrder(const ReplayGraph& gr, const Build& b, bool& ordered) {
    const size_t lanes = gr.laneBase.size(), c = gr.memberBegin.size() - 1;
    std::vector<uint32_t> cursor(gr.laneBase), laneEnd(lanes), left(c);
    for (size_t l = 0; l < lanes; ++l) laneEnd[l] = l + 1 < lanes ? gr.laneBase[l + 1] : uint32_t(gr.size());
    for (size_t x = 0; x < c; ++x) left[x] = gr.memberBegin[x + 1] - gr.memberBegin[x];
    // the end of kernel x is known: taken, and its collective (if any) fired
    auto ended = [&](uint32_t x) { return cursor[b.laneOf[x]] > x && (b.coll[x] < 0 || left[size_t(b.coll[x])] == 0); };
    std::vector<SweepRun> order;
    size_t taken = 0;
    for (bool progress = true; progress && taken < gr.size();) {
        progress = false;
        for (uint32_t l = 0; l < lanes; ++l) {
            uint32_t& g = cursor[l];
            const uint32_t first = g;
            uint32_t from = g;
            while (g < laneEnd[l] && (g == gr.laneBase[l] || ended(g - 1)) && (gr.cross[g] < 0 || ended(uint32_t(gr.cross[g])))) {
                const int32_t cc = b.coll[g];
                ++g;
                if (cc >= 0 && --left[size_t(cc)] == 0) {  // its last member: the collective fires
                    order.push_back({l, from, g});
                    order.push_back({kFire, uint32_t(cc), 0});
                    from = g;
                }
            }
            if (g > from) order.push_back({l, from, g});
            taken += g - first;
            progress = progress || g > first;
        }
    }
    ordered = taken == gr.size();
    if (!ordered)  // a cycle: the rest lane by lane (the sweep then reads some ends before they are final)
        for (uint32_t l = 0; l < lanes; ++l)
            if (cursor[l] < laneEnd[l]) order.push_back({l, cursor[l], laneEnd[l]});
    return order;
}

// The same kind of order, taken in captured time: of the lanes whose next kernel can be taken, the
// one whose next kernel started first, for as long as it stays first. An end is then read soon after
// it is written (the sweep's slots and members stay few and in cache), where the rounds above run
// each lane as far as it goes and read most ends long after. Empty when the graph has a cycle.
// a lane goes on while its next kernel started at most this long after the first of the other lanes'
// (longer runs, fewer switches between lanes; ends still read soon after they are written)
constexpr int64_t kRunSlackNs = 1'000'000;

std::vector<SweepRun> timeOrder(const ReplayGraph& gr, const Build& b) {
    const size_t lanes = gr.laneBase.size(), c = gr.memberBegin.size() - 1;
    std::vector<uint32_t> cursor(gr.laneBase), laneEnd(lanes), left(c);
    for (size_t l = 0; l < lanes; ++l) laneEnd[l] = l + 1 < lanes ? gr.laneBase[l + 1] : uint32_t(gr.size());
    for (size_t x = 0; x < c; ++x) left[x] = gr.memberBegin[x + 1] - gr.memberBegin[x];
    auto ended = [&](uint32_t x) { return cursor[b.laneOf[x]] > x && (b.coll[x] < 0 || left[size_t(b.coll[x])] == 0); };
    // a lane that cannot go on waits for one kernel's end: waiters listed per kernel, linked by lane
    std::vector<int32_t> waitHead(gr.size(), -1), nextWaiter(lanes, -1);
    using Entry = std::pair<int64_t, uint32_t>;  // next kernel's captured start, lane
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    auto blockerOf = [&](uint32_t l) -> int64_t {  // the kernel lane l waits for, -1 none
        const uint32_t g = cursor[l];
        if (g > gr.laneBase[l] && !ended(g - 1)) return g - 1;
        if (gr.cross[g] >= 0 && !ended(uint32_t(gr.cross[g]))) return gr.cross[g];
        return -1;
    };
    auto place = [&](uint32_t l) {
        if (cursor[l] == laneEnd[l]) return;
        if (const int64_t x = blockerOf(l); x >= 0) {
            nextWaiter[l] = waitHead[size_t(x)], waitHead[size_t(x)] = int32_t(l);
        } else {
            ready.push({gr.start[cursor[l]], l});
        }
    };
    auto wake = [&](uint32_t x) {
        for (int32_t l = std::exchange(waitHead[x], -1); l >= 0;) {
            const int32_t next = nextWaiter[size_t(l)];
            place(uint32_t(l));
            l = next;
        }
    };
    for (uint32_t l = 0; l < lanes; ++l) place(l);
    std::vector<SweepRun> order;
    size_t taken = 0;
    while (!ready.empty()) {
        const uint32_t l = ready.top().second;
        ready.pop();
        uint32_t& g = cursor[l];
        uint32_t from = g;
        do {
            const int32_t cc = b.coll[g];
            const uint32_t x = g++;
            ++taken;
            if (cc < 0) {
                wake(x);
            } else if (--left[size_t(cc)] == 0) {  // its last member: the collective fires
                order.push_back({l, from, g});
                order.push_back({kFire, uint32_t(cc), 0});
                from = g;
                for (uint32_t m = gr.memberBegin[size_t(cc)]; m < gr.memberBegin[size_t(cc) + 1]; ++m) wake(gr.memberNode[m]);
            }
        } while (g < laneEnd[l] && blockerOf(l) < 0 && (ready.empty() || gr.start[g] <= ready.top().first + kRunSlackNs));
        if (g > from) order.push_back({l, from, g});
        place(l);
    }
    if (taken < gr.size()) order.clear();
    return order;
}

// The slots in lane order, before planSlots gives them in sweep order: each cross-stream source
// its own (crossSlot of its readers, sourceSlot), each member its index.
void numberInLaneOrder(ReplayGraph& gr, size_t threads) {
    const size_t n = gr.size();
    gr.sources = 0;
    gr.sourceSlot.resize(n), gr.crossSlot.resize(n);
    constexpr size_t kChunk = size_t(1) << 20;  // filled on the threads: they share the page faults
    parallelFor((n + kChunk - 1) / kChunk, threads, [&](size_t c) {
        const size_t from = c * kChunk, to = std::min(n, from + kChunk);
        std::fill(gr.sourceSlot.begin() + ptrdiff_t(from), gr.sourceSlot.begin() + ptrdiff_t(to), -1);
        std::fill(gr.crossSlot.begin() + ptrdiff_t(from), gr.crossSlot.begin() + ptrdiff_t(to), -1);
    });
    for (size_t g = 0; g < n; ++g) {
        if (gr.cross[g] < 0) continue;
        int32_t& slot = gr.sourceSlot[size_t(gr.cross[g])];
        if (slot < 0) slot = int32_t(gr.sources++);
        gr.crossSlot[g] = slot;
    }
    for (size_t m = 0; m < gr.memberNode.size(); ++m) gr.member[gr.memberNode[m]] = int32_t(m);
}

}  // namespace

ReplayGraph buildReplayGraph(const Profile& p, const Analysis& a, const ReplayKernels& k, std::vector<uint32_t> step, uint32_t steps,
                             std::vector<int64_t> median, uint32_t cachedEnds, const std::function<void()>& check) {
    StageClock clock("graph");  // SKEWSCOPE_TIMING=1
    auto done = [&](const char* stage) {
        clock.done(stage);
        if (check) check();
    };
    ReplayGraph gr;
    gr.steps = steps;
    gr.ranks = p.ranks.size();
    Build b;
    readKernels(p, k, a.options.threads, gr, b);
    done("kernels");
    // ranks in parallel: each writes only its own kernels' sources
    std::vector<uint32_t> found(p.ranks.size(), 0);
    parallelFor(p.ranks.size(), a.options.threads, [&](size_t r) {
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) found[r] += crossWaits(p, k, p.ranks[r], l, gr);
    });
    for (uint32_t f : found) gr.waits += f;
    done("cross waits");
    gr.uncoupled = coupleCollectives(a, k, gr, b);
    done("collectives");
    const uint32_t n = k.count;
    // each rank's first kernel of each step keeps its launch when launches are dropped
    std::vector<uint32_t> firstOfStep(p.ranks.size() * (size_t(steps) + 1), kMissing);
    parallelFor(p.ranks.size(), a.options.threads, [&](size_t r) {  // ranks in parallel, each its own row
        const uint32_t from = k.lanes.empty() || k.firstLane[r] == k.lanes.size() ? n : gr.laneBase[k.firstLane[r]];
        const uint32_t to = k.firstLane[r + 1] == k.lanes.size() ? n : gr.laneBase[k.firstLane[r + 1]];
        for (uint32_t g = from; g < to; ++g) {
            uint32_t& f = firstOfStep[r * (steps + 1) + step[g]];
            if (step[g] && (f == kMissing || gr.start[g] < gr.start[f])) f = g;
        }
    });
    gr.gap.resize(n), gr.prevLag.resize(n), gr.keepLaunch.resize(n);
    parallelFor(k.lanes.size(), a.options.threads, [&](size_t l) {  // lanes in parallel, each its own kernels
        const uint32_t from = gr.laneBase[l], to = from + (k.lanes[l].hi - k.lanes[l].lo);
        for (uint32_t g = from; g < to; ++g) {
            int64_t bound = gr.launch[g];
            const bool prev = g > from;
            gr.prevLag[g] = 0;
            if (prev) {
                const int64_t prevEnd = endOf(gr, g - 1);
                gr.prevLag[g] = int32_t(std::clamp<int64_t>(gr.start[g] - prevEnd, INT32_MIN, 0));
                bound = std::max(bound, prevEnd + gr.prevLag[g]);
            }
            if (gr.cross[g] >= 0) bound = std::max(bound, endOf(gr, size_t(gr.cross[g])));
            gr.keepLaunch[g] = !prev && gr.cross[g] < 0;
            if (bound == kNoBound) gr.launch[g] = bound = gr.start[g];  // no dependency at all: it starts where it started
            gr.gap[g] = std::max<int64_t>(0, gr.start[g] - bound);
            if (step[g] && firstOfStep[size_t(gr.laneRank[l]) * (steps + 1) + step[g]] == g) gr.keepLaunch[g] = 1;
        }
    });
    done("bounds");
    gr.median = std::move(median);
    gr.step = std::move(step);
    gr.memberBegin = std::move(b.collBegin);
    gr.memberNode = std::move(b.collMembers);
    gr.transfer = std::move(b.transfer);
    for (size_t m = 0; m < gr.memberNode.size(); ++m) gr.memberLane.push_back(b.laneOf[gr.memberNode[m]]);
    gr.order = sweepOrder(gr, b, gr.ordered);  // a cycle: the rounds, and the rest lane by lane
    done("order");
    numberInLaneOrder(gr, a.options.threads);
    planSlots(gr);
    done("slots");
    // the rounds keep an end until every lane reading it got there: past cachedEnds, captured time
    if (gr.ordered && gr.packedSlots > cachedEnds)
        if (std::vector<SweepRun> t = timeOrder(gr, b); !t.empty()) {
            gr.order = std::move(t);
            numberInLaneOrder(gr, a.options.threads);
            planSlots(gr);
            done("time order");
        }
    return gr;
}

}  // namespace skew
