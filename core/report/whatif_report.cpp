#include "report/whatif_report.h"

#include <cinttypes>

#include "analysis/stats.h"
#include "report/answers_report.h"
#include "report/format.h"
#include "util/json.h"

namespace skew {
namespace {

void optionalField(JsonWriter& w, const char* key, const std::optional<int64_t>& v) {
    w.key(key);
    v ? w.value(*v) : w.null();
}

void optionalField(JsonWriter& w, const char* key, const std::optional<double>& v) {
    w.key(key);
    v ? w.value(*v) : w.null();
}

std::string optionalCsv(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); }

// "; dev 3 alone costs 1.21x", or the ranks that tie with it at two decimals: never one rank named
// out of many that cost the same (the CPU follows the GPU: every rank alone may cost the whole)
std::string byRankClause(const Profile& p, const std::vector<WhatIfRank>& byRank) {
    if (byRank.empty()) return {};
    const std::string top = strprintf("%.2f", byRank[0].slowdown);
    size_t tied = 1;
    while (tied < byRank.size() && strprintf("%.2f", byRank[tied].slowdown) == top) ++tied;
    if (tied == 1) return "; " + rankLabel(p, byRank[0].rank) + " alone costs " + top + "x";
    if (tied == byRank.size()) return "; each rank alone costs " + top + "x: no one rank stands out";
    std::string names;
    for (size_t i = 0; i < tied && i < 3; ++i) names += (i ? ", " : "") + rankLabel(p, byRank[i].rank);
    if (tied > 3) names += strprintf(" and %zu more", tied - 3);
    return strprintf("; %zu ranks alone cost %sx each (", tied, top.c_str()) + names + ")";
}

}  // namespace

void whatIfJson(JsonWriter& w, const Profile& p, const Analysis& a) {
    const WhatIf& wi = a.whatIf;
    w.key("what_if").beginObject();
    w.key("replay").beginObject().field("kernels", wi.kernels).field("max_error_ns", wi.maxErrorNs)
        .field("uncoupled_collectives", wi.uncoupled).endObject();
    w.field("step_source", stepSourceName(wi.stepSource));
    w.key("steps").beginArray();
    for (const WhatIfStep& s : wi.steps) {
        w.beginObject().field("step", s.step).field("captured_ns", s.capturedNs);
        optionalField(w, "no_slow_kernels_ns", s.noSlowKernelsNs);
        optionalField(w, "no_late_launches_ns", s.noLateLaunchesNs);
        optionalField(w, "ideal_ns", s.idealNs);
        w.endObject();
    }
    w.endArray();
    w.key("by_rank").beginArray();
    for (const WhatIfRank& r : wi.byRank)
        w.beginObject().field("rank", rankLabel(p, r.rank)).field("device", p.ranks[size_t(r.rank)].device).field("slowdown", r.slowdown).endObject();
    w.endArray();
    w.key("slowdown").beginObject();
    optionalField(w, "no_slow_kernels", wi.noSlowKernels);
    optionalField(w, "no_late_launches", wi.noLateLaunches);
    optionalField(w, "ideal", wi.ideal);
    w.endObject();
    w.endObject();
}

std::string whatIfSentence(const Profile& p, const Analysis& a) {
    const WhatIf& wi = a.whatIf;
    if (wi.pending) return "What-if: computing the replay of the capture\u2026";
    if (!wi.notComputed.empty()) return "What-if: not computed: " + wi.notComputed + ".";
    if (wi.kernels == 0) return {};
    if (wi.steps.empty()) return "What-if: not computed: no training steps (no NVTX step ranges, no repeating collective sequence).";
    const bool ideal = wi.ideal.has_value();
    std::vector<int64_t> captured, scenario;
    for (const WhatIfStep& s : wi.steps) {
        captured.push_back(s.capturedNs);
        scenario.push_back(ideal ? s.idealNs.value_or(0) : s.noSlowKernelsNs.value_or(0));
    }
    const double slowdown = ideal ? *wi.ideal : wi.noSlowKernels.value_or(1.0);
    const int64_t then = percentileRounded(scenario, 50), now = percentileRounded(captured, 50);
    // the replay's medians can come out above a rank's own durations: then no gain, said as such
    std::string s = then < now ? strprintf("Without the %s the median step would take %s instead of %s (%.2fx)",
                                           ideal ? "late arrivals" : "slow kernels", formatDuration(then).c_str(), formatDuration(now).c_str(), slowdown)
                               : strprintf("Without the %s the median step would be no faster: %s against %s captured (%.2fx)",
                                           ideal ? "late arrivals" : "slow kernels", formatDuration(then).c_str(), formatDuration(now).c_str(), slowdown);
    s += byRankClause(p, wi.byRank);
    if (!ideal) s += "; late launches not replayed: the exports have no launch rows";
    return s + ".";
}

std::string whatIfCsv(const Analysis& a) {
    std::string o = "step,captured_ns,no_slow_kernels_ns,no_late_launches_ns,ideal_ns\n";
    for (const WhatIfStep& s : a.whatIf.steps)
        o += strprintf("%u,%" PRId64 ",%s,%s,%s\n", s.step, s.capturedNs, optionalCsv(s.noSlowKernelsNs).c_str(),
                       optionalCsv(s.noLateLaunchesNs).c_str(), optionalCsv(s.idealNs).c_str());
    return o;
}

}  // namespace skew
