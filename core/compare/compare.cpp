#include "compare/compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace skew {
namespace {

constexpr size_t kOps = size_t(CollOp::Count);

std::array<double, kOps> opShares(const Analysis& a, const Group& g) {
    std::array<double, kOps> share{};
    for (uint32_t c = 0; c < g.count; ++c) share[size_t(a.collectives[g.firstCollective + c].op)] += 1;
    for (auto& x : share) x /= std::max<double>(1, g.count);
    return share;
}

// 1 when both groups run the same mix of ops, 0 when they share none.
double opSimilarity(const Analysis& a, const Group& ga, const Analysis& b, const Group& gb) {
    auto x = opShares(a, ga), y = opShares(b, gb);
    double diff = 0;
    for (size_t k = 0; k < kOps; ++k) diff += std::abs(x[k] - y[k]);
    return 1.0 - diff / 2;
}

std::string opsText(const Group& g) {
    std::string s;
    for (const auto& [op, n] : g.ops) s += (s.empty() ? "" : ", ") + op + " " + std::to_string(n);
    return s;
}

std::string ranksText(const Profile& p, const Group& g) {
    std::string s;
    for (const auto& gl : g.lanes) s += (s.empty() ? "" : ", ") + p.ranks[size_t(gl.rank)].label;
    return s;
}

Percentiles minus(const Percentiles& x, const Percentiles& y) { return {x.p50 - y.p50, x.p90 - y.p90, x.max - y.max}; }

std::array<int64_t, kCauses> causeCounts(const Analysis& a, const Group& g, bool bigOnly) {
    std::array<int64_t, kCauses> n{};
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        if (col.complete && (!bigOnly || col.big)) ++n[size_t(col.cause)];
    }
    return n;
}

// One side's figures in the delta's shape.
GroupDelta values(const Analysis& a, const Group& g) {
    GroupDelta v;
    v.collectives = g.count;
    v.complete = g.complete;
    v.startSkew = g.startSkew;
    v.endSkew = g.endSkew;
    v.costShare = g.cost.share;
    v.excessNs = g.cost.excessNs;
    v.bigCount = g.cost.bigCount;
    v.bigExcessNs = g.cost.bigExcessNs;
    for (const RankStats& r : g.perRank) v.perRank.push_back({r.rank, r.rank, int64_t(r.lastCount), r.meanLatenessExclBigNs});
    v.causes = causeCounts(a, g, false);
    v.bigCauses = causeCounts(a, g, true);
    v.hasStepTime = g.stepMedianNs > 0;
    v.stepMedianNs = g.stepMedianNs;
    return v;
}

GroupDelta delta(const GroupDelta& va, const GroupDelta& vb) {
    GroupDelta d;
    d.collectives = vb.collectives - va.collectives;
    d.complete = vb.complete - va.complete;
    d.startSkew = minus(vb.startSkew, va.startSkew);
    d.endSkew = minus(vb.endSkew, va.endSkew);
    d.costShare = vb.costShare - va.costShare;
    d.excessNs = vb.excessNs - va.excessNs;
    d.bigCount = vb.bigCount - va.bigCount;
    d.bigExcessNs = vb.bigExcessNs - va.bigExcessNs;
    for (size_t s = 0; s < va.perRank.size() && s < vb.perRank.size(); ++s)
        d.perRank.push_back({va.perRank[s].rankA, vb.perRank[s].rankB, vb.perRank[s].lastCount - va.perRank[s].lastCount,
                             vb.perRank[s].meanLatenessExclBigNs - va.perRank[s].meanLatenessExclBigNs});
    for (size_t k = 0; k < kCauses; ++k) d.causes[k] = vb.causes[k] - va.causes[k], d.bigCauses[k] = vb.bigCauses[k] - va.bigCauses[k];
    d.hasStepTime = va.hasStepTime && vb.hasStepTime;
    d.stepMedianNs = d.hasStepTime ? vb.stepMedianNs - va.stepMedianNs : 0;
    return d;
}

// Per position of the step: in how many steps it was big, and which collectives.
void countPositions(const Analysis& a, const Group& g, std::map<uint32_t, std::pair<std::set<uint32_t>, std::vector<uint32_t>>>& big,
                    std::set<uint32_t>& steps) {
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        if (!col.step) continue;
        steps.insert(col.step);
        if (col.complete && col.big) {
            big[col.positionInStep].first.insert(col.step);
            big[col.positionInStep].second.push_back(g.firstCollective + c);
        }
    }
}

}  // namespace

std::vector<CollOp> stepSequence(const Analysis& a, const Group& g) {
    // the first step whose collectives are all there: positions 1..P in order
    std::map<uint32_t, std::vector<const Collective*>> bySteps;
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        if (col.step) bySteps[col.step].push_back(&col);
    }
    size_t longest = 0;
    for (const auto& [s, v] : bySteps) longest = std::max(longest, v.size());
    for (const auto& [s, v] : bySteps) {
        if (v.size() != longest) continue;
        bool whole = std::all_of(v.begin(), v.end(), [](const Collective* c) { return c->complete; });
        if (!whole) continue;
        std::vector<CollOp> ops;
        for (const Collective* c : v) ops.push_back(c->op);
        return ops;
    }
    return {};
}

Comparison compareCaptures(const Side& A, const Side& B) {
    Comparison cmp;
    const Analysis& a = *A.analysis;
    const Analysis& b = *B.analysis;
    std::vector<bool> usedB(b.groups.size(), false);
    for (const Group& ga : a.groups) {
        int best = -1;
        double bestSim = 0.8 - 1e-9;
        bool widthDiffers = false;
        for (const Group& gb : b.groups) {
            if (usedB[size_t(gb.id)]) continue;
            double sim = opSimilarity(a, ga, b, gb);
            if (gb.width() != ga.width()) {
                widthDiffers |= sim > bestSim;
                continue;
            }
            if (sim > bestSim) bestSim = sim, best = gb.id;
        }
        if (best < 0) {
            cmp.unpairedA.push_back(ga.id);
            if (widthDiffers)
                cmp.messages.push_back("A group " + std::to_string(ga.id) + " (" + opsText(ga) + ") runs on " + std::to_string(ga.width()) +
                                       " ranks (" + ranksText(*A.profile, ga) + "), its match in B on a different number of ranks: "
                                       "ranks differ between the captures, so the group is not compared");
            continue;
        }
        usedB[size_t(best)] = true;
        const Group& gb = b.groups[size_t(best)];
        GroupPair pair;
        pair.a = ga.id;
        pair.b = gb.id;
        pair.valuesA = values(a, ga);
        pair.valuesB = values(b, gb);
        for (size_t r = 0; r < pair.valuesA.perRank.size() && r < pair.valuesB.perRank.size(); ++r)
            pair.valuesA.perRank[r].rankB = pair.valuesB.perRank[r].rankB, pair.valuesB.perRank[r].rankA = pair.valuesA.perRank[r].rankA;
        pair.delta = delta(pair.valuesA, pair.valuesB);
        // ranks pair by their place in the group; say so when their labels differ
        std::string la = ranksText(*A.profile, ga), lb = ranksText(*B.profile, gb);
        if (la != lb) pair.notes.push_back("ranks paired by their place in the group: A " + la + "; B " + lb);
        std::vector<CollOp> sa = stepSequence(a, ga), sb = stepSequence(b, gb);
        pair.sameStepSequence = !sa.empty() && sa == sb;
        if (!sa.empty() && !sb.empty() && sa != sb)
            pair.notes.push_back("the steps run different op sequences (" + std::to_string(sa.size()) + " and " + std::to_string(sb.size()) +
                                 " collectives): positions in the step are not compared");
        if (pair.sameStepSequence) {
            std::map<uint32_t, std::pair<std::set<uint32_t>, std::vector<uint32_t>>> bigA, bigB;
            std::set<uint32_t> stepsA, stepsB;
            countPositions(a, ga, bigA, stepsA);
            countPositions(b, gb, bigB, stepsB);
            std::set<uint32_t> positions;
            for (const auto& [pos, x] : bigA) positions.insert(pos);
            for (const auto& [pos, x] : bigB) positions.insert(pos);
            for (uint32_t pos : positions) {
                PositionChange pc;
                pc.position = pos;
                pc.op = pos >= 1 && pos <= sa.size() ? sa[pos - 1] : CollOp::Unknown;
                pc.stepsA = uint32_t(stepsA.size());
                pc.stepsB = uint32_t(stepsB.size());
                if (bigA.count(pos)) pc.bigStepsA = uint32_t(bigA[pos].first.size()), pc.collectivesA = bigA[pos].second;
                if (bigB.count(pos)) pc.bigStepsB = uint32_t(bigB[pos].first.size()), pc.collectivesB = bigB[pos].second;
                pair.positions.push_back(std::move(pc));
            }
        }
        cmp.pairs.push_back(std::move(pair));
    }
    for (const Group& gb : b.groups)
        if (!usedB[size_t(gb.id)]) cmp.unpairedB.push_back(gb.id);
    for (int id : cmp.unpairedB)
        cmp.messages.push_back("B group " + std::to_string(id) + " (" + opsText(b.groups[size_t(id)]) + ", " +
                                   std::to_string(b.groups[size_t(id)].width()) + " ranks) has no counterpart in A");
    return cmp;
}

PairedCollective pairedCollective(const Side& A, const Side& B, const GroupPair& pair, bool fromA, uint32_t collective) {
    const Analysis& from = fromA ? *A.analysis : *B.analysis;
    const Analysis& to = fromA ? *B.analysis : *A.analysis;
    const Group& gTo = to.groups[size_t(fromA ? pair.b : pair.a)];
    PairedCollective out;
    if (collective >= from.collectives.size()) return out;
    const Collective& c = from.collectives[collective];
    if (pair.sameStepSequence && c.step > 0 && c.positionInStep > 0) {
        out.by = PairedCollective::By::StepPosition;
        // the first of that step and position
        for (uint32_t i = 0; i < gTo.count; ++i) {
            const Collective& o = to.collectives[gTo.firstCollective + i];
            if (o.step == c.step && o.positionInStep == c.positionInStep) {
                out.collective = int(gTo.firstCollective + i);
                break;
            }
        }
        return out;
    }
    if (c.index >= 1 && c.index <= gTo.count) out.collective = int(gTo.firstCollective + c.index - 1);
    return out;
}

}  // namespace skew
