#include "analysis/collectives.h"

#include <algorithm>
#include <array>

#include "analysis/why.h"
#include "util/parallel.h"
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
    if (g.complete == 0) v.status = ValidationStatus::Error;
    else if (!v.partial.empty() || !v.messages.empty()) v.status = ValidationStatus::Warn;
}

}  // namespace

namespace {

// What one chunk of a group's collectives adds to the group's sums (all non-negative, so
// saturating sums added chunk after chunk equal the sums over the whole group).
struct ChunkSums {
    GroupSums sums;
    int64_t totalNs = 0, baselineNs = 0, latenessSumNs = 0;
    uint32_t complete = 0;
    std::array<uint32_t, kOps> opCount{};
};

// Collectives [from, to) of `g`, written to their places in a.collectives.
void buildChunk(const Profile& p, Analysis& a, const Group& g, uint32_t from, uint32_t to, const AnalysisOptions& o, WhyFinder& whyLate,
                ChunkSums& out) {
    const size_t n = g.width();
    std::vector<int64_t> starts(n);
    GroupSums& gs = out.sums;
    gs.latenessSum.assign(n, 0);
    gs.latenessSumNotBig.assign(n, 0);
    for (uint32_t c = from; c < to; ++c) {
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
            out.totalNs = satAdd(out.totalNs, sumDur);
            out.baselineNs = satAdd(out.baselineNs, satMul(int64_t(n), minDur));
            for (size_t s = 0; s < n; ++s) {
                int64_t lat = starts[s] - col.minStart;
                gs.latenessSum[s] = satAdd(gs.latenessSum[s], lat);
                out.latenessSumNs = satAdd(out.latenessSumNs, lat);
                if (!col.big) gs.latenessSumNotBig[s] = satAdd(gs.latenessSumNotBig[s], lat);
            }
            ++out.complete;
        }
        if (present >= 2) whyLate.explain(g, col);
        a.collectives[g.firstCollective + c] = col;
        ++out.opCount[size_t(col.op)];
    }
}

// Collectives per task: on one thread a group is one task (the plain sequential pass); on several,
// enough tasks to share the cores evenly, each with some thousand predecessor searches at most.
size_t chunkSize(size_t collectives, size_t threads) {
    if (threads <= 1) return std::max<size_t>(collectives, 1);
    return std::clamp<size_t>(collectives / (threads * 8), 1, 8192);
}

}  // namespace

std::vector<GroupSums> buildCollectives(const Profile& p, Analysis& a, const AnalysisOptions& o) {
    size_t total = 0;
    struct Chunk {
        size_t group;
        uint32_t from, to;
    };
    for (const Group& g : a.groups) total += g.count;
    const size_t chunk = chunkSize(total, threadsOr(o.threads));
    total = 0;
    std::vector<Chunk> chunks;
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        Group& g = a.groups[gi];
        g.firstCollective = uint32_t(total);
        total += g.count;
        for (size_t c = 0; c < g.count; c += chunk) chunks.push_back({gi, uint32_t(c), uint32_t(std::min<size_t>(g.count, c + chunk))});
    }
    a.collectives.assign(total, Collective{});
    // the chunks on every core, each with its own finder (its search hints; the results do not depend on them)
    const WhyFinder finder(p);
    std::vector<ChunkSums> parts(chunks.size());
    parallelFor(chunks.size(), o.threads, [&](size_t i) {
        WhyFinder whyLate = finder;
        const Chunk& ch = chunks[i];
        buildChunk(p, a, a.groups[ch.group], ch.from, ch.to, o, whyLate, parts[i]);
    });
    std::vector<GroupSums> sums(a.groups.size());  // per group, in group order
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        sums[gi].latenessSum.assign(a.groups[gi].width(), 0);
        sums[gi].latenessSumNotBig.assign(a.groups[gi].width(), 0);
    }
    std::vector<std::array<uint32_t, kOps>> opCount(a.groups.size());
    for (size_t i = 0; i < chunks.size(); ++i) {  // in order: the same sums on any number of threads
        Group& g = a.groups[chunks[i].group];
        const ChunkSums& part = parts[i];
        GroupSums& gs = sums[chunks[i].group];
        for (size_t s = 0; s < g.width(); ++s) {
            gs.latenessSum[s] = satAdd(gs.latenessSum[s], part.sums.latenessSum[s]);
            gs.latenessSumNotBig[s] = satAdd(gs.latenessSumNotBig[s], part.sums.latenessSumNotBig[s]);
        }
        g.cost.totalNs = satAdd(g.cost.totalNs, part.totalNs);
        g.cost.baselineNs = satAdd(g.cost.baselineNs, part.baselineNs);
        g.cost.latenessSumNs = satAdd(g.cost.latenessSumNs, part.latenessSumNs);
        g.complete += part.complete;
        for (size_t op = 0; op < kOps; ++op) opCount[chunks[i].group][op] += part.opCount[op];
    }
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        Group& g = a.groups[gi];
        for (size_t op = 0; op < kOps; ++op)
            if (opCount[gi][op]) g.ops[opName(CollOp(op))] = opCount[gi][op];
        validate(p, a, g);
    }
    return sums;
}

}  // namespace skew
