#include "compare/compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include <sys/stat.h>

#include "analysis/grouping.h"
#include "util/text.h"

namespace skew {
namespace {

OpMix opShares(const Analysis& a, const Group& g) {
    OpMix share{};
    for (uint32_t c = 0; c < g.count; ++c) share[size_t(a.collectives[g.firstCollective + c].op)] += 1;
    for (auto& x : share) x /= std::max<double>(1, g.count);
    return share;
}

// 1 when both groups run the same mix of ops, 0 when they share none.
double opSimilarity(const Analysis& a, const Group& ga, const Analysis& b, const Group& gb) {
    return opMixSimilarity(opShares(a, ga), opShares(b, gb));
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

namespace {

std::string groupText(const Group& g) { return opList(g) + ", " + std::to_string(g.width()) + " ranks"; }

// The group of `other` whose op mix is most like `g`'s (at least kAlike) but that runs on another
// number of ranks; unpaired ones first (`paired[id]`). -1 when none.
int alikeOnOtherRanks(const Analysis& mine, const Group& g, const Analysis& other, const std::vector<bool>& paired) {
    int best = -1;
    bool bestPaired = true;
    double bestSim = kOpMixAlikeMin;
    for (const Group& o : other.groups) {
        if (o.width() == g.width()) continue;
        const double sim = opSimilarity(mine, g, other, o);
        if (sim <= kOpMixAlikeMin) continue;
        const bool p = paired[size_t(o.id)];
        if (best < 0 || (bestPaired && !p) || (p == bestPaired && sim > bestSim)) best = o.id, bestPaired = p, bestSim = sim;
    }
    return best;
}

// Why each unpaired group did not pair, the line that says what was compared, and what to do.
void explainUnpaired(const Side& A, const Side& B, const std::vector<bool>& pairedA, const std::vector<bool>& pairedB,
                     Comparison& cmp) {
    const Analysis& a = *A.analysis;
    const Analysis& b = *B.analysis;
    std::vector<int> likeOfB(b.groups.size(), -1);  // the A group whose message already names this B group
    bool ranksDiffer = false;
    for (int id : cmp.unpairedA) {
        const Group& ga = a.groups[size_t(id)];
        const int like = alikeOnOtherRanks(a, ga, b, pairedB);
        std::string m;
        if (like < 0) {
            m = "A group " + std::to_string(id) + " (" + groupText(ga) + ") has no counterpart in B: no group of B runs its ops (" +
                std::to_string(int(kOpMixAlike * 100)) + "% alike) on " + std::to_string(ga.width()) + " ranks";
        } else {
            const Group& gb = b.groups[size_t(like)];
            ranksDiffer = true;
            m = "A group " + std::to_string(id) + " (" + opList(ga) + ") runs on " + std::to_string(ga.width()) + " ranks (" +
                ranksText(*A.profile, ga) + "), B group " + std::to_string(like) + " runs its ops on " + std::to_string(gb.width()) + " ranks (" +
                 ranksText(*B.profile, gb) + "): ranks differ between the captures, so ";
            if (!pairedB[size_t(like)] && likeOfB[size_t(like)] < 0) {
                likeOfB[size_t(like)] = id;
                m += "neither group is compared";
            } else {
                m += "A group " + std::to_string(id) + " is not compared";
            }
        }
        cmp.messages.push_back(std::move(m));
    }
    for (int id : cmp.unpairedB) {
        const Group& gb = b.groups[size_t(id)];
        if (likeOfB[size_t(id)] >= 0) {
            cmp.messages.push_back("B group " + std::to_string(id) + " (" + groupText(gb) + ") is not compared: ranks differ from A group " +
                                   std::to_string(likeOfB[size_t(id)]) + " (" +
                                   std::to_string(a.groups[size_t(likeOfB[size_t(id)])].width()) + " ranks), whose ops it runs");
            continue;
        }
        if (alikeOnOtherRanks(b, gb, a, pairedA) >= 0) ranksDiffer = true;
        cmp.messages.push_back("B group " + std::to_string(id) + " (" + groupText(gb) + ") has no counterpart in A: no group of A runs its ops (" +
                               std::to_string(int(kOpMixAlike * 100)) + "% alike) on " + std::to_string(gb.width()) + " ranks");
    }
    const size_t np = cmp.pairs.size();
    if (np == 0) cmp.summary = "No group of A (before) was compared with a group of B (after)";
    else cmp.summary = std::to_string(np) + (np == 1 ? " pair" : " pairs") + " of groups compared";
    if (np > 0 && (!cmp.unpairedA.empty() || !cmp.unpairedB.empty()))
        cmp.summary += "; not compared: " + plural(cmp.unpairedA.size(), "group") + " of A, " + std::to_string(cmp.unpairedB.size()) + " of B";
    if (cmp.unpairedA.empty() && cmp.unpairedB.empty()) return;
    cmp.advice = "Groups pair when they run on the same number of ranks with the same mix of ops (" + std::to_string(int(kOpMixAlike * 100)) +
                 "% alike). Compare captures of the same job, with every rank's export on each side";
    if (ranksDiffer)
        cmp.advice += " (A has " + std::to_string(A.profile->ranks.size()) + " ranks, B " + std::to_string(B.profile->ranks.size()) +
                      "; a run on other GPUs or a rank's missing export changes the groups)";
}

}  // namespace

// The same files on both sides (by device and inode, whatever the spelling): the comparison of a
// capture with itself, whose every difference is zero by construction.
static bool sameCapture(const Profile& a, const Profile& b) {
    auto ids = [](const Profile& p) {
        std::set<std::pair<dev_t, ino_t>> out;
        for (const auto& in : p.inputs) {
            struct stat st {};
            if (::stat(in.path.c_str(), &st) != 0) return std::set<std::pair<dev_t, ino_t>>{};
            out.insert({st.st_dev, st.st_ino});
        }
        return out;
    };
    auto ia = ids(a);
    return !ia.empty() && ia == ids(b);
}

Comparison compareCaptures(const Side& A, const Side& B) {
    Comparison cmp;
    const bool itself = sameCapture(*A.profile, *B.profile);
    const Analysis& a = *A.analysis;
    const Analysis& b = *B.analysis;
    std::vector<bool> usedA(a.groups.size(), false), usedB(b.groups.size(), false);
    for (const Group& ga : a.groups) {
        int best = -1;
        double bestSim = kOpMixAlikeMin;
        for (const Group& gb : b.groups) {
            if (usedB[size_t(gb.id)] || gb.width() != ga.width()) continue;
            double sim = opSimilarity(a, ga, b, gb);
            if (sim > bestSim) bestSim = sim, best = gb.id;
        }
        if (best < 0) {
            cmp.unpairedA.push_back(ga.id);
            continue;
        }
        usedA[size_t(ga.id)] = true;
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
        if (!pair.sameStepSequence)
            pair.byIndexWhy = !sa.empty() && !sb.empty() ? "the two captures' steps run different op sequences"
                              : sa.empty() && sb.empty() ? "neither capture has steps"
                                                         : "only one capture has steps";
        if (itself)
            pair.cautions.push_back("A and B are the same file" + std::string(A.profile->inputs.size() > 1 ? "s" : "") +
                                    ": every difference is zero by construction; compare two captures of the run");
        if (ga.complete < kFewCollectives || gb.complete < kFewCollectives)
            pair.cautions.push_back("few collectives: A has " + std::to_string(ga.complete) + " complete, B " + std::to_string(gb.complete) +
                                    " (under " + std::to_string(kFewCollectives) +
                                    "): one collective moves a p90 or a max, so small differences may be chance");
        if (!pair.sameStepSequence)
            pair.cautions.push_back("collectives pair by their index in the group (" + pair.byIndexWhy + "): #k of A and #k of B are "
                                    "the same work only when both captures start at the same point of the run");
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
    explainUnpaired(A, B, usedA, usedB, cmp);
    cmp.whatIf = checkWhatIf(*A.analysis, *B.analysis);
    return cmp;
}

CollectivePairing::CollectivePairing(const Side& A, const Side& B, const GroupPair& pair, bool fromA)
    : from_(fromA ? A.analysis : B.analysis),
      fromGroup_(&from_->groups[size_t(fromA ? pair.a : pair.b)]),
      to_(&(fromA ? *B.analysis : *A.analysis).groups[size_t(fromA ? pair.b : pair.a)]),
      byStep_(pair.sameStepSequence) {
    if (!byStep_) return;
    const Analysis& to = fromA ? *B.analysis : *A.analysis;
    first_.reserve(to_->count);
    for (uint32_t i = 0; i < to_->count; ++i) {
        const Collective& o = to.collectives[to_->firstCollective + i];
        first_.emplace(uint64_t(o.step) << 32 | o.positionInStep, to_->firstCollective + i);  // keeps the first
    }
}

PairedCollective CollectivePairing::of(uint32_t collective) const {
    PairedCollective out;
    if (collective >= from_->collectives.size()) return out;
    const Collective& c = from_->collectives[collective];
    if (byStep_ && c.step > 0 && c.positionInStep > 0) {
        out.by = PairedCollective::By::StepPosition;
        auto it = first_.find(uint64_t(c.step) << 32 | c.positionInStep);
        if (it != first_.end()) out.collective = int(it->second);
        return out;
    }
    if (c.index >= 1 && c.index <= to_->count) out.collective = int(to_->firstCollective + c.index - 1);
    return out;
}

int CollectivePairing::worst() const {
    int worst = -1;
    for (uint32_t i = 0; i < fromGroup_->count; ++i) {
        const Collective& c = from_->collectives[fromGroup_->firstCollective + i];
        if (!c.complete || (worst >= 0 && c.startSkew() <= from_->collectives[size_t(worst)].startSkew())) continue;
        if (of(fromGroup_->firstCollective + i).collective >= 0) worst = int(fromGroup_->firstCollective + i);
    }
    return worst;
}

}  // namespace skew
