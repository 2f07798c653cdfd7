#include "analysis/whatif_replay.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "analysis/whatif_pack.h"

namespace skew {

ReplayInputs capturedInputs(size_t ranks) {
    ReplayInputs in;
    in.median.assign(ranks, 0);
    in.dropLaunch.assign(ranks, 0);
    in.measureError = true;
    return in;
}

namespace {

// Sixteen scenarios side by side, in halves of eight: one value per scenario, a half in one vector
// register where the CPU has 512-bit vectors (two or four elsewhere; the compiler splits it). A
// sweep reads each kernel's record once for all sixteen: it is bound by reading the records.
constexpr size_t kBatch = kReplayBatch;
constexpr size_t kHalf = 8, kHalves = kBatch / kHalf;
static_assert(kBatch % kHalf == 0);
// (these helpers are inlined into the sweep: the ABI of passing V between functions never applies)
#pragma GCC diagnostic ignored "-Wpsabi"
typedef int64_t V __attribute__((vector_size(kHalf * sizeof(int64_t))));

// A broadcast. A macro: GCC 12 compiles a function returning V for the default target, and once
// inlined into the AVX-512 sweep its vector is built lane by lane (eight masked broadcasts a value,
// six values a kernel); written in place it is one vpbroadcastq.
#define SKEW_SPLAT(x) (V{} + int64_t(x))
// Each half of the batch in turn (the loop unrolled: its halves stay in registers).
#define SKEW_HALVES(h) _Pragma("GCC unroll 4") for (size_t h = 0; h < kHalves; ++h)
V vmax(V a, V b) { return a > b ? a : b; }
V vmin(V a, V b) { return a < b ? a : b; }
V pick(V mask, V yes, V no) { return (mask & yes) | (~mask & no); }  // mask lanes all ones or zero
// A batch's values kept in memory (in a std::vector, which may not align to 64), a half copied in
// and out of registers
struct Vs {
    int64_t x[kBatch];
};
V ld(const Vs& m, size_t h) {
    V v;
    std::memcpy(&v, m.x + h * kHalf, sizeof v);
    return v;
}
void st(Vs& m, size_t h, V v) { std::memcpy(m.x + h * kHalf, &v, sizeof v); }
Vs vs(int64_t x) {
    Vs m;
    std::fill(std::begin(m.x), std::end(m.x), x);
    return m;
}

// The sweep of a batch of scenarios (at most kBatch; the rest of the vector repeats the last one):
// the last end of each lane, the end of each cross-stream source slot, the start of each collective
// member, each step's first start and last end. Nothing per kernel is written (but the recorded
// replay's starts and ends), so the sweep reads the packed records once and touches little else.
class Sweep {
public:
    // record: when not null, every kernel's start and end of the first scenario (per lane-order id)
    Sweep(const ReplayGraph& g, int64_t* recStart = nullptr, int64_t* recEnd = nullptr) : g_(g), recStart_(recStart), recEnd_(recEnd) {
        // a member's start is written before its collective fires: no value to start from
        memberStart_.resize(g.memberSlots);
    }

    // The next batch: its inputs, and every value back to its start.
    void reset(const std::vector<ReplayInputs>& in) {
        n_ = in.size(), measured_ = -1, maxError_ = 0;
        laneEnd_.assign(g_.laneBase.size(), vs(INT64_MIN));
        sourceEnd_.assign(g_.packedSlots, vs(INT64_MIN));
        stepStart_.assign(size_t(g_.steps) + 1, vs(INT64_MAX));
        stepEnd_.assign(size_t(g_.steps) + 1, vs(INT64_MIN));
        // per rank: which scenarios take the counterparts' median durations, which drop launches
        median_.assign(g_.ranks, vs(0)), drop_.assign(g_.ranks, vs(0));
        for (size_t s = 0; s < kBatch; ++s) {
            const ReplayInputs& x = in[std::min(s, n_ - 1)];
            for (size_t r = 0; r < g_.ranks; ++r) {
                median_[r].x[s] = x.median[r] ? -1 : 0;  // (a record's median is its duration without medians)
                drop_[r].x[s] = x.dropLaunch[r] ? -1 : 0;
            }
            if (s < n_ && x.measureError) measured_ = int(s);
        }
    }

    void run() {
        if (!g_.sweep.empty()) {  // the records packed once, read in order
            const SweepKernel* next = g_.sweep.data();
            for (const SweepRun& r : g_.order) {
                if (r.lane == kFire) {
                    fire(r.begin);
                } else {
                    lane(r, next);
                    next += r.end - r.begin;
                }
            }
            return;
        }
        RecordFeed feed(g_, buffer_);  // the records packed block by block, a run in pieces
        for (const SweepRun& r : g_.order) {
            if (r.lane == kFire) {
                fire(r.begin);
                continue;
            }
            for (uint32_t b = r.begin; b < r.end;) {
                const uint32_t e = b + std::min(r.end - b, RecordFeed::kMaxTake);
                lane({r.lane, b, e}, feed.take(e - b));
                b = e;
            }
        }
    }

    std::vector<ReplayOutcome> outcomes() const {
        std::vector<ReplayOutcome> out(n_);
        for (size_t s = 0; s < n_; ++s) {
            out[s].kernels = g_.size();
            out[s].maxErrorNs = int(s) == measured_ ? maxError_ : 0;
            out[s].stepStart.resize(size_t(g_.steps) + 1), out[s].stepEnd.resize(size_t(g_.steps) + 1);
            for (size_t st = 0; st <= g_.steps; ++st) out[s].stepStart[st] = stepStart_[st].x[s], out[s].stepEnd[st] = stepEnd_[st].x[s];
        }
        return out;
    }

private:
    // A collective's members end (its last member was the last kernel taken on each member's lane).
    void fire(uint32_t c) {
        const uint32_t b = g_.memberBegin[c], e = g_.memberBegin[c + 1];
        V latest[kHalves];  // the latest member start per scenario
        SKEW_HALVES(h) latest[h] = SKEW_SPLAT(INT64_MIN);
        for (uint32_t m = b; m < e; ++m) {
            const Vs& start = memberStart_[size_t(g_.memberSlot[m])];
            SKEW_HALVES(h) latest[h] = vmax(latest[h], ld(start, h));
        }
        for (uint32_t m = b; m < e; ++m) {
            V end[kHalves];
            SKEW_HALVES(h) end[h] = latest[h] + SKEW_SPLAT(g_.transfer[m]);
            if (recEnd_) recEnd_[g_.memberNode[m]] = end[0][0];
            SKEW_HALVES(h) st(laneEnd_[g_.memberLane[m]], h, end[h]);
            if (const int32_t slot = g_.memberSource[m]; slot >= 0) SKEW_HALVES(h) st(sourceEnd_[size_t(slot)], h, end[h]);
            if (const uint32_t step = g_.memberStep[m]) SKEW_HALVES(h) st(stepEnd_[step], h, vmax(ld(stepEnd_[step], h), end[h]));
        }
    }

    // The first start and last end of one step over a run's kernels, kept in registers and merged
    // into the step's values when the run goes on to another step or ends (minimum and maximum
    // taken in any order: the same values); a kernel's min/max into memory each would wait for the
    // previous kernel's store.
    struct StepSpan {
        uint32_t step = 0;
        V first[kHalves] = {}, last[kHalves] = {};
    };
    void merge(const StepSpan& s) {
        if (!s.step) return;
        SKEW_HALVES(h) {
            st(stepStart_[s.step], h, vmin(ld(stepStart_[s.step], h), s.first[h]));
            st(stepEnd_[s.step], h, vmax(ld(stepEnd_[s.step], h), s.last[h]));
        }
    }
    void open(StepSpan& s, uint32_t step) {
        merge(s);
        s.step = step;
        SKEW_HALVES(h) s.first[h] = SKEW_SPLAT(INT64_MAX), s.last[h] = SKEW_SPLAT(INT64_MIN);
    }

    // The run's kernels, lane-order ids [r.begin, r.end), whose records start at `k`. A member ends
    // when its collective fires: it changes no end here (in a complete order it ends its run).
    void lane(const SweepRun& r, const SweepKernel* k) {
        const uint32_t rank = g_.laneRank[r.lane];
        V median[kHalves], drop[kHalves], last[kHalves];
        SKEW_HALVES(h) median[h] = ld(median_[rank], h), drop[h] = ld(drop_[rank], h), last[h] = ld(laneEnd_[r.lane], h);
        StepSpan span;
        for (uint32_t i = r.begin; i < r.end; ++i, ++k) {
            const int64_t dropped = k->keepLaunch ? k->launch : kNoBound;  // the launch bound where launches are dropped
            V start[kHalves];
            SKEW_HALVES(h) start[h] = pick(drop[h], SKEW_SPLAT(dropped), SKEW_SPLAT(k->launch));
            if (k->hasPrev) SKEW_HALVES(h) start[h] = vmax(start[h], last[h] + SKEW_SPLAT(k->prevLag));
            if (const int32_t cross = k->crossSlot; cross >= 0) SKEW_HALVES(h) start[h] = vmax(start[h], ld(sourceEnd_[size_t(cross)], h));
            SKEW_HALVES(h) start[h] += SKEW_SPLAT(k->gap);
            if (recStart_) recStart_[i] = start[0][0];
            if (measured_ >= 0) maxError_ = std::max<int64_t>(maxError_, std::llabs(start[measured_ / kHalf][measured_ % kHalf] - g_.start[i]));
            const uint32_t step = k->step;
            if (step != span.step) open(span, step);
            if (step) SKEW_HALVES(h) span.first[h] = vmin(span.first[h], start[h]);
            if (const int32_t member = k->member; member >= 0) {
                SKEW_HALVES(h) st(memberStart_[size_t(member)], h, start[h]);
                continue;
            }
            V end[kHalves];
            SKEW_HALVES(h) end[h] = start[h] + pick(median[h], SKEW_SPLAT(k->median), SKEW_SPLAT(k->duration));
            if (recEnd_) recEnd_[i] = end[0][0];
            SKEW_HALVES(h) last[h] = end[h];
            if (const int32_t slot = k->sourceSlot; slot >= 0) SKEW_HALVES(h) st(sourceEnd_[size_t(slot)], h, end[h]);
            if (step) SKEW_HALVES(h) span.last[h] = vmax(span.last[h], end[h]);
        }
        merge(span);
        SKEW_HALVES(h) st(laneEnd_[r.lane], h, last[h]);
    }

    const ReplayGraph& g_;
    size_t n_ = 0;  // scenarios of the batch
    int64_t* const recStart_;
    int64_t* const recEnd_;
    int measured_ = -1;
    int64_t maxError_ = 0;
    std::vector<Vs> laneEnd_, sourceEnd_, memberStart_, stepStart_, stepEnd_;  // per lane, slot, member, step
    std::vector<Vs> median_, drop_;                                           // per rank: lanes all ones or zero
    FlatVector<SweepKernel> buffer_;  // RecordFeed's, without packed records: kept from batch to batch
};

// The sweep, compiled for the vector widths CPUs have (chosen when the program starts).
// (without SLP vectorization, which builds the broadcasts of two adjacent fields through the stack)
__attribute__((target_clones("avx512f", "avx2", "default"), flatten, optimize("no-tree-slp-vectorize"))) void runSweep(Sweep& s) { s.run(); }

std::vector<ReplayOutcome> sweepOf(Sweep& s, const std::vector<ReplayInputs>& in) {
    s.reset(in);
    runSweep(s);
    return s.outcomes();
}

}  // namespace

ReplayOutcome replayRecorded(const ReplayGraph& g, const ReplayInputs& in, int64_t* start, int64_t* end) {
    Sweep s(g, start, end);
    return sweepOf(s, {in}).front();
}

std::vector<ReplayOutcome> replay(const ReplayGraph& g, const std::vector<ReplayInputs>& in) {
    std::vector<ReplayOutcome> out;
    Sweep s(g);  // its memory kept from batch to batch
    for (size_t b = 0; b < in.size(); b += kBatch) {
        const std::vector<ReplayInputs> batch(in.begin() + std::ptrdiff_t(b), in.begin() + std::ptrdiff_t(std::min(in.size(), b + kBatch)));
        for (ReplayOutcome& o : sweepOf(s, batch)) out.push_back(std::move(o));
    }
    return out;
}

}  // namespace skew
