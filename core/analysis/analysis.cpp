#include "analysis/analysis.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "analysis/anomalies.h"
#include "analysis/answers.h"
#include "analysis/capture_advice.h"
#include "analysis/clocks.h"
#include "analysis/collectives.h"
#include "analysis/group_stats.h"
#include "analysis/grouping.h"
#include "analysis/steps.h"
#include "analysis/whatif.h"
#include "util/errors.h"
#include "util/stage_clock.h"

namespace skew {

std::string makeAnalysisOptions(const AnalysisSettings& s, AnalysisOptions& out) {
    auto bad = [](double v, double lo, double hi) { return !std::isfinite(v) || v < lo || v > hi; };
    if (bad(s.bigSkewMs, 0, 1e9)) return "the big-skew threshold must be a number of milliseconds from 0 to 1e9";
    if (bad(s.anomalyThreshold, 0, 1e6) || s.anomalyThreshold == 0)
        return "the anomaly threshold must be a number above 0 and at most 1e6";
    if (s.hasTrim && (bad(s.trimStartS, -1e9, 1e9) || bad(s.trimEndS, -1e9, 1e9)))
        return "the time window must be two numbers of seconds within +-1e9";
    if (s.hasTrim && s.trimEndS <= s.trimStartS) return "the time window must end after it starts";
    if (s.anomalyLimit < -1) return "the anomaly row limit must be 0 or more";
    std::shared_ptr<const StepPattern> pattern;
    try {
        pattern = std::make_shared<const StepPattern>(s.stepRegex);  // compiled once, here
    } catch (const std::invalid_argument&) {
        return "the step pattern is not valid: " + StepPattern::check(s.stepRegex);
    }
    AnalysisOptions o = out;
    o.bigSkewNs = int64_t(std::llround(s.bigSkewMs * 1e6));
    o.anomalyThreshold = s.anomalyThreshold;
    o.stepRegex = s.stepRegex;
    o.stepPattern = std::move(pattern);
    o.hasTrim = s.hasTrim;
    o.trimStartNs = s.hasTrim ? int64_t(std::llround(s.trimStartS * 1e9)) : 0;
    o.trimEndNs = s.hasTrim ? int64_t(std::llround(s.trimEndS * 1e9)) : 0;
    o.anomalyLimit = s.anomalyLimit;
    out = std::move(o);
    return {};
}

AnalysisSettings analysisSettings(const AnalysisOptions& o) {
    AnalysisSettings s;
    s.bigSkewMs = double(o.bigSkewNs) / 1e6;
    s.anomalyThreshold = o.anomalyThreshold;
    s.stepRegex = o.stepRegex;
    s.hasTrim = o.hasTrim;
    s.trimStartS = double(o.trimStartNs) / 1e9;
    s.trimEndS = double(o.trimEndNs) / 1e9;
    s.anomalyLimit = o.anomalyLimit;
    return s;
}

const char* causeName(Cause c) {
    switch (c) {
    case Cause::CpuLaunch: return "cpu_launch";
    case Cause::GpuDependency: return "gpu_dependency";
    case Cause::GpuOther: return "gpu_other";
    default: return "unknown";
    }
}

const char* causeLabel(Cause c) {
    switch (c) {
    case Cause::CpuLaunch: return "CPU launch";
    case Cause::GpuDependency: return "GPU dependency";
    case Cause::GpuOther: return "GPU other";
    default: return "Unknown";
    }
}

const char* validationStatusName(ValidationStatus s) {
    switch (s) {
    case ValidationStatus::Ok: return "ok";
    case ValidationStatus::Warn: return "warn";
    default: return "error";
    }
}

const char* stepSourceName(StepSource s) {
    switch (s) {
    case StepSource::Nvtx: return "nvtx";
    case StepSource::Inferred: return "inferred";
    default: return "none";
    }
}

std::string opList(const Group& g, bool counts) {
    std::string s;
    for (const auto& [op, n] : g.ops) s += (s.empty() ? "" : ", ") + op + (counts ? " " + std::to_string(n) : std::string());
    return s;
}

const Collective* Analysis::find(int group, uint32_t index) const {
    if (group < 0 || size_t(group) >= groups.size()) return nullptr;
    const Group& g = groups[size_t(group)];
    if (index < 1 || index > g.count) return nullptr;
    return &collectives[g.firstCollective + index - 1];
}

std::optional<Member> member(const Profile& p, const Analysis& a, const Collective& c, size_t s) {
    const uint32_t k = a.slotKernel(c, s);
    if (k == kMissing) return std::nullopt;
    const GroupSlot& gl = a.groups[size_t(c.group)].lanes[s];
    const KernelLane& kl = p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)];
    return Member{s, gl.rank, gl.lane, k, kl.start[k], kl.end(k), kl.start[k] - c.minStart};
}

std::optional<LaunchCall> launchOf(const KernelLane& lane, uint32_t k) {
    if (k >= lane.size() || !lane.hasLaunch(k)) return std::nullopt;
    return LaunchCall{StrId(lane.launchApi[k]), lane.launchStart(k), lane.launchEnd(k), uint32_t(lane.launchTid[k])};
}

std::optional<LaunchCall> lateLaunch(const Profile& p, const Analysis& a, const Collective& c) {
    if (c.lateSlot < 0) return std::nullopt;
    auto m = member(p, a, c, size_t(c.lateSlot));
    if (!m) return std::nullopt;
    return launchOf(p.ranks[size_t(m->rank)].lanes[size_t(m->lane)], m->kernel);
}

std::optional<Member> memberOfKernel(const Profile& p, const Analysis& a, const Collective& c, int rank, int lane, uint32_t kernel) {
    const Group& g = a.groups[size_t(c.group)];
    for (size_t s = 0; s < g.width(); ++s)
        if (g.lanes[s].rank == rank && g.lanes[s].lane == lane && a.slotKernel(c, s) == kernel) return member(p, a, c, s);
    return std::nullopt;
}

std::vector<Member> members(const Profile& p, const Analysis& a, const Collective& c) {
    std::vector<Member> out;
    for (size_t s = 0; s < a.groups[size_t(c.group)].width(); ++s)
        if (auto m = member(p, a, c, s)) out.push_back(*m);
    return out;
}

int worstCollective(const Analysis& a, const std::function<bool(int)>& accept) {
    int worst = -1;
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].complete && (!accept || accept(int(i))) &&
            (worst < 0 || a.collectives[i].startSkew() > a.collectives[size_t(worst)].startSkew()))
            worst = int(i);
    return worst;
}

Analysis analyze(Profile& p, const AnalysisOptions& o) {
    // the pattern makeAnalysisOptions compiled, or compiled now: a bad pattern fails before any work
    const std::shared_ptr<const StepPattern> compiled =
        o.stepPattern && o.stepPattern->source() == o.stepRegex ? o.stepPattern : std::make_shared<const StepPattern>(o.stepRegex);
    const StepPattern& pattern = *compiled;
    auto tick = [&](double f) {
        if (o.progress && !o.progress(f)) throw Cancelled();
    };
    StageClock clock("analyze");
    Analysis a;
    a.options = o;
    a.options.stepPattern = compiled;  // what the what-if's schedule (whatif_schedule.h) matches steps with
    a.windowStart = o.hasTrim ? o.trimStartNs : p.timeStart;
    a.windowEnd = o.hasTrim ? o.trimEndNs : p.timeEnd;
    a.clocks.assign(p.ranks.size(), {});
    groupLanes(p, o, a);
    clock.done("grouping");
    tick(0.3);
    if (o.refineClocks && p.inputs.size() > 1 && refineClocks(p, a, o)) {
        a.groups.clear();
        a.unmatched.clear();
        groupLanes(p, o, a);  // again, on the corrected clocks
    }
    measureClockResiduals(p, a);
    clock.done("clocks");
    tick(0.5);
    const std::vector<GroupSums> sums = buildCollectives(p, a, o);
    clock.done("collectives+why");
    tick(0.7);
    assignSteps(p, a, pattern);
    clock.done("steps");
    groupStatistics(p, a, o, sums);
    clock.done("group stats");
    tick(0.8);
    findAnomalies(p, a, o);
    clock.done("anomalies");
    answerQuestions(p, a);
    a.advice = captureAdvice(p, a);
    clock.done("answers");
    if (o.whatIf) {
        computeWhatIf(p, a, pattern);
        clock.done("what-if");
    } else {
        a.whatIf.pending = true;  // computeWhatIf + fillWhatIf later (whatif.h)
    }
    tick(1.0);
    return a;
}

}  // namespace skew
