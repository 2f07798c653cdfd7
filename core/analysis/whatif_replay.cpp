#include "analysis/whatif_replay.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <climits>
#include <cstdlib>

namespace skew {

ReplayInputs capturedInputs(size_t ranks) {
    ReplayInputs in;
    in.median.assign(ranks, 0);
    in.dropLaunch.assign(ranks, 0);
    in.measureError = true;
    return in;
}

namespace {

// The sweep of K scenarios, K values side by side per slot: the last end of each lane, the end of
// each cross-stream source, the start of each collective member. Nothing per kernel is written, so
// the sweep reads the graph's arrays once and touches little else.
template <size_t K>  // scenarios per sweep: a constant, so that the loops over them unroll
class Sweep {
public:
    // record: when not null, every kernel's start and end of the first scenario (per lane-order id)
    Sweep(const ReplayGraph& g, const std::vector<ReplayInputs>& in, int64_t* recStart = nullptr, int64_t* recEnd = nullptr)
        : g_(g), in_(in), recStart_(recStart), recEnd_(recEnd) {
        laneEnd_.assign(g.laneBase.size() * k_, INT64_MIN);
        sourceEnd_.assign(size_t(g.packedSlots) * k_, INT64_MIN);
        memberStart_.assign(g.memberNode.size() * k_, INT64_MIN);
        stepStart_.assign((size_t(g.steps) + 1) * k_, INT64_MAX);
        stepEnd_.assign((size_t(g.steps) + 1) * k_, INT64_MIN);
        for (size_t s = 0; s < k_; ++s)
            if (in[s].measureError) measured_ = int(s);
    }

    std::vector<ReplayOutcome> run() {
        const SweepKernel* next = g_.sweep.data();  // the records, read in order
        for (const SweepRun& r : g_.order) {
            if (r.lane == kFire) {
                fire(r.begin);
            } else {
                lane(r, next);
                next += r.end - r.begin;
            }
        }
        std::vector<ReplayOutcome> out(k_);
        for (size_t s = 0; s < k_; ++s) {
            out[s].kernels = g_.size();
            out[s].maxErrorNs = int(s) == measured_ ? maxError_ : 0;
            out[s].stepStart.resize(size_t(g_.steps) + 1), out[s].stepEnd.resize(size_t(g_.steps) + 1);
            for (size_t st = 0; st <= g_.steps; ++st)
                out[s].stepStart[st] = stepStart_[st * k_ + s], out[s].stepEnd[st] = stepEnd_[st * k_ + s];
        }
        return out;
    }

private:
    // a kernel of `lane` ended at end[0..K): its lane's last end, its slot's when it is a source
    void ended(uint32_t lane, int32_t slot, uint32_t step, const int64_t* end) {
        std::copy(end, end + k_, &laneEnd_[size_t(lane) * k_]);
        if (slot >= 0) std::copy(end, end + k_, &sourceEnd_[size_t(slot) * k_]);
        if (step) {
            int64_t* const se = &stepEnd_[step * k_];
            for (size_t s = 0; s < k_; ++s) se[s] = std::max(se[s], end[s]);
        }
    }

    // A collective's members end (its last member was the last kernel taken on each member's lane).
    void fire(uint32_t c) {
        const uint32_t b = g_.memberBegin[c], e = g_.memberBegin[c + 1];
        std::fill(start_.begin(), start_.end(), INT64_MIN);  // the latest member start per scenario
        for (uint32_t m = b; m < e; ++m)
            for (size_t s = 0; s < k_; ++s) start_[s] = std::max(start_[s], memberStart_[m * k_ + s]);
        std::array<int64_t, K>& end = end_;
        for (uint32_t m = b; m < e; ++m) {
            for (size_t s = 0; s < k_; ++s) end[s] = start_[s] + g_.transfer[m];
            if (recEnd_) recEnd_[g_.memberNode[m]] = end[0];
            ended(g_.memberLane[m], g_.memberSource[m], g_.memberStep[m], end.data());
        }
    }

    // The run's kernels, lane-order ids [r.begin, r.end), whose records start at `k`.
    void lane(const SweepRun& r, const SweepKernel* k) {
        const uint32_t rank = g_.laneRank[r.lane];
        std::array<bool, K> median{}, drop{};
        for (size_t s = 0; s < k_; ++s) median[s] = in_[s].median[rank] && !g_.median.empty(), drop[s] = in_[s].dropLaunch[rank];
        const int64_t* const last = &laneEnd_[size_t(r.lane) * k_];
        int64_t* const start = start_.data();
        int64_t* const end = end_.data();
        for (uint32_t i = r.begin; i < r.end; ++i, ++k) {
            const int64_t launch = k->launch, gap = k->gap, lag = k->prevLag;
            const int64_t dropped = k->keepLaunch ? launch : kNoBound;  // the launch bound where launches are dropped
            for (size_t s = 0; s < k_; ++s) start[s] = drop[s] ? dropped : launch;
            if (k->hasPrev)
                for (size_t s = 0; s < k_; ++s) start[s] = std::max(start[s], last[s] + lag);
            if (const int32_t cross = k->crossSlot; cross >= 0) {
                const int64_t* const src = &sourceEnd_[size_t(cross) * k_];
                for (size_t s = 0; s < k_; ++s) start[s] = std::max(start[s], src[s]);
            }
            for (size_t s = 0; s < k_; ++s) start[s] += gap;
            if (recStart_) recStart_[i] = start[0];
            if (measured_ >= 0) maxError_ = std::max<int64_t>(maxError_, std::llabs(start[measured_] - g_.start[i]));
            if (const uint32_t st = k->step) {
                int64_t* const ss = &stepStart_[st * k_];
                for (size_t s = 0; s < k_; ++s) ss[s] = std::min(ss[s], start[s]);
            }
            if (const int32_t member = k->member; member >= 0) {
                std::copy(start, start + k_, &memberStart_[size_t(member) * k_]);
                continue;
            }
            for (size_t s = 0; s < k_; ++s) end[s] = start[s] + (median[s] ? k->median : k->duration);
            if (recEnd_) recEnd_[i] = end[0];
            ended(r.lane, k->sourceSlot, k->step, end);
        }
    }

    static constexpr size_t k_ = K;
    const ReplayGraph& g_;
    const std::vector<ReplayInputs>& in_;
    int64_t* const recStart_;
    int64_t* const recEnd_;
    int measured_ = -1;
    int64_t maxError_ = 0;
    // K values side by side: per lane, per source slot, per member, per step
    std::vector<int64_t> laneEnd_, sourceEnd_, memberStart_, stepStart_, stepEnd_;
    std::array<int64_t, K> start_{}, end_{};  // the kernel at hand
};

// Up to kMaxBatch scenarios per sweep.
constexpr size_t kMaxBatch = 8;

template <size_t K>
std::vector<ReplayOutcome> sweepOf(const ReplayGraph& g, const std::vector<ReplayInputs>& in) {
    if constexpr (K == 0) {
        return {};
    } else {
        if (in.size() == K) return Sweep<K>(g, in).run();
        return sweepOf<K - 1>(g, in);
    }
}

}  // namespace

ReplayOutcome replayRecorded(const ReplayGraph& g, const ReplayInputs& in, int64_t* start, int64_t* end) {
    return Sweep<1>(g, {in}, start, end).run().front();
}

std::vector<ReplayOutcome> replay(const ReplayGraph& g, const std::vector<ReplayInputs>& in) {
    std::vector<ReplayOutcome> out;
    for (size_t b = 0; b < in.size(); b += kMaxBatch) {
        const std::vector<ReplayInputs> batch(in.begin() + std::ptrdiff_t(b), in.begin() + std::ptrdiff_t(std::min(in.size(), b + kMaxBatch)));
        for (ReplayOutcome& o : sweepOf<kMaxBatch>(g, batch)) out.push_back(std::move(o));
    }
    return out;
}

}  // namespace skew
