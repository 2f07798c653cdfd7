#include "report/answers_report.h"

#include <algorithm>
#include <set>

#include "report/format.h"

namespace skew {

std::string formatP(double p) {
    if (p < 1e-300) return "p < 1e-300";
    if (p < 1e-4) return strprintf("p = %.1e", p);
    return strprintf("p = %.3g", p);
}

namespace {

std::string labelOf(const Profile& p, int rank) { return rank < 0 ? std::string("?") : p.ranks[size_t(rank)].label; }

std::string joinNumbers(const std::vector<uint32_t>& v) {
    std::string s;
    for (uint32_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}

std::string mention(const Profile& p, const Analysis& a, const Collective& c) {
    return strprintf("#%u %s: %s +%s", c.index, opName(c.op), labelOf(p, a.lateRank(c)).c_str(), formatDuration(c.latenessNs).c_str());
}

}  // namespace

AnswerSentences answerSentences(const Profile& p, const Analysis& a, const Group& g, const CollectiveLink& linkFn) {
    const Answers& ans = g.answers;
    auto link = [&](const std::string& text, const Collective& c) { return linkFn ? linkFn(text, c) : text; };
    const std::string thr = formatDuration(a.options.bigSkewNs);
    AnswerSentences s;

    // 1. who arrived late
    if (ans.big.empty()) {
        const Collective* worst = nullptr;
        for (uint32_t c = 0; c < g.count; ++c) {
            const Collective& col = a.collectives[g.firstCollective + c];
            if (col.complete && (!worst || col.startSkew() > worst->startSkew())) worst = &col;
        }
        s.who = "Who arrived late: no collective had a start skew above " + thr;
        if (worst) s.who += "; the largest was " + formatDuration(worst->startSkew()) + " (" + link(mention(p, a, *worst), *worst) + ")";
        s.who += ".";
    } else {
        std::string list;
        for (size_t i = 0; i < ans.big.size() && i < 12; ++i) {
            const Collective& c = a.collectives[ans.big[i]];
            list += (list.empty() ? "" : "; ") + link(mention(p, a, c), c);
        }
        if (ans.big.size() > 12) list += strprintf("; and %zu more", ans.big.size() - 12);
        s.who = strprintf("Who arrived late: %zu big collective%s (start skew > %s): ", ans.big.size(), ans.big.size() == 1 ? "" : "s",
                          thr.c_str()) + list + ".";
    }

    // 2. the same rank or rotating
    const std::string top = labelOf(p, ans.topRank);
    const std::string tally = strprintf("last in %u of %u collectives that are not big", ans.topLastCount, ans.considered);
    const std::string test = formatShare(ans.lastShare) + "; chi-square against uniform last counts over " + std::to_string(g.width()) +
                             " ranks: " + formatP(ans.chi2P);
    const std::string range = formatDuration(ans.meanExclBigMinNs) + " (" + labelOf(p, ans.meanExclBigMinRank) + ") to " +
                              formatDuration(ans.meanExclBigMaxNs) + " (" + labelOf(p, ans.meanExclBigMaxRank) + ")";
    const int64_t topMean = [&] {
        for (const auto& rs : g.perRank)
            if (rs.rank == ans.topRank) return rs.meanLatenessExclBigNs;
        return int64_t(0);
    }();
    if (ans.considered == 0) {
        s.same = "Same rank or rotating: no complete collective that is not big, nothing to judge from.";
    } else if (ans.verdict == WhoVerdict::Persistent) {
        s.same = "Same rank or rotating: persistent. " + top + " was " + tally + " (" + test + "); it trailed the earliest by " +
                 formatDuration(topMean) + " on average, against a median of " + formatDuration(ans.othersMedianExclBigNs) +
                 " for the other ranks: a slow rank.";
    } else if (ans.verdict == WhoVerdict::OftenLastSmall) {
        s.same = "Same rank or rotating: often last, by little. " + top + " was " + tally + ", more than uniform (" + test +
                 "), but it trailed the earliest by only " + formatDuration(topMean) + " on average (the others' median " +
                 formatDuration(ans.othersMedianExclBigNs) + "); mean lateness without big events ranges " + range + ".";
    } else {
        s.same = "Same rank or rotating: rotating. The most frequent late arriver, " + top + ", was " + tally + " (" + test +
                 "); mean lateness without big events ranges " + range + ".";
    }
    // where big events fall
    if (!ans.big.empty()) {
        std::string where;
        if (!ans.positions.empty()) {
            std::string list;
            for (const BigPosition& bp : ans.positions) {
                std::string ranks;
                for (size_t i = 0; i < bp.lateRanks.size(); ++i) {
                    const Collective& c = a.collectives[bp.collectives[i]];
                    ranks += (ranks.empty() ? "" : ", ") + link(labelOf(p, bp.lateRanks[i]), c);
                }
                list += (list.empty() ? "" : "; ") + strprintf("position %u in steps %s (late: %s; median offset +%s)", bp.position,
                                                                joinNumbers(bp.steps).c_str(), ranks.c_str(),
                                                                formatDuration(bp.offsetMedianNs).c_str());
            }
            where = "Big events sit at recurring positions of the step: " + list + ".";
        } else if (g.stepsSource != "none") {
            where = "No position of the step holds big events in two steps or more.";
        }
        std::set<int> ranks(ans.bigLateRanks.begin(), ans.bigLateRanks.end());
        if (ans.big.size() >= 2) {
            if (ans.bigRotate) {
                where += strprintf("%sThey rotate: %zu ranks among %zu big events, none late in more than half of them.",
                                   where.empty() ? "" : " ", ranks.size(), ans.big.size());
            } else {
                int most = ans.bigLateRanks[0];
                size_t mostCount = 0;
                for (int r : ranks) {
                    size_t n = size_t(std::count(ans.bigLateRanks.begin(), ans.bigLateRanks.end(), r));
                    if (n > mostCount) most = r, mostCount = n;
                }
                where += strprintf("%sThey do not rotate: %s was late in %zu of the %zu.", where.empty() ? "" : " ",
                                   labelOf(p, most).c_str(), mostCount, ans.big.size());
            }
        }
        s.where = where;
    }

    // 3. CPU or GPU
    const auto& bc = ans.bigCauses;
    if (!ans.big.empty()) {
        s.cpuGpu = strprintf("CPU or GPU: of the %zu big collectives, %u cpu_launch, %u gpu_dependency, %u gpu_other, %u unknown.",
                             ans.big.size(), bc[size_t(Cause::CpuLaunch)], bc[size_t(Cause::GpuDependency)],
                             bc[size_t(Cause::GpuOther)], bc[size_t(Cause::Unknown)]);
        if (ans.hasGpuGap) {
            std::string preds;
            for (size_t i = 0; i < ans.predecessors.size() && i < 3; ++i) {
                const PredecessorCount& pc = ans.predecessors[i];
                preds += (preds.empty() ? "" : ", ") + std::string(pc.gemm ? "GEMM " : "") + shortKernelName(p.strings.str(pc.name)) +
                         strprintf(" on stream %d (%u)", pc.stream, pc.count);
            }
            s.cpuGpu += " The GPU-caused ones started " + formatDuration(ans.gpuGapMinNs) +
                        (ans.gpuGapMaxNs != ans.gpuGapMinNs ? " to " + formatDuration(ans.gpuGapMaxNs) : std::string()) +
                        " after their launch call ended, behind " + preds + ".";
        }
        s.cpuGpu += " ";
    } else {
        s.cpuGpu = "CPU or GPU: ";
    }
    const int64_t rest = ans.restCpuNs + ans.restGpuNs;
    s.cpuGpu += (ans.big.empty() ? "the late arrivers' lateness" : "The rest") +
                strprintf(" (%u collectives): %s from late CPU launches, %s from the GPU", ans.considered,
                          formatDuration(ans.restCpuNs).c_str(), formatDuration(ans.restGpuNs).c_str()) +
                (rest > 0 ? " (" + formatShare(double(ans.restCpuNs) / double(rest)) + " CPU)." : std::string("."));
    if (!ans.caveats.empty()) {
        std::string c;
        for (const auto& x : ans.caveats) c += (c.empty() ? "" : "; ") + x;
        s.caveats = "Thin evidence: " + c + ".";
    }
    return s;
}

}  // namespace skew
