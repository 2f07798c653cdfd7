// `skewscope analyze` outputs but the findings page (findings_page.cpp): the JSON contract, CSV, and
// the short descriptions (titles, why-lines) that the reports and the viewer share.
#include "report/analysis_report.h"

#include <cinttypes>
#include <cstdio>

#include "report/answers_report.h"
#include "report/format.h"
#include "report/page.h"
#include "report/verdict_line.h"
#include "report/info_report.h"
#include "report/whatif_report.h"
#include "util/json.h"
#include "util/paths.h"

namespace skew {
namespace {

std::string dur(int64_t ns) { return formatDuration(ns); }  // short, for dense formats

}  // namespace

std::string collectiveLink(const Collective& c) { return strprintf("skewscope://collective/%d/%u", c.group, c.index); }

std::string predecessorText(const Profile& p, const Collective& c, const KernelLane& pl) {
    const std::string name = (c.predIsGemm ? "GEMM " : "") + shortKernelName(p.strings.str(pl.name[c.predKernel]));
    const std::string when = c.predGapNs >= 0 ? dur(c.predGapNs) + " after" : dur(-c.predGapNs) + " before the end of";
    if (c.predSameStream) return "queued behind " + name + " on its own stream " + std::to_string(pl.stream) + " (started " + when + " it)";
    return "started " + when + " " + name + " on stream " + std::to_string(pl.stream);
}

std::string collectiveTitle(const Profile& p, const Analysis& a, const Collective& c) {
    std::string s = strprintf("G%d #%u %s", c.group, c.index, opName(c.op));
    if (c.step) s += strprintf(", step %u +%s", c.step, dur(c.offsetInStepNs).c_str());
    if (c.lateSlot >= 0) s += strprintf(", %s late by %s", rankLabel(p, a.lateRank(c)).c_str(), dur(c.latenessNs).c_str());
    return s;
}

std::string collectiveShortTitle(const Profile& p, const Analysis& a, const Collective& c) {
    std::string s = opName(c.op);
    if (c.lateSlot >= 0) s += strprintf(", %s late by %s", rankLabel(p, a.lateRank(c)).c_str(), dur(c.latenessNs).c_str());
    return s;
}

std::string whyText(const Profile& p, const Analysis& a, const Collective& c) {
    if (c.lateSlot < 0) return "";
    std::string s = causeLabel(c.cause);
    if (auto launch = lateLaunch(p, a, c)) {
        int64_t rel = launch->endNs - c.minStart;
        s += strprintf(": %s ended %s %s the first arrival, launch-to-start %s; lateness %s CPU + %s GPU",
                       p.strings.str(launch->api).c_str(), dur(rel < 0 ? -rel : rel).c_str(), rel < 0 ? "before" : "after",
                       dur(c.launchToStartNs).c_str(), dur(c.cpuNs).c_str(), dur(c.gpuNs).c_str());
    } else {
        s += ": no launch row for this kernel (process + correlation id)";
    }
    if (c.predLane >= 0) s += "; " + predecessorText(p, c, p.ranks[size_t(c.predRank)].lanes[size_t(c.predLane)]);
    if (c.waitCount) s += strprintf("; %u stream wait(s) on its stream just before", c.waitCount);
    return s;
}

// ---- JSON ----------------------------------------------------------------------------------

void percentilesJson(JsonWriter& w, const char* key, const Percentiles& q) {
    w.key(key).beginObject().field("p50", q.p50).field("p90", q.p90).field("max", q.max).endObject();
}

namespace {

void validationJson(JsonWriter& w, const Profile& p, const Group& g) {
    const Validation& v = g.validation;
    w.key("validation").beginObject().field("status", validationStatusName(v.status)).field("sequence_mismatches", v.sequenceMismatches);
    w.key("dropped").beginObject();
    for (const auto& gl : g.lanes)
        w.key(rankLabel(p, gl.rank)).beginObject().field("leading", gl.droppedLeading).field("trailing", gl.droppedTrailing).endObject();
    w.endObject();
    w.key("partial").beginArray();
    for (const auto& pc : v.partial) {
        w.beginObject().field("index", pc.index);
        w.key("missing").beginArray();
        for (int r : pc.missingRanks) w.value(rankLabel(p, r));
        w.endArray().endObject();
    }
    w.endArray();
    w.key("messages").beginArray();
    for (const auto& m : v.messages) w.value(m);
    w.endArray().endObject();
}

void costJson(JsonWriter& w, const Analysis& a, const Cost& c) {
    w.key("cost").beginObject().field("total_ns", c.totalNs).field("baseline_ns", c.baselineNs).field("excess_ns", c.excessNs)
        .field("share", c.share).field("lateness_sum_ns", c.latenessSumNs);
    w.key("big").beginObject().field("threshold_ns", a.options.bigSkewNs).field("count", c.bigCount).field("excess_ns", c.bigExcessNs).endObject();
    w.key("rest").beginObject().field("count", c.restCount).field("excess_ns", c.restExcessNs).endObject();
    w.endObject();
}

void answersJson(JsonWriter& w, const Profile& p, const Analysis& a, const Group& g) {
    const Answers& ans = g.answers;
    w.key("answers").beginObject();
    w.key("big").beginObject().field("count", uint64_t(ans.big.size()));
    w.key("late_ranks").beginArray();
    for (int r : ans.bigLateRanks) w.value(r);
    w.endArray();
    w.key("indices").beginArray();
    for (uint32_t ci : ans.big) w.value(a.collectives[ci].index);
    w.endArray().endObject();
    w.key("who").beginObject().field("verdict", verdictName(ans.verdict)).key("rank");
    ans.verdict == WhoVerdict::Rotating ? w.null() : w.value(ans.topRank);
    w.field("most_last_rank", ans.topRank).field("last_count", ans.topLastCount).field("considered", ans.considered)
        .field("last_share", ans.lastShare).field("chi2", ans.chi2).field("chi2_p", ans.chi2P)
        .field("others_median_lateness_excl_big_ns", ans.othersMedianExclBigNs);
    w.key("mean_lateness_excl_big_ns").beginObject().field("min", ans.meanExclBigMinNs).field("max", ans.meanExclBigMaxNs)
        .field("min_rank", ans.meanExclBigMinRank).field("max_rank", ans.meanExclBigMaxRank).endObject();
    w.key("thin_evidence").beginArray();
    const VerdictEvidence& ve = ans.verdictEvidence;
    if (ve.fewCollectives) w.value("few_collectives");
    if (ve.twoRanks) w.value("two_ranks");
    if (ve.notSignificant) w.value("not_significant");
    w.endArray();
    w.endObject();
    w.key("big_positions").beginArray();
    for (const BigPosition& bp : ans.positions) {
        w.beginObject().field("position", bp.position);
        w.key("steps").beginArray();
        for (uint32_t s : bp.steps) w.value(s);
        w.endArray().key("late_ranks").beginArray();
        for (int r : bp.lateRanks) w.value(r);
        w.endArray().key("indices").beginArray();
        for (uint32_t ci : bp.collectives) w.value(a.collectives[ci].index);
        w.endArray().field("offset_ns_median", bp.offsetMedianNs).endObject();
    }
    w.endArray();
    w.field("big_rotate", ans.bigRotate);
    w.key("why").beginObject().key("big").beginObject();
    for (Cause c : kAllCauses) w.field(causeName(c), ans.bigCauses[size_t(c)]);
    w.key("gpu_launch_to_start_ns");
    if (ans.hasGpuGap) w.beginObject().field("min", ans.gpuGapMinNs).field("max", ans.gpuGapMaxNs).endObject();
    else w.null();
    w.key("predecessors").beginArray();
    for (const auto& pc : ans.predecessors)
        w.beginObject().field("name", p.strings.str(pc.name)).field("stream", pc.stream).field("count", pc.count)
            .field("same_stream_count", pc.sameStream).field("is_gemm", pc.gemm).endObject();
    w.endArray().endObject();
    w.key("rest").beginObject().field("count", ans.considered);
    for (Cause c : kAllCauses) w.field(causeName(c), ans.restCauses[size_t(c)]);
    w.field("cpu_ns", ans.restCpuNs).field("gpu_ns", ans.restGpuNs).endObject();
    w.endObject();
    w.key("caveats").beginArray();
    for (const auto& c : ans.caveats) w.value(c);
    w.endArray();
    w.endObject();
}

void groupJson(JsonWriter& w, const Profile& p, const Analysis& a, const Group& g) {
    w.beginObject().field("id", g.id);
    w.key("streams").beginObject();
    for (const auto& gl : g.lanes) w.field(rankLabel(p, gl.rank), p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].stream);
    w.endObject();
    w.field("collectives", g.count).field("complete", g.complete);
    w.key("ops").beginObject();
    for (const auto& [op, n] : g.ops) w.field(op, n);
    w.endObject();
    validationJson(w, p, g);
    percentilesJson(w, "start_skew_ns", g.startSkew);
    percentilesJson(w, "end_skew_ns", g.endSkew);
    w.field("ends_cluster", endsCluster(g));
    costJson(w, a, g.cost);
    w.key("per_rank").beginArray();
    for (const auto& rs : g.perRank)
        w.beginObject().field("rank", rs.rank).field("last_count", rs.lastCount).field("first_count", rs.firstCount)
            .field("mean_lateness_ns", rs.meanLatenessNs).field("mean_lateness_excl_big_ns", rs.meanLatenessExclBigNs)
            .field("nccl_kernel_ns", rs.ncclKernelNs).field("nccl_only_ns", rs.ncclOnlyNs).endObject();
    w.endArray();
    w.key("steps").beginObject().field("source", stepSourceName(g.stepsSource)).field("count", g.stepCount);
    if (g.inferredPeriod) w.field("period", g.inferredPeriod);
    if (g.stepMedianNs) w.field("median_ns", g.stepMedianNs);
    w.endObject();
    answersJson(w, p, a, g);
    w.endObject();
}

void launchJson(JsonWriter& w, const Profile& p, const Analysis& a, const Collective& c) {
    w.key("launch");
    auto launch = lateLaunch(p, a, c);
    if (!launch) {
        w.null();
        return;
    }
    const Process& pr = p.processes[size_t(p.ranks[size_t(a.lateRank(c))].process)];
    auto tn = pr.threadNames.find(launch->tid);
    w.beginObject().field("api", p.strings.str(launch->api)).field("start_ns", launch->startNs).field("end_ns", launch->endNs)
        .field("launch_to_start_ns", c.launchToStartNs).field("thread", launch->tid)
        .field("thread_name", tn == pr.threadNames.end() ? std::string() : p.strings.str(tn->second)).endObject();
}

void collectiveJson(JsonWriter& w, const Profile& p, const Analysis& a, const Collective& c) {
    const Group& g = a.groups[size_t(c.group)];
    w.beginObject().field("group", c.group).field("index", c.index).field("op", opName(c.op)).field("complete", c.complete);
    w.key("members").beginArray();
    for (const Member& m : members(p, a, c)) {
        const KernelLane& kl = p.ranks[size_t(m.rank)].lanes[size_t(m.lane)];
        w.beginObject().field("rank", m.rank).field("stream", kl.stream).field("start_ns", m.startNs).field("end_ns", m.endNs)
            .field("correlation_id", kl.correlationId[m.kernel]).field("name", p.strings.str(kl.name[m.kernel]))
            .field("lateness_ns", m.latenessNs).endObject();
    }
    w.endArray();
    if (!c.complete) {
        w.key("missing").beginArray();
        for (size_t s = 0; s < g.width(); ++s)
            if (a.slotKernel(c, s) == kMissing) w.value(g.lanes[s].rank);
        w.endArray();
    }
    w.field("start_skew_ns", c.startSkew()).field("end_skew_ns", c.endSkew());
    w.key("late_rank");
    c.lateSlot >= 0 ? w.value(a.lateRank(c)) : w.null();
    w.key("early_rank");
    c.earlySlot >= 0 ? w.value(a.earlyRank(c)) : w.null();
    w.field("excess_ns", c.excessNs).field("big", c.big);
    launchJson(w, p, a, c);
    w.field("lateness_ns", c.latenessNs).field("lateness_cpu_ns", c.cpuNs).field("lateness_gpu_ns", c.gpuNs);
    w.key("predecessor");
    if (c.predLane >= 0) {
        const KernelLane& pl = p.ranks[size_t(c.predRank)].lanes[size_t(c.predLane)];
        w.beginObject().field("name", p.strings.str(pl.name[c.predKernel])).field("stream", pl.stream)
            .field("start_ns", pl.start[c.predKernel]).field("end_ns", pl.end(c.predKernel)).field("gap_ns", c.predGapNs)
            .field("is_gemm", c.predIsGemm).field("same_stream", c.predSameStream).endObject();
    } else {
        w.null();
    }
    w.key("stream_wait");
    if (c.lateSlot >= 0 && c.waitIndex >= 0) {
        const StreamWaits& sw = p.processes[size_t(p.ranks[size_t(a.lateRank(c))].process)].waits;
        w.beginObject().field("count", c.waitCount).field("start_ns", sw.start[size_t(c.waitIndex)])
            .field("end_ns", sw.end(size_t(c.waitIndex))).endObject();
    } else {
        w.null();
    }
    w.field("cause", causeName(c.cause));
    w.key("step");
    c.step ? w.value(c.step) : w.null();
    w.key("offset_in_step_ns");
    c.step ? w.value(c.offsetInStepNs) : w.null();
    w.key("position_in_step");
    c.step ? w.value(c.positionInStep) : w.null();
    w.endObject();
}

void anomaliesJson(JsonWriter& w, const Analysis& a) {
    const Anomalies& an = a.anomalies;
    w.key("anomalies").beginObject().field("threshold", an.threshold).field("rows", an.rows).field("events", an.events);
    w.key("items").beginArray();
    for (const auto& it : an.items) {
        const Collective& c = a.collectives[it.collective];
        w.beginObject().field("group", it.group).field("index", c.index).field("op", opName(c.op));
        w.key("rows").beginArray();
        for (auto [r, d] : it.rows) w.beginObject().field("rank", r).field("duration_ns", d).endObject();
        w.endArray().endObject();
    }
    w.endArray().endObject();
}

}  // namespace

namespace {

void analysisJsonTo(JsonWriter& w, const Profile& p, const Analysis& a, const std::function<void()>* finishWhatIf = nullptr) {
    w.beginObject();
    writeToolJson(w);
    writeInputsJson(w, p);
    w.key("window_ns").beginObject().field("start", a.windowStart).field("end", a.windowEnd).endObject();
    w.key("ranks").beginArray();
    for (const auto& r : p.ranks) {
        const ClockRefinement& cr = a.clocks[size_t(r.id)];
        w.beginObject();
        writeRankIdentity(w, p, r);
        w.field("clock_offset_ns", r.clockOffsetNs).field("clock_estimate_ns", cr.estimateNs).field("clock_residual_p90_ns", cr.residualP90Ns)
            .endObject();
    }
    w.endArray();
    w.key("groups").beginArray();
    for (const auto& g : a.groups) groupJson(w, p, a, g);
    w.endArray();
    w.key("collectives").beginArray();
    w.arrayItems(a.collectives.size(), a.options.threads, [&](JsonWriter& cw, size_t i) { collectiveJson(cw, p, a, a.collectives[i]); });
    w.endArray();
    anomaliesJson(w, a);
    if (finishWhatIf) (*finishWhatIf)();
    whatIfJson(w, p, a);
    w.key("unmatched_lanes").beginArray();
    for (const auto& u : a.unmatched)
        w.beginObject().field("rank", u.rank).field("stream", p.ranks[size_t(u.rank)].lanes[size_t(u.lane)].stream)
            .field("kernels", u.kernels).field("reason", u.reason).endObject();
    w.endArray();
    w.key("capture_advice").beginArray();
    for (const auto& ad : a.advice) w.beginObject().field("id", ad.id).field("evidence", ad.evidence).field("advice", ad.advice).endObject();
    w.endArray();
    w.key("warnings").beginArray();
    for (const auto& s : p.warnings) w.value(s);
    for (const auto& s : a.warnings) w.value(s);
    w.endArray();
    w.endObject();
}

}  // namespace

std::string analysisJson(const Profile& p, const Analysis& a) {
    JsonWriter w;
    analysisJsonTo(w, p, a);
    std::string out = w.take();
    out.push_back('\n');
    return out;
}

void writeAnalysisJson(const Profile& p, const Analysis& a, const std::function<void(std::string_view)>& sink, size_t chunk) {
    writeAnalysisJson(p, a, sink, {}, chunk);
}

void writeAnalysisJson(const Profile& p, const Analysis& a, const std::function<void(std::string_view)>& sink,
                       const std::function<void()>& finishWhatIf, size_t chunk) {
    JsonWriter w;
    w.streamTo(sink, chunk);
    analysisJsonTo(w, p, a, finishWhatIf ? &finishWhatIf : nullptr);
    w.flush();
    sink("\n");
}

namespace {

// RFC 4180: a field with a comma, a quote or a line break (CR or LF) is quoted, its quotes doubled.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

// Whether collective `ci` is a big event at a position that recurs across steps.
bool atRecurringPosition(const Group& g, uint32_t ci) {
    for (const BigPosition& bp : g.answers.positions)
        for (uint32_t x : bp.collectives)
            if (x == ci) return true;
    return false;
}

}  // namespace


std::string analysisCsv(const Profile& p, const Analysis& a) {
    std::string o =
        "group,index,op,complete,step,offset_in_step_ns,rank,label,stream,start_ns,end_ns,duration_ns,lateness_ns,late,early,"
        "start_skew_ns,end_skew_ns,excess_ns,big,cause,correlation_id,name,position_in_step,recurring_big_position,"
        "group_verdict,group_verdict_rank\n";
    for (size_t ci = 0; ci < a.collectives.size(); ++ci) {
        const Collective& c = a.collectives[ci];
        const Group& g = a.groups[size_t(c.group)];
        const Answers& ans = g.answers;
        const std::string verdictRank = ans.verdict == WhoVerdict::Rotating || ans.topRank < 0 ? "" : csvField(rankLabel(p, ans.topRank));
        for (const Member& m : members(p, a, c)) {
            const KernelLane& kl = p.ranks[size_t(m.rank)].lanes[size_t(m.lane)];
            o += strprintf("%d,%u,%s,%d,", c.group, c.index, opName(c.op), c.complete ? 1 : 0);
            o += c.step ? strprintf("%u,%" PRId64 ",", c.step, c.offsetInStepNs) : std::string(",,");
            o += strprintf("%d,%s,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%d,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%d,%s,%u,", m.rank,
                           csvField(rankLabel(p, m.rank)).c_str(), kl.stream, m.startNs, m.endNs, m.endNs - m.startNs, m.latenessNs,
                           int(m.slot) == c.lateSlot, int(m.slot) == c.earlySlot, c.startSkew(), c.endSkew(), c.excessNs, c.big ? 1 : 0,
                           causeName(c.cause), kl.correlationId[m.kernel]);
            o += csvField(p.strings.str(kl.name[m.kernel]));
            o += c.step ? strprintf(",%u,", c.positionInStep) : std::string(",,");
            o += strprintf("%d,%s,%s\n", atRecurringPosition(g, uint32_t(ci)) ? 1 : 0, verdictName(ans.verdict), verdictRank.c_str());
        }
    }
    return o;
}

}  // namespace skew
