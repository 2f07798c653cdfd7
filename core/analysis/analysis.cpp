#include "analysis/analysis.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <unordered_map>

#include "analysis/step_pattern.h"
#include "nsys/export_reader.h"
#include "util/saturating.h"

namespace skew {
namespace {

constexpr int64_t kPredBeforeNs = 100'000;  // predecessor window: [start - 100 us, start + 2 us]
constexpr int64_t kPredAfterNs = 2'000;
constexpr int64_t kWaitWindowNs = 1'000'000;  // stream waits shown as evidence: ending in the last 1 ms
constexpr size_t kOps = size_t(CollOp::Count);

struct LaneCand {
    int rank = 0, lane = 0;
    uint32_t total = 0;                // NCCL kernels of the lane, window or not (for grouping)
    std::vector<uint32_t> kernels;     // those in the window
    std::vector<CollOp> ops;
    std::array<uint32_t, kOps> hist{};
    int64_t first = 0, last = 0;
    bool used = false;
};

// NCCL-domain NVTX ranges per process and thread, to give generic NCCL kernels their op.
class NvtxOps {
public:
    explicit NvtxOps(const Profile& p) : perProcess_(p.processes.size()) {
        std::vector<CollOp> textOp(p.strings.size(), CollOp::Count);
        for (size_t pi = 0; pi < p.processes.size(); ++pi) {
            const NvtxRanges& r = p.processes[pi].nvtx;
            for (size_t i = 0; i < r.size(); ++i) {
                CollOp& op = textOp[r.text[i]];
                if (op == CollOp::Count) op = opFromNvtxName(p.strings.str(r.text[i]));
                if (op == CollOp::NotNccl) continue;
                auto& v = perProcess_[pi][r.tid[i]];
                v.push_back({r.start[i], r.end[i], op});
            }
        }
    }
    CollOp opAt(int process, uint32_t tid, int64_t t0, int64_t t1) const {
        const auto& m = perProcess_[size_t(process)];
        auto it = m.find(tid);
        if (it == m.end()) return CollOp::Unknown;
        const auto& v = it->second;  // sorted by start (NVTX ranges are)
        auto u = std::upper_bound(v.begin(), v.end(), t0, [](int64_t t, const R& r) { return t < r.start; });
        // innermost enclosing range: walk back over a few candidates
        for (int n = 0; u != v.begin() && n < 8; ++n) {
            --u;
            if (u->start <= t0 && u->end >= t1) return u->op;
        }
        return CollOp::Unknown;
    }

private:
    struct R {
        int64_t start, end;
        CollOp op;
    };
    std::vector<std::unordered_map<uint32_t, std::vector<R>>> perProcess_;
};

int64_t medianOf(std::vector<int64_t>& v) {
    if (v.empty()) return 0;
    size_t m = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(m), v.end());
    return v[m];
}

int64_t madOf(std::vector<int64_t> v, int64_t med) {
    for (auto& x : v) x = x > med ? x - med : med - x;
    return medianOf(v);
}

struct ShiftEstimate {
    bool ok = false;
    int64_t offset = 0;  // add to the lane's ends to put them on the reference's clock
    int64_t mad = 0;
};

// Estimates how a lane lines up with the reference: the kernel shift at which ops agree and end
// differences are most consistent, and the end offset at that shift.
ShiftEstimate estimateShift(const Profile& p, const GroupLane& ref, const GroupLane& lane) {
    const KernelLane& kr = p.ranks[size_t(ref.rank)].lanes[size_t(ref.lane)];
    const KernelLane& kl = p.ranks[size_t(lane.rank)].lanes[size_t(lane.lane)];
    const long n = long(lane.kernels.size()), m = long(ref.kernels.size());
    const long maxShift = std::min<long>(12, std::max(n, m));
    const long sample = std::min<long>(n, 1024);
    // Anchor: the reference kernel whose end is nearest the lane's first end (clocks are aligned
    // to within a few ms), so a capture that starts many collectives later still lines up.
    long anchor = 0;
    if (n > 0 && m > 0) {
        int64_t e0 = kl.end[lane.kernels[0]];
        auto it = std::lower_bound(ref.kernels.begin(), ref.kernels.end(), e0,
                                   [&](uint32_t k, int64_t e) { return kr.end[k] < e; });
        long j = long(it - ref.kernels.begin());
        if (j > 0 && (j == m || e0 - kr.end[ref.kernels[size_t(j - 1)]] < kr.end[ref.kernels[size_t(j)]] - e0)) --j;
        anchor = j;
    }
    struct Cand {
        int64_t offset, mad;
    };
    std::vector<Cand> cands;
    std::vector<int64_t> diffs;
    for (long s = anchor - maxShift; s <= anchor + maxShift; ++s) {
        diffs.clear();
        long overlap = 0;
        for (long i = 0; i < sample; ++i) {
            long j = i + s;
            if (j < 0 || j >= m) continue;
            ++overlap;
            if (lane.ops[size_t(i)] != ref.ops[size_t(j)]) continue;
            diffs.push_back(kr.end[ref.kernels[size_t(j)]] - kl.end[lane.kernels[size_t(i)]]);
        }
        // most of both lanes must line up: a shift that overlaps one or two kernels proves nothing
        if (overlap * 10 < std::min(sample, m) * 6 || long(diffs.size()) * 10 < overlap * 9 || diffs.empty()) continue;
        int64_t med = medianOf(diffs);
        cands.push_back({med, madOf(diffs, med)});
    }
    ShiftEstimate est;
    if (cands.empty()) return est;
    int64_t bestMad = cands[0].mad;
    for (const auto& c : cands) bestMad = std::min(bestMad, c.mad);
    // Evenly spaced collectives make several shifts look alike: prefer the smallest clock offset.
    const Cand* best = nullptr;
    for (const auto& c : cands)
        if (c.mad <= bestMad * 3 / 2 + 5'000 && (!best || std::llabs(c.offset) < std::llabs(best->offset))) best = &c;
    est.ok = true;
    est.offset = best->offset;
    est.mad = best->mad;
    return est;
}

struct Position {
    CollOp op;
    int64_t end;  // on the reference's clock
};

}  // namespace

std::string makeAnalysisOptions(const AnalysisSettings& s, AnalysisOptions& out) {
    auto bad = [](double v, double lo, double hi) { return !std::isfinite(v) || v < lo || v > hi; };
    if (bad(s.bigSkewMs, 0, 1e9)) return "the big-skew threshold must be a number of milliseconds from 0 to 1e9";
    if (bad(s.anomalyThreshold, 0, 1e6) || s.anomalyThreshold == 0)
        return "the anomaly threshold must be a number above 0 and at most 1e6";
    if (s.hasTrim && (bad(s.trimStartS, -1e9, 1e9) || bad(s.trimEndS, -1e9, 1e9)))
        return "the time window must be two numbers of seconds within +-1e9";
    if (s.hasTrim && s.trimEndS <= s.trimStartS) return "the time window must end after it starts";
    if (s.anomalyLimit < -1) return "the anomaly row limit must be 0 or more";
    if (std::string e = StepPattern::check(s.stepRegex); !e.empty()) return "the step pattern is not valid: " + e;
    AnalysisOptions o = out;
    o.bigSkewNs = int64_t(std::llround(s.bigSkewMs * 1e6));
    o.anomalyThreshold = s.anomalyThreshold;
    o.stepRegex = s.stepRegex;
    o.hasTrim = s.hasTrim;
    o.trimStartNs = s.hasTrim ? int64_t(std::llround(s.trimStartS * 1e9)) : 0;
    o.trimEndNs = s.hasTrim ? int64_t(std::llround(s.trimEndS * 1e9)) : 0;
    o.anomalyLimit = s.anomalyLimit;
    out = std::move(o);
    return {};
}

AnalysisSettings analysisSettings(const AnalysisOptions& o) {
    AnalysisSettings s;
    s.bigSkewMs = double(o.bigSkewNs) / 1e6;
    s.anomalyThreshold = o.anomalyThreshold;
    s.stepRegex = o.stepRegex;
    s.hasTrim = o.hasTrim;
    s.trimStartS = double(o.trimStartNs) / 1e9;
    s.trimEndS = double(o.trimEndNs) / 1e9;
    s.anomalyLimit = o.anomalyLimit;
    return s;
}

const char* causeName(Cause c) {
    switch (c) {
    case Cause::CpuLaunch: return "cpu_launch";
    case Cause::GpuDependency: return "gpu_dependency";
    case Cause::GpuOther: return "gpu_other";
    default: return "unknown";
    }
}

double percentile(std::vector<int64_t> v, double q) {
    std::sort(v.begin(), v.end());
    return percentileSorted(v, q);
}

double percentileSelect(std::vector<int64_t>& v, double q) {
    if (v.empty()) return 0;
    double pos = q / 100.0 * double(v.size() - 1);
    size_t lo = size_t(std::floor(pos));
    std::nth_element(v.begin(), v.begin() + long(lo), v.end());
    double a = double(v[lo]);
    if (lo + 1 >= v.size()) return a;
    double b = double(*std::min_element(v.begin() + long(lo) + 1, v.end()));  // the next one in order
    return a + (b - a) * (pos - double(lo));
}

double percentileSorted(const std::vector<int64_t>& v, double q) {
    if (v.empty()) return 0;
    double pos = q / 100.0 * double(v.size() - 1);
    size_t lo = size_t(std::floor(pos));
    size_t hi = std::min(lo + 1, v.size() - 1);
    double frac = pos - double(lo);
    return double(v[lo]) + (double(v[hi]) - double(v[lo])) * frac;
}

bool isGemmName(const std::string& name) {
    std::string l(name);
    for (char& c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* t : {"gemm", "cutlass", "xmma", "nvjet", "cublas", "wgmma", "matmul"})
        if (l.find(t) != std::string::npos) return true;
    return false;
}

namespace {

// upper_bound(v, x) found by galloping from `hint` (the previous answer): collectives are visited
// in time order, so the answer moves a little each time instead of costing a full binary search.
template <typename T>
size_t gallopUpper(const std::vector<T>& v, size_t hint, T x) {
    size_t n = v.size();
    if (hint > n) hint = n;
    size_t lo, hi;
    if (hint < n && v[hint] <= x) {  // answer is after hint
        size_t step = 1;
        lo = hint + 1;
        hi = hint + 1;
        while (hi < n && v[hi] <= x) {
            lo = hi + 1;
            hi = std::min(n, hi + step);
            step *= 2;
        }
        if (hi > n) hi = n;
    } else {  // answer is at or before hint
        size_t step = 1;
        hi = hint;
        lo = hint;
        while (lo > 0 && v[lo - 1] > x) {
            hi = lo - 1;
            lo = lo > step ? lo - step : 0;
            step *= 2;
        }
    }
    return size_t(std::upper_bound(v.begin() + long(lo), v.begin() + long(hi), x) - v.begin());
}

// The predecessor of kernel `self` of lane `ownLane` starting at t (analysis-spec.md, Why): on any
// stream of the rank, the kernel whose end is latest in [t - 100 us, t + 2 us], the kernel itself
// excluded, ties preferring another stream.
bool predecessorImpl(const Profile& p, int rank, int ownLane, uint32_t self, int64_t t, int& laneOut, uint32_t& kernelOut,
                     std::vector<size_t>& hints) {
    const Rank& r = p.ranks[size_t(rank)];
    int64_t bestEnd = 0;
    bool found = false;
    for (size_t li = 0; li < r.lanes.size(); ++li) {
        const KernelLane& l = r.lanes[li];
        if (l.size() == 0) continue;
        // kernels that start by t + 2 us; on one stream they run one after another, so the
        // latest end in the window is among the last few of them
        size_t i = hints[li] = gallopUpper(l.start, hints[li], t + kPredAfterNs);
        for (int n = 0; i > 0 && n < 16; ++n) {
            --i;
            if (int(li) == ownLane && i == self) continue;
            int64_t e = l.end[i];
            if (e <= t + kPredAfterNs && e >= t - kPredBeforeNs) {
                bool sameStream = int(li) == ownLane;
                bool better = !found || e > bestEnd || (e == bestEnd && laneOut == ownLane && !sameStream);
                if (better) {
                    bestEnd = e;
                    laneOut = int(li);
                    kernelOut = uint32_t(i);
                    found = true;
                }
                break;
            }
            if (e < t - kPredBeforeNs) break;
        }
    }
    return found;
}

}  // namespace

namespace {

class Analyzer {
public:
    Analyzer(Profile& p, const AnalysisOptions& o) : p_(p), o_(o) { a_.options = o; }

    Analysis run() {
        a_.windowStart = o_.hasTrim ? o_.trimStartNs : p_.timeStart;
        a_.windowEnd = o_.hasTrim ? o_.trimEndNs : p_.timeEnd;
        a_.clocks.assign(p_.ranks.size(), {});
        match();
        phase("match");
        tick(0.3);
        if (o_.refineClocks && p_.inputs.size() > 1 && refineClocks()) {
            a_.groups.clear();
            a_.unmatched.clear();
            match();
        }
        for (size_t r = 0; r < p_.ranks.size(); ++r) a_.clocks[r].offsetNs = p_.ranks[r].clockOffsetNs;
        if (p_.inputs.size() > 1) clockResiduals();
        phase("clocks");
        tick(0.5);
        buildCollectives();
        phase("collectives+why");
        tick(0.7);
        steps();
        phase("steps");
        groupStats();
        phase("group stats");
        anomalies();
        phase("anomalies");
        tick(1.0);
        return std::move(a_);
    }

private:
    // SKEWSCOPE_TIMING=1 prints the time of each phase to stderr (for profiling, not for tests)
    void phase(const char* name) {
        if (!timing_) return;
        auto t = std::chrono::steady_clock::now();
        std::fprintf(stderr, "analyze: %-16s %8.2f ms\n", name, std::chrono::duration<double, std::milli>(t - last_).count());
        last_ = t;
    }
    bool timing_ = std::getenv("SKEWSCOPE_TIMING") != nullptr;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();

    void tick(double f) {
        if (o_.progress && !o_.progress(f)) throw Cancelled();
    }

    bool inWindow(int64_t start) const { return !o_.hasTrim || (start >= o_.trimStartNs && start < o_.trimEndNs); }

    CollOp kernelOp(const Rank& r, const KernelLane& l, uint32_t k) const {
        CollOp op = p_.kernelOp(l.name[k]);
        if (op != CollOp::Unknown) return op;
        const Process& pr = p_.processes[size_t(r.process)];
        int64_t li = pr.launches.find(l.correlationId[k]);
        if (li < 0) return op;
        if (!nvtxOps_) nvtxOps_ = std::make_unique<NvtxOps>(p_);  // only exports with op-less NCCL names need it
        return nvtxOps_->opAt(r.process, pr.launches.tid[size_t(li)], pr.launches.start[size_t(li)], pr.launches.end[size_t(li)]);
    }

    // ---- matching -------------------------------------------------------------------------
    void match() {
        std::vector<LaneCand> cands;
        for (size_t ri = 0; ri < p_.ranks.size(); ++ri) {
            const Rank& r = p_.ranks[ri];
            for (size_t li = 0; li < r.lanes.size(); ++li) {
                const KernelLane& l = r.lanes[li];
                if (l.ncclKernels == 0) continue;
                LaneCand c;
                c.rank = int(ri);
                c.lane = int(li);
                // Groups are formed from whole lanes, so that a rank whose kernels all fall outside
                // the window still shows up (as missing) instead of silently narrowing the group.
                bool any = false;
                for (uint32_t k = 0; k < l.size(); ++k) {
                    if (p_.kernelOp(l.name[k]) == CollOp::NotNccl) continue;
                    CollOp op = kernelOp(r, l, k);
                    ++c.hist[size_t(op)];
                    ++c.total;
                    if (!any) c.first = l.start[k];
                    any = true;
                    c.last = std::max(c.last, l.end[k]);
                    if (!inWindow(l.start[k])) continue;
                    c.kernels.push_back(k);
                    c.ops.push_back(op);
                }
                if (c.total == 0) continue;
                cands.push_back(std::move(c));
            }
        }
        std::vector<size_t> order(cands.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return cands[a].total > cands[b].total;
        });
        for (size_t oi : order) {
            LaneCand& seed = cands[oi];
            if (seed.used) continue;
            seed.used = true;
            std::vector<size_t> members{oi};
            for (size_t ri = 0; ri < p_.ranks.size(); ++ri) {
                if (int(ri) == seed.rank) continue;
                size_t best = SIZE_MAX;
                double bestSim = 0.8 - 1e-9;  // at least 80% of the ops agree
                for (size_t ci = 0; ci < cands.size(); ++ci) {
                    LaneCand& c = cands[ci];
                    if (c.used || c.rank != int(ri)) continue;
                    if (c.last < seed.first || c.first > seed.last) continue;  // no time overlap
                    double diff = 0, total = double(c.total + seed.total);
                    for (size_t k = 0; k < kOps; ++k) diff += std::abs(double(c.hist[k]) - double(seed.hist[k]));
                    double sim = 1.0 - diff / total;
                    const KernelLane& cl = p_.ranks[ri].lanes[size_t(c.lane)];
                    const KernelLane& sl = p_.ranks[size_t(seed.rank)].lanes[size_t(seed.lane)];
                    if (cl.stream == sl.stream) sim += 1e-6;  // tie-break only
                    if (sim > bestSim) bestSim = sim, best = ci;
                }
                if (best != SIZE_MAX) {
                    cands[best].used = true;
                    members.push_back(best);
                }
            }
            size_t inWindow = 0;
            for (size_t m : members) inWindow += cands[m].kernels.size();
            if (inWindow == 0) continue;  // the whole group lies outside the window
            if (members.size() < 2) {
                const KernelLane& l = p_.ranks[size_t(seed.rank)].lanes[size_t(seed.lane)];
                a_.unmatched.push_back({seed.rank, seed.lane, uint32_t(seed.kernels.size()),
                                        "no lane of another rank carries the same op sequence (stream " +
                                            std::to_string(l.stream) + ")"});
                continue;
            }
            std::sort(members.begin(), members.end(), [&](size_t a, size_t b) { return cands[a].rank < cands[b].rank; });
            // the reference of the merge: the member with the most kernels in the window
            size_t ref = members[0];
            for (size_t m : members)
                if (cands[m].kernels.size() > cands[ref].kernels.size()) ref = m;
            buildGroup(cands, members, ref);
        }
        // groups in the order of their first rank's lane (stable, readable ids)
        std::stable_sort(a_.groups.begin(), a_.groups.end(), [&](const Group& x, const Group& y) {
            const auto& lx = x.lanes[0];
            const auto& ly = y.lanes[0];
            if (lx.rank != ly.rank) return lx.rank < ly.rank;
            return p_.ranks[size_t(lx.rank)].lanes[size_t(lx.lane)].stream < p_.ranks[size_t(ly.rank)].lanes[size_t(ly.lane)].stream;
        });
        for (size_t i = 0; i < a_.groups.size(); ++i) a_.groups[i].id = int(i);
    }

    void buildGroup(std::vector<LaneCand>& cands, const std::vector<size_t>& members, size_t refCand) {
        Group g;
        const size_t n = members.size();
        size_t refSlot = 0;
        for (size_t s = 0; s < n; ++s) {
            GroupLane gl;
            gl.rank = cands[members[s]].rank;
            gl.lane = cands[members[s]].lane;
            gl.kernels = std::move(cands[members[s]].kernels);
            gl.ops = std::move(cands[members[s]].ops);
            if (members[s] == refCand) refSlot = s;
            g.lanes.push_back(std::move(gl));
        }
        // The reference (the most kernels in the window) defines the clock the merge runs on.
        const GroupLane& ref = g.lanes[refSlot];
        const KernelLane& refLane = laneOf(g, refSlot);
        std::vector<int64_t> spacing;
        for (size_t i = 1; i < ref.kernels.size(); ++i) spacing.push_back(refLane.end[ref.kernels[i]] - refLane.end[ref.kernels[i - 1]]);
        int64_t medSpacing = spacing.empty() ? 1'000'000'000 : medianOf(spacing);

        std::vector<Position> pos;
        std::vector<std::vector<uint32_t>> posOf(n);  // per slot: position id of each kernel
        std::vector<uint32_t> orderIds;               // position ids in end order
        std::vector<size_t> slotOrder{refSlot};
        for (size_t s = 0; s < n; ++s)
            if (s != refSlot) slotOrder.push_back(s);
        for (size_t s : slotOrder) {
            GroupLane& gl = g.lanes[s];
            const KernelLane& kl = laneOf(g, s);
            int64_t off = 0, tol = 0;
            if (gl.kernels.empty()) {
                g.validation.messages.push_back(p_.ranks[size_t(gl.rank)].label + ": no kernels of this group in the window");
            } else if (s != refSlot) {
                ShiftEstimate est = estimateShift(p_, ref, gl);
                off = est.offset;
                tol = std::min(std::max<int64_t>(100'000, 8 * est.mad + 50'000), std::max<int64_t>(50'000, medSpacing * 45 / 100));
                if (!est.ok)
                    g.validation.messages.push_back(p_.ranks[size_t(gl.rank)].label +
                                                    ": op sequence does not line up with " + p_.ranks[size_t(ref.rank)].label);
            }
            posOf[s].assign(gl.kernels.size(), kMissing);
            std::vector<uint32_t> merged;
            merged.reserve(orderIds.size() + gl.kernels.size());
            size_t i = 0, q = 0;
            auto newPos = [&](size_t k) {
                uint32_t id = uint32_t(pos.size());
                pos.push_back({gl.ops[k], kl.end[gl.kernels[k]] + off});
                posOf[s][k] = id;
                merged.push_back(id);
            };
            while (i < gl.kernels.size() && q < orderIds.size()) {
                const Position& P = pos[orderIds[q]];
                int64_t e = kl.end[gl.kernels[i]] + off;
                if (gl.ops[i] == P.op && std::llabs(e - P.end) <= tol) {
                    posOf[s][i] = orderIds[q];
                    merged.push_back(orderIds[q]);
                    ++i, ++q;
                } else if (e < P.end) {
                    newPos(i++);
                } else {
                    merged.push_back(orderIds[q++]);
                }
            }
            while (i < gl.kernels.size()) newPos(i++);
            while (q < orderIds.size()) merged.push_back(orderIds[q++]);
            orderIds.swap(merged);
        }
        // positions -> cells matrix
        std::vector<uint32_t> indexOf(pos.size());
        for (size_t k = 0; k < orderIds.size(); ++k) indexOf[orderIds[k]] = uint32_t(k);
        g.cells.assign(orderIds.size() * n, kMissing);
        for (size_t s = 0; s < n; ++s)
            for (size_t k = 0; k < posOf[s].size(); ++k) g.cells[size_t(indexOf[posOf[s][k]]) * n + s] = g.lanes[s].kernels[k];
        g.count = uint32_t(orderIds.size());
        g.positionOps.resize(orderIds.size());
        for (size_t k = 0; k < orderIds.size(); ++k) g.positionOps[k] = pos[orderIds[k]].op;
        a_.groups.push_back(std::move(g));
    }

    // ---- clock refinement across files ------------------------------------------------------
    // Per file: its members' ends minus the median end of each complete collective.
    std::vector<std::vector<int64_t>> endResiduals() const {
        std::vector<std::vector<int64_t>> perFile(p_.inputs.size());
        for (const Group& g : a_.groups) {
            const size_t n = g.width();
            std::vector<int64_t> ends(n), sorted;
            for (uint32_t c = 0; c < g.count; ++c) {
                bool complete = true;
                for (size_t s = 0; s < n && complete; ++s) {
                    uint32_t k = g.cells[size_t(c) * n + s];
                    complete = k != kMissing;
                    if (complete) ends[s] = laneOf(g, s).end[k];
                }
                if (!complete) continue;
                sorted = ends;
                int64_t med = medianOf(sorted);
                for (size_t s = 0; s < n; ++s) perFile[size_t(p_.ranks[size_t(g.lanes[s].rank)].file)].push_back(ends[s] - med);
            }
        }
        return perFile;
    }

    bool refineClocks() {
        auto perFile = endResiduals();
        std::vector<int64_t> fileOffset(p_.inputs.size(), 0);
        std::vector<bool> has(p_.inputs.size(), false);
        for (size_t f = 0; f < perFile.size(); ++f) {
            if (perFile[f].empty()) continue;
            std::vector<int64_t> v = perFile[f];
            fileOffset[f] = -medianOf(v);
            has[f] = true;
        }
        // the first rank's file keeps its clock
        int refFile = p_.ranks.empty() ? 0 : p_.ranks[0].file;
        int64_t base = has[size_t(refFile)] ? fileOffset[size_t(refFile)] : 0;
        bool applied = false;
        for (size_t f = 0; f < fileOffset.size(); ++f) {
            if (!has[f]) continue;
            int64_t off = fileOffset[f] - base;
            for (auto& r : p_.ranks)
                if (r.file == int(f)) a_.clocks[size_t(r.id)].estimateNs = off, a_.clocks[size_t(r.id)].samples = uint32_t(perFile[f].size());
            if (std::llabs(off) < o_.clockOffsetMinNs) continue;
            shiftFile(int(f), off);
            applied = true;
        }
        if (applied) {
            for (const auto& r : p_.ranks)
                if (r.clockOffsetNs != 0)
                    a_.warnings.push_back("clock of " + r.label + " shifted by " + std::to_string(r.clockOffsetNs) +
                                          " ns so that collective ends line up (per-file host clock offset)");
        }
        return applied;
    }

    void clockResiduals() {
        auto perFile = endResiduals();
        for (size_t f = 0; f < perFile.size(); ++f) {
            if (perFile[f].empty()) continue;
            std::vector<int64_t> res;
            for (int64_t d : perFile[f]) res.push_back(std::llabs(d));
            int64_t p90 = int64_t(std::llround(percentile(res, 90)));
            for (auto& r : p_.ranks)
                if (r.file == int(f)) a_.clocks[size_t(r.id)].residualP90Ns = p90;
        }
    }

    void shiftFile(int file, int64_t off) {
        nvtxOps_.reset();  // it holds copies of NVTX times: rebuild from the shifted ones
        for (auto& r : p_.ranks) {
            if (r.file != file) continue;
            r.clockOffsetNs += off;
            for (auto& l : r.lanes) {
                for (auto& t : l.start) t += off;
                for (auto& t : l.end) t += off;
            }
        }
        for (auto& pr : p_.processes) {
            if (pr.file != file) continue;
            for (auto& t : pr.launches.start) t += off;
            for (auto& t : pr.launches.end) t += off;
            for (auto& t : pr.nvtx.start) t += off;
            for (auto& t : pr.nvtx.end) t += off;
            for (auto& t : pr.waits.start) t += off;
            for (auto& t : pr.waits.end) t += off;
        }
        p_.inputs[size_t(file)].alignNs += off;
    }

    // ---- collectives ------------------------------------------------------------------------
    void buildCollectives() {
        size_t total = 0;
        for (const Group& g : a_.groups) total += g.count;
        a_.collectives.reserve(total);
        predHints_.assign(p_.ranks.size(), {});
        launchHints_.assign(p_.processes.size(), 0);
        waitHints_.assign(p_.processes.size(), 0);
        groupSums_.clear();
        groupSums_.reserve(a_.groups.size());
        for (Group& g : a_.groups) {
            const size_t n = g.width();
            g.firstCollective = uint32_t(a_.collectives.size());
            std::array<uint32_t, kOps> opCount{};
            std::vector<int64_t> starts(n);
            GroupSums& sums = groupSums_.emplace_back();
            sums.latSum.assign(n, 0);
            sums.latSumRest.assign(n, 0);
            for (uint32_t c = 0; c < g.count; ++c) {
                Collective col;
                col.group = g.id;
                col.index = c + 1;
                col.op = g.positionOps[c];
                int present = 0;
                int64_t minDur = 0, sumDur = 0;
                for (size_t s = 0; s < n; ++s) {
                    uint32_t k = g.cells[size_t(c) * n + s];
                    if (k == kMissing) continue;
                    const KernelLane& kl = laneOf(g, s);
                    int64_t st = kl.start[k], en = kl.end[k], d = en - st;
                    if (present == 0) {
                        col.minStart = col.maxStart = st;
                        col.minEnd = col.maxEnd = en;
                        col.lateSlot = col.earlySlot = int(s);
                        minDur = d;
                    } else {
                        if (st > col.maxStart) col.maxStart = st, col.lateSlot = int(s);
                        if (st < col.minStart) col.minStart = st, col.earlySlot = int(s);
                        col.minEnd = std::min(col.minEnd, en);
                        col.maxEnd = std::max(col.maxEnd, en);
                        minDur = std::min(minDur, d);
                    }
                    sumDur = satAdd(sumDur, d);
                    starts[s] = st;
                    ++present;
                }
                col.complete = present == int(n);
                col.excessNs = sumDur - satMul(int64_t(present), minDur);
                col.big = col.startSkew() > o_.bigSkewNs;
                if (col.complete) {
                    // the group's cost and lateness sums, while the members are at hand
                    g.cost.totalNs = satAdd(g.cost.totalNs, sumDur);
                    g.cost.baselineNs = satAdd(g.cost.baselineNs, satMul(int64_t(n), minDur));
                    for (size_t s = 0; s < n; ++s) {
                        int64_t lat = starts[s] - col.minStart;
                        sums.latSum[s] = satAdd(sums.latSum[s], lat);
                        g.cost.latenessSumNs = satAdd(g.cost.latenessSumNs, lat);
                        if (!col.big) sums.latSumRest[s] = satAdd(sums.latSumRest[s], lat);
                    }
                }
                if (present >= 2) why(g, col);
                a_.collectives.push_back(col);
                if (col.complete) ++g.complete;
                ++opCount[size_t(col.op)];
            }
            for (size_t o = 0; o < kOps; ++o)
                if (opCount[o]) g.ops[opName(CollOp(o))] = opCount[o];
            validate(g);
        }
    }

    void why(const Group& g, Collective& c) {
        const size_t s = size_t(c.lateSlot);
        const GroupLane& gl = g.lanes[s];
        const Rank& r = p_.ranks[size_t(gl.rank)];
        const KernelLane& kl = r.lanes[size_t(gl.lane)];
        const uint32_t k = g.cells[size_t(c.index - 1) * g.width() + s];
        const int64_t start = kl.start[k];
        const Process& pr = p_.processes[size_t(r.process)];
        c.latenessNs = start - c.minStart;
        {
            // launches are sorted by correlation id, which grows with time: gallop from the last one
            const auto& ids = pr.launches.correlationId;
            size_t& h = launchHints_[size_t(r.process)];
            size_t u = gallopUpper(ids, h, kl.correlationId[k]);
            h = u;
            c.launch = u > 0 && ids[u - 1] == kl.correlationId[k] ? int64_t(u - 1) : -1;
        }
        if (c.launch >= 0) {
            int64_t apiEnd = pr.launches.end[size_t(c.launch)];
            c.launchToStartNs = start - apiEnd;
            c.cpuNs = std::clamp<int64_t>(apiEnd - c.minStart, 0, c.latenessNs);
            c.gpuNs = c.latenessNs - c.cpuNs;
        } else {
            c.gpuNs = c.latenessNs;
        }
        int lane = -1;
        uint32_t pk = 0;
        auto& hints = predHints_[size_t(gl.rank)];
        if (hints.size() != r.lanes.size()) hints.assign(r.lanes.size(), 0);
        if (predecessorImpl(p_, gl.rank, gl.lane, k, start, lane, pk, hints)) {
            c.predRank = gl.rank;
            c.predLane = lane;
            c.predKernel = pk;
            c.predSameStream = lane == gl.lane;
            c.predGapNs = start - r.lanes[size_t(lane)].end[pk];
            c.predIsGemm = gemm(r.lanes[size_t(lane)].name[pk]);
        }
        // stream-wait records on the NCCL stream just before the start: evidence of a GPU dependency
        const StreamWaits& w = pr.waits;
        size_t& wh = waitHints_[size_t(r.process)];
        wh = gallopUpper(w.start, wh, start + kPredAfterNs);
        for (size_t i = wh, n = 0; i > 0 && n < 64; ++n) {
            --i;
            if (w.end[i] < start - kWaitWindowNs && w.start[i] < start - kWaitWindowNs) break;
            if (w.stream[i] != kl.stream || w.device[i] != r.device) continue;
            if (w.end[i] > start + kPredAfterNs || w.end[i] < start - kWaitWindowNs) continue;
            if (c.waitIndex < 0 || w.end[i] > w.end[size_t(c.waitIndex)]) c.waitIndex = int64_t(i);
            ++c.waitCount;
        }
        if (c.launch < 0) c.cause = Cause::Unknown;
        else if (c.cpuNs * 2 >= c.latenessNs) c.cause = Cause::CpuLaunch;
        else if (c.predLane >= 0) c.cause = Cause::GpuDependency;
        else c.cause = Cause::GpuOther;
    }

    bool gemm(StrId name) {
        if (name >= gemmCache_.size()) gemmCache_.resize(size_t(name) + 1, -1);
        int8_t& v = gemmCache_[name];
        if (v < 0) v = isGemmName(p_.strings.str(name)) ? 1 : 0;
        return v == 1;
    }

    void validate(Group& g) {
        const size_t n = g.width();
        Validation& v = g.validation;
        uint32_t firstComplete = kMissing, lastComplete = 0;
        for (uint32_t c = 0; c < g.count; ++c)
            if (a_.collectives[g.firstCollective + c].complete) {
                if (firstComplete == kMissing) firstComplete = c;
                lastComplete = c;
            }
        std::vector<std::string> mismatchMsgs;
        for (uint32_t c = 0; c < g.count; ++c) {
            const Collective& col = a_.collectives[g.firstCollective + c];
            if (col.complete) continue;
            PartialCollective pc{c + 1, {}};
            for (size_t s = 0; s < n; ++s) {
                if (g.cells[size_t(c) * n + s] == kMissing) pc.missingRanks.push_back(g.lanes[s].rank);
                else if (firstComplete == kMissing || c < firstComplete) ++g.lanes[s].droppedLeading;
                else if (c > lastComplete) ++g.lanes[s].droppedTrailing;
            }
            bool interior = firstComplete != kMissing && c > firstComplete && c < lastComplete;
            if (interior) {
                ++v.sequenceMismatches;
                if (mismatchMsgs.size() < 5) {
                    std::string who;
                    for (int r : pc.missingRanks) who += (who.empty() ? "" : ", ") + p_.ranks[size_t(r)].label;
                    mismatchMsgs.push_back("collective " + std::to_string(c + 1) + " (" + opName(col.op) + "): missing on " + who);
                }
            }
            v.partial.push_back(std::move(pc));
        }
        for (auto& m : mismatchMsgs) v.messages.push_back(m);
        for (const auto& gl : g.lanes)
            if (gl.droppedLeading || gl.droppedTrailing)
                v.messages.push_back(p_.ranks[size_t(gl.rank)].label + ": " + std::to_string(gl.droppedLeading) + " leading and " +
                                     std::to_string(gl.droppedTrailing) + " trailing kernels without partners (window edges)");
        if (v.sequenceMismatches > 0)
            v.messages.insert(v.messages.begin() + 0, std::to_string(v.sequenceMismatches) +
                                                          " collective(s) inside the sequence lack a rank: op sequences differ there");
        if (g.complete == 0) v.status = "error";
        else if (!v.partial.empty() || !v.messages.empty()) v.status = "warn";
    }

    // ---- steps ---------------------------------------------------------------------------
    void steps() {
        const StepPattern pattern(o_.stepRegex);
        // NVTX step ranges per process: outermost matching ranges, numbered 1.. in time order
        std::vector<std::vector<std::pair<int64_t, int64_t>>> stepRanges(p_.processes.size());
        std::vector<int8_t> textMatches(p_.strings.size(), -1);  // per string id: -1 unknown, 0/1
        for (size_t pi = 0; pi < p_.processes.size(); ++pi) {
            const NvtxRanges& r = p_.processes[pi].nvtx;
            auto& out = stepRanges[pi];
            for (size_t i = 0; i < r.size(); ++i) {
                int8_t& m = textMatches[r.text[i]];
                if (m < 0) m = pattern.matches(p_.strings.str(r.text[i])) ? 1 : 0;
                if (!m) continue;
                if (!out.empty() && r.start[i] < out.back().second) continue;  // nested in the previous step
                out.emplace_back(r.start[i], r.end[i]);
            }
        }
        for (Group& g : a_.groups) {
            uint32_t maxStep = 0;
            bool nvtx = false;
            for (uint32_t c = 0; c < g.count; ++c) {
                Collective& col = a_.collectives[g.firstCollective + c];
                const Rank& early = p_.ranks[size_t(g.lanes[size_t(col.earlySlot)].rank)];
                const auto& sr = stepRanges[size_t(early.process)];
                if (sr.empty()) continue;
                // the range holding the early arriver's start; GPU work trails its CPU range, so a
                // start in the gap after a range belongs to the last range that began before it
                auto it = std::upper_bound(sr.begin(), sr.end(), col.minStart,
                                           [](int64_t t, const std::pair<int64_t, int64_t>& r) { return t < r.first; });
                if (it == sr.begin()) continue;
                --it;
                col.step = uint32_t(it - sr.begin()) + 1;
                col.offsetInStepNs = col.minStart - it->first;
                maxStep = std::max(maxStep, col.step);
                nvtx = true;
            }
            if (nvtx) {
                g.stepsSource = "nvtx";
                g.stepCount = maxStep;
                continue;
            }
            // inferred: the smallest period P with at least two repetitions of the op sequence
            std::vector<CollOp> ops(g.count);
            for (uint32_t c = 0; c < g.count; ++c) ops[c] = a_.collectives[g.firstCollective + c].op;
            // smallest P with ops[i] == ops[i + P] everywhere: n - (longest border), by the prefix
            // function in linear time; it counts only with at least two repetitions
            uint32_t period = 0;
            if (g.count >= 2) {
                std::vector<uint32_t> pi(g.count, 0);
                for (uint32_t i = 1; i < g.count; ++i) {
                    uint32_t k = pi[i - 1];
                    while (k > 0 && ops[i] != ops[k]) k = pi[k - 1];
                    if (ops[i] == ops[k]) ++k;
                    pi[i] = k;
                }
                // P = 1 is a sequence of one op (only SendRecv, say): it has no steps to infer
                uint32_t P = g.count - pi[g.count - 1];
                if (P >= 2 && P * 2 <= g.count) period = P;
            }
            if (!period) continue;
            g.stepsSource = "inferred";
            g.inferredPeriod = period;
            g.stepCount = (g.count + period - 1) / period;
            for (uint32_t c = 0; c < g.count; ++c) {
                Collective& col = a_.collectives[g.firstCollective + c];
                col.step = c / period + 1;
                col.offsetInStepNs = col.minStart - a_.collectives[g.firstCollective + (c / period) * period].minStart;
            }
        }
    }

    // ---- group statistics -------------------------------------------------------------------
    void groupStats() {
        for (Group& g : a_.groups) {
            const size_t n = g.width();
            std::vector<int64_t> ss, es;
            ss.reserve(g.complete);
            es.reserve(g.complete);
            g.perRank.assign(n, {});
            const std::vector<int64_t>& latSum = groupSums_[size_t(g.id)].latSum;
            const std::vector<int64_t>& latSumRest = groupSums_[size_t(g.id)].latSumRest;
            uint32_t rest = 0;
            for (uint32_t c = 0; c < g.count; ++c) {
                const Collective& col = a_.collectives[g.firstCollective + c];
                if (!col.complete) continue;
                ss.push_back(col.startSkew());
                es.push_back(col.endSkew());
                if (col.big) ++g.cost.bigCount, g.cost.bigExcessNs = satAdd(g.cost.bigExcessNs, col.excessNs);
                else ++g.cost.restCount, g.cost.restExcessNs = satAdd(g.cost.restExcessNs, col.excessNs), ++rest;
                ++g.perRank[size_t(col.lateSlot)].lastCount;
                ++g.perRank[size_t(col.earlySlot)].firstCount;
            }
            g.cost.excessNs = g.cost.totalNs - g.cost.baselineNs;
            g.cost.share = g.cost.totalNs > 0 ? double(g.cost.excessNs) / double(g.cost.totalNs) : 0.0;
            auto pct = [](std::vector<int64_t>& v) {
                Percentiles p;
                if (v.empty()) return p;
                p.max = *std::max_element(v.begin(), v.end());
                p.p50 = int64_t(std::llround(percentileSelect(v, 50)));  // selection, no full sort
                p.p90 = int64_t(std::llround(percentileSelect(v, 90)));
                return p;
            };
            g.startSkew = pct(ss);
            g.endSkew = pct(es);
            for (size_t s = 0; s < n; ++s) {
                RankStats& rs = g.perRank[s];
                rs.rank = g.lanes[s].rank;
                rs.meanLatenessNs = g.complete ? int64_t(std::llround(double(latSum[s]) / double(g.complete))) : 0;
                rs.meanLatenessExclBigNs = rest ? int64_t(std::llround(double(latSumRest[s]) / double(rest))) : 0;
                ncclTime(g, s, rs);
            }
            if (g.complete > 0 && g.endSkew.p50 > 100'000 && g.endSkew.p50 * 2 > g.startSkew.p50) {
                g.validation.messages.push_back("end times do not cluster (end skew p50 " + std::to_string(g.endSkew.p50) +
                                                " ns vs start skew p50 " + std::to_string(g.startSkew.p50) +
                                                " ns): matching may pair the wrong kernels");
                if (g.validation.status == "ok") g.validation.status = "warn";
            }
            tick(0.8);
        }
    }

    const KernelLane& laneOf(const Group& g, size_t s) const {
        return p_.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)];
    }

    // NCCL kernel time of a lane, and the part of it not overlapped by non-NCCL kernels of the rank.
    void ncclTime(const Group& g, size_t s, RankStats& rs) {
        const GroupLane& gl = g.lanes[s];
        const Rank& r = p_.ranks[size_t(gl.rank)];
        const KernelLane& kl = r.lanes[size_t(gl.lane)];
        // lanes that hold non-NCCL kernels, each with a cursor: the lane's kernels are visited in
        // start order, so "kernels starting before this end" only grows (no binary search each time)
        struct Other {
            const KernelLane* lane;
            size_t hi;
        };
        std::vector<Other> others;
        for (const KernelLane& o : r.lanes)
            if (o.ncclKernels < o.size()) others.push_back({&o, 0});
        std::vector<std::pair<int64_t, int64_t>> cover;
        for (uint32_t k : gl.kernels) {
            int64_t a = kl.start[k], b = kl.end[k];
            rs.ncclKernelNs = satAdd(rs.ncclKernelNs, b - a);
            cover.clear();
            for (Other& o : others) {
                const KernelLane& other = *o.lane;
                if (o.hi > 0 && other.start[o.hi - 1] >= b) {
                    // ends are not monotonic here (overlapping kernels on the NCCL stream): search
                    o.hi = size_t(std::lower_bound(other.start.begin(), other.start.end(), b) - other.start.begin());
                }
                while (o.hi < other.size() && other.start[o.hi] < b) ++o.hi;
                size_t i = o.hi;
                int misses = 0;
                while (i > 0) {
                    --i;
                    if (other.end[i] <= a) {
                        if (++misses > 1) break;  // one stream runs kernels in order: earlier ones end earlier
                        continue;
                    }
                    if (other.ncclKernels && p_.kernelOp(other.name[i]) != CollOp::NotNccl) continue;
                    if (o_.hasTrim && !inWindow(other.start[i])) continue;
                    cover.emplace_back(std::max(a, other.start[i]), std::min(b, other.end[i]));
                }
            }
            int64_t covered = 0;
            if (!cover.empty()) {
                std::sort(cover.begin(), cover.end());
                int64_t curA = cover[0].first, curB = cover[0].second;
                for (size_t i = 1; i < cover.size(); ++i) {
                    if (cover[i].first > curB) {
                        covered += curB - curA;
                        curA = cover[i].first;
                        curB = cover[i].second;
                    } else {
                        curB = std::max(curB, cover[i].second);
                    }
                }
                covered += curB - curA;
            }
            rs.ncclOnlyNs = satAdd(rs.ncclOnlyNs, (b - a) - covered);
        }
    }

    // ---- anomalies ---------------------------------------------------------------------------
    void anomalies() {
        Anomalies& an = a_.anomalies;
        an.threshold = o_.anomalyThreshold;
        std::array<double, kOps> sum{}, cnt{};
        for (const Group& g : a_.groups)
            for (const GroupLane& gl : g.lanes) {
                const KernelLane& kl = p_.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)];
                for (size_t i = 0; i < gl.kernels.size(); ++i) {
                    sum[size_t(gl.ops[i])] += double(kl.end[gl.kernels[i]] - kl.start[gl.kernels[i]]);
                    cnt[size_t(gl.ops[i])] += 1;
                }
            }
        for (const Group& g : a_.groups) {
            const size_t n = g.width();
            for (uint32_t c = 0; c < g.count; ++c) {
                const uint32_t ci = g.firstCollective + c;
                const Collective& col = a_.collectives[ci];
                double mean = cnt[size_t(col.op)] > 0 ? sum[size_t(col.op)] / cnt[size_t(col.op)] : 0;
                AnomalyItem item{g.id, ci, {}};
                for (size_t s = 0; s < n; ++s) {
                    uint32_t k = g.cells[size_t(c) * n + s];
                    if (k == kMissing) continue;
                    const KernelLane& kl = laneOf(g, s);
                    int64_t d = kl.end[k] - kl.start[k];
                    if (double(d) > o_.anomalyThreshold * mean) item.rows.emplace_back(g.lanes[s].rank, d);
                }
                if (item.rows.empty()) continue;
                an.rows += item.rows.size();
                ++an.events;
                an.items.push_back(std::move(item));
            }
        }
        if (o_.anomalyLimit >= 0) {
            // keep whole events while the listed rows fit the limit
            uint64_t listed = 0;
            size_t keep = 0;
            for (; keep < an.items.size(); ++keep) {
                if (listed + an.items[keep].rows.size() > uint64_t(o_.anomalyLimit)) break;
                listed += an.items[keep].rows.size();
            }
            an.items.resize(keep);
        }
    }

    Profile& p_;
    AnalysisOptions o_;
    mutable std::unique_ptr<NvtxOps> nvtxOps_;
    Analysis a_;
    std::vector<int8_t> gemmCache_;
    // per group, filled while building collectives: per slot lateness sums (all, not big)
    struct GroupSums {
        std::vector<int64_t> latSum, latSumRest;
    };
    std::vector<GroupSums> groupSums_;  // per string id: -1 unknown, 0 no, 1 GEMM
    // search hints of the why-step, per rank (lanes) and per process
    std::vector<std::vector<size_t>> predHints_;
    std::vector<size_t> launchHints_, waitHints_;
};

}  // namespace

Analysis analyze(Profile& profile, const AnalysisOptions& options) { return Analyzer(profile, options).run(); }

}  // namespace skew
