#include "analysis/whatif_graph.h"

#include <algorithm>
#include <climits>

#include "util/parallel.h"

namespace skew {

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

// The graph's inputs in lane order, before they are put in sweep order.
struct LaneOrder {
    std::vector<int64_t> start, end, launch;
    std::vector<int32_t> prev, cross, coll;  // coll: coupled collective, -1 none
    std::vector<uint16_t> rank;
    std::vector<uint32_t> collBegin, collMembers;  // members of each coupled collective (lane-order ids)
    std::vector<int64_t> transfer;                 // aligned with collMembers
};

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
void crossWaits(const Profile& p, const ReplayKernels& k, const Rank& r, size_t lane, LaneOrder& o, uint32_t& found) {
    const ReplayLane& me = k.lane(r.id, int(lane));
    const std::vector<int64_t> waits = waitEnds(p, r, r.lanes[lane].stream);
    const size_t first = k.firstLane[size_t(r.id)], last = k.firstLane[size_t(r.id) + 1];
    std::vector<uint32_t> cursor(last - first, 0);
    for (size_t l = first; l < last; ++l) cursor[l - first] = k.lanes[l].base;
    size_t w = 0;
    for (uint32_t g = me.base; g < me.base + (me.hi - me.lo); ++g) {
        const int64_t t = o.start[g];
        int64_t bestEnd = INT64_MIN;
        int32_t best = -1;
        for (size_t l = first; l < last; ++l) {
            if (l - first == lane) continue;
            const ReplayLane& other = k.lanes[l];
            const uint32_t endId = other.base + (other.hi - other.lo);
            uint32_t& c = cursor[l - first];
            while (c < endId && o.start[c] < t) ++c;
            for (uint32_t back = 1; back <= 2 && c >= other.base + back; ++back) {
                const uint32_t x = c - back;
                if (o.end[x] <= t && o.end[x] > bestEnd) bestEnd = o.end[x], best = int32_t(x);
            }
        }
        const int64_t since = o.prev[g] >= 0 ? o.start[size_t(o.prev[g])] : INT64_MIN;
        while (w < waits.size() && waits[w] <= since) ++w;
        const bool recorded = w < waits.size() && waits[w] <= t;
        if (best < 0) continue;
        int64_t local = o.launch[g];
        if (o.prev[g] >= 0) local = std::max(local, o.end[size_t(o.prev[g])]);
        if (recorded || (t - bestEnd <= kInferredWaitNs && bestEnd > local)) {
            o.cross[g] = best;
            ++found;
        }
    }
}

// Couples each collective with two members or more whose capture is consistent (see the header).
uint32_t coupleCollectives(const Analysis& a, const ReplayKernels& k, LaneOrder& o) {
    uint32_t uncoupled = 0;
    std::vector<uint32_t> ids;
    o.collBegin.push_back(0);
    for (const Collective& c : a.collectives) {
        const Group& g = a.groups[size_t(c.group)];
        ids.clear();
        for (size_t s = 0; s < g.width(); ++s) {
            const uint32_t kk = a.slotKernel(c, s);
            if (kk == kMissing) continue;
            const uint32_t id = k.id(g.lanes[s].rank, g.lanes[s].lane, kk);
            if (id != kMissing) ids.push_back(id);
        }
        if (ids.size() < 2) continue;
        int64_t maxStart = INT64_MIN;
        for (uint32_t id : ids) maxStart = std::max(maxStart, o.start[id]);
        bool consistent = true;
        for (uint32_t id : ids) {
            consistent = consistent && o.end[id] >= maxStart;
            const uint32_t next = id + 1;
            if (next < o.prev.size() && o.prev[next] == int32_t(id)) consistent = consistent && o.start[next] >= maxStart;
        }
        if (!consistent) {
            ++uncoupled;
            continue;
        }
        const int32_t index = int32_t(o.collBegin.size() - 1);
        for (uint32_t id : ids) {
            o.coll[id] = index;
            o.collMembers.push_back(id);
            o.transfer.push_back(o.end[id] - maxStart);
        }
        o.collBegin.push_back(uint32_t(o.collMembers.size()));
    }
    return uncoupled;
}

LaneOrder laneOrder(const Profile& p, const ReplayKernels& k) {
    LaneOrder o;
    o.start.resize(k.count), o.end.resize(k.count), o.launch.assign(k.count, kNoBound);
    o.prev.assign(k.count, -1), o.cross.assign(k.count, -1), o.coll.assign(k.count, -1), o.rank.resize(k.count);
    for (const ReplayLane& l : k.lanes) {
        const KernelLane& kl = p.ranks[size_t(l.rank)].lanes[size_t(l.lane)];
        for (uint32_t i = l.lo; i < l.hi; ++i) {
            const uint32_t g = l.base + (i - l.lo);
            o.start[g] = kl.start[i];
            o.end[g] = kl.end(i);
            if (kl.hasLaunch(i)) o.launch[g] = std::min(kl.launchEnd(i), kl.start[i]);
            if (i > l.lo) o.prev[g] = int32_t(g - 1);
            o.rank[g] = uint16_t(l.rank);
        }
    }
    return o;
}

// A topological order of kernels (ids < n) and coupled collectives (n + index), lane by lane: each
// lane's kernels are taken in order for as long as what they wait for is done (the cross-stream
// source taken, a collective whose end they need fired), then the next lane; rounds over the lanes
// until every kernel is taken. A collective fires when its last member is taken. Long runs of one
// lane keep the sweep's reads close together.
std::vector<uint32_t> sweepOrder(const ReplayKernels& k, const LaneOrder& o, bool& ordered) {
    const uint32_t n = uint32_t(o.start.size()), c = uint32_t(o.collBegin.size() - 1);
    std::vector<uint32_t> cursor(k.lanes.size()), laneEnd(k.lanes.size()), left(c);
    std::vector<uint32_t> laneOf(n);
    for (size_t l = 0; l < k.lanes.size(); ++l) {
        cursor[l] = k.lanes[l].base;
        laneEnd[l] = k.lanes[l].base + (k.lanes[l].hi - k.lanes[l].lo);
        for (uint32_t g = cursor[l]; g < laneEnd[l]; ++g) laneOf[g] = uint32_t(l);
    }
    for (uint32_t x = 0; x < c; ++x) left[x] = o.collBegin[x + 1] - o.collBegin[x];
    // the end of kernel x is known: taken, and its collective (if any) fired
    auto ended = [&](int32_t x) {
        return cursor[laneOf[size_t(x)]] > uint32_t(x) && (o.coll[size_t(x)] < 0 || left[size_t(o.coll[size_t(x)])] == 0);
    };
    std::vector<uint32_t> order;
    order.reserve(n + c);
    for (bool progress = true; progress && order.size() < size_t(n) + c;) {
        progress = false;
        for (size_t l = 0; l < k.lanes.size(); ++l) {
            uint32_t& g = cursor[l];
            while (g < laneEnd[l] && (o.prev[g] < 0 || ended(o.prev[g])) && (o.cross[g] < 0 || ended(o.cross[g]))) {
                order.push_back(g);
                const int32_t cc = o.coll[g];
                ++g;
                progress = true;
                if (cc >= 0 && --left[size_t(cc)] == 0) order.push_back(n + uint32_t(cc));
            }
        }
    }
    ordered = order.size() == size_t(n) + c;
    if (!ordered) {  // a cycle: the rest in id order (the sweep then reads some ends before they are final)
        std::vector<bool> done(size_t(n) + c, false);
        for (uint32_t u : order) done[u] = true;
        for (uint32_t i = 0; i < n + c; ++i)
            if (!done[i]) order.push_back(i);
    }
    return order;
}

}  // namespace

ReplayGraph buildReplayGraph(const Profile& p, const Analysis& a, const ReplayKernels& k, const std::vector<uint32_t>& step,
                             uint32_t steps, const std::vector<int64_t>& median) {
    ReplayGraph gr;
    gr.steps = steps;
    gr.ranks = p.ranks.size();
    LaneOrder o = laneOrder(p, k);
    // ranks in parallel: each writes only its own kernels' sources
    std::vector<uint32_t> found(p.ranks.size(), 0);
    parallelFor(p.ranks.size(), a.options.threads, [&](size_t r) {
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) crossWaits(p, k, p.ranks[r], l, o, found[r]);
    });
    for (uint32_t f : found) gr.waits += f;
    gr.uncoupled = coupleCollectives(a, k, o);
    const uint32_t n = k.count;
    // each rank's first kernel of each step keeps its launch when launches are dropped
    std::vector<uint32_t> firstOfStep(p.ranks.size() * (size_t(steps) + 1), kMissing);
    for (uint32_t g = 0; g < n; ++g) {
        uint32_t& f = firstOfStep[size_t(o.rank[g]) * (steps + 1) + step[g]];
        if (step[g] && (f == kMissing || o.start[g] < o.start[f])) f = g;
    }
    const std::vector<uint32_t> order = sweepOrder(k, o, gr.ordered);
    std::vector<uint32_t> newId(n);
    std::vector<uint32_t> fired;
    for (uint32_t u : order) {
        if (u < n) newId[u] = uint32_t(gr.capturedStart.size()), gr.capturedStart.push_back(o.start[u]);
        else fired.push_back(u - n), gr.fireAfter.push_back(uint32_t(gr.capturedStart.size()));
    }
    gr.nodes.resize(n);
    for (uint32_t g = 0; g < n; ++g) {
        ReplayNode& nd = gr.nodes[newId[g]];
        int64_t bound = o.launch[g];
        if (o.prev[g] >= 0) {
            const int64_t prevEnd = o.end[size_t(o.prev[g])];
            nd.prev = int32_t(newId[size_t(o.prev[g])]);
            nd.prevLag = int32_t(std::clamp<int64_t>(o.start[g] - prevEnd, INT32_MIN, 0));
            bound = std::max(bound, prevEnd + nd.prevLag);
        }
        if (o.cross[g] >= 0) {
            nd.cross = int32_t(newId[size_t(o.cross[g])]);
            bound = std::max(bound, o.end[size_t(o.cross[g])]);
        }
        nd.launch = o.launch[g];
        nd.keepLaunch = o.prev[g] < 0 && o.cross[g] < 0;
        if (bound == kNoBound) nd.launch = bound = o.start[g];  // no dependency at all: it starts where it started
        nd.gap = std::max<int64_t>(0, o.start[g] - bound);
        nd.duration = o.end[g] - o.start[g];
        nd.median = median.empty() ? nd.duration : median[g];
        nd.step = step[g];
        nd.rank = o.rank[g];
        if (step[g] && firstOfStep[size_t(o.rank[g]) * (steps + 1) + step[g]] == g) nd.keepLaunch = 1;
    }
    gr.memberBegin.push_back(0);
    for (uint32_t c : fired) {
        for (uint32_t m = o.collBegin[c]; m < o.collBegin[c + 1]; ++m) {
            gr.nodes[newId[o.collMembers[m]]].member = int32_t(gr.memberNode.size());
            gr.memberNode.push_back(newId[o.collMembers[m]]);
            gr.transfer.push_back(o.transfer[m]);
        }
        gr.memberBegin.push_back(uint32_t(gr.memberNode.size()));
    }
    return gr;
}

}  // namespace skew
