#include "report/analysis_report.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "model/loader.h"
#include "report/info_report.h"
#include "util/json.h"

namespace skew {
namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
    va_list ap;
    va_start(ap, f);
    va_list ap2;
    va_copy(ap2, ap);
    int n = std::vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string out(size_t(n > 0 ? n : 0), '\0');
    std::vsnprintf(out.data(), out.size() + 1, f, ap2);
    va_end(ap2);
    return out;
}

std::string D(int64_t ns) { return formatDuration(ns); }

const KernelLane& memberLane(const Profile& p, const Analysis& a, const Collective& c, size_t slot) {
    const GroupLane& gl = a.groups[size_t(c.group)].lanes[slot];
    return p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)];
}

int lateRank(const Analysis& a, const Collective& c) { return c.lateSlot < 0 ? -1 : a.slotRank(c, size_t(c.lateSlot)); }
int earlyRank(const Analysis& a, const Collective& c) { return c.earlySlot < 0 ? -1 : a.slotRank(c, size_t(c.earlySlot)); }

// Shortens a kernel name for prose: up to the first '(' or '<', at most 70 characters.
std::string shortKernel(const std::string& n) {
    std::string s = n;
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    size_t cut = s.find_first_of("(<");
    if (cut != std::string::npos && cut > 0) s.resize(cut);
    if (s.size() > 70) s = s.substr(0, 67) + "...";
    return s;
}

}  // namespace

std::string predecessorText(const Profile& p, const Collective& c, const KernelLane& pl) {
    const std::string name = (c.predIsGemm ? "GEMM " : "") + shortKernel(p.strings.str(pl.name[c.predKernel]));
    const std::string when = c.predGapNs >= 0 ? D(c.predGapNs) + " after" : D(-c.predGapNs) + " before the end of";
    if (c.predSameStream) return "queued behind " + name + " on its own stream " + std::to_string(pl.stream) + " (started " + when + " it)";
    return "started " + when + " " + name + " on stream " + std::to_string(pl.stream);
}

std::string collectiveTitle(const Profile& p, const Analysis& a, const Collective& c) {
    std::string s = fmt("G%d #%u %s", c.group, c.index, opName(c.op));
    if (c.step) s += fmt(", step %u +%s", c.step, D(c.offsetInStepNs).c_str());
    if (c.lateSlot >= 0) s += fmt(", %s late by %s", p.ranks[size_t(lateRank(a, c))].label.c_str(), D(c.latenessNs).c_str());
    return s;
}

std::string whyText(const Profile& p, const Analysis& a, const Collective& c) {
    if (c.lateSlot < 0) return "";
    const Rank& r = p.ranks[size_t(lateRank(a, c))];
    const Process& pr = p.processes[size_t(r.process)];
    std::string s = causeName(c.cause);
    if (c.launch >= 0) {
        int64_t rel = pr.launches.end[size_t(c.launch)] - c.minStart;
        s += fmt(": %s ended %s %s the first arrival, launch-to-start %s; lateness %s CPU + %s GPU",
                 p.strings.str(pr.launches.name[size_t(c.launch)]).c_str(), D(rel < 0 ? -rel : rel).c_str(),
                 rel < 0 ? "before" : "after", D(c.launchToStartNs).c_str(), D(c.cpuNs).c_str(), D(c.gpuNs).c_str());
    } else {
        s += ": no launch row for this kernel (process + correlation id)";
    }
    if (c.predLane >= 0) {
        const KernelLane& pl = p.ranks[size_t(c.predRank)].lanes[size_t(c.predLane)];
        s += "; " + predecessorText(p, c, pl);
    }
    if (c.waitCount) s += fmt("; %u stream wait(s) on its stream just before", c.waitCount);
    return s;
}

std::string analysisJson(const Profile& p, const Analysis& a) {
    JsonWriter w;
    w.beginObject();
    writeToolJson(w);
    writeInputsJson(w, p);
    w.key("window_ns").beginObject().field("start", a.windowStart).field("end", a.windowEnd).endObject();
    w.key("ranks").beginArray();
    for (const auto& r : p.ranks) {
        const ClockRefinement& cr = a.clocks[size_t(r.id)];
        w.beginObject();
        writeRankIdentity(w, p, r);
        w.field("clock_offset_ns", r.clockOffsetNs)
            .field("clock_estimate_ns", cr.estimateNs)
            .field("clock_residual_p90_ns", cr.residualP90Ns)
            .endObject();
    }
    w.endArray();
    w.key("groups").beginArray();
    for (const auto& g : a.groups) {
        w.beginObject().field("id", g.id);
        w.key("streams").beginObject();
        for (const auto& gl : g.lanes) w.field(p.ranks[size_t(gl.rank)].label, p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].stream);
        w.endObject();
        w.field("collectives", g.count).field("complete", g.complete);
        w.key("ops").beginObject();
        for (const auto& [op, n] : g.ops) w.field(op, n);
        w.endObject();
        const Validation& v = g.validation;
        w.key("validation").beginObject().field("status", v.status).field("sequence_mismatches", v.sequenceMismatches);
        w.key("dropped").beginObject();
        for (const auto& gl : g.lanes)
            w.key(p.ranks[size_t(gl.rank)].label).beginObject().field("leading", gl.droppedLeading).field("trailing", gl.droppedTrailing).endObject();
        w.endObject();
        w.key("partial").beginArray();
        for (const auto& pc : v.partial) {
            w.beginObject().field("index", pc.index);
            w.key("missing").beginArray();
            for (int r : pc.missingRanks) w.value(p.ranks[size_t(r)].label);
            w.endArray().endObject();
        }
        w.endArray();
        w.key("messages").beginArray();
        for (const auto& m : v.messages) w.value(m);
        w.endArray().endObject();
        auto pct = [&](const char* k, const Percentiles& q) {
            w.key(k).beginObject().field("p50", q.p50).field("p90", q.p90).field("max", q.max).endObject();
        };
        pct("start_skew_ns", g.startSkew);
        pct("end_skew_ns", g.endSkew);
        const Cost& c = g.cost;
        w.key("cost").beginObject().field("total_ns", c.totalNs).field("baseline_ns", c.baselineNs).field("excess_ns", c.excessNs)
            .field("share", c.share).field("lateness_sum_ns", c.latenessSumNs);
        w.key("big").beginObject().field("threshold_ns", a.options.bigSkewNs).field("count", c.bigCount).field("excess_ns", c.bigExcessNs).endObject();
        w.key("rest").beginObject().field("count", c.restCount).field("excess_ns", c.restExcessNs).endObject();
        w.endObject();
        w.key("per_rank").beginArray();
        for (const auto& rs : g.perRank)
            w.beginObject().field("rank", rs.rank).field("last_count", rs.lastCount).field("first_count", rs.firstCount)
                .field("mean_lateness_ns", rs.meanLatenessNs).field("mean_lateness_excl_big_ns", rs.meanLatenessExclBigNs)
                .field("nccl_kernel_ns", rs.ncclKernelNs).field("nccl_only_ns", rs.ncclOnlyNs).endObject();
        w.endArray();
        w.key("steps").beginObject().field("source", g.stepsSource).field("count", g.stepCount);
        if (g.inferredPeriod) w.field("period", g.inferredPeriod);
        w.endObject();
        w.endObject();
    }
    w.endArray();
    w.key("collectives").beginArray();
    for (const auto& c : a.collectives) {
        const Group& g = a.groups[size_t(c.group)];
        w.beginObject().field("group", c.group).field("index", c.index).field("op", opName(c.op)).field("complete", c.complete);
        w.key("members").beginArray();
        for (size_t s = 0; s < g.width(); ++s) {
            uint32_t k = a.slotKernel(c, s);
            if (k == kMissing) continue;
            const KernelLane& kl = memberLane(p, a, c, s);
            w.beginObject().field("rank", g.lanes[s].rank).field("stream", kl.stream).field("start_ns", kl.start[k])
                .field("end_ns", kl.end[k]).field("correlation_id", kl.correlationId[k]).field("name", p.strings.str(kl.name[k]))
                .field("lateness_ns", kl.start[k] - c.minStart).endObject();
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
        c.lateSlot >= 0 ? w.value(lateRank(a, c)) : w.null();
        w.key("early_rank");
        c.earlySlot >= 0 ? w.value(earlyRank(a, c)) : w.null();
        w.field("excess_ns", c.excessNs).field("big", c.big);
        const Rank* lr = c.lateSlot >= 0 ? &p.ranks[size_t(lateRank(a, c))] : nullptr;
        w.key("launch");
        if (lr && c.launch >= 0) {
            const Process& pr = p.processes[size_t(lr->process)];
            const Launches& L = pr.launches;
            size_t li = size_t(c.launch);
            auto tn = pr.threadNames.find(L.tid[li]);
            w.beginObject().field("api", p.strings.str(L.name[li])).field("start_ns", L.start[li]).field("end_ns", L.end[li])
                .field("launch_to_start_ns", c.launchToStartNs).field("thread", L.tid[li])
                .field("thread_name", tn == pr.threadNames.end() ? std::string() : p.strings.str(tn->second)).endObject();
        } else {
            w.null();
        }
        w.field("lateness_ns", c.latenessNs).field("lateness_cpu_ns", c.cpuNs).field("lateness_gpu_ns", c.gpuNs);
        w.key("predecessor");
        if (c.predLane >= 0) {
            const KernelLane& pl = p.ranks[size_t(c.predRank)].lanes[size_t(c.predLane)];
            w.beginObject().field("name", p.strings.str(pl.name[c.predKernel])).field("stream", pl.stream)
                .field("start_ns", pl.start[c.predKernel]).field("end_ns", pl.end[c.predKernel]).field("gap_ns", c.predGapNs)
                .field("is_gemm", c.predIsGemm).field("same_stream", c.predSameStream).endObject();
        } else {
            w.null();
        }
        w.key("stream_wait");
        if (lr && c.waitIndex >= 0) {
            const StreamWaits& sw = p.processes[size_t(lr->process)].waits;
            w.beginObject().field("count", c.waitCount).field("start_ns", sw.start[size_t(c.waitIndex)])
                .field("end_ns", sw.end[size_t(c.waitIndex)]).endObject();
        } else {
            w.null();
        }
        w.field("cause", causeName(c.cause));
        w.key("step");
        c.step ? w.value(c.step) : w.null();
        w.key("offset_in_step_ns");
        c.step ? w.value(c.offsetInStepNs) : w.null();
        w.endObject();
    }
    w.endArray();
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
    w.key("unmatched_lanes").beginArray();
    for (const auto& u : a.unmatched)
        w.beginObject().field("rank", u.rank).field("stream", p.ranks[size_t(u.rank)].lanes[size_t(u.lane)].stream)
            .field("kernels", u.kernels).field("reason", u.reason).endObject();
    w.endArray();
    w.key("warnings").beginArray();
    for (const auto& s : p.warnings) w.value(s);
    for (const auto& s : a.warnings) w.value(s);
    w.endArray();
    w.endObject();
    std::string out = w.take();
    out.push_back('\n');
    return out;
}

namespace {

// One findings page, written either as plain text or as Markdown.
std::string findings(const Profile& p, const Analysis& a, bool md) {
    std::string o;
    auto h1 = [&](const std::string& s) { o += md ? "# " + s + "\n\n" : s + "\n" + std::string(s.size(), '=') + "\n\n"; };
    auto h2 = [&](const std::string& s) { o += md ? "\n## " + s + "\n\n" : "\n" + s + "\n" + std::string(s.size(), '-') + "\n"; };
    auto line = [&](const std::string& s) { o += (md ? "" : "  ") + s + (md ? "  \n" : "\n"); };
    auto bullet = [&](const std::string& s) { o += (md ? "- " : "  - ") + s + "\n"; };

    std::string files;
    for (const auto& in : p.inputs) files += (files.empty() ? "" : ", ") + fileStem(in.path);
    h1("Skewscope findings: " + files);
    for (const auto& in : p.inputs)
        line(fmt("%s: Nsight Systems %s (schema %s)", in.path.c_str(), in.nsysVersion.c_str(), in.schemaVersion.c_str()));
    line(fmt("%zu ranks; window %s to %s (%s)", p.ranks.size(), D(a.windowStart).c_str(), D(a.windowEnd).c_str(),
             D(a.windowEnd - a.windowStart).c_str()));
    for (const auto& r : p.ranks)
        if (r.clockOffsetNs != 0)
            line(fmt("clock of %s corrected by %s (residual p90 %s)", r.label.c_str(), D(r.clockOffsetNs).c_str(),
                     D(a.clocks[size_t(r.id)].residualP90Ns).c_str()));
    if (a.groups.empty()) {
        h2("No collectives");
        line(p.kernelCount() == 0 ? "The exports hold no GPU kernels." : "No NCCL kernels were matched across ranks.");
    }
    for (const auto& g : a.groups) {
        std::string ops;
        for (const auto& [op, n] : g.ops) ops += (ops.empty() ? "" : ", ") + op + " " + std::to_string(n);
        std::string streams;
        for (const auto& gl : g.lanes)
            streams += (streams.empty() ? "" : ", ") + p.ranks[size_t(gl.rank)].label + ": " +
                       std::to_string(p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].stream);
        h2(fmt("Group %d: %u collectives (%s)", g.id, g.count, ops.c_str()));
        line("Streams: " + streams);
        const Validation& v = g.validation;
        line(fmt("Matching: %s. %u of %u complete; end skew p50 %s vs start skew p50 %s%s", v.status.c_str(), g.complete,
                 g.count, D(g.endSkew.p50).c_str(), D(g.startSkew.p50).c_str(),
                 g.complete > 0 && (g.endSkew.p50 <= g.startSkew.p50 / 2 || g.endSkew.p50 <= 100'000)
                     ? " (ends cluster: matching trusted)"
                     : ""));
        for (const auto& m : v.messages) bullet(m);
        if (!v.partial.empty()) {
            std::string list;
            for (size_t i = 0; i < v.partial.size() && i < 8; ++i) {
                std::string who;
                for (int r : v.partial[i].missingRanks) who += (who.empty() ? "" : "+") + p.ranks[size_t(r)].label;
                list += (list.empty() ? "" : "; ") + fmt("#%u missing %s", v.partial[i].index, who.c_str());
            }
            if (v.partial.size() > 8) list += fmt("; %zu more", v.partial.size() - 8);
            bullet("Partial collectives (left out of the statistics): " + list);
        }
        line(fmt("Start skew: p50 %s, p90 %s, max %s", D(g.startSkew.p50).c_str(), D(g.startSkew.p90).c_str(), D(g.startSkew.max).c_str()));
        line(fmt("End skew:   p50 %s, p90 %s, max %s", D(g.endSkew.p50).c_str(), D(g.endSkew.p90).c_str(), D(g.endSkew.max).c_str()));
        if (g.stepsSource == "nvtx") line(fmt("Steps: %u, from NVTX ranges", g.stepCount));
        else if (g.stepsSource == "inferred") line(fmt("Steps: %u, inferred from the op sequence (period %u collectives)", g.stepCount, g.inferredPeriod));
        else line("Steps: none found (no NVTX step ranges, no repeating op sequence)");
        const Cost& c = g.cost;
        line(fmt("Start-skew cost: %s excess of %s NCCL kernel time (%.1f%%); lateness sum %s", D(c.excessNs).c_str(),
                 D(c.totalNs).c_str(), c.share * 100.0, D(c.latenessSumNs).c_str()));
        line(fmt("  big (start skew > %s): %u collectives, %s excess; the rest: %u, %s", D(a.options.bigSkewNs).c_str(), c.bigCount,
                 D(c.bigExcessNs).c_str(), c.restCount, D(c.restExcessNs).c_str()));
        line("  An estimate of waiting inside NCCL kernels, summed over ranks: those kernels overlap other GPU work, so this is "
             "not a step-time saving.");
        // per-rank table
        if (md) {
            o += "\n| rank | last | first | mean lateness | excl. big | NCCL time | NCCL-only |\n|---|---:|---:|---:|---:|---:|---:|\n";
            for (const auto& rs : g.perRank)
                o += fmt("| %s | %u | %u | %s | %s | %s | %s |\n", p.ranks[size_t(rs.rank)].label.c_str(), rs.lastCount, rs.firstCount,
                         D(rs.meanLatenessNs).c_str(), D(rs.meanLatenessExclBigNs).c_str(), D(rs.ncclKernelNs).c_str(),
                         D(rs.ncclOnlyNs).c_str());
        } else {
            o += fmt("\n  %-24s %6s %6s %14s %14s %14s %14s\n", "rank", "last", "first", "mean lateness", "excl. big", "NCCL time", "NCCL-only");
            for (const auto& rs : g.perRank)
                o += fmt("  %-24s %6u %6u %14s %14s %14s %14s\n", p.ranks[size_t(rs.rank)].label.c_str(), rs.lastCount, rs.firstCount,
                         D(rs.meanLatenessNs).c_str(), D(rs.meanLatenessExclBigNs).c_str(), D(rs.ncclKernelNs).c_str(),
                         D(rs.ncclOnlyNs).c_str());
        }
        std::vector<const Collective*> big;
        for (uint32_t i = 0; i < g.count; ++i) {
            const Collective& col = a.collectives[g.firstCollective + i];
            if (col.complete && col.big) big.push_back(&col);
        }
        o += "\n";
        if (big.empty()) {
            line(fmt("No big events (start skew > %s).", D(a.options.bigSkewNs).c_str()));
        } else {
            line(fmt("Big events (start skew > %s): %zu", D(a.options.bigSkewNs).c_str(), big.size()));
            for (const Collective* col : big) bullet(collectiveTitle(p, a, *col) + ". " + whyText(p, a, *col));
        }
    }
    if (!a.unmatched.empty()) {
        h2("Lanes not matched");
        for (const auto& u : a.unmatched)
            bullet(fmt("%s: %u NCCL kernels: %s", p.ranks[size_t(u.rank)].label.c_str(), u.kernels, u.reason.c_str()));
    }
    const Anomalies& an = a.anomalies;
    h2("Anomalies");
    line(fmt("%" PRIu64 " kernel rows over %.1fx the mean duration of their op, in %" PRIu64 " events (collectives)", an.rows,
             an.threshold, an.events));
    for (size_t i = 0; i < an.items.size() && i < 20; ++i) {
        const auto& it = an.items[i];
        const Collective& c = a.collectives[it.collective];
        std::string rows;
        for (auto [r, d] : it.rows) rows += (rows.empty() ? "" : ", ") + p.ranks[size_t(r)].label + " " + D(d);
        bullet(fmt("G%d #%u %s%s: %zu rows (%s)", it.group, c.index, opName(c.op), c.step ? fmt(" step %u", c.step).c_str() : "",
                   it.rows.size(), rows.c_str()));
    }
    if (an.items.size() > 20) bullet(fmt("%zu more events in the JSON/CSV output", an.items.size() - 20));
    if (!p.warnings.empty() || !a.warnings.empty()) {
        h2("Warnings");
        for (const auto& s : p.warnings) bullet(s);
        for (const auto& s : a.warnings) bullet(s);
    }
    return o;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

}  // namespace

std::string analysisText(const Profile& p, const Analysis& a) { return findings(p, a, false); }
std::string analysisMarkdown(const Profile& p, const Analysis& a) { return findings(p, a, true); }

std::string analysisCsv(const Profile& p, const Analysis& a) {
    std::string o =
        "group,index,op,complete,step,offset_in_step_ns,rank,label,stream,start_ns,end_ns,duration_ns,lateness_ns,late,early,"
        "start_skew_ns,end_skew_ns,excess_ns,big,cause,correlation_id,name\n";
    for (const auto& c : a.collectives) {
        const Group& g = a.groups[size_t(c.group)];
        for (size_t s = 0; s < g.width(); ++s) {
            uint32_t k = a.slotKernel(c, s);
            if (k == kMissing) continue;
            const KernelLane& kl = memberLane(p, a, c, s);
            const Rank& r = p.ranks[size_t(g.lanes[s].rank)];
            o += fmt("%d,%u,%s,%d,", c.group, c.index, opName(c.op), c.complete ? 1 : 0);
            o += c.step ? fmt("%u,%" PRId64 ",", c.step, c.offsetInStepNs) : std::string(",,");
            o += fmt("%d,%s,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%d,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%d,%s,%u,",
                     r.id, csvField(r.label).c_str(), kl.stream, kl.start[k], kl.end[k], kl.end[k] - kl.start[k],
                     kl.start[k] - c.minStart, int(s) == c.lateSlot, int(s) == c.earlySlot, c.startSkew(), c.endSkew(),
                     c.excessNs, c.big ? 1 : 0, causeName(c.cause), kl.correlationId[k]);
            o += csvField(p.strings.str(kl.name[k])) + "\n";
        }
    }
    return o;
}

}  // namespace skew
