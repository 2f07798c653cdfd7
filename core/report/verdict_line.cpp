#include "report/verdict_line.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "report/answers_report.h"
#include "report/format.h"
#include "util/text.h"

namespace skew {

std::string durationRange(int64_t lo, int64_t hi) {
    const std::string a = formatDuration(lo), b = formatDuration(hi);
    if (lo == hi) return a;
    const size_t ua = a.rfind(' '), ub = b.rfind(' ');
    if (ua != std::string::npos && ub != std::string::npos && a.substr(ua) == b.substr(ub)) return a.substr(0, ua) + "-" + b;
    return a + " to " + b;
}

namespace {

// "3 CPU launch, 2 GPU dependency": the causes that occur, by the collectives table's names
std::string causes(const std::array<uint32_t, kCauses>& n, const std::string& gpuDetail = {}) {
    std::string s;
    for (Cause c : kAllCauses) {
        if (!n[size_t(c)]) continue;
        s += (s.empty() ? "" : ", ") + strprintf("%u %s", n[size_t(c)], causeLabel(c));
        if (c == Cause::GpuDependency) s += gpuDetail;
    }
    return s;
}

// " behind a GEMM on stream 7" when every GPU-dependency big event started behind kernels of one
// stream (" queued on their own stream" when it is the NCCL kernel's), nothing when they differ.
std::string behind(const Answers& ans) {
    if (ans.predecessors.empty()) return "";
    uint32_t all = 0, same = 0;
    bool gemm = true, oneStream = true;
    for (const PredecessorCount& pc : ans.predecessors) {
        all += pc.count, same += pc.sameStream;
        gemm &= pc.gemm;
        oneStream &= pc.stream == ans.predecessors[0].stream;
    }
    if (same == all) return all == 1 ? " queued on its own stream" : " queued on their own stream";
    if (same != 0 || !oneStream) return "";
    const std::string what = gemm ? (all == 1 ? "a GEMM" : "GEMMs") : (all == 1 ? "a kernel" : "kernels");
    return " behind " + what + strprintf(" on stream %d", ans.predecessors[0].stream);
}

// "rotating ranks", "dev 2", "dev 2 in 4 of 5": who was late in the big events
std::string bigRanks(const Profile& p, const Answers& ans) {
    if (ans.big.size() == 1) return rankLabel(p, ans.bigLateRanks[0]);
    if (ans.bigRotate) return "rotating ranks";
    int most = ans.bigLateRanks[0];
    for (auto [r, n] : ans.bigLateCount)
        if (n == ans.bigMostLate) {
            most = r;
            break;
        }
    if (ans.bigLateCount.size() == 1) return rankLabel(p, most) + " each time";
    return rankLabel(p, most) + strprintf(" in %u of %zu", ans.bigMostLate, ans.big.size());
}

// "late rank rotates", "dev 3 last most often, by little", "dev 3 persistently last (a slow rank)",
// "dev 1 persistently last (a slow rank; thin evidence)"
std::string whoOfTheRest(const Profile& p, const Answers& ans) {
    switch (ans.verdict) {
    case WhoVerdict::Persistent:
        // never a headline stronger than its evidence (the answer says which: few collectives, 2 ranks, not significant)
        return rankLabel(p, ans.topRank) + (ans.verdictEvidence.thin() ? " persistently last (a slow rank; thin evidence)" : " persistently last (a slow rank)");
    case WhoVerdict::OftenLastSmall: return rankLabel(p, ans.topRank) + " last most often, by little";
    default: return "late rank rotates";
    }
}

// " → record CPU sampling; run an A/B test": the advice this group's late arrivers triggered
std::string nextSteps(const Analysis& a, const Group& g) {
    std::string s;
    for (const CaptureAdvice& ad : a.advice) {
        if (ad.title.empty() || std::find(ad.groups.begin(), ad.groups.end(), g.id) == ad.groups.end()) continue;
        std::string t = ad.title;
        if (t.size() > 1 && !(t[1] >= 'A' && t[1] <= 'Z')) t[0] = char(std::tolower(static_cast<unsigned char>(t[0])));  // not "A/B"
        s += (s.empty() ? " → " : "; ") + t;
    }
    return s;
}

}  // namespace

std::string verdictLine(const Profile& p, const Analysis& a, const Group& g) {
    const Answers& ans = g.answers;
    std::string s;
    if (!ans.big.empty()) {
        int64_t lo = INT64_MAX, hi = 0;
        for (uint32_t ci : ans.big) lo = std::min(lo, a.collectives[ci].startSkew()), hi = std::max(hi, a.collectives[ci].startSkew());
        s = strprintf("%zu big (", ans.big.size()) + durationRange(lo, hi) + ")";
        if (!ans.positions.empty()) {
            const size_t n = ans.positions.size(), said = std::min<size_t>(n, 3);
            std::string at;
            for (size_t i = 0; i < said; ++i)
                at += (i == 0 ? "" : i + 1 == said && n == said ? " and " : ", ") + std::to_string(ans.positions[i].position);
            if (n > said) at += strprintf(" and %zu more", n - said);
            s += (n == 1 ? " at position " : " at positions ") + at + " of the step";
        }
        s += ", " + bigRanks(p, ans) + "; " + causes(ans.bigCauses, behind(ans));
    } else if (ans.considered == 0) {
        s = "no complete collective";
    } else {
        s = "no big collective (largest start skew " + formatDuration(g.startSkew.max) + "), " + whoOfTheRest(p, ans);
        const std::string rest = causes(ans.restCauses);
        if (!rest.empty()) s += "; late arrivers: " + rest;
    }
    return s + nextSteps(a, g);
}

}  // namespace skew
