#include "timeline/timeline_index.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

#include "model/lane_index.h"
#include "util/saturating.h"

namespace skew {

// the sweep bounds running kernels by the lane's interval index, block for block
static_assert(TimelineIndex::kBlock == kLaneBlock);

namespace {

constexpr int K = kKernelClasses;

// First index >= from where `before(index)` is false, for a predicate that holds on a prefix.
// Gallops from `from` (the previous answer of a sweep); falls back to a binary search below it.
template <typename Pred>
size_t gallop(size_t n, size_t from, Pred before) {
    if (from > n) from = n;
    size_t lo = 0, hi = from;
    if (from == 0 || before(from - 1)) {
        // the answer is at or after `from`: grow a window until it holds the answer
        lo = from;
        size_t step = 1;
        hi = from;
        while (hi < n && before(hi)) {
            lo = hi + 1;
            hi = lo + step;
            step *= 2;
        }
        if (hi > n) hi = n;
    }
    while (lo < hi) {  // binary search in [lo, hi)
        size_t mid = lo + (hi - lo) / 2;
        if (before(mid)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// The same from a guess `g` (a sweep's predicted answer), galloping forward or backward from it.
template <typename Pred>
size_t gallopFrom(size_t n, size_t g, Pred before) {
    if (g > n) g = n;
    if (g == 0 || before(g - 1)) return gallop(n, g, before);
    size_t hi = g - 1, lo = 0, step = 1;  // !before(hi): the answer is <= hi
    for (;;) {
        size_t probe = hi >= step ? hi - step : 0;
        if (probe == 0 && !before(0)) return 0;
        if (before(probe)) {
            lo = probe + 1;
            break;
        }
        hi = probe;
        step *= 2;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(mid)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

}  // namespace

PixelMap PixelMap::fit(double t0, double t1, int width) {
    PixelMap m;
    m.t0 = t0;
    m.width = std::max(1, width);
    m.nsPerPx = std::max(1e-6, (t1 - t0) / double(m.width));
    return m;
}

int PixelMap::column(double t) const {
    double f = std::floor((t - t0) / nsPerPx);
    if (f < -1e9) return -1000000000;
    if (f > 1e9) return 1000000000;
    int c = int(f);
    // the division can round across a boundary: settle on the column whose [boundary(c), boundary(c+1)) holds t
    if (t < boundary(c)) --c;
    else if (t >= boundary(c + 1)) ++c;
    return c;
}

// ---- members ----------------------------------------------------------------------------------

// Position of kernel k among its group slot's kernels (which are the non-missing cells of the
// slot's column, in order), turned into the collective's position; -1 when k is not a member.
int64_t TimelineIndex::memberPos(const LaneInfo& L, uint32_t k, uint32_t& hint) const {
    if (L.group < 0) return -1;
    const Group& g = a_->groups[size_t(L.group)];
    if (L.identity) return int64_t(g.firstCollective) + int64_t(k);
    const std::vector<uint32_t>& ks = g.lanes[size_t(L.slot)].kernels;
    size_t p = gallop(ks.size(), hint, [&](size_t i) { return ks[i] < k; });
    if (p >= ks.size() || ks[p] != k) return -1;
    hint = uint32_t(p);
    const std::vector<uint32_t>& miss = groups_[size_t(L.group)].missing[size_t(L.slot)];
    size_t c = p;
    if (!miss.empty()) {
        // the p-th non-missing position: c = p + (missing positions <= c), found by iterating to the fixed point
        for (;;) {
            size_t m = size_t(std::upper_bound(miss.begin(), miss.end(), uint32_t(c)) - miss.begin());
            if (p + m == c) break;
            c = p + m;
        }
    }
    return int64_t(g.firstCollective) + int64_t(c);
}

int64_t TimelineIndex::memberWait(const LaneInfo& L, int rank, int lane, uint32_t k, uint32_t& hint) const {
    int64_t c = memberPos(L, k, hint);
    if (c < 0) return -1;
    const KernelLane& l = kl(rank, lane);
    return memberWaitNs(a_->collectives[size_t(c)], l.start[k], l.end(k));
}

KernelClass TimelineIndex::kernelClass(int rank, int lane, uint32_t k) const {
    KernelClass w = nameWork(kl(rank, lane).name[k]);
    if (w == KernelClass::OtherNccl && collectiveOf(rank, lane, k) >= 0) return KernelClass::NcclTransfer;
    return w;
}

int64_t TimelineIndex::collectiveOf(int rank, int lane, uint32_t k) const {
    uint32_t hint = 0;
    return memberPos(ranks_[size_t(rank)].lanes[size_t(lane)], k, hint);
}

int64_t TimelineIndex::waitNs(int rank, int lane, uint32_t k) const {
    uint32_t hint = 0;
    return std::max<int64_t>(0, memberWait(ranks_[size_t(rank)].lanes[size_t(lane)], rank, lane, k, hint));
}

// ---- F(t): class time of every kernel before t ------------------------------------------------

struct TimelineIndex::Eval {
    const TimelineIndex& ix;
    int rank, lane;
    const KernelLane& kl;
    const LaneInfo& L;
    const int64_t* st;
    const uint8_t* work;
    const Collective* members = nullptr;  // identity lanes: the k-th kernel's collective is members[k]
    size_t i = 0;          // kernels with start < t
    int64_t base[K] = {};  // full class time of kernels [0, i)
    uint32_t hint = 0;     // member position hint

    Eval(const TimelineIndex& x, int r, int l)
        : ix(x), rank(r), lane(l), kl(x.kl(r, l)), L(x.ranks_[size_t(r)].lanes[size_t(l)]), st(kl.start.data()),
          work(x.nameWork_.data()) {
        if (L.identity) members = &x.a_->collectives[x.a_->groups[size_t(L.group)].firstCollective];
    }

    int64_t en(size_t k) const { return kl.end(k); }

    // class split of kernel k: wait part length (or -1 for a non-member) and its class
    void split(size_t k, int64_t& wait, int& cls) {
        cls = work[kl.name[k]];
        if (cls != int(KernelClass::OtherNccl) || L.group < 0) {
            wait = -1;
        } else if (members) {
            wait = memberWaitNs(members[k], st[k], en(k));
        } else {
            wait = ix.memberWait(L, rank, lane, uint32_t(k), hint);
        }
    }
    void addFull(size_t k, int64_t* acc) {
        int64_t wait;
        int cls;
        split(k, wait, cls);
        const int64_t dur = std::max<int64_t>(0, en(k) - st[k]);
        if (wait >= 0) {
            acc[int(KernelClass::NcclWait)] = satAdd(acc[int(KernelClass::NcclWait)], wait);
            acc[int(KernelClass::NcclTransfer)] = satAdd(acc[int(KernelClass::NcclTransfer)], dur - wait);
        } else {
            acc[cls] = satAdd(acc[cls], dur);
        }
    }
    // remove the part of kernel k after t (t inside (start, end))
    void subTail(size_t k, double t, double* F) {
        int64_t wait;
        int cls;
        split(k, wait, cls);
        const double s = double(st[k]), e = double(en(k));
        const double tail = e - std::max(t, s);
        if (tail <= 0) return;
        if (wait >= 0) {
            double waitTail = std::max(0.0, s + double(wait) - std::max(t, s));
            F[int(KernelClass::NcclWait)] -= waitTail;
            F[int(KernelClass::NcclTransfer)] -= tail - waitTail;
        } else {
            F[cls] -= tail;
        }
    }

    // start loading the block that holds kernel g (and its summary) before it is needed
    void prefetch(size_t g) {
        if (g >= kl.size()) return;
        const size_t b = g / kBlock * kBlock;
        __builtin_prefetch(st + b);
        __builtin_prefetch(st + b + 8);
        __builtin_prefetch(kl.duration.address(b));
        __builtin_prefetch(kl.name.address(b));
        __builtin_prefetch(L.sums.data() + g / kBlock * K);
        if (members) __builtin_prefetch(&members[g].maxStart);
    }

    // F(t) into F; returns how many kernels lie wholly before t. `guess` predicts the new i.
    size_t at(double t, double* F, size_t guess) {
        const size_t n = kl.size();
        size_t i2 = gallopFrom(n, guess, [&](size_t x) { return double(st[x]) < t; });
        if (i2 >= i && i2 - i <= kBlock) {
            for (size_t k = i; k < i2; ++k) addFull(k, base);
        } else {
            // jump: the block summary, then the kernels of the block before i2
            const size_t b = i2 / kBlock;
            std::copy(L.sums.begin() + std::ptrdiff_t(b * K), L.sums.begin() + std::ptrdiff_t(b * K + K), base);
            for (size_t k = b * kBlock; k < i2; ++k) addFull(k, base);
        }
        i = i2;
        for (int w = 0; w < K; ++w) F[w] = double(base[w]);
        // kernels started before t and still running at t
        size_t running = 0;
        if (L.endsSorted) {
            for (size_t k = i; k-- > 0;) {
                if (double(en(k)) <= t) break;
                subTail(k, t, F);
                ++running;
            }
        } else {
            for (size_t k = i; k-- > 0;) {
                // at a block boundary: every kernel of the blocks before ends by their prefix maximum
                if ((k + 1) % kBlock == 0 && double(kl.blockMaxEnd[(k + 1) / kBlock - 1]) <= t) break;
                if (double(en(k)) > t) subTail(k, t, F), ++running;
            }
        }
        return i - running;  // kernels wholly before t (started before it, not running at it)
    }
};

void TimelineIndex::columns(int rank, int lane, const PixelMap& m, ColumnSum* out, bool accumulate) const {
    if (!accumulate) std::fill(out, out + std::max(0, m.width), ColumnSum{});
    const KernelLane& l = kl(rank, lane);
    const LaneInfo& L = ranks_[size_t(rank)].lanes[size_t(lane)];
    const size_t n = l.size();
    if (!n || m.width <= 0) return;
    const int64_t maxEnd = L.maxEnd;
    const int cFirst = m.column(double(l.start[0])), cLast = m.column(double(maxEnd));
    if (cFirst >= m.width || cLast < 0) return;
    const int c0 = std::max(0, cFirst), c1 = std::min(m.width - 1, cLast);
    Eval ev(*this, rank, lane);
    double Fa[K], Fb[K];
    size_t endsA = ev.at(m.boundary(c0), Fa, 0);
    size_t step = 0;
    const double inf = std::numeric_limits<double>::infinity();
    for (int c = c0; c <= c1;) {
        // Zoomed in, most columns hold no kernel edge: idle, or inside one kernel (one class). Those
        // columns are filled in one go up to the next start, end or wait/transfer edge.
        const size_t running = ev.i - endsA;
        if (L.endsSorted && running <= 1) {
            const double a = m.boundary(c);
            double until = ev.i < n ? double(ev.st[ev.i]) : inf;
            int cls = -1;
            if (running == 1) {
                const size_t k = ev.i - 1;  // ends sorted: the one running kernel is the last started
                int64_t wait;
                ev.split(k, wait, cls);
                until = std::min(until, double(ev.en(k)));
                if (wait >= 0) {
                    const double w = double(ev.st[k] + wait);
                    if (a < w) cls = int(KernelClass::NcclWait), until = std::min(until, w);
                    else cls = int(KernelClass::NcclTransfer);
                }
            }
            const int cUntil = std::min(c1 + 1, until == inf ? c1 + 1 : m.column(until));
            if (cUntil > c + 1) {
                for (int cc = c; cc < cUntil; ++cc)
                    if (cls >= 0) {
                        out[cc].ns[cls] += m.boundary(cc + 1) - m.boundary(cc);
                        out[cc].kernels += 1;
                    }
                c = cUntil;
                if (c > c1) break;
                endsA = ev.at(m.boundary(c), Fa, ev.i);
                step = 0;
                continue;
            }
        }
        const size_t before = ev.i;
        const size_t endsB = ev.at(m.boundary(c + 1), Fb, ev.i + step);  // columns are even: guess the same advance
        step = ev.i - before;
        ev.prefetch(ev.i + step);  // the next column's block: memory latency, not arithmetic, bounds this loop
        ColumnSum& o = out[c];
        for (int w = 0; w < K; ++w) o.ns[w] += Fb[w] - Fa[w];
        o.kernels += uint32_t(ev.i - endsA);  // started before the right edge, minus those wholly before the left edge
        std::copy(Fb, Fb + K, Fa);
        endsA = endsB;
        ++c;
    }
}

ColumnSum TimelineIndex::range(int rank, int lane, double a, double b) const {
    ColumnSum o;
    if (!(b > a)) return o;
    Eval ev(*this, rank, lane);
    double Fa[K], Fb[K];
    const size_t endsA = ev.at(a, Fa, 0);
    ev.at(b, Fb, ev.i);
    for (int w = 0; w < K; ++w) o.ns[w] = Fb[w] - Fa[w];
    o.kernels = uint32_t(ev.i - endsA);
    return o;
}

std::pair<uint32_t, uint32_t> TimelineIndex::kernelsIn(int rank, int lane, double a, double b) const {
    const KernelLane& l = kl(rank, lane);
    size_t last = size_t(std::lower_bound(l.start.begin(), l.start.end(), b, [](int64_t s, double v) { return double(s) < v; }) - l.start.begin());
    // every kernel before the first that may end after a ends by a (end > a is end > floor(a): ends are whole ns)
    const double fa = std::floor(a);
    const int64_t ta = fa <= -9.2e18 ? INT64_MIN : fa >= 9.2e18 ? INT64_MAX : int64_t(fa);
    const size_t first = firstEndingAfter(l, ta);
    return {uint32_t(std::min(first, last)), uint32_t(last)};
}

int64_t TimelineIndex::kernelAt(int rank, int lane, double t, double slackNs) const {
    const KernelLane& l = kl(rank, lane);
    auto [first, last] = kernelsIn(rank, lane, t - slackNs, t + slackNs);
    int64_t best = -1;
    double bestDist = 1e300;
    // walk back from the last candidate: on a stream the kernel holding t is the latest starting one
    for (size_t k = last; k-- > first;) {
        double s = double(l.start[k]), e = double(l.end(k));
        double d = t < s ? s - t : t >= e ? t - e : 0;
        if (d <= slackNs && d < bestDist) {
            bestDist = d;
            best = int64_t(k);
            if (d == 0) break;
        }
        if (last - k > 4096) break;  // bounded: only a pathological overlap would get here
    }
    return best;
}

// ---- launches ---------------------------------------------------------------------------------

std::pair<uint32_t, uint32_t> TimelineIndex::launchRange(int rank, int lane, double a, double b) const {
    const LaneInfo& L = ranks_[size_t(rank)].lanes[size_t(lane)];
    const KernelLane& l = kl(rank, lane);
    const double from = a - double(L.maxLaunchDur);
    auto startAt = [&](size_t o) { return double(l.launchStart(launchKernel(L, uint32_t(o)))); };
    size_t lo = gallop(L.launches, 0, [&](size_t x) { return startAt(x) < from; });
    size_t hi = gallop(L.launches, lo, [&](size_t x) { return startAt(x) < b; });
    return {uint32_t(lo), uint32_t(hi)};
}

size_t TimelineIndex::launchCountIn(int rank, double a, double b) const {
    size_t n = 0;
    for (size_t li = 0; li < ranks_[size_t(rank)].lanes.size(); ++li) {
        auto [lo, hi] = launchRange(rank, int(li), a, b);
        n += hi - lo;
    }
    return n;
}

void TimelineIndex::launchColumns(int rank, const PixelMap& m, uint32_t* all, uint32_t* nccl) const {
    std::fill(all, all + m.width, 0u);
    std::fill(nccl, nccl + m.width, 0u);
    const auto& lanes = ranks_[size_t(rank)].lanes;
    for (size_t li = 0; li < lanes.size(); ++li) {
        const LaneInfo& L = lanes[li];
        const KernelLane& l = kl(rank, int(li));
        const size_t n = L.launches;
        if (!n) continue;
        // every launch of an NCCL stream is an NCCL kernel's, none of another's; a mixed stream is
        // counted kernel by kernel
        const bool allNccl = l.ncclKernels == l.size(), noNccl = l.ncclKernels == 0;
        auto startAt = [&](size_t o) { return double(l.launchStart(launchKernel(L, uint32_t(o)))); };
        size_t i = gallop(n, 0, [&](size_t x) { return startAt(x) < m.t0; });
        size_t di = 0;  // the last column's count predicts the next one
        for (int c = 0; c < m.width && i < n; ++c) {
            const double b = m.boundary(c + 1);
            size_t i2 = gallopFrom(n, i + di, [&](size_t x) { return startAt(x) < b; });
            if (i2 < i) i2 = i;
            di = i2 - i;
            all[c] += uint32_t(i2 - i);
            if (allNccl) nccl[c] += uint32_t(i2 - i);
            else if (!noNccl)
                for (size_t o = i; o < i2; ++o) nccl[c] += p_->opOfName(l.name[launchKernel(L, uint32_t(o))]) != CollOp::NotNccl;
            i = i2;
        }
    }
}

// ---- collectives ------------------------------------------------------------------------------

std::pair<uint32_t, uint32_t> TimelineIndex::collectivesIn(int group, double a, double b) const {
    const GroupInfo& gi = groups_[size_t(group)];
    const auto& cs = a_->collectives;
    const double from = a - double(gi.maxSpan);
    auto lo = std::lower_bound(gi.byStart.begin(), gi.byStart.end(), from, [&](uint32_t c, double v) { return double(cs[c].minStart) < v; });
    auto hi = std::lower_bound(lo, gi.byStart.end(), b, [&](uint32_t c, double v) { return double(cs[c].minStart) < v; });
    return {uint32_t(lo - gi.byStart.begin()), uint32_t(hi - gi.byStart.begin())};
}

TimelineIndex::Bytes TimelineIndex::bytes() const {
    Bytes b;
    for (const RankInfo& r : ranks_) {
        for (const LaneInfo& L : r.lanes) {
            b.blocks += L.sums.capacity() * sizeof(int64_t);
        }
        b.blocks += r.lanes.capacity() * sizeof(LaneInfo) + r.laneOrder.capacity() * sizeof(int);
        for (const LaneInfo& L : r.lanes) b.launches += L.launchOrder.capacity() * sizeof(uint32_t);
    }
    for (const GroupInfo& g : groups_) {
        b.collectives += g.byStart.capacity() * sizeof(uint32_t);
        for (const auto& m : g.missing) b.missing += m.capacity() * sizeof(uint32_t);
    }
    b.collectives += big_.capacity() * sizeof(uint32_t);
    b.names = nameWork_.capacity();
    return b;
}

}  // namespace skew
