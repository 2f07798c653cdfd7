#pragma once
// core/timeline: what the run views (timeline, overview, step map, heatmap) draw, computed once
// after the analysis and shared by the viewer, `render --view` and the benchmark. No Qt.
//
// TimelineIndex is the level of detail of the run timeline: every rank and stream over the whole
// window, at any zoom, drawn truthfully. A pixel column of a row reports the time each class of work
// occupied inside it (NCCL waiting, NCCL transfer, GEMM, other NCCL, other kernel) and how many
// kernels overlap it, so a merged column never shows a class that did not run there.
//
// How: per lane, prefix sums of class time at every kBlock-th kernel. The time of a class inside a
// column [a, b) is F(b) - F(a), with F(t) the class time of every kernel before t; F(t) costs one
// galloping search over the lane's (sorted) starts, one block summary and at most kBlock - 1 kernels.
// A frame at full zoom-out over millions of kernels therefore visits per pixel column one summary
// and a handful of kernels, and is exact at every zoom (unlike fixed 2^k levels, nothing is
// quantised). Extra memory: 5 int64 per kBlock (16) kernels, plus small per-rank and per-group indexes
// (bytes() says how much).
//
// The NCCL waiting part of a collective member is [its start, the collective's latest start]
// (memberWaitNs); the rest of the kernel is transfer. NCCL kernels that are in no collective are
// "other NCCL" (KernelClass).

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/kernel_class.h"
#include "model/profile.h"

namespace skew {

// Time to pixel columns: column c covers [boundary(c), boundary(c + 1)) ns.
struct PixelMap {
    double t0 = 0;       // ns at the left edge of column 0
    double nsPerPx = 1;  // > 0
    int width = 0;

    static PixelMap fit(double t0, double t1, int width);
    double boundary(int c) const { return t0 + double(c) * nsPerPx; }
    double end() const { return boundary(width); }
    // the column holding t (boundary(c) <= t < boundary(c + 1)); may lie outside [0, width)
    int column(double t) const;
    double x(double t) const { return (t - t0) / nsPerPx; }  // fractional pixel
};

// What one pixel column of a row holds.
struct ColumnSum {
    double ns[kKernelClasses] = {};  // time of each class inside the column
    uint32_t kernels = 0;        // kernels in the column: start < right edge and (end > left edge or start >= left edge)

    double busy() const {
        double s = 0;
        for (double v : ns) s += v;
        return s;
    }
};

class TimelineIndex {
public:
    static constexpr uint32_t kBlock = 16;  // = kLaneBlock: the lane's interval index bounds the running kernels

    TimelineIndex() = default;
    TimelineIndex(const Profile& p, const Analysis& a);

    bool valid() const { return p_ != nullptr; }
    const Profile& profile() const { return *p_; }
    const Analysis& analysis() const { return *a_; }
    int64_t start() const { return start_; }  // first kernel start, aligned ns
    int64_t end() const { return end_; }      // last kernel end

    // A rank's lanes in row order: NCCL streams first (most NCCL kernels first), then by stream id.
    const std::vector<int>& laneOrder(int rank) const { return ranks_[size_t(rank)].laneOrder; }

    // Work per pixel column of one lane: out[0 .. m.width), overwritten, or added to when accumulate.
    void columns(int rank, int lane, const PixelMap& m, ColumnSum* out, bool accumulate = false) const;
    // The same for one interval [a, b) (tests, tooltips).
    ColumnSum range(int rank, int lane, double a, double b) const;

    // Class of a kernel as a whole (a collective member is NcclTransfer; its wait part is waitNs).
    KernelClass kernelClass(int rank, int lane, uint32_t k) const;
    // The collective (index into Analysis::collectives) a kernel is a member of, or -1.
    int64_t collectiveOf(int rank, int lane, uint32_t k) const;
    // The waiting part of a member: min(collective's latest start, end) - start, clamped at 0.
    int64_t waitNs(int rank, int lane, uint32_t k) const;
    // The kernel whose [start - slack, end + slack) holds t, the nearest one when several; -1 none.
    int64_t kernelAt(int rank, int lane, double t, double slackNs) const;
    // index into [first, last) of the lane's kernels overlapping [a, b)
    std::pair<uint32_t, uint32_t> kernelsIn(int rank, int lane, double a, double b) const;

    // CPU launches: the launch call of each of the rank's kernels (KernelLane's launch columns),
    // per lane in order of the call's start. A launch is (lane, kernel).
    int process(int rank) const { return ranks_[size_t(rank)].process; }
    // Launches whose call may overlap [a, b) (it starts in [a - the lane's longest call, b)): how
    // many, and each one in turn.
    size_t launchCountIn(int rank, double a, double b) const;
    template <typename F>
    void forEachLaunch(int rank, double a, double b, F&& f) const {
        const auto& lanes = ranks_[size_t(rank)].lanes;
        for (size_t li = 0; li < lanes.size(); ++li) {
            auto [lo, hi] = launchRange(rank, int(li), a, b);
            for (uint32_t o = lo; o < hi; ++o) f(int(li), launchKernel(lanes[li], o));
        }
    }
    // a launch of an NCCL kernel
    bool ncclLaunch(int rank, int lane, uint32_t k) const { return p_->opOfName(kl(rank, lane).name[k]) != CollOp::NotNccl; }
    // launches per pixel column starting in it: all of the rank's, and those of its NCCL kernels
    void launchColumns(int rank, const PixelMap& m, uint32_t* all, uint32_t* nccl) const;

    // Collectives of a group in order of their earliest start; those overlapping [a, b) are within
    // the returned position range (check maxEnd > a).
    const std::vector<uint32_t>& collectivesByStart(int group) const { return groups_[size_t(group)].byStart; }
    std::pair<uint32_t, uint32_t> collectivesIn(int group, double a, double b) const;
    const std::vector<uint32_t>& bigCollectives() const { return big_; }  // big ones, by earliest start

    // Row of a rank's lane of a group member: (rank, lane) of collective slot.
    struct Bytes {
        size_t blocks = 0, launches = 0, collectives = 0, names = 0, missing = 0;
        size_t total() const { return blocks + launches + collectives + names + missing; }
    };
    Bytes bytes() const;

private:
    // What the index keeps per lane (a rank's kernels on one stream): class-time prefix sums, the
    // launch order, and the group slot the lane is, if any.
    struct LaneInfo {
        int group = -1, slot = -1;          // the group slot this stream is, if any
        bool endsSorted = true;
        bool hasNccl = false;
        bool identity = false;              // every kernel is a member, k-th kernel in the k-th collective
        std::vector<int64_t> sums;          // (blocks + 1) x kKernelClasses: class time of kernels [0, b * kBlock)
        int64_t maxEnd = 0;
        // launches: kernels with a launch call by the call's start; launchOrder empty when that is
        // kernels launchFirst, launchFirst + 1, ... in lane order (a stream's kernels are launched in
        // order; those launched before the capture have no row)
        std::vector<uint32_t> launchOrder;
        uint32_t launchFirst = 0, launches = 0;
        int64_t maxLaunchDur = 0;
    };
    struct RankInfo {
        int process = 0;
        std::vector<int> laneOrder;
        std::vector<LaneInfo> lanes;
    };
    struct GroupInfo {
        std::vector<uint32_t> byStart;           // collective indices by minStart
        int64_t maxSpan = 0;                     // max (maxEnd - minStart)
        std::vector<std::vector<uint32_t>> missing;  // per slot: positions where the slot has no kernel
    };
    struct Eval;  // F(t) evaluation state of one sweep

    // the constructor's steps
    void markGroupSlots(const Profile& p, const Analysis& a);
    void sumLanes(const Profile& p);
    void orderLaunches(const Profile& p);
    void orderCollectives(const Analysis& a);

    const KernelLane& kl(int rank, int lane) const { return p_->ranks[size_t(rank)].lanes[size_t(lane)]; }
    KernelClass nameWork(StrId name) const { return name < nameWork_.size() ? KernelClass(nameWork_[name]) : KernelClass::Other; }
    int64_t memberPos(const LaneInfo& L, uint32_t k, uint32_t& hint) const;
    int64_t memberWait(const LaneInfo& L, int rank, int lane, uint32_t k, uint32_t& hint) const;
    static uint32_t launchKernel(const LaneInfo& L, uint32_t order) { return L.launchOrder.empty() ? L.launchFirst + order : L.launchOrder[order]; }
    std::pair<uint32_t, uint32_t> launchRange(int rank, int lane, double a, double b) const;  // order positions

    const Profile* p_ = nullptr;
    const Analysis* a_ = nullptr;
    int64_t start_ = 0, end_ = 0;
    std::vector<RankInfo> ranks_;
    std::vector<GroupInfo> groups_;
    std::vector<uint32_t> big_;
    std::vector<uint8_t> nameWork_;  // per string id used as a kernel name: class of a non-member
};

}  // namespace skew
