// core/timeline: the level of detail of the run timeline and the run maps, checked against brute
// force over every kernel, SQL over the real export and the generator's ground truth.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>

#include "analysis/analysis.h"
#include "gen_fixture.h"
#include "kernel_names_oracle.h"
#include "model/loader.h"
#include "timeline/run_maps.h"
#include "model/lane_index.h"
#include "timeline/timeline_index.h"

using namespace testutil;
using namespace skew;

namespace {

const Generated& demo() { return generated("demo", skewgen::demoConfig()); }

// The start skew of a collective of the generator's truth: its members' latest start - earliest.
int64_t truthStartSkew(const skewgen::TruthCollective& tc) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& m : tc.members) lo = std::min(lo, m.startNs), hi = std::max(hi, m.startNs);
    return hi - lo;
}

// The start skews of the truth's complete collectives (every rank has a member), sorted.
std::vector<int64_t> truthCompleteSkews(const skewgen::GenResult& r) {
    std::vector<int64_t> out;
    for (const auto& tc : r.collectives)
        if (tc.members.size() == r.rankLabels.size()) out.push_back(truthStartSkew(tc));
    std::sort(out.begin(), out.end());
    return out;
}

// ---- brute force: every kernel, classes by the spec's name rules (kernel_names_oracle.h, not
// core's), members from the group cells ------------------------------------------------------------

struct Brute {
    const Profile& p;
    const Analysis& a;
    std::map<std::tuple<int, int, uint32_t>, uint32_t> member;  // (rank, lane, kernel) -> collective

    Brute(const Profile& p_, const Analysis& a_) : p(p_), a(a_) {
        for (const Group& g : a.groups)
            for (uint32_t c = 0; c < g.count; ++c)
                for (size_t s = 0; s < g.width(); ++s) {
                    uint32_t k = g.cells[size_t(c) * g.width() + s];
                    if (k != kMissing) member[{g.lanes[s].rank, g.lanes[s].lane, k}] = g.firstCollective + c;
                }
    }

    ColumnSum column(int rank, int lane, double a0, double b0) const {
        ColumnSum o;
        const KernelLane& kl = p.ranks[size_t(rank)].lanes[size_t(lane)];
        for (size_t k = 0; k < kl.size(); ++k) {
            double s = double(kl.start[k]), e = double(kl.end(k));
            if (s < b0 && (e > a0 || s >= a0)) ++o.kernels;  // a zero-length kernel counts where it starts
            auto ov = [&](double x0, double x1) { return std::max(0.0, std::min(x1, b0) - std::max(x0, a0)); };
            auto it = member.find({rank, lane, uint32_t(k)});
            if (it != member.end()) {
                double w = std::clamp(double(a.collectives[it->second].maxStart), s, e);
                o.ns[int(KernelClass::NcclWait)] += ov(s, w);
                o.ns[int(KernelClass::NcclTransfer)] += ov(w, e);
            } else if (isNcclKernelName(p.strings.str(kl.name[k]))) {
                o.ns[int(KernelClass::OtherNccl)] += ov(s, e);
            } else if (isGemmKernelName(p.strings.str(kl.name[k]))) {
                o.ns[int(KernelClass::Gemm)] += ov(s, e);
            } else {
                o.ns[int(KernelClass::Other)] += ov(s, e);
            }
        }
        return o;
    }
};

void expectSame(const ColumnSum& got, const ColumnSum& want, const std::string& where) {
    EXPECT_EQ(got.kernels, want.kernels) << where;
    for (int w = 0; w < kKernelClasses; ++w) EXPECT_NEAR(got.ns[w], want.ns[w], 1e-3 * std::max(1.0, want.ns[w] * 1e-9)) << where << " class " << w;
}

void checkAgainstBrute(const Profile& p, const Analysis& a, const TimelineIndex& ix, const PixelMap& m) {
    Brute brute(p, a);
    std::vector<ColumnSum> cols(size_t(m.width));
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) {
            ix.columns(int(r), int(l), m, cols.data());
            for (int c = 0; c < m.width; ++c)
                expectSame(cols[size_t(c)], brute.column(int(r), int(l), m.boundary(c), m.boundary(c + 1)),
                           "rank " + std::to_string(r) + " lane " + std::to_string(l) + " column " + std::to_string(c));
        }
}

// A lane built by hand: random kernels, with overlaps and ends out of start order when asked.
Profile handProfile(const std::vector<size_t>& sizes, bool overlapping, uint32_t seed) {
    Profile p;
    StrId gemm = p.strings.intern("nvjet_tst_128x128_gemm");
    StrId elem = p.strings.intern("at::native::elementwise_kernel");
    StrId nccl = p.strings.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    p.nameOps.assign(p.strings.size(), CollOp::NotNccl);
    p.nameOps[nccl] = CollOp::AllReduce;
    p.processes.resize(1);
    Rank r;
    r.label = "dev 0";
    std::mt19937 rng(seed);
    int stream = 7;
    for (size_t n : sizes) {
        KernelLane kl;
        kl.stream = stream++;
        int64_t t = 1000;
        for (size_t k = 0; k < n; ++k) {
            t += overlapping ? int64_t(rng() % 900) : int64_t(rng() % 3000);
            int64_t d = int64_t(rng() % 5000);
            if (rng() % 50 == 0) d = int64_t(rng() % 400000);  // a few long ones spanning many kernels
            StrId nm = rng() % 3 == 0 ? gemm : rng() % 2 ? elem : nccl;
            kl.push_back(t, t + d, nm, uint32_t(k + 1));
            if (nm == nccl) ++kl.ncclKernels;
            if (!overlapping) t += d;
        }
        buildLaneIndex(kl);  // as the loader leaves every lane
        r.lanes.push_back(std::move(kl));
    }
    p.ranks.push_back(std::move(r));
    return p;
}

TEST(TimelineLod, MergedColumnsEqualBruteForceOnHandLanes) {
    // sizes around the block size, serial and overlapping (ends out of order) lanes
    for (bool overlapping : {false, true}) {
        Profile p = handProfile({0, 1, TimelineIndex::kBlock - 1, TimelineIndex::kBlock, TimelineIndex::kBlock + 1, 700}, overlapping, 7);
        Analysis a;
        TimelineIndex ix(p, a);
        int64_t t0 = INT64_MAX, t1 = 0;
        for (const auto& l : p.ranks[0].lanes)
            for (size_t k = 0; k < l.size(); ++k) t0 = std::min(t0, l.start[k]), t1 = std::max(t1, l.end(k));
        SCOPED_TRACE(overlapping ? "overlapping" : "serial");
        checkAgainstBrute(p, a, ix, PixelMap::fit(double(t0), double(t1), 97));           // many kernels per column
        checkAgainstBrute(p, a, ix, PixelMap::fit(double(t0) - 5000, double(t1) + 5000, 1));  // one column
        checkAgainstBrute(p, a, ix, PixelMap::fit(double(t0) + 12345.5, double(t0) + 40000.25, 333));  // zoomed in, fractional edges
        if (overlapping) {
            bool unsorted = false;
            const auto& e = p.ranks[0].lanes[5];
            for (size_t k = 1; k < e.size(); ++k) unsorted |= e.end(k) < e.end(k - 1);
            EXPECT_TRUE(unsorted) << "the test must cover ends out of start order";
        }
    }
}

TEST(TimelineLod, ZeroLengthKernelsOnColumnEdgesCountAsBruteForceDoes) {
    Profile p = handProfile({}, false, 1);
    KernelLane kl;
    kl.stream = 9;
    // kernels of zero length exactly on column edges, one inside, and long ones across edges
    const int64_t ks[][2] = {{100, 100}, {100, 250}, {250, 250}, {300, 300}, {300, 300}, {310, 700}, {700, 700}, {950, 1000}, {1000, 1000}};
    for (const auto& k : ks) {
        kl.push_back(k[0], k[1], p.strings.intern("at::native::elementwise_kernel"), uint32_t(kl.start.size() + 1));
    }
    buildLaneIndex(kl);
    p.ranks[0].lanes.push_back(std::move(kl));
    Analysis a;
    TimelineIndex ix(p, a);
    checkAgainstBrute(p, a, ix, PixelMap::fit(0, 1000, 10));  // edges at 0, 100, ..., 1000
    checkAgainstBrute(p, a, ix, PixelMap::fit(100, 300, 4));
    std::vector<ColumnSum> cols(10);
    ix.columns(0, 0, PixelMap::fit(0, 1000, 10), cols.data());
    EXPECT_EQ(cols[1].kernels, 2u);  // [100, 200): the 100-250 kernel and the zero-length one at 100
    EXPECT_EQ(cols[0].kernels, 0u);  // [0, 100): nothing
    EXPECT_EQ(cols[3].kernels, 3u);  // [300, 400): two zero-length at 300 and the one from 310
}

// Kernels whose durations add up past int64 (300 overlapping kernels of 2^56 ns on one stream, each
// within the loader's +-2^55 ns): the class sums saturate at the int64 maximum instead of wrapping
// (undefined behaviour: the sanitizer build stops on it; wrapped, the total read 44 x 2^56).
TEST(TimelineLod, HugeDurationSumsSaturate) {
    Profile p = handProfile({}, false, 1);
    KernelLane kl;
    kl.stream = 9;
    for (uint32_t k = 0; k < 300; ++k) kl.push_back(-kMaxAbsTimeNs, kMaxAbsTimeNs, p.strings.intern("nvjet_tst_128x128_gemm"), k + 1);
    buildLaneIndex(kl);
    p.ranks[0].lanes.push_back(std::move(kl));
    Analysis a;
    TimelineIndex ix(p, a);
    const ColumnSum all = ix.range(0, 0, -double(kMaxAbsTimeNs), double(kMaxAbsTimeNs) + 1);
    EXPECT_EQ(all.kernels, 300u);
    EXPECT_EQ(all.ns[int(KernelClass::Gemm)], double(INT64_MAX));
}

TEST(TimelineLod, MergedColumnsEqualBruteForceOnTheDemo) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    checkAgainstBrute(p, a, ix, PixelMap::fit(double(ix.start()), double(ix.end()), 211));
    // zoomed on the biggest late arriver, a few pixels per kernel
    const Collective* worst = &a.collectives[0];
    for (const auto& c : a.collectives)
        if (c.startSkew() > worst->startSkew()) worst = &c;
    checkAgainstBrute(p, a, ix, PixelMap::fit(double(worst->minStart) - 2e6, double(worst->maxEnd) + 1e6, 640));
}

TEST(TimelineLod, ExtraBytesPerKernelUnderEight) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    double perKernel = double(ix.bytes().total()) / double(p.kernelCount());
    EXPECT_LT(perKernel, 8.0);
    EXPECT_GT(perKernel, 0.0);
}

TEST(TimelineLod, TimeToPixelAtBothEdges) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    for (int width : {1, 7, 1920}) {
        PixelMap m = PixelMap::fit(double(ix.start()), double(ix.end()), width);
        EXPECT_EQ(m.boundary(0), double(ix.start()));
        EXPECT_NEAR(m.end(), double(ix.end()), 1e-6 * double(ix.end()) * 1e-9 + 1e-3);
        EXPECT_EQ(m.column(double(ix.start())), 0);
        EXPECT_EQ(m.column(double(ix.end()) - 1), width - 1);
        EXPECT_EQ(m.column(m.end()), width);  // the right edge is the next column's left edge
        EXPECT_EQ(m.column(double(ix.start()) - 1), -1);
        // the first kernel is in column 0 and the last one in the last column
        bool first = false, last = false;
        std::vector<ColumnSum> cols(static_cast<size_t>(width));
        for (size_t r = 0; r < p.ranks.size(); ++r)
            for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) {
                const KernelLane& kl = p.ranks[r].lanes[l];
                ix.columns(int(r), int(l), m, cols.data());
                if (kl.start[0] == ix.start()) first |= cols[0].kernels > 0 && cols[0].busy() > 0;
                if (kl.end(kl.size() - 1) == ix.end()) last |= cols[size_t(width - 1)].kernels > 0 && cols[size_t(width - 1)].busy() > 0;
            }
        EXPECT_TRUE(first) << width;
        EXPECT_TRUE(last) << width;
    }
    // every boundary maps back to its own column
    PixelMap m = PixelMap::fit(5'000'000'123.0, 5'987'654'321.0, 1777);
    for (int c = 0; c <= m.width; ++c) EXPECT_EQ(m.column(m.boundary(c)), c);
}

// The real 2xH100 export, collective 32: dev 1 arrived 3.34 ms late; its only GEMM in the wait runs
// 2.14-2.24 ms after the first arrival and elementwise kernels fill 2.25-3.34 ms. A merged pixel must
// show GEMM only where that GEMM ran.
TEST(TimelineLod, RealExportGemmOnlyWhereGemmRan) {
    const std::string path = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    Profile p = loadProfile({path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    ASSERT_EQ(a.groups.size(), 1u);
    const Collective& c = a.collectives[a.groups[0].firstCollective + 31];
    ASSERT_EQ(c.index, 32u);
    const int64_t t0 = c.minStart;
    ASSERT_EQ(c.startSkew(), 3'339'732);
    // dev 1's stream 15
    int rank = -1, lane = -1;
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l)
            if (p.ranks[r].label == "dev 1" && p.ranks[r].lanes[l].stream == 15) rank = int(r), lane = int(l);
    ASSERT_GE(rank, 0);
    auto sqlGemm = [&](int64_t a0, int64_t b0) {
        return sqlCount(path, "SELECT coalesce(sum(min(k.end," + std::to_string(b0) + ") - max(k.start," + std::to_string(a0) +
                                  ")), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                                  "WHERE k.deviceId = 1 AND k.start < " + std::to_string(b0) + " AND k.end > " + std::to_string(a0) +
                                  " AND (lower(s.value) LIKE '%gemm%' OR lower(s.value) LIKE '%nvjet%' OR lower(s.value) LIKE "
                                  "'%cutlass%' OR lower(s.value) LIKE '%xmma%' OR lower(s.value) LIKE '%cublas%' OR "
                                  "lower(s.value) LIKE '%wgmma%' OR lower(s.value) LIKE '%matmul%')");
    };
    // one pixel holding the GEMM and all the elementwise kernels after it (a zoomed-out view)
    ColumnSum wide = ix.range(rank, lane, double(t0 + 2'000'000), double(t0 + 3'339'000));
    EXPECT_EQ(int64_t(std::llround(wide.ns[int(KernelClass::Gemm)])), sqlGemm(t0 + 2'000'000, t0 + 3'339'000));
    EXPECT_EQ(int64_t(std::llround(wide.ns[int(KernelClass::Gemm)])), 104'320);  // the one GEMM, nothing more
    EXPECT_GT(wide.ns[int(KernelClass::Other)], 1'000'000.0);                     // the elementwise kernels
    // 10 us pixels from the first arrival: GEMM exactly where it ran, never over the elementwise kernels
    PixelMap m = PixelMap::fit(double(t0), double(t0 + 4'000'000), 400);
    std::vector<ColumnSum> cols(400);
    ix.columns(rank, lane, m, cols.data());
    int gemmCols = 0;
    for (int x = 0; x < 400; ++x) {
        const int64_t a0 = int64_t(m.boundary(x)), b0 = int64_t(m.boundary(x + 1));
        EXPECT_EQ(int64_t(std::llround(cols[size_t(x)].ns[int(KernelClass::Gemm)])), sqlGemm(a0, b0)) << "column " << x;
        if (a0 >= t0 + 2'250'000 && b0 <= t0 + 3'339'000) {
            EXPECT_EQ(cols[size_t(x)].ns[int(KernelClass::Gemm)], 0.0) << "GEMM drawn over elementwise kernels at column " << x;
            EXPECT_GT(cols[size_t(x)].ns[int(KernelClass::Other)], 0.0) << x;
        }
        if (a0 >= t0 + 2'140'000 && b0 <= t0 + 2'243'000) {
            EXPECT_NEAR(cols[size_t(x)].ns[int(KernelClass::Gemm)], m.nsPerPx, 1e-6) << x;
        }
        gemmCols += cols[size_t(x)].ns[int(KernelClass::Gemm)] > 0;
    }
    EXPECT_GT(gemmCols, 0);
    // dev 0 waited in its member from its start to dev 1's start: waiting part, then transfer
    int r0 = -1, l0 = -1;
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l)
            if (p.ranks[r].label == "dev 0" && p.ranks[r].lanes[l].stream == 7) r0 = int(r), l0 = int(l);
    ASSERT_GE(r0, 0);
    ColumnSum k0 = ix.range(r0, l0, double(t0), double(c.maxEnd));
    EXPECT_EQ(int64_t(std::llround(k0.ns[int(KernelClass::NcclWait)])), 3'339'732);
    EXPECT_EQ(int64_t(std::llround(k0.ns[int(KernelClass::NcclTransfer)])), 60'391'289'337 - 60'387'685'768 - 3'339'732);
    EXPECT_LT(double(ix.bytes().total()) / double(p.kernelCount()), 8.0);
}

TEST(TimelineLod, MembersAndHitTesting) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    Brute brute(p, a);
    size_t checked = 0;
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) {
            const KernelLane& kl = p.ranks[r].lanes[l];
            for (size_t k = 0; k < kl.size(); k += 7) {
                auto it = brute.member.find({int(r), int(l), uint32_t(k)});
                EXPECT_EQ(ix.collectiveOf(int(r), int(l), uint32_t(k)), it == brute.member.end() ? -1 : int64_t(it->second));
                // the middle of a kernel hits it
                EXPECT_EQ(ix.kernelAt(int(r), int(l), double(kl.start[k] + kl.end(k)) / 2, 0), int64_t(k));
                ++checked;
            }
        }
    EXPECT_GT(checked, 900u);
}

// ---- run maps ---------------------------------------------------------------------------------

TEST(RunMaps, StepMapPutsEachPlantedBigEventAtItsStepAndOffset) {
    const Generated& g = demo();
    Profile p = loadProfile({g.path});
    Analysis a = analyze(p);
    StepMap m = buildStepMap(p, a, 0);
    EXPECT_EQ(m.source, skew::StepSource::Nvtx);
    EXPECT_EQ(m.steps, 5u);
    EXPECT_EQ(m.big.size(), g.result.late.size());
    const skewgen::GenConfig cfg = skewgen::demoConfig();
    for (const auto& tl : g.result.late) {
        SCOPED_TRACE("planted step " + std::to_string(tl.planted.step) + " position " + std::to_string(tl.planted.positionInStep));
        const skewgen::TruthCollective* tc = nullptr;
        for (const auto& c : g.result.collectives)
            if (c.group == tl.group && c.index == tl.index) tc = &c;
        ASSERT_TRUE(tc);
        // oracle: earliest member start minus the step's NVTX range start on the early arriver's process (SQL)
        const skewgen::TruthMember* early = &tc->members[0];
        for (const auto& mb : tc->members)
            if (mb.startNs < early->startNs) early = &mb;
        int64_t pid = sqlCount(g.path, "SELECT DISTINCT (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " +
                                           std::to_string(cfg.devices[size_t(early->rank)]));
        int64_t stepStart = sqlCount(g.path, "SELECT start FROM NVTX_EVENTS WHERE text = 'ProfilerStep#" + std::to_string(tl.planted.step) +
                                                 "' AND ((globalTid >> 24) & 16777215) = " + std::to_string(pid));
        bool found = false;
        for (uint32_t bi : m.big) {
            const StepMap::Item& it = m.items[bi];
            const Collective& c = a.collectives[it.collective];
            if (c.group != tl.group || int(c.index) != tl.index) continue;
            found = true;
            EXPECT_EQ(int(it.step), tl.planted.step);
            EXPECT_EQ(it.offsetNs, early->startNs - stepStart);
            // hit testing at that place finds it
            EXPECT_EQ(nearestStepItem(m, it.step, double(it.offsetNs) + 10, 1000), int64_t(bi));
        }
        EXPECT_TRUE(found);
    }
}

TEST(RunMaps, StepMapWithoutStepsSaysWhy) {
    // the demo analysed as if neither NVTX nor the op sequence gave steps
    Profile p = loadProfile({demo().path});
    AnalysisOptions o;
    o.stepRegex = "^no such step$";
    Analysis a = analyze(p, o);
    for (auto& g : a.groups) g.stepsSource = skew::StepSource::None, g.stepCount = 0;
    for (auto& c : a.collectives) c.step = 0;
    StepMap m = buildStepMap(p, a, 0);
    EXPECT_TRUE(m.empty());
    EXPECT_TRUE(m.items.empty());
    EXPECT_NE(m.why.find("no NVTX range matches the step pattern ^no such step$"), std::string::npos) << m.why;
    // the default pattern by what it matches, not as its regex
    {
        Profile r = loadProfile({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"});
        const StepMap none = buildStepMap(r, analyze(r), 0);
        ASSERT_TRUE(none.empty());
        EXPECT_NE(none.why.find("no NVTX range matches the default step pattern (ProfilerStep#N, iteration, iter, step, train_step or "
                                "sample_N ranges)"),
                  std::string::npos)
            << none.why;
    }
    // a real export without NCCL kernels: nothing was matched
    Profile q = loadProfile({realDataDir() + "/pipit-cloverleaf.sqlite"});
    Analysis b = analyze(q);
    StepMap n = buildStepMap(q, b, 0);
    EXPECT_TRUE(n.empty());
    EXPECT_NE(n.why.find("no NCCL collectives"), std::string::npos) << n.why;
}

// A member's lateness from the lane starts of its collective's members (the spec: its start - the
// earliest start), -1 when the rank lacks the collective.
int64_t latenessFromStarts(const Profile& p, const Analysis& a, uint32_t collective, size_t slot) {
    const Collective& c = a.collectives[collective];
    const Group& g = a.groups[size_t(c.group)];
    auto startOf = [&](size_t s) {
        const uint32_t k = g.cells[size_t(c.index - 1) * g.width() + s];
        return k == kMissing ? INT64_MIN : p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)].start[k];
    };
    if (startOf(slot) == INT64_MIN) return -1;
    int64_t earliest = INT64_MAX;
    for (size_t s = 0; s < g.width(); ++s)
        if (startOf(s) != INT64_MIN) earliest = std::min(earliest, startOf(s));
    return startOf(slot) - earliest;
}

TEST(RunMaps, HeatmapCellsAreTheMaximumOfTheirCollectives) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    const Group& g = a.groups[0];
    for (int width : {int(g.count), 17, 1, 1000}) {
        HeatmapCells h;
        heatmapCells(p, a, 0, 0, double(g.count), width, h);
        ASSERT_EQ(h.lateness.size(), size_t(width) * g.width());
        for (int x = 0; x < width; ++x) {
            double u = double(g.count) * x / width, v = double(g.count) * (x + 1) / width;
            for (size_t s = 0; s < g.width(); ++s) {
                int64_t want = -2;
                bool bigLate = false;
                for (uint32_t pos = 0; pos < g.count; ++pos) {
                    if (!(pos < v && pos + 1 > u)) continue;
                    const Collective& c = a.collectives[g.firstCollective + pos];
                    want = std::max(want, latenessFromStarts(p, a, g.firstCollective + pos, s));
                    bigLate |= c.big && c.lateSlot == int(s);
                }
                EXPECT_EQ(h.lateness[size_t(x) * g.width() + s], want) << x << "," << s;
                EXPECT_EQ(h.bigLate[size_t(x) * g.width() + s] != 0, bigLate) << x << "," << s;
                if (want >= 0) {
                    EXPECT_EQ(latenessFromStarts(p, a, h.collective[size_t(x) * g.width() + s], s), want);
                }
            }
        }
    }
    // one column per collective: each planted late arriver's cell holds its lateness, the start
    // skew of its collective in the generator's truth
    HeatmapCells h;
    heatmapCells(p, a, 0, 0, double(g.count), int(g.count), h);
    for (const auto& tl : demo().result.late) {
        const Collective& c = a.collectives[g.firstCollective + uint32_t(tl.index - 1)];
        size_t cell = size_t(tl.index - 1) * g.width() + size_t(c.lateSlot);
        EXPECT_EQ(h.collective[cell], g.firstCollective + uint32_t(tl.index - 1));
        for (const auto& tc : demo().result.collectives) {
            if (tc.group == tl.group && tc.index == tl.index) {
                EXPECT_EQ(h.lateness[cell], truthStartSkew(tc));
            }
        }
        EXPECT_EQ(h.bigLate[cell], 1);
    }
}

// The run views' colour scale: within noise up to 3x the median start skew of the complete
// collectives (the demo's 140: the median is the mean of the 70th and 71st), then logarithmic to the
// big threshold. The skews are the generator's truth, not the analysis's.
TEST(RunMaps, SkewScaleFromTheNoiseBoundToTheBigThreshold) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    const std::vector<int64_t> skews = truthCompleteSkews(demo().result);
    ASSERT_EQ(skews.size(), 140u);
    const SkewScale s = skewScale(a);
    EXPECT_EQ(s.median, std::llround((double(skews[69]) + double(skews[70])) / 2));
    EXPECT_EQ(s.lo, 3 * s.median);
    EXPECT_EQ(s.hi, a.options.bigSkewNs);
    EXPECT_EQ(s.hi, 20'000'000);
    EXPECT_EQ(s.position(0), 0);
    EXPECT_EQ(s.position(s.lo), 0);
    EXPECT_EQ(s.position(s.hi), 1);
    EXPECT_EQ(s.position(skews.back()), 1);
    EXPECT_NEAR(s.position(int64_t(std::sqrt(double(s.lo) * double(s.hi)))), 0.5, 1e-6);
    // the demo's ordinary collectives (not over the threshold) lie within 1.24x the median: every one
    // is within noise, so only the big ones take colour
    int64_t ordinary = 0;
    for (int64_t k : skews)
        if (k <= s.hi) ordinary = std::max(ordinary, k);
    EXPECT_LE(double(ordinary), 1.25 * double(s.median));
    EXPECT_EQ(s.position(ordinary), 0);
    // a run whose median is under 1/3 us starts the scale at 1 us; one whose median is close to the
    // threshold keeps a decade of range
    Analysis tiny = a;
    for (auto& c : tiny.collectives) c.maxStart = c.minStart + 10;
    EXPECT_EQ(skewScale(tiny).lo, 1000);
    Analysis wide = a;
    for (auto& c : wide.collectives) c.maxStart = c.minStart + 5'000'000;
    EXPECT_EQ(skewScale(wide).lo, 15'000'000);
    EXPECT_EQ(skewScale(wide).hi, 150'000'000);
    // two runs compared share one scale: the median over both runs' complete collectives (the
    // demo's 140 and 140 at 5 ms)
    std::vector<int64_t> union_ = skews;
    union_.insert(union_.end(), 140, 5'000'000);
    std::sort(union_.begin(), union_.end());
    const SkewScale both = skewScale(a, wide);
    EXPECT_EQ(both.median, std::llround((double(union_[139]) + double(union_[140])) / 2));
    EXPECT_EQ(both.lo, 3 * both.median);
    EXPECT_EQ(skewScale(wide, a).lo, both.lo);
}

TEST(RunMaps, OverviewAndSkewDistributions) {
    Profile p = loadProfile({demo().path});
    Analysis a = analyze(p);
    TimelineIndex ix(p, a);
    PixelMap m = PixelMap::fit(double(ix.start()), double(ix.end()), 300);
    OverviewColumns o;
    overviewColumns(a, m, o);
    for (int x = 0; x < 300; ++x) {
        int64_t want = -1;
        bool big = false;
        for (const auto& c : a.collectives)
            if (double(c.maxStart) >= m.boundary(x) && double(c.maxStart) < m.boundary(x + 1)) want = std::max(want, c.startSkew()), big |= c.big;
        EXPECT_EQ(o.maxSkew[size_t(x)], want) << x;
        EXPECT_EQ(o.big[size_t(x)] != 0, big) << x;
    }
    auto starts = sortedSkews(a, 0, false), ends = sortedSkews(a, 0, true);
    EXPECT_EQ(starts.size(), a.groups[0].complete);
    EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
    // the largest is the truth's largest start skew (the 55 ms event)
    int64_t truthMax = 0;
    for (const auto& tc : demo().result.collectives) {
        if (tc.group != 0 || tc.members.size() != a.groups[0].width()) continue;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const auto& mb : tc.members) lo = std::min(lo, mb.startNs), hi = std::max(hi, mb.startNs);
        truthMax = std::max(truthMax, hi - lo);
    }
    EXPECT_EQ(starts.back(), truthMax);
    EXPECT_GE(starts.back(), 50'000'000);
    EXPECT_LT(ends.back(), starts.back() / 100);  // ends cluster, starts do not
    auto steps = stepStarts(a, 0);
    ASSERT_EQ(steps.size(), 5u);
    EXPECT_TRUE(std::is_sorted(steps.begin(), steps.end()));
}

}  // namespace
