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

void analysisJsonTo(JsonWriter& w, const Profile& p, const Analysis& a) {
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
    JsonWriter w;
    w.streamTo(sink, chunk);
    analysisJsonTo(w, p, a);
    w.flush();
    sink("\n");
}

// ---- text and Markdown ---------------------------------------------------------------------

namespace {

// The big events a group's numbers list one by one, as the anomalies are listed (a run of many
// steps can have hundreds; the viewer's table and the JSON/CSV have them all).
constexpr size_t kListedBig = 20;

// One findings page, written either as plain text or as Markdown (optionally with links).
class Findings {
public:
    Findings(const Profile& p, const Analysis& a, bool md, bool links) : p_(p), a_(a), page_(md), links_(links && md) {}

    std::string page() {
        header();
        if (a_.groups.empty()) {
            h2("No collectives");
            line(p_.kernelCount() == 0 ? "The exports hold no GPU kernels." : "No NCCL kernels were matched across ranks.");
            if (std::string s = whatIfSentence(p_, a_); !s.empty()) line(s);
        }
        for (const auto& g : a_.groups) answers(g);
        nextCapture();
        for (const auto& g : a_.groups) group(g);
        unmatched();
        anomalies();
        warnings();
        return page_.take();
    }

private:
    void h1(const std::string& s) { page_.h1(s); }
    void h2(const std::string& s) { page_.h2(s); }
    void line(const std::string& s) { page_.line(s); }
    void bullet(const std::string& s) { page_.bullet(s); }
    std::string link(const std::string& text, const Collective& c) const {
        return links_ ? "[" + text + "](" + collectiveLink(c) + ")" : text;
    }

    void header() {
        std::string files;
        for (const auto& in : p_.inputs) files += (files.empty() ? "" : ", ") + fileStem(in.path);
        h1("Skewscope findings: " + files);
        for (const auto& in : p_.inputs)
            line(strprintf("%s: Nsight Systems %s (schema %s)", in.path.c_str(), in.nsysVersion.c_str(), in.schemaVersion.c_str()));
        line(strprintf("%zu ranks; window %s to %s (%s)", p_.ranks.size(), dur(a_.windowStart).c_str(), dur(a_.windowEnd).c_str(),
                       dur(a_.windowEnd - a_.windowStart).c_str()));
        for (const auto& r : p_.ranks)
            if (r.clockOffsetNs != 0)
                line(strprintf("clock of %s corrected by %s (residual p90 %s)", r.label.c_str(), dur(r.clockOffsetNs).c_str(),
                               dur(a_.clocks[size_t(r.id)].residualP90Ns).c_str()));
    }

    // "group 0, 135 collectives (AllGather 90, ReduceScatter 45)"
    static std::string groupName(const Group& g) { return strprintf("group %d, %u collectives (%s)", g.id, g.count, opList(g).c_str()); }

    // The report opens with the answers of every group, before any numbers.
    void answers(const Group& g) {
        h2("Answers: " + groupName(g));
        verdict(g);
        // the answers open with the what-if (about the whole run: in the first group's answers)
        if (g.id == a_.groups.front().id)
            if (std::string w = whatIfSentence(p_, a_); !w.empty()) bullet(w);
        AnswerSentences s = answerSentences(p_, a_, g, [this](const std::string& t, const Collective& c) { return link(t, c); });
        bullet(s.who);
        bullet(s.same);
        if (!s.where.empty()) bullet(s.where);
        bullet(s.cpuGpu);
        if (!s.caveats.empty()) bullet(s.caveats);
    }

    // The group's verdict in one line of plain words, before the answers' bullets.
    void verdict(const Group& g) {
        const std::string v = verdictLine(p_, a_, g) + ".";
        line(page_.markdown() ? "**Verdict:** " + v : "Verdict: " + v);
    }

    void group(const Group& g) {
        h2("Numbers: " + groupName(g));
        std::string streams;
        for (const auto& gl : g.lanes)
            streams += (streams.empty() ? "" : ", ") + rankLabel(p_, gl.rank) + ": " + std::to_string(p_.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].stream);
        line("Streams: " + streams);
        const Validation& v = g.validation;
        line(strprintf("Matching: %s. %u of %u complete; end skew p50 %s vs start skew p50 %s%s", validationStatusName(v.status), g.complete, g.count,
                       dur(g.endSkew.p50).c_str(), dur(g.startSkew.p50).c_str(), endsCluster(g) ? " (ends cluster: matching trusted)" : ""));
        for (const auto& m : v.messages) bullet(m);
        if (!v.partial.empty()) {
            std::string list;
            for (size_t i = 0; i < v.partial.size() && i < 8; ++i) {
                std::string who;
                for (int r : v.partial[i].missingRanks) who += (who.empty() ? "" : "+") + rankLabel(p_, r);
                list += (list.empty() ? "" : "; ") + strprintf("#%u missing %s", v.partial[i].index, who.c_str());
            }
            if (v.partial.size() > 8) list += strprintf("; %zu more", v.partial.size() - 8);
            bullet("Partial collectives (left out of the statistics): " + list);
        }
        line(strprintf("Start skew: p50 %s, p90 %s, max %s", dur(g.startSkew.p50).c_str(), dur(g.startSkew.p90).c_str(), dur(g.startSkew.max).c_str()));
        line(strprintf("End skew:   p50 %s, p90 %s, max %s", dur(g.endSkew.p50).c_str(), dur(g.endSkew.p90).c_str(), dur(g.endSkew.max).c_str()));
        if (g.stepsSource == StepSource::Nvtx) line(strprintf("Steps: %u, from NVTX ranges (median %s)", g.stepCount, dur(g.stepMedianNs).c_str()));
        else if (g.stepsSource == StepSource::Inferred) line(strprintf("Steps: %u, inferred from the op sequence (period %u collectives)", g.stepCount, g.inferredPeriod));
        else line("Steps: none found (no NVTX step ranges, no repeating sequence of two ops or more)");
        const Cost& c = g.cost;
        line(strprintf("Start-skew cost: %s excess of %s NCCL kernel time (%s); lateness sum %s", dur(c.excessNs).c_str(), dur(c.totalNs).c_str(),
                       formatShare(c.share).c_str(), dur(c.latenessSumNs).c_str()));
        line(strprintf("  big (start skew > %s): %u collectives, %s excess; the rest: %u, %s", dur(a_.options.bigSkewNs).c_str(), c.bigCount,
                       dur(c.bigExcessNs).c_str(), c.restCount, dur(c.restExcessNs).c_str()));
        line("  An estimate of waiting inside NCCL kernels, summed over ranks: those kernels overlap other GPU work, so this is "
             "not a step-time saving.");
        rankTable(g);
        bigEvents(g);
    }

    void rankTable(const Group& g) {
        if (page_.markdown()) {
            page_.raw("\n| rank | last | first | mean lateness | excl. big | NCCL time | NCCL-only |\n|---|---:|---:|---:|---:|---:|---:|\n");
            for (const auto& rs : g.perRank)
                page_.raw(strprintf("| %s | %u | %u | %s | %s | %s | %s |\n", rankLabel(p_, rs.rank).c_str(), rs.lastCount, rs.firstCount,
                                dur(rs.meanLatenessNs).c_str(), dur(rs.meanLatenessExclBigNs).c_str(), dur(rs.ncclKernelNs).c_str(),
                                dur(rs.ncclOnlyNs).c_str()));
            return;
        }
        page_.raw(strprintf("\n  %-24s %6s %6s %14s %14s %14s %14s\n", "rank", "last", "first", "mean lateness", "excl. big", "NCCL time", "NCCL-only"));
        for (const auto& rs : g.perRank)
            page_.raw(strprintf("  %-24s %6u %6u %14s %14s %14s %14s\n", rankLabel(p_, rs.rank).c_str(), rs.lastCount, rs.firstCount,
                            dur(rs.meanLatenessNs).c_str(), dur(rs.meanLatenessExclBigNs).c_str(), dur(rs.ncclKernelNs).c_str(),
                            dur(rs.ncclOnlyNs).c_str()));
    }

    void bigEvents(const Group& g) {
        page_.raw("\n");
        const auto& big = g.answers.big;
        if (big.empty()) {
            line(strprintf("No big events (start skew > %s).", dur(a_.options.bigSkewNs).c_str()));
            return;
        }
        line(strprintf("Big events (start skew > %s): %zu", dur(a_.options.bigSkewNs).c_str(), big.size()));
        for (size_t i = 0; i < big.size() && i < kListedBig; ++i) {
            const Collective& col = a_.collectives[big[i]];
            bullet(link(collectiveTitle(p_, a_, col), col) + ". " + whyText(p_, a_, col));
        }
        if (big.size() > kListedBig) bullet(strprintf("%zu more big events in the JSON/CSV output", big.size() - kListedBig));
    }

    void unmatched() {
        if (a_.unmatched.empty()) return;
        h2("Lanes not matched");
        for (const auto& u : a_.unmatched)
            bullet(strprintf("%s: %u NCCL kernels: %s", rankLabel(p_, u.rank).c_str(), u.kernels, u.reason.c_str()));
    }

    void anomalies() {
        const Anomalies& an = a_.anomalies;
        h2("Anomalies");
        line(strprintf("%" PRIu64 " kernel rows over %.1fx the mean duration of their op, in %" PRIu64 " events (collectives)", an.rows,
                       an.threshold, an.events));
        for (size_t i = 0; i < an.items.size() && i < 20; ++i) {
            const auto& it = an.items[i];
            const Collective& c = a_.collectives[it.collective];
            std::string rows;
            for (auto [r, d] : it.rows) rows += (rows.empty() ? "" : ", ") + rankLabel(p_, r) + " " + dur(d);
            std::string what = strprintf("G%d #%u %s%s", it.group, c.index, opName(c.op), c.step ? strprintf(" step %u", c.step).c_str() : "");
            bullet(strprintf("%s: %zu rows (%s)", link(what, c).c_str(), it.rows.size(), rows.c_str()));
        }
        if (an.items.size() > 20) bullet(strprintf("%zu more events in the JSON/CSV output", an.items.size() - 20));
    }

    // What the next capture should record, right after the answers: each advice by its title and
    // its evidence in words (the JSON keeps the identifiers).
    void nextCapture() {
        if (a_.advice.empty()) return;
        h2("Next capture");
        for (const auto& ad : a_.advice) bullet(ad.title + ": " + ad.words + ". " + ad.advice);
    }

    void warnings() {
        if (p_.warnings.empty() && a_.warnings.empty()) return;
        h2("Warnings");
        for (const auto& s : p_.warnings) bullet(s);
        for (const auto& s : a_.warnings) bullet(s);
    }

    const Profile& p_;
    const Analysis& a_;
    ReportPage page_;
    bool links_;
};

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

std::string analysisText(const Profile& p, const Analysis& a) { return Findings(p, a, false, false).page(); }
std::string analysisMarkdown(const Profile& p, const Analysis& a, const MarkdownOptions& options) {
    return Findings(p, a, true, options.links).page();
}

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
