#include "report/compare_report.h"

#include <cinttypes>
#include <cmath>
#include <tuple>

#include "report/analysis_report.h"
#include "report/format.h"
#include "report/page.h"
#include "util/json.h"
#include "util/paths.h"

namespace skew {
namespace {

std::string dur(int64_t ns) { return formatDuration(ns); }
std::string signedD(int64_t ns) { return (ns > 0 ? "+" : ns < 0 ? "-" : "") + formatDuration(ns < 0 ? -ns : ns); }
std::string signedN(int64_t n) { return (n > 0 ? "+" : "") + std::to_string(n); }

const Group& groupA(const Side& a, const GroupPair& p) { return a.analysis->groups[size_t(p.a)]; }
const Group& groupB(const Side& b, const GroupPair& p) { return b.analysis->groups[size_t(p.b)]; }

std::string files(const Profile& p) {
    std::string s;
    for (const auto& in : p.inputs) s += (s.empty() ? "" : ", ") + fileStem(in.path);
    return s;
}

std::string positionText(const PositionChange& pc) {
    return strprintf("position %u of the step (%s): big in %u of %u steps before, %u of %u after", pc.position, opName(pc.op), pc.bigStepsA,
                     pc.stepsA, pc.bigStepsB, pc.stepsB);
}

void deltaJson(JsonWriter& w, const GroupDelta& d) {
    w.key("delta").beginObject().field("collectives", d.collectives).field("complete", d.complete);
    percentilesJson(w, "start_skew_ns", d.startSkew);
    percentilesJson(w, "end_skew_ns", d.endSkew);
    w.field("cost_share", d.costShare).field("excess_ns", d.excessNs);
    w.key("big").beginObject().field("count", d.bigCount).field("excess_ns", d.bigExcessNs).endObject();
    w.key("per_rank").beginArray();
    for (const auto& r : d.perRank)
        w.beginObject().field("rank_a", r.rankA).field("rank_b", r.rankB).field("last_count", r.lastCount)
            .field("mean_lateness_excl_big_ns", r.meanLatenessExclBigNs).endObject();
    w.endArray();
    w.key("causes").beginObject();
    for (Cause c : kAllCauses) w.field(causeName(c), d.causes[size_t(c)]);
    w.endObject();
    w.key("big_causes").beginObject();
    for (Cause c : kAllCauses) w.field(causeName(c), d.bigCauses[size_t(c)]);
    w.endObject();
    w.key("step_median_ns");
    d.hasStepTime ? w.value(d.stepMedianNs) : w.null();
    w.endObject();
}

}  // namespace

std::string verdictLine(const Side& a, const Side& b, const GroupPair& p) {
    const Group& ga = groupA(a, p);
    const Group& gb = groupB(b, p);
    std::string s = strprintf("start-skew cost %s -> %s of NCCL kernel time; big events %u -> %u; p90 start skew %s -> %s",
                              formatShare(ga.cost.share).c_str(), formatShare(gb.cost.share).c_str(), ga.cost.bigCount, gb.cost.bigCount,
                              dur(ga.startSkew.p90).c_str(), dur(gb.startSkew.p90).c_str());
    if (ga.stepMedianNs && gb.stepMedianNs) s += "; median step " + dur(ga.stepMedianNs) + " -> " + dur(gb.stepMedianNs);
    else s += "; median step: " + std::string(ga.stepMedianNs || gb.stepMedianNs ? "NVTX steps on one side only" : "no NVTX steps");
    return s;
}

std::string compareJson(const Side& a, const Side& b, const Comparison& c) {
    JsonWriter w;
    w.beginObject();
    w.key("a").raw(analysisJson(*a.profile, *a.analysis));
    w.key("b").raw(analysisJson(*b.profile, *b.analysis));
    w.key("groups").beginArray();
    for (const auto& p : c.pairs) {
        w.beginObject().field("a", p.a).field("b", p.b).field("verdict", verdictLine(a, b, p));
        deltaJson(w, p.delta);
        w.field("same_step_sequence", p.sameStepSequence);
        w.key("positions").beginArray();
        for (const auto& pc : p.positions) {
            w.beginObject().field("position", pc.position).field("op", opName(pc.op)).field("big_steps_a", pc.bigStepsA)
                .field("steps_a", pc.stepsA).field("big_steps_b", pc.bigStepsB).field("steps_b", pc.stepsB);
            w.key("indices_a").beginArray();
            for (uint32_t ci : pc.collectivesA) w.value(a.analysis->collectives[ci].index);
            w.endArray().key("indices_b").beginArray();
            for (uint32_t ci : pc.collectivesB) w.value(b.analysis->collectives[ci].index);
            w.endArray().endObject();
        }
        w.endArray();
        w.key("notes").beginArray();
        for (const auto& n : p.notes) w.value(n);
        w.endArray();
        w.key("cautions").beginArray();
        for (const auto& n : p.cautions) w.value(n);
        w.endArray().endObject();
    }
    w.endArray();
    w.key("unpaired").beginObject().key("a").beginArray();
    for (int id : c.unpairedA) w.value(id);
    w.endArray().key("b").beginArray();
    for (int id : c.unpairedB) w.value(id);
    w.endArray().endObject();
    w.key("messages").beginArray();
    for (const auto& m : c.messages) w.value(m);
    w.endArray();
    w.field("summary", c.summary).field("advice", c.advice);
    w.key("what_if_check").beginObject();
    if (c.whatIf.available())
        w.field("captured_median_a_ns", c.whatIf.capturedMedianANs)
            .field("predicted_median_ns", c.whatIf.predictedMedianNs)
            .field("measured_median_b_ns", c.whatIf.measuredMedianBNs)
            .field("error_percent", c.whatIf.errorPercent);
    else
        w.field("why", c.whatIf.why);
    w.endObject();
    w.endObject();
    std::string out = w.take();
    out.push_back('\n');
    return out;
}

namespace {

// "A -> B (B - A)" of a count and of a duration
std::string change(int64_t x, int64_t y) { return std::to_string(x) + " -> " + std::to_string(y) + " (" + signedN(y - x) + ")"; }
std::string changeD(int64_t x, int64_t y) { return dur(x) + " -> " + dur(y) + " (" + signedD(y - x) + ")"; }
std::string points(double d) {
    const double pp = d * 100;
    return std::abs(pp) < 0.05 ? "0 pp" : strprintf("%+.1f pp", pp);
}

std::string causesText(const std::array<int64_t, kCauses>& x, const std::array<int64_t, kCauses>& y) {
    std::string s;
    for (Cause k : kAllCauses)
        s += (s.empty() ? "" : ", ") + std::string(causeLabel(k)) + " " + change(x[size_t(k)], y[size_t(k)]);  // the table's names
    return s;
}

std::string page(const Side& a, const Side& b, const Comparison& c, bool md) {
    ReportPage o(md);
    auto h1 = [&](const std::string& s) { o.h1(s); };
    auto h2 = [&](const std::string& s) { o.h2(s); };
    auto line = [&](const std::string& s) { o.line(s); };
    auto bullet = [&](const std::string& s) { o.bullet(s); };
    auto sub = [&](const std::string& s) { o.subBullet(s); };
    h1("Skewscope comparison: " + files(*a.profile) + " -> " + files(*b.profile));
    line("A (before): " + files(*a.profile) + "; B (after): " + files(*b.profile) + ". Differences are B minus A.");
    if (c.pairs.empty()) line(c.summary + ".");
    line("What-if check: " + whatIfCheckText(c.whatIf) + ".");
    for (const auto& p : c.pairs) {
        const Group& ga = groupA(a, p);
        h2(strprintf("A group %d -> B group %d (%s, %zu ranks)", p.a, p.b, opList(ga, false).c_str(), ga.width()));
        line("Verdict: " + verdictLine(a, b, p) + ".");
        for (const auto& k : p.cautions) line("Caution: " + k + ".");
        const GroupDelta &va = p.valuesA, &vb = p.valuesB;
        bullet("collectives " + change(va.collectives, vb.collectives) + ", complete " + change(va.complete, vb.complete));
        for (auto [name, x, y] : {std::tuple{"start skew", &va.startSkew, &vb.startSkew}, std::tuple{"end skew", &va.endSkew, &vb.endSkew}})
            bullet(std::string(name) + " p50 " + changeD(x->p50, y->p50) + ", p90 " + changeD(x->p90, y->p90) + ", max " +
                   changeD(x->max, y->max));
        bullet("start-skew cost " + formatShare(va.costShare) + " -> " + formatShare(vb.costShare) + " (" + points(p.delta.costShare) +
               ") of NCCL kernel time; excess " + changeD(va.excessNs, vb.excessNs));
        bullet("big events " + change(va.bigCount, vb.bigCount) + "; their excess " + changeD(va.bigExcessNs, vb.bigExcessNs));
        bullet("causes of the late arrivals (all complete collectives): " + causesText(va.causes, vb.causes));
        bullet("causes of the big events: " + causesText(va.bigCauses, vb.bigCauses));
        bullet("per rank: last arrivals; mean lateness without big events");
        for (size_t r = 0; r < va.perRank.size() && r < vb.perRank.size(); ++r) {
            const std::string& la = a.profile->ranks[size_t(va.perRank[r].rankA)].label;
            const std::string& lb = b.profile->ranks[size_t(vb.perRank[r].rankB)].label;
            sub((la == lb ? la : la + " / " + lb) + ": last " + change(va.perRank[r].lastCount, vb.perRank[r].lastCount) + "; lateness " +
                changeD(va.perRank[r].meanLatenessExclBigNs, vb.perRank[r].meanLatenessExclBigNs));
        }
        for (const auto& pc : p.positions) bullet(positionText(pc));
        if (p.sameStepSequence && p.positions.empty()) bullet("no big events in either capture's steps");
        for (const auto& n : p.notes) bullet(n);
    }
    if (!c.messages.empty()) {
        h2("Groups not compared");
        if (!c.pairs.empty()) line(c.summary + ".");
        for (const auto& m : c.messages) bullet(m);
        if (!c.advice.empty()) line((md ? "\n" : "") + c.advice + ".");
    }
    if (c.pairs.empty() && c.messages.empty()) line("Neither capture has matched collectives to compare.");
    return o.take();
}

}  // namespace

std::string whatIfCheckText(const WhatIfCheck& c) {
    if (!c.available()) return "no what-if check: " + c.why;
    const double e = c.errorPercent < 0 ? -c.errorPercent : c.errorPercent;
    return "A's what-if predicted a median step of " + formatDuration(c.predictedMedianNs) +
           " without the late arrivals (captured " + formatDuration(c.capturedMedianANs) + "); B measured " +
           formatDuration(c.measuredMedianBNs) + ": the prediction is " +
           (e < 0.05 ? std::string("within 0.1%") : strprintf("%.1f%% too %s", e, c.errorPercent < 0 ? "fast" : "slow"));
}

std::string compareText(const Side& a, const Side& b, const Comparison& c) { return page(a, b, c, false); }
std::string compareMarkdown(const Side& a, const Side& b, const Comparison& c) { return page(a, b, c, true); }

}  // namespace skew
