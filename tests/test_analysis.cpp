// The collective analysis on generated exports with planted events, checked against the
// generator's ground truth with exact numbers, and on the real 2xH100 export.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/analysis.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/lane_index.h"
#include "model/loader.h"
#include "report/analysis_report.h"

using namespace testutil;
using skew::Analysis;
using skew::Collective;

namespace {

constexpr int64_t kMs = 1'000'000;

// numpy.percentile(..., method='linear'), written out independently of the analysis
double npPercentile(std::vector<int64_t> v, double q) {
    std::sort(v.begin(), v.end());
    double h = (double(v.size()) - 1) * q / 100.0;
    double lo = std::floor(h);
    size_t i = size_t(lo);
    if (i + 1 >= v.size()) return double(v.back());
    return double(v[i]) + (h - lo) * double(v[i + 1] - v[i]);
}

struct Expected {
    int64_t startSkew, endSkew, excess;
    int lateRank, earlyRank;  // spec order
};

// Expected numbers of a complete truth collective, members put in spec rank order.
Expected expect(const skewgen::GenResult& r, const skewgen::TruthCollective& c) {
    std::vector<int> specIndex(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) specIndex[size_t(r.specOrder[i])] = int(i);
    std::vector<const skewgen::TruthMember*> ms;
    for (const auto& m : c.members) ms.push_back(&m);
    std::sort(ms.begin(), ms.end(), [&](auto* a, auto* b) { return specIndex[size_t(a->rank)] < specIndex[size_t(b->rank)]; });
    Expected e{};
    int64_t minS = ms[0]->startNs, maxS = ms[0]->startNs, minE = ms[0]->endNs, maxE = ms[0]->endNs, minD = INT64_MAX, sum = 0;
    e.lateRank = e.earlyRank = specIndex[size_t(ms[0]->rank)];
    for (auto* m : ms) {
        if (m->startNs > maxS) maxS = m->startNs, e.lateRank = specIndex[size_t(m->rank)];
        if (m->startNs < minS) minS = m->startNs, e.earlyRank = specIndex[size_t(m->rank)];
        minE = std::min(minE, m->endNs);
        maxE = std::max(maxE, m->endNs);
        minD = std::min(minD, m->endNs - m->startNs);
        sum += m->endNs - m->startNs;
    }
    e.startSkew = maxS - minS;
    e.endSkew = maxE - minE;
    e.excess = sum - int64_t(ms.size()) * minD;
    return e;
}

const skew::Group& groupWithOp(const Analysis& a, const std::string& op) {
    for (const auto& g : a.groups)
        if (g.ops.count(op)) return g;
    throw std::runtime_error("no group with " + op);
}

const Collective& coll(const Analysis& a, const skew::Group& g, uint32_t index) { return a.collectives[g.firstCollective + index - 1]; }

int lateRank(const Analysis& a, const Collective& c) { return a.slotRank(c, size_t(c.lateSlot)); }

// Every complete truth collective of `truthGroup` against analysis collective (index + shift).
void checkGroupAgainstTruth(const Analysis& a, const skew::Group& g, const skewgen::GenResult& r, int truthGroup,
                            int indexShift = 0) {
    std::vector<int64_t> ss, es;
    int64_t total = 0, baseline = 0;
    uint32_t complete = 0;
    for (const auto& tc : r.collectives) {
        if (tc.group != truthGroup || tc.members.size() != r.rankLabels.size()) continue;
        Expected e = expect(r, tc);
        const Collective& c = coll(a, g, uint32_t(tc.index + indexShift));
        ASSERT_TRUE(c.complete) << tc.index;
        EXPECT_EQ(skew::opName(c.op), tc.op) << tc.index;
        EXPECT_EQ(c.startSkew(), e.startSkew) << tc.index;
        EXPECT_EQ(c.endSkew(), e.endSkew) << tc.index;
        EXPECT_EQ(c.excessNs, e.excess) << tc.index;
        EXPECT_EQ(lateRank(a, c), e.lateRank) << tc.index;
        EXPECT_EQ(a.slotRank(c, size_t(c.earlySlot)), e.earlyRank) << tc.index;
        ss.push_back(e.startSkew);
        es.push_back(e.endSkew);
        int64_t minD = INT64_MAX;
        for (const auto& m : tc.members) total += m.endNs - m.startNs, minD = std::min(minD, m.endNs - m.startNs);
        baseline += int64_t(tc.members.size()) * minD;
        ++complete;
    }
    EXPECT_EQ(g.complete, complete);
    EXPECT_EQ(g.startSkew.p50, std::llround(npPercentile(ss, 50)));
    EXPECT_EQ(g.startSkew.p90, std::llround(npPercentile(ss, 90)));
    EXPECT_EQ(g.startSkew.max, *std::max_element(ss.begin(), ss.end()));
    EXPECT_EQ(g.endSkew.p50, std::llround(npPercentile(es, 50)));
    EXPECT_EQ(g.endSkew.p90, std::llround(npPercentile(es, 90)));
    EXPECT_EQ(g.cost.totalNs, total);
    EXPECT_EQ(g.cost.baselineNs, baseline);
    EXPECT_EQ(g.cost.excessNs, total - baseline);
    EXPECT_DOUBLE_EQ(g.cost.share, double(total - baseline) / double(total));
}

// Each planted late arriver: its rank, step, cause, predecessor, and its lateness and CPU/GPU split
// computed from the generator's member times (within `tolNs` when clocks were corrected).
void checkPlanted(const skew::Profile& p, const Analysis& a, const skew::Group& g, const skewgen::GenResult& r, int indexShift = 0,
                  int64_t tolNs = 0) {
    ASSERT_FALSE(r.late.empty());
    std::vector<int> specIndex(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) specIndex[size_t(r.specOrder[i])] = int(i);
    for (const auto& tl : r.late) {
        const Collective& c = coll(a, g, uint32_t(tl.index + indexShift));
        SCOPED_TRACE("planted at index " + std::to_string(tl.index));
        const skewgen::TruthCollective* tc = nullptr;
        for (const auto& x : r.collectives)
            if (x.group == tl.group && x.index == tl.index) tc = &x;
        ASSERT_TRUE(tc);
        int64_t minStart = INT64_MAX;
        const skewgen::TruthMember* late = nullptr;
        for (const auto& m : tc->members) {
            minStart = std::min(minStart, m.startNs);
            if (m.rank == tl.planted.rank) late = &m;
        }
        ASSERT_TRUE(late);
        const int64_t lateness = late->startNs - minStart;
        const int64_t cpu = std::clamp<int64_t>(late->launchEndNs - minStart, 0, lateness);
        EXPECT_NEAR(double(c.latenessNs), double(lateness), double(tolNs));
        EXPECT_NEAR(double(c.cpuNs), double(cpu), double(tolNs));
        EXPECT_NEAR(double(c.gpuNs), double(lateness - cpu), double(tolNs));
        EXPECT_NEAR(double(c.launchToStartNs), double(late->startNs - late->launchEndNs), double(tolNs));
        EXPECT_TRUE(c.big);
        EXPECT_EQ(lateRank(a, c), specIndex[size_t(tl.planted.rank)]);
        EXPECT_EQ(c.step, uint32_t(tl.planted.step));
        ASSERT_TRUE(c.launched);
        if (tl.planted.kind == skewgen::LateKind::Cpu) {
            EXPECT_EQ(std::string(skew::causeName(c.cause)), "cpu_launch");
            EXPECT_GE(c.cpuNs * 2, c.latenessNs);
            EXPECT_EQ(c.predLane, -1);
        } else {
            EXPECT_EQ(std::string(skew::causeName(c.cause)), "gpu_dependency");
            ASSERT_GE(c.predLane, 0);
            const auto& pl = p.ranks[size_t(c.predRank)].lanes[size_t(c.predLane)];
            EXPECT_EQ(p.strings.str(pl.name[c.predKernel]), tl.predecessorName);
            EXPECT_EQ(pl.stream, tl.predecessorStream);
            EXPECT_TRUE(c.predIsGemm);
            EXPECT_EQ(c.cpuNs, 0);
            EXPECT_EQ(c.gpuNs, c.latenessNs);
            EXPECT_GT(c.predGapNs, 0);
            EXPECT_LT(c.predGapNs, 2'000);
            EXPECT_GE(c.waitCount, 1u);
        }
    }
    uint32_t big = 0;
    for (uint32_t i = 0; i < g.count; ++i) big += coll(a, g, i + 1).big && coll(a, g, i + 1).complete;
    EXPECT_EQ(g.cost.bigCount, big);
    EXPECT_EQ(big, uint32_t(r.late.size()));
}

TEST(Analysis, DemoMatchesTruth) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 2u);
    EXPECT_TRUE(a.unmatched.empty());
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.count, 135u);
    EXPECT_EQ(g.complete, 135u);
    EXPECT_EQ(g.ops.at("AllGather"), 90u);
    EXPECT_EQ(g.ops.at("ReduceScatter"), 45u);
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Ok);
    EXPECT_EQ(g.stepsSource, skew::StepSource::Nvtx);
    EXPECT_EQ(g.stepCount, 5u);
    checkGroupAgainstTruth(a, g, gen.result, 0);
    checkPlanted(p, a, g, gen.result);
    // the AllReduce group's streams differ between ranks (60/61) and it still matches
    const auto& ar = groupWithOp(a, "AllReduce");
    EXPECT_EQ(ar.count, 5u);
    checkGroupAgainstTruth(a, ar, gen.result, 1);
    // steps from NVTX agree with the generator's
    for (const auto& tc : gen.result.collectives) {
        if (tc.group == 0) {
            EXPECT_EQ(coll(a, g, uint32_t(tc.index)).step, uint32_t(tc.step)) << tc.index;
        }
    }
    // per rank: last/first counts add up to the complete collectives
    uint32_t last = 0, first = 0;
    for (const auto& rs : g.perRank) last += rs.lastCount, first += rs.firstCount;
    EXPECT_EQ(last, 135u);
    EXPECT_EQ(first, 135u);
    for (const auto& rs : g.perRank) {
        EXPECT_GT(rs.ncclKernelNs, 0);
        EXPECT_LT(rs.ncclOnlyNs, rs.ncclKernelNs);  // compute overlaps the NCCL kernels partly
        EXPECT_GT(rs.ncclOnlyNs, 0);
    }
}

// The parallel stages (collectives and their causes in chunks, NCCL-only time per lane) give the
// same analysis on any number of threads: one thread makes each group one sequential pass, more
// threads split it into chunks of a few collectives whose sums are added afterwards.
TEST(Analysis, SameResultOnAnyNumberOfThreads) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    auto reportWith = [&](size_t threads) {
        skew::Profile p = skew::loadProfile({gen.path});
        skew::AnalysisOptions o;
        o.threads = threads;
        return skew::analysisJson(p, skew::analyze(p, o));
    };
    const std::string one = reportWith(1);
    ASSERT_NE(one.find("\"collectives\": 135"), std::string::npos);  // the group split into chunks below
    for (size_t threads : {2, 3, 7}) EXPECT_TRUE(reportWith(threads) == one) << threads << " threads";
}

TEST(Analysis, CostSplitAndLatenessMeans) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    int64_t bigExcess = 0, restExcess = 0, latenessSum = 0;
    std::vector<int64_t> latAll(g.width(), 0), latRest(g.width(), 0);
    uint32_t rest = 0;
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0) continue;
        Expected e = expect(gen.result, tc);
        bool big = e.startSkew > 20 * kMs;
        (big ? bigExcess : restExcess) += e.excess;
        rest += !big;
        int64_t minS = INT64_MAX;
        for (const auto& m : tc.members) minS = std::min(minS, m.startNs);
        for (const auto& m : tc.members) {
            latenessSum += m.startNs - minS;
            latAll[size_t(m.rank)] += m.startNs - minS;  // demo: config order is spec order
            if (!big) latRest[size_t(m.rank)] += m.startNs - minS;
        }
    }
    EXPECT_EQ(g.cost.bigExcessNs, bigExcess);
    EXPECT_EQ(g.cost.restExcessNs, restExcess);
    EXPECT_EQ(g.cost.restCount, rest);
    EXPECT_EQ(g.cost.latenessSumNs, latenessSum);
    for (size_t s = 0; s < g.width(); ++s) {
        EXPECT_EQ(g.perRank[s].meanLatenessNs, std::llround(double(latAll[s]) / 135.0));
        EXPECT_EQ(g.perRank[s].meanLatenessExclBigNs, std::llround(double(latRest[s]) / double(rest)));
    }
}

TEST(Analysis, StepsInferredWithoutNvtx) {
    auto cfg = skewgen::demoConfig();
    cfg.nvtxSteps = false;
    const auto& gen = generated("demo-nonvtx", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.stepsSource, skew::StepSource::Inferred);
    EXPECT_EQ(g.inferredPeriod, 27u);
    EXPECT_EQ(g.stepCount, 5u);
    // the truth's earliest member start of each collective, and of each step's first collective
    std::map<int, int64_t> minStart;
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0) continue;
        int64_t m = INT64_MAX;
        for (const auto& mb : tc.members) m = std::min(m, mb.startNs);
        minStart[tc.index] = m;
    }
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0) continue;
        const Collective& c = coll(a, g, uint32_t(tc.index));
        EXPECT_EQ(c.step, uint32_t(tc.step));
        EXPECT_EQ(c.positionInStep, uint32_t((tc.index - 1) % 27 + 1));
        EXPECT_EQ(c.offsetInStepNs, minStart[tc.index] - minStart[(tc.step - 1) * 27 + 1]);
    }
    checkPlanted(p, a, g, gen.result);
}

TEST(Analysis, GenericKernelNamesTakeTheOpFromNvtx) {
    auto cfg = skewgen::demoConfig();
    cfg.genericNcclNames = true;
    const auto& gen = generated("demo-generic", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.ops.at("AllGather"), 90u);
    EXPECT_EQ(g.ops.at("ReduceScatter"), 45u);
    EXPECT_EQ(groupWithOp(a, "AllReduce").count, 5u);
    checkGroupAgainstTruth(a, g, gen.result, 0);
}

TEST(Analysis, OldKernelNames) {
    auto cfg = skewgen::demoConfig();
    cfg.oldKernelNames = true;
    const auto& gen = generated("demo-old", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "ReduceScatter");
    checkGroupAgainstTruth(a, g, gen.result, 0);
    checkPlanted(p, a, g, gen.result);
}

TEST(Analysis, MissingCollectiveIsPartialAndNamed) {
    auto cfg = skewgen::demoConfig();
    cfg.missing = {{2, 40}, {5, 77}};
    const auto& gen = generated("demo-missing", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.count, 135u);
    EXPECT_EQ(g.complete, 133u);
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Warn);
    EXPECT_EQ(g.validation.sequenceMismatches, 2u);
    ASSERT_EQ(g.validation.partial.size(), 2u);
    EXPECT_EQ(g.validation.partial[0].index, 40u);
    EXPECT_EQ(g.validation.partial[0].missingRanks, std::vector<int>{2});
    EXPECT_EQ(g.validation.partial[1].index, 77u);
    EXPECT_EQ(g.validation.partial[1].missingRanks, std::vector<int>{5});
    bool named = false;
    for (const auto& m : g.validation.messages) named |= m.find("collective 40 (") != std::string::npos && m.find("dev 3") != std::string::npos;
    EXPECT_TRUE(named);
    // nothing after the gap is paired with the wrong kernel
    checkGroupAgainstTruth(a, g, gen.result, 0);
    checkPlanted(p, a, g, gen.result);
}

TEST(Analysis, TrimmedEdgesAlign) {
    // Cut the window inside the first and the last FSDP collectives: some ranks keep them, others not.
    auto full = skewgen::demoConfig();
    const auto& fullGen = generated("demo", full);
    auto startsOf = [&](int index) {
        std::vector<int64_t> v;
        for (const auto& tc : fullGen.result.collectives)
            if (tc.group == 0 && tc.index == index)
                for (const auto& m : tc.members) v.push_back(m.startNs - fullGen.result.firstStepNs);
        std::sort(v.begin(), v.end());
        return v;
    };
    auto first = startsOf(1), last = startsOf(135);
    auto cfg = full;
    cfg.trimStartNs = first[first.size() / 2];  // about half the ranks lose collective 1
    cfg.trimEndNs = last[last.size() / 2];
    const auto& gen = generated("demo-trim", cfg);
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.count, 135u);
    EXPECT_EQ(g.complete, 133u);
    ASSERT_EQ(g.validation.partial.size(), 2u);
    EXPECT_EQ(g.validation.partial[0].index, 1u);
    EXPECT_EQ(g.validation.partial[1].index, 135u);
    EXPECT_EQ(g.validation.sequenceMismatches, 0u);  // edges, not mismatches
    // the ranks that kept collective 1 report one leading kernel dropped
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0 || tc.index != 1) continue;
        EXPECT_EQ(g.validation.partial[0].missingRanks.size(), size_t(7) - tc.members.size());
        for (const auto& m : tc.members) EXPECT_EQ(g.lanes[size_t(m.rank)].droppedLeading, 1u);
    }
    checkGroupAgainstTruth(a, g, gen.result, 0);
    checkPlanted(p, a, g, gen.result);
}

TEST(Analysis, TrimOptionKeepsKernelsStartingInWindow) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    // keep steps 2..3 of the FSDP group: from step 2's first collective to step 4's first
    skew::Profile probe = skew::loadProfile({gen.path});
    Analysis all = skew::analyze(probe);
    const auto& g0 = groupWithOp(all, "AllGather");
    skew::AnalysisOptions o;
    o.hasTrim = true;
    o.trimStartNs = coll(all, g0, 28).minStart;
    o.trimEndNs = coll(all, g0, 82).minStart;
    Analysis a = skew::analyze(p, o);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(a.windowStart, o.trimStartNs);
    EXPECT_EQ(a.windowEnd, o.trimEndNs);
    EXPECT_EQ(g.complete, 54u);  // collectives 28..81
    EXPECT_EQ(coll(a, g, 1).startSkew(), coll(all, g0, 28).startSkew());
}

TEST(Analysis, PerRankFilesWithoutClockError) {
    auto cfg = skewgen::demoConfig();
    cfg.perRankFiles = true;
    cfg.devices.clear();
    const auto& gen = generated("demo-prf", cfg);
    skew::Profile p = skew::loadProfile(gen.result.files);
    Analysis a = skew::analyze(p);
    for (const auto& r : p.ranks) EXPECT_EQ(r.clockOffsetNs, 0) << r.label;
    for (const auto& c : a.clocks) EXPECT_LT(std::llabs(c.estimateNs), 50'000);
    const auto& g = groupWithOp(a, "AllGather");
    checkGroupAgainstTruth(a, g, gen.result, 0);
    checkPlanted(p, a, g, gen.result);
}

TEST(Analysis, PerRankFilesWithHostClockError) {
    auto cfg = skewgen::demoConfig();
    cfg.perRankFiles = true;
    cfg.devices.clear();
    cfg.clockErrorNs = {0, 3 * kMs, -2 * kMs, 0, 5 * kMs + 123'456, 0, -4 * kMs};
    const auto& gen = generated("demo-prf-clock", cfg);
    {
        // without the refinement the rank whose clock runs 5 ms ahead looks late almost every time
        skew::Profile p = skew::loadProfile(gen.result.files);
        skew::AnalysisOptions o;
        o.refineClocks = false;
        Analysis a = skew::analyze(p, o);
        const auto& g = groupWithOp(a, "AllGather");
        EXPECT_GE(g.perRank[4].lastCount, 125u);
    }
    skew::Profile p = skew::loadProfile(gen.result.files);
    Analysis a = skew::analyze(p);
    for (size_t r = 0; r < 7; ++r) {
        // the estimate undoes the error, to within the end jitter of the collectives
        EXPECT_NEAR(double(p.ranks[r].clockOffsetNs), double(-cfg.clockErrorNs[r]), 20'000.0) << r;
        EXPECT_EQ(a.clocks[r].offsetNs, p.ranks[r].clockOffsetNs);
        EXPECT_LT(a.clocks[r].residualP90Ns, 40'000);
    }
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.complete, 135u);
    checkPlanted(p, a, g, gen.result, 0, 40'000);
    // late arrivers of the small-skew collectives too: every one agrees with the truth
    uint32_t agree = 0;
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0) continue;
        agree += lateRank(a, coll(a, g, uint32_t(tc.index))) == expect(gen.result, tc).lateRank;
    }
    EXPECT_GE(agree, 120u);  // residual offsets of a few us can swap ranks that arrived within them
}

TEST(Analysis, AnomaliesAreEventsNotRows) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    // expected from the truth: rows over 3x the mean duration of the op's kernels
    std::map<std::string, std::pair<double, double>> sums;
    for (const auto& tc : gen.result.collectives)
        for (const auto& m : tc.members) sums[tc.op].first += double(m.endNs - m.startNs), sums[tc.op].second += 1;
    uint64_t rows = 0;
    std::set<std::pair<int, int>> events;
    std::map<std::pair<int, int>, uint64_t> rowsOf;  // per event, in (group, index) order
    for (const auto& tc : gen.result.collectives)
        for (const auto& m : tc.members)
            if (double(m.endNs - m.startNs) > 3.0 * sums[tc.op].first / sums[tc.op].second)
                ++rows, events.insert({tc.group, tc.index}), ++rowsOf[{tc.group, tc.index}];
    Analysis a = skew::analyze(p);
    EXPECT_EQ(a.anomalies.rows, rows);
    EXPECT_EQ(a.anomalies.events, events.size());
    EXPECT_EQ(a.anomalies.items.size(), events.size());
    EXPECT_GT(rows, events.size());  // several rows per collective read as one event
    skew::AnalysisOptions o;
    o.anomalyLimit = 6;
    skew::Profile p2 = skew::loadProfile({gen.path});
    Analysis limited = skew::analyze(p2, o);
    EXPECT_EQ(limited.anomalies.rows, rows);
    // whole events, in order, while their rows fit in 6
    size_t keep = 0;
    uint64_t listed = 0;
    for (const auto& [event, n] : rowsOf) {
        if (listed + n > 6) break;
        listed += n;
        ++keep;
    }
    ASSERT_EQ(limited.anomalies.items.size(), keep);
    ASSERT_GE(keep, 1u);
    const Collective& first = limited.collectives[limited.anomalies.items[0].collective];
    EXPECT_EQ(std::make_pair(first.group, int(first.index)), rowsOf.begin()->first);
}

// The real 2xH100 capture: 33 SendRecv per GPU, on streams 7 and 15.
TEST(Analysis, RealMfuBefore) {
    const std::string path = realDataDir() + "/nsysai-mfu_2gpu_before.sqlite";
    skew::Profile p = skew::loadProfile({path});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const auto& g = a.groups[0];
    EXPECT_EQ(g.count, 33u);
    EXPECT_EQ(g.complete, 33u);
    EXPECT_EQ(g.ops.at("SendRecv"), 33u);
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Ok);
    // expected: the k-th SendRecv of each device, straight from SQL
    auto column = [&](int dev, const char* col) {
        std::vector<int64_t> v;
        sqlite3* db = nullptr;
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        std::string sql = std::string("SELECT k.") + col + " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                          "s.id=k.demangledName WHERE s.value LIKE 'ncclDevKernel_SendRecv%' AND k.deviceId=" +
                          std::to_string(dev) + " ORDER BY k.start";
        sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) v.push_back(sqlite3_column_int64(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
        return v;
    };
    auto s0 = column(0, "start"), s1 = column(1, "start"), e0 = column(0, "end"), e1 = column(1, "end");
    ASSERT_EQ(s0.size(), 33u);
    ASSERT_EQ(s1.size(), 33u);
    std::vector<int64_t> ss, es;
    int late1 = 0;
    for (size_t k = 0; k < 33; ++k) {
        const Collective& c = coll(a, g, uint32_t(k + 1));
        int expectedLate = s1[k] > s0[k] ? 1 : 0;
        EXPECT_EQ(lateRank(a, c), expectedLate) << k;
        late1 += expectedLate;
        ss.push_back(std::llabs(s1[k] - s0[k]));
        es.push_back(std::llabs(e1[k] - e0[k]));
        EXPECT_EQ(c.startSkew(), ss.back());
    }
    EXPECT_EQ(g.startSkew.p50, std::llround(npPercentile(ss, 50)));
    EXPECT_EQ(g.startSkew.p90, std::llround(npPercentile(ss, 90)));
    EXPECT_EQ(g.endSkew.p50, std::llround(npPercentile(es, 50)));
    // pinned: what the capture shows (starts differ by up to 3.3 ms, ends by about 25 us)
    EXPECT_EQ(g.startSkew.max, 3'339'732);
    EXPECT_EQ(g.perRank[1].lastCount, uint32_t(late1));
    EXPECT_EQ(late1, 22);
    EXPECT_LT(g.endSkew.max, 30'000);
    // the biggest one: dev 1 launched its SendRecv late from the CPU
    const Collective& worst = coll(a, g, 32);
    EXPECT_EQ(worst.startSkew(), 3'339'732);
    EXPECT_EQ(lateRank(a, worst), 1);
    EXPECT_EQ(std::string(skew::causeName(worst.cause)), "cpu_launch");
    ASSERT_TRUE(worst.launched);
    EXPECT_EQ(p.strings.str(skew::lateLaunch(p, a, worst)->api), "cuLaunchKernelEx");
}

// NCCL-only time against a brute-force union over every non-NCCL kernel of the rank.
TEST(Analysis, NcclOnlyTimeMatchesBruteForce) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p);
    for (const auto& g : a.groups)
        for (size_t s = 0; s < g.width(); ++s) {
            const auto& gl = g.lanes[s];
            const auto& r = p.ranks[size_t(gl.rank)];
            const auto& kl = r.lanes[size_t(gl.lane)];
            int64_t total = 0, only = 0;
            for (uint32_t k : gl.kernels) {
                int64_t a0 = kl.start[k], b0 = kl.end(k);
                total += b0 - a0;
                std::vector<std::pair<int64_t, int64_t>> iv;
                for (const auto& o : r.lanes)
                    for (size_t i = 0; i < o.size(); ++i)
                        if (p.opOfName(o.name[i]) == skew::CollOp::NotNccl && o.end(i) > a0 && o.start[i] < b0)
                            iv.emplace_back(std::max(a0, o.start[i]), std::min(b0, o.end(i)));
                std::sort(iv.begin(), iv.end());
                int64_t covered = 0, cur = a0;
                for (auto [x, y] : iv) {
                    if (y <= cur) continue;
                    covered += y - std::max(x, cur);
                    cur = y;
                }
                only += (b0 - a0) - covered;
            }
            EXPECT_EQ(g.perRank[s].ncclKernelNs, total);
            EXPECT_EQ(g.perRank[s].ncclOnlyNs, only) << r.label;
        }
}

// A window that holds only the late rank's kernel of one collective: the other ranks are missing
// there and named, not silently dropped from the group.
TEST(Analysis, RanksWithoutKernelsInTheWindowAreNamed) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile probe = skew::loadProfile({gen.path});
    Analysis all = skew::analyze(probe);
    const auto& g0 = groupWithOp(all, "AllGather");
    const Collective& c = coll(all, g0, 41);  // dev 5 late by 47 ms
    skew::AnalysisOptions o;
    o.hasTrim = true;
    o.trimStartNs = c.maxStart;
    o.trimEndNs = coll(all, g0, 42).minStart;
    skew::Profile p = skew::loadProfile({gen.path});
    Analysis a = skew::analyze(p, o);
    const auto& g = groupWithOp(a, "AllGather");
    ASSERT_EQ(g.width(), 7u);
    EXPECT_EQ(g.count, 1u);
    EXPECT_EQ(g.complete, 0u);
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Error);
    ASSERT_EQ(g.validation.partial.size(), 1u);
    EXPECT_EQ(g.validation.partial[0].missingRanks, (std::vector<int>{0, 1, 2, 3, 5, 6}));
    bool named = false;
    for (const auto& m : g.validation.messages) named |= m == "dev 1: no kernels of this group in the window";
    EXPECT_TRUE(named);
}

// A rank whose capture starts 20 collectives later than the others still pairs the right kernels.
TEST(Analysis, LaneStartingManyCollectivesLaterAligns) {
    const auto& gen = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({gen.path});
    auto& lane = p.ranks[3].lanes[1];  // dev 4, stream 56: only FSDP NCCL kernels
    ASSERT_EQ(lane.stream, 56);
    ASSERT_EQ(lane.size(), 135u);
    skew::KernelLane later;  // the lane without its first 20 kernels
    later.stream = lane.stream;
    for (size_t k = 20; k < lane.size(); ++k) {
        later.push_back(lane.start[k], lane.end(k), lane.name[k], lane.correlationId[k]);
        later.launchLead.push_back(lane.launchLead[k]), later.launchDuration.push_back(lane.launchDuration[k]);
        later.launchApi.push_back(lane.launchApi[k]), later.launchTid.push_back(lane.launchTid[k]);
    }
    later.ncclKernels = lane.ncclKernels - 20;
    skew::buildLaneIndex(later);
    lane = std::move(later);
    Analysis a = skew::analyze(p);
    const auto& g = groupWithOp(a, "AllGather");
    EXPECT_EQ(g.count, 135u);
    EXPECT_EQ(g.complete, 115u);
    EXPECT_EQ(g.lanes[3].droppedLeading, 0u);
    EXPECT_EQ(g.lanes[0].droppedLeading, 20u);
    for (const auto& tc : gen.result.collectives) {
        if (tc.group != 0 || tc.index <= 20) continue;
        Expected e = expect(gen.result, tc);
        const Collective& c = coll(a, g, uint32_t(tc.index));
        ASSERT_TRUE(c.complete);
        EXPECT_EQ(c.startSkew(), e.startSkew) << tc.index;
        EXPECT_EQ(lateRank(a, c), e.lateRank) << tc.index;
    }
}

TEST(Analysis, PercentileIsNumpyLinear) {
    EXPECT_DOUBLE_EQ(skew::percentile({1, 2, 3, 4}, 50), 2.5);
    EXPECT_DOUBLE_EQ(skew::percentile({10, 20, 30, 40, 50}, 90), 46.0);
    EXPECT_DOUBLE_EQ(skew::percentile({7}, 90), 7.0);
    EXPECT_DOUBLE_EQ(skew::percentile({5, 1, 3}, 0), 1.0);
    // selection gives the same numbers as sorting
    std::vector<int64_t> v;
    for (int i = 0; i < 1001; ++i) v.push_back((i * 7919) % 1009);
    for (double q : {0.0, 10.0, 50.0, 90.0, 99.9, 100.0}) {
        std::vector<int64_t> copy = v;
        EXPECT_DOUBLE_EQ(skew::percentileSelect(copy, q), skew::percentile(v, q)) << q;
    }
}

TEST(Analysis, GemmNames) {
    EXPECT_TRUE(skew::isGemmName("sm90_xmma_gemm_bf16bf16_bf16f32"));
    EXPECT_TRUE(skew::isGemmName("void cutlass::Kernel2<cutlass_80_wmma>"));
    EXPECT_TRUE(skew::isGemmName("nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN"));
    EXPECT_TRUE(skew::isGemmName("ampere_sgemm_128x64_nn"));
    EXPECT_TRUE(skew::isGemmName("MatMul_kernel"));
    EXPECT_FALSE(skew::isGemmName("void at::native::vectorized_elementwise_kernel<4>"));
    EXPECT_FALSE(skew::isGemmName("ncclDevKernel_AllGather_RING_LL"));
}

}  // namespace
