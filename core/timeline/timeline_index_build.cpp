// Building a TimelineIndex (timeline_index.h): which lanes are group slots, the per-lane class-time
// summaries, launches in call order and collectives in start order. The queries are in
// timeline_index.cpp.
#include "timeline/timeline_index.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <numeric>

#include "util/saturating.h"

namespace skew {

namespace {

constexpr uint8_t kUnknown = 0xFF;  // a kernel name whose class is not yet known
constexpr int K = kKernelClasses;

}  // namespace

TimelineIndex::TimelineIndex(const Profile& p, const Analysis& a) : p_(&p), a_(&a) {
    nameWork_.assign(p.strings.size(), kUnknown);
    ranks_.resize(p.ranks.size());
    groups_.resize(a.groups.size());

    markGroupSlots(p, a);
    sumLanes(p);
    orderLaunches(p);
    orderCollectives(a);
}

// Which lanes are a group's slots, and where each slot misses a collective.
void TimelineIndex::markGroupSlots(const Profile& p, const Analysis& a) {
    for (size_t g = 0; g < a.groups.size(); ++g) {
        const Group& grp = a.groups[g];
        groups_[g].missing.resize(grp.width());
        for (size_t s = 0; s < grp.width(); ++s) {
            const GroupSlot& gl = grp.lanes[s];
            RankInfo& ri = ranks_[size_t(gl.rank)];
            ri.lanes.resize(p.ranks[size_t(gl.rank)].lanes.size());
            LaneInfo& L = ri.lanes[size_t(gl.lane)];
            L.group = int(g);
            L.slot = int(s);
            for (uint32_t c = 0; c < grp.count; ++c)
                if (grp.cells[size_t(c) * grp.width() + s] == kMissing) groups_[g].missing[s].push_back(c);
            // the usual NCCL stream: its kernels are the group's collectives one for one
            L.identity = groups_[g].missing[s].empty() && gl.kernels.size() == p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].size();
        }
    }
}

// Per lane, the class time of its kernels at every kBlock-th kernel (the F(t) summaries), and the
// window's first start and last end.
void TimelineIndex::sumLanes(const Profile& p) {
    bool any = false;
    start_ = end_ = 0;
    for (size_t r = 0; r < p.ranks.size(); ++r) {
        const Rank& rank = p.ranks[r];
        RankInfo& ri = ranks_[r];
        ri.process = rank.process;
        ri.lanes.resize(rank.lanes.size());
        ri.laneOrder.resize(rank.lanes.size());
        std::iota(ri.laneOrder.begin(), ri.laneOrder.end(), 0);
        std::stable_sort(ri.laneOrder.begin(), ri.laneOrder.end(), [&](int x, int y) {
            const KernelLane& a1 = rank.lanes[size_t(x)];
            const KernelLane& b1 = rank.lanes[size_t(y)];
            if ((a1.ncclKernels > 0) != (b1.ncclKernels > 0)) return a1.ncclKernels > 0;
            if (a1.ncclKernels != b1.ncclKernels) return a1.ncclKernels > b1.ncclKernels;
            return a1.stream < b1.stream;
        });
        for (size_t li = 0; li < rank.lanes.size(); ++li) {
            const KernelLane& lane = rank.lanes[li];
            LaneInfo& L = ri.lanes[li];
            const size_t n = lane.size();
            L.hasNccl = lane.ncclKernels > 0;
            if (n) {
                start_ = any ? std::min(start_, lane.start[0]) : lane.start[0];
                any = true;
            }
            for (size_t k = 1; k < n && L.endsSorted; ++k) L.endsSorted = lane.end(k) >= lane.end(k - 1);
            L.sums.assign((n / kBlock + 1) * K, 0);
            int64_t acc[K] = {}, maxEnd = INT64_MIN;
            uint32_t hint = 0;
            for (size_t k = 0; k < n; ++k) {
                if (k % kBlock == 0) {
                    std::copy(acc, acc + K, L.sums.begin() + std::ptrdiff_t(k / kBlock * K));
                }
                const StrId name = lane.name[k];
                if (nameWork_[name] == kUnknown) {
                    nameWork_[name] = uint8_t(p.opOfName(name) != CollOp::NotNccl ? KernelClass::OtherNccl
                                              : isGemmName(p.strings.str(name)) ? KernelClass::Gemm
                                                                                : KernelClass::Other);
                }
                const int64_t dur = std::max<int64_t>(0, lane.end(k) - lane.start[k]);
                int64_t wait = nameWork_[name] == uint8_t(KernelClass::OtherNccl) ? memberWait(L, int(r), int(li), uint32_t(k), hint) : -1;
                if (wait >= 0) {  // sums of durations saturate (util/saturating.h)
                    acc[int(KernelClass::NcclWait)] = satAdd(acc[int(KernelClass::NcclWait)], wait);
                    acc[int(KernelClass::NcclTransfer)] = satAdd(acc[int(KernelClass::NcclTransfer)], dur - wait);
                } else {
                    acc[nameWork_[name]] = satAdd(acc[nameWork_[name]], dur);
                }
                maxEnd = std::max(maxEnd, lane.end(k));
                end_ = std::max(end_, lane.end(k));
            }
            if (n % kBlock == 0) {
                std::copy(acc, acc + K, L.sums.begin() + std::ptrdiff_t(n / kBlock * K));
            }
            L.maxEnd = n ? maxEnd : 0;
        }
    }
}

// Per lane, the kernels with a launch call in order of the call's start.
void TimelineIndex::orderLaunches(const Profile& p) {
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t li = 0; li < p.ranks[r].lanes.size(); ++li) {
            const KernelLane& lane = p.ranks[r].lanes[li];
            LaneInfo& L = ranks_[r].lanes[li];
            // contiguous: the launched kernels are one run of the lane, their calls in lane order
            bool contiguous = true;
            int64_t first = -1, last = -1;
            for (size_t k = 0; k < lane.size(); ++k) {
                if (!lane.hasLaunch(k)) continue;
                ++L.launches;
                L.maxLaunchDur = std::max(L.maxLaunchDur, lane.launchDuration[k]);
                if (first < 0) first = int64_t(k);
                else if (last != int64_t(k) - 1 || lane.launchStart(k) < lane.launchStart(k - 1)) contiguous = false;
                last = int64_t(k);
            }
            L.launchFirst = first < 0 ? 0 : uint32_t(first);
            if (contiguous) continue;
            for (uint32_t k = 0; k < lane.size(); ++k)
                if (lane.hasLaunch(k)) L.launchOrder.push_back(k);
            std::stable_sort(L.launchOrder.begin(), L.launchOrder.end(),
                             [&](uint32_t x, uint32_t y) { return lane.launchStart(x) < lane.launchStart(y); });
        }
}

// Per group, the collectives in order of their earliest start; the big ones of every group.
void TimelineIndex::orderCollectives(const Analysis& a) {
    for (size_t g = 0; g < a.groups.size(); ++g) {
        const Group& grp = a.groups[g];
        GroupInfo& gi = groups_[g];
        gi.byStart.resize(grp.count);
        std::iota(gi.byStart.begin(), gi.byStart.end(), grp.firstCollective);
        std::stable_sort(gi.byStart.begin(), gi.byStart.end(),
                         [&](uint32_t x, uint32_t y) { return a.collectives[x].minStart < a.collectives[y].minStart; });
        for (uint32_t c : gi.byStart) gi.maxSpan = std::max(gi.maxSpan, a.collectives[c].maxEnd - a.collectives[c].minStart);
    }
    for (uint32_t c = 0; c < a.collectives.size(); ++c)
        if (a.collectives[c].big) big_.push_back(c);
    std::stable_sort(big_.begin(), big_.end(), [&](uint32_t x, uint32_t y) { return a.collectives[x].minStart < a.collectives[y].minStart; });
}

}  // namespace skew
