#include "report/answers_report.h"

#include <map>

#include "analysis/answers.h"
#include "report/format.h"
#include "util/text.h"

namespace skew {

const std::string& rankLabel(const Profile& p, int rank) {
    static const std::string none = "?";
    return rank < 0 ? none : p.ranks[size_t(rank)].label;
}

std::string formatP(double p) {
    if (p < 1e-300) return "p < 1e-300";
    if (p < 1e-4) return strprintf("p = %.1e", p);
    return strprintf("p = %.3g", p);
}

namespace {


std::string joinNumbers(const std::vector<uint32_t>& v) {
    std::string s;
    for (uint32_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}

std::string mention(const Profile& p, const Analysis& a, const Collective& c) {
    return strprintf("#%u %s: %s +%s", c.index, opName(c.op), rankLabel(p, a.lateRank(c)).c_str(), formatDuration(c.latenessNs).c_str());
}

// "a, b and c"
std::string joinAnd(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
    return s;
}

// "CPU launch 3, GPU dependency 29, GPU other 0, Unknown 1": the collectives table's cause names
std::string causeCounts(const std::array<uint32_t, kCauses>& n) {
    std::string s;
    for (Cause c : kAllCauses) s += (s.empty() ? "" : ", ") + strprintf("%s %u", causeLabel(c), n[size_t(c)]);
    return s;
}

// At most this many recurring positions are said, and a position's steps and late ranks are listed
// only when they are this many or fewer (else summarised: counts and the most frequent late rank).
constexpr size_t kListedPositions = 6, kListedSteps = 8;

// The sentences of one group's answers, one method per question.
class AnswerWriter {
public:
    AnswerWriter(const Profile& p, const Analysis& a, const Group& g, const CollectiveLink& link)
        : p_(p), a_(a), g_(g), ans_(g.answers), link_(link) {}

    AnswerSentences sentences() const { return {who(), same(), where(), cpuGpu(), caveats()}; }

private:
    std::string link(const std::string& text, const Collective& c) const { return link_ ? link_(text, c) : text; }
    std::string label(int rank) const { return rankLabel(p_, rank); }

    // 1. who arrived late: the big collectives, or the largest start skew when there is none
    std::string who() const {
        const std::string thr = formatDuration(a_.options.bigSkewNs);
        if (ans_.big.empty()) {
            const int w = worstCollective(a_, [this](int i) { return a_.collectives[size_t(i)].group == g_.id; });
            const Collective* worst = w < 0 ? nullptr : &a_.collectives[size_t(w)];
            std::string s = "Who arrived late: no collective had a start skew above " + thr;
            if (worst) s += "; the largest was " + formatDuration(worst->startSkew()) + " (" + link(mention(p_, a_, *worst), *worst) + ")";
            return s + ".";
        }
        std::string list;
        for (size_t i = 0; i < ans_.big.size() && i < 12; ++i) {
            const Collective& c = a_.collectives[ans_.big[i]];
            list += (list.empty() ? "" : "; ") + link(mention(p_, a_, c), c);
        }
        if (ans_.big.size() > 12) list += strprintf("; and %zu more", ans_.big.size() - 12);
        return strprintf("Who arrived late: %zu big collective%s (start skew > %s): ", ans_.big.size(), ans_.big.size() == 1 ? "" : "s",
                         thr.c_str()) + list + ".";
    }

    // " (thin evidence: only 5 collectives; 2 ranks, ...)" after a verdict that names a rank
    std::string thinVerdict() const {
        const VerdictEvidence& ve = ans_.verdictEvidence;
        if (!ve.thin()) return "";
        std::vector<std::string> why;
        if (ve.fewCollectives) why.push_back("only " + plural(ans_.considered, "collective"));
        if (ve.twoRanks) why.push_back("2 ranks, so one of them is always last in at least half");
        // (the test's own p-value follows in the sentence: the threshold here, said as one)
        if (ve.notSignificant) why.push_back(strprintf("the chi-square test below does not find the last counts significantly uneven (that takes p < %g)", kOftenLastP));
        std::string s;
        for (const auto& w : why) s += (s.empty() ? "" : "; ") + w;
        return " (thin evidence: " + s + ")";
    }

    // 2. the same rank or rotating, over the collectives that are not big
    std::string same() const {
        if (ans_.considered == 0) return "Same rank or rotating: no complete collective that is not big, nothing to judge from.";
        const std::string top = label(ans_.topRank);
        const std::string tally = strprintf("last in %u of %u collectives that are not big", ans_.topLastCount, ans_.considered);
        const std::string test = formatShare(ans_.lastShare) + "; chi-square against uniform last counts over " +
                                 std::to_string(g_.width()) + " ranks: " + formatP(ans_.chi2P);
        const std::string range = formatDuration(ans_.meanExclBigMinNs) + " (" + label(ans_.meanExclBigMinRank) + ") to " +
                                  formatDuration(ans_.meanExclBigMaxNs) + " (" + label(ans_.meanExclBigMaxRank) + ")";
        int64_t topMean = 0;
        for (const auto& rs : g_.perRank)
            if (rs.rank == ans_.topRank) topMean = rs.meanLatenessExclBigNs;
        switch (ans_.verdict) {
        case WhoVerdict::Persistent:
            return "Same rank or rotating: persistent" + thinVerdict() + ". " + top + " was " + tally + " (" + test +
                   "); it trailed the earliest by " + formatDuration(topMean) + " on average, against a median of " +
                   formatDuration(ans_.othersMedianExclBigNs) + " for the other ranks: a slow rank.";
        case WhoVerdict::OftenLastSmall:
            return "Same rank or rotating: often last, by little" + thinVerdict() + ". " + top + " was " + tally +
                   ", more than uniform (" + test + "), but it trailed the earliest by only " + formatDuration(topMean) +
                   " on average (the others' median " + formatDuration(ans_.othersMedianExclBigNs) +
                   "); mean lateness without big events ranges " + range + ".";
        default:
            return "Same rank or rotating: rotating. The most frequent late arriver, " + top + ", was " + tally + " (" + test +
                   "); mean lateness without big events ranges " + range + ".";
        }
    }

    // 2. where big events fall in the step, and whether they rotate (empty without big events)
    std::string where() const {
        if (ans_.big.empty()) return "";
        std::string s;
        if (!ans_.positions.empty()) {
            std::string list;
            for (size_t i = 0; i < ans_.positions.size() && i < kListedPositions; ++i)
                list += (list.empty() ? "" : "; ") + position(ans_.positions[i]);
            if (ans_.positions.size() > kListedPositions)
                list += "; and " + plural(ans_.positions.size() - kListedPositions, "more position");
            s = "Big events sit at recurring positions of the step: " + list + ".";
        } else if (g_.stepsSource != StepSource::None) {
            s = "No position of the step holds big events in two steps or more.";
        }
        if (ans_.big.size() < 2) return s;
        int most = ans_.bigLateRanks[0];  // the first rank in rank order with the largest count
        for (auto [r, n] : ans_.bigLateCount)
            if (n == ans_.bigMostLate) {
                most = r;
                break;
            }
        s += s.empty() ? "" : " ";
        if (ans_.bigRotate)
            s += strprintf("They rotate: %zu ranks among %zu big events, none late in more than half of them.", ans_.bigLateCount.size(),
                           ans_.big.size());
        else
            s += strprintf("They do not rotate: %s was late in %u of the %zu.", label(most).c_str(), ans_.bigMostLate, ans_.big.size());
        return s;
    }

    // "position 13 in steps 1, 2, 3 (late: dev 2, dev 4, dev 6; median offset +5.00 ms)", or when
    // the steps are many, "position 8 in all 384 steps (late rank rotates among 7: dev 3 most often,
    // 61 times; median offset +5.00 ms)"
    std::string position(const BigPosition& bp) const {
        const std::string offset = "median offset +" + formatDuration(bp.offsetMedianNs);
        if (bp.steps.size() <= kListedSteps) {
            std::string ranks;
            for (size_t i = 0; i < bp.lateRanks.size(); ++i)
                ranks += (ranks.empty() ? "" : ", ") + link(label(bp.lateRanks[i]), a_.collectives[bp.collectives[i]]);
            return strprintf("position %u in steps %s (late: %s; %s)", bp.position, joinNumbers(bp.steps).c_str(), ranks.c_str(),
                             offset.c_str());
        }
        const size_t n = bp.steps.size();
        std::string s = n == g_.stepCount ? strprintf("position %u in all %zu steps", bp.position, n)
                                          : strprintf("position %u in %zu of %u steps", bp.position, n, g_.stepCount);
        std::map<int, uint32_t> count;  // late rank -> times, in rank order
        for (int r : bp.lateRanks) ++count[r];
        size_t most = 0;  // the first in rank order with the largest count
        for (size_t i = 0; i < bp.lateRanks.size(); ++i)
            if (count[bp.lateRanks[i]] > count[bp.lateRanks[most]] ||
                (count[bp.lateRanks[i]] == count[bp.lateRanks[most]] && bp.lateRanks[i] < bp.lateRanks[most]))
                most = i;
        const uint32_t times = count[bp.lateRanks[most]];
        const std::string top = link(label(bp.lateRanks[most]), a_.collectives[bp.collectives[most]]);
        if (count.size() == 1) return s + " (late: " + top + " each time; " + offset + ")";
        if (2 * size_t(times) <= n)
            return s + strprintf(" (late rank rotates among %zu: ", count.size()) + top + " most often, " + plural(times, "time") + "; " +
                   offset + ")";
        return s + " (late: " + top + strprintf(" in %u of them, ", times) + plural(count.size() - 1, "other rank") + " in the rest; " +
               offset + ")";
    }

    // "GEMM nvjet_x on stream 7 in 4 of them", each predecessor's stream said once when they agree
    std::string predecessors() const {
        uint32_t shown = 0, same = 0, all = 0;
        for (const PredecessorCount& pc : ans_.predecessors) same += pc.sameStream, all += pc.count;
        const bool uniform = same == 0 || same == all;
        std::vector<std::string> items;
        for (size_t i = 0; i < ans_.predecessors.size() && i < 3; ++i) {
            const PredecessorCount& pc = ans_.predecessors[i];
            std::string item = std::string(pc.gemm ? "GEMM " : "") + shortKernelName(p_.strings.str(pc.name)) +
                               strprintf(" on stream %d in %u of them", pc.stream, pc.count);
            if (!uniform)
                item += pc.sameStream == 0          ? " (another stream than the NCCL kernel's)"
                        : pc.sameStream == pc.count ? " (the NCCL kernel's own stream)"
                                                    : strprintf(" (the NCCL kernel's own stream in %u)", pc.sameStream);
            items.push_back(item);
            shown += pc.count;
        }
        if (ans_.predecessors.size() > 3)
            items.push_back(plural(ans_.predecessors.size() - 3, "other kernel") + strprintf(" in %u of them", all - shown));
        std::string s = joinAnd(items);
        if (uniform && !items.empty()) {
            const char* each = items.size() == 1 ? "" : "all on ";
            s += same == 0 ? strprintf(" (%sanother stream than the NCCL kernel's: a cross-stream dependency or contention)", each)
                           : strprintf(" (%sthe NCCL kernel's own stream: queued behind %s)", each, items.size() == 1 ? "it" : "them");
        }
        return s;
    }

    // 3. CPU or GPU: the big events' causes, then the rest's causes and the late arrivers' lateness
    std::string cpuGpu() const {
        std::string s = "CPU or GPU: ";
        if (!ans_.big.empty()) {
            s += "of the " + plural(ans_.big.size(), "big collective") + ", " + causeCounts(ans_.bigCauses) + ".";
            if (ans_.hasGpuGap)
                s += strprintf(" The %u %s one%s started ", ans_.bigCauses[size_t(Cause::GpuDependency)], causeLabel(Cause::GpuDependency),
                               ans_.bigCauses[size_t(Cause::GpuDependency)] == 1 ? "" : "s") +
                     formatDuration(ans_.gpuGapMinNs) +
                     (ans_.gpuGapMaxNs != ans_.gpuGapMinNs ? " to " + formatDuration(ans_.gpuGapMaxNs) : std::string()) +
                     " after their launch call ended, behind " + predecessors() + ".";
            s += " The rest (" + plural(ans_.considered, "collective") + " that are not big): ";
        } else {
            s += "no big collective; over all " + plural(ans_.considered, "complete collective") + ": ";
        }
        const int64_t rest = ans_.restCpuNs + ans_.restGpuNs;
        return s + causeCounts(ans_.restCauses) + "; the late arrivers' lateness: " + formatDuration(ans_.restCpuNs) +
               " from late CPU launches, " + formatDuration(ans_.restGpuNs) + " from the GPU" +
               (rest > 0 ? " (" + formatShare(double(ans_.restCpuNs) / double(rest)) + " CPU)." : std::string("."));
    }

    // where the evidence is thin (empty when it is not)
    std::string caveats() const {
        if (ans_.caveats.empty()) return "";
        std::string c;
        for (const auto& x : ans_.caveats) c += (c.empty() ? "" : "; ") + x;
        return "Thin evidence: " + c + ".";
    }

    const Profile& p_;
    const Analysis& a_;
    const Group& g_;
    const Answers& ans_;
    const CollectiveLink& link_;
};

}  // namespace

AnswerSentences answerSentences(const Profile& p, const Analysis& a, const Group& g, const CollectiveLink& link) {
    return AnswerWriter(p, a, g, link).sentences();
}

}  // namespace skew
