#include "analysis/collectives.h"

#include <array>

#include "analysis/why.h"
#include "util/saturating.h"

namespace skew {
namespace {

constexpr size_t kOps = size_t(CollOp::Count);

void validate(const Profile& p, const Analysis& a, Group& g) {
    const size_t n = g.width();
    Validation& v = g.validation;
    uint32_t firstComplete = kMissing, lastComplete = 0;
    for (uint32_t c = 0; c < g.count; ++c)
        if (a.collectives[g.firstCollective + c].complete) {
            if (firstComplete == kMissing) firstComplete = c;
            lastComplete = c;
        }
    std::vector<std::string> mismatchMsgs;
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
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
                for (int r : pc.missingRanks) who += (who.empty() ? "" : ", ") + p.ranks[size_t(r)].label;
                mismatchMsgs.push_back("collective " + std::to_string(c + 1) + " (" + opName(col.op) + "): missing on " + who);
            }
        }
        v.partial.push_back(std::move(pc));
    }
    for (auto& m : mismatchMsgs) v.messages.push_back(m);
    for (const auto& gl : g.lanes)
        if (gl.droppedLeading || gl.droppedTrailing)
            v.messages.push_back(p.ranks[size_t(gl.rank)].label + ": " + std::to_string(gl.droppedLeading) + " leading and " +
                                 std::to_string(gl.droppedTrailing) + " trailing kernels without partners (window edges)");
    if (v.sequenceMismatches > 0)
        v.messages.insert(v.messages.begin(), std::to_string(v.sequenceMismatches) +
                                                  " collective(s) inside the sequence lack a rank: op sequences differ there");
    if (g.complete == 0) v.status = "error";
    else if (!v.partial.empty() || !v.messages.empty()) v.status = "warn";
}

}  // namespace

std::vector<GroupSums> buildCollectives(const Profile& p, Analysis& a, const AnalysisOptions& o) {
    size_t total = 0;
    for (const Group& g : a.groups) total += g.count;
    a.collectives.reserve(total);
    WhyFinder whyLate(p);
    std::vector<GroupSums> sums;
    sums.reserve(a.groups.size());
    for (Group& g : a.groups) {
        const size_t n = g.width();
        g.firstCollective = uint32_t(a.collectives.size());
        std::array<uint32_t, kOps> opCount{};
        std::vector<int64_t> starts(n);
        GroupSums& gs = sums.emplace_back();
        gs.latenessSum.assign(n, 0);
        gs.latenessSumNotBig.assign(n, 0);
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
                const KernelLane& kl = p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)];
                int64_t st = kl.start[k], en = kl.end(k), d = en - st;
                if (present == 0) {
                    col.minStart = col.maxStart = st;
                    col.minEnd = col.maxEnd = en;
                    col.lateSlot = col.earlySlot = int(s);
                    minDur = d;
                } else {
                    // strict comparisons: ties go to the first rank in rank order
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
            col.big = col.startSkew() > o.bigSkewNs;
            if (col.complete) {
                // the group's cost and lateness sums, while the members are at hand
                g.cost.totalNs = satAdd(g.cost.totalNs, sumDur);
                g.cost.baselineNs = satAdd(g.cost.baselineNs, satMul(int64_t(n), minDur));
                for (size_t s = 0; s < n; ++s) {
                    int64_t lat = starts[s] - col.minStart;
                    gs.latenessSum[s] = satAdd(gs.latenessSum[s], lat);
                    g.cost.latenessSumNs = satAdd(g.cost.latenessSumNs, lat);
                    if (!col.big) gs.latenessSumNotBig[s] = satAdd(gs.latenessSumNotBig[s], lat);
                }
            }
            if (present >= 2) whyLate.explain(g, col);
            a.collectives.push_back(col);
            if (col.complete) ++g.complete;
            ++opCount[size_t(col.op)];
        }
        for (size_t op = 0; op < kOps; ++op)
            if (opCount[op]) g.ops[opName(CollOp(op))] = opCount[op];
        validate(p, a, g);
    }
    return sums;
}

}  // namespace skew
