#include "report/info_report.h"

#include <cinttypes>

namespace skew {

void writeToolJson(JsonWriter& w) {
    w.key("tool").beginObject().field("name", "skewscope").field("version", SKEWSCOPE_VERSION).endObject();
}

void writeInputsJson(JsonWriter& w, const Profile& p) {
    w.key("inputs").beginArray();
    for (const auto& in : p.inputs) {
        w.beginObject().field("path", in.path);
        if (!in.summaryPath.empty()) w.field("summary", in.summaryPath);  // read from this summary, not the export
        w.field("nsys_version", in.nsysVersion)
            .field("schema_version", in.schemaVersion);
        w.key("session_start_utc_ns");
        if (in.hasSessionStart) w.value(in.sessionStartUtcNs);
        else w.null();
        w.field("align_ns", in.alignNs).field("from_cache", in.fromSnapshot && in.summaryPath.empty());
        w.key("tables").beginArray();
        for (const auto& t : in.tables) w.value(t);
        w.endArray();
        w.field("kernels", in.kernelRows).field("runtime_calls", in.runtimeRows).field("nvtx_ranges", in.nvtxRanges);
        w.endObject();
    }
    w.endArray();
}

void writeRankIdentity(JsonWriter& w, const Profile& p, const Rank& r) {
    w.field("id", r.id).field("label", r.label).field("file", p.inputs[size_t(r.file)].path).field("pid", r.pid).field("device", r.device);
}

std::string infoJson(const Profile& p) {
    JsonWriter w;
    w.beginObject();
    writeToolJson(w);
    writeInputsJson(w, p);
    w.key("ranks").beginArray();
    for (const auto& r : p.ranks) {
        w.beginObject();
        writeRankIdentity(w, p, r);
        w.field("process_name", p.processes[size_t(r.process)].name)
            .field("kernels", r.kernelCount())
            .field("nccl_kernels", r.ncclKernelCount());
        w.key("streams").beginArray();
        for (const auto& l : r.lanes) {
            w.beginObject().field("stream", l.stream).field("kernels", uint64_t(l.size())).field("nccl_kernels", l.ncclKernels);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("time_range_ns").beginObject().field("start", p.timeStart).field("end", p.timeEnd).endObject();
    uint64_t runtime = 0, nvtx = 0;
    for (const auto& in : p.inputs) runtime += in.runtimeRows, nvtx += in.nvtxRanges;
    w.field("runtime_calls", runtime).field("nvtx_ranges", nvtx);
    w.key("warnings").beginArray();
    for (const auto& s : p.warnings) w.value(s);
    w.endArray();
    w.endObject();
    std::string out = w.take();
    out.push_back('\n');
    return out;
}

std::string infoText(const Profile& p) {
    std::string o;
    for (const auto& in : p.inputs) {
        o += strprintf("%s\n  Nsight Systems %s (schema %s), %zu tables, %" PRIu64 " kernels, %" PRIu64
                       " runtime calls, %" PRIu64 " NVTX ranges\n",
                       in.path.c_str(), in.nsysVersion.empty() ? "?" : in.nsysVersion.c_str(),
                       in.schemaVersion.empty() ? "?" : in.schemaVersion.c_str(), in.tables.size(), in.kernelRows,
                       in.runtimeRows, in.nvtxRanges);
    }
    if (p.ranks.empty()) {
        o += "\nNo GPU kernels: nothing to analyse.\n";
    } else {
        o += strprintf("\n%zu rank(s), %s of kernels\n", p.ranks.size(), formatDuration(p.timeEnd - p.timeStart).c_str());
        o += strprintf("  %-4s %-28s %8s %6s %10s %8s  %s\n", "id", "label", "pid", "device", "kernels", "nccl",
                       "streams (kernels/nccl)");
        for (const auto& r : p.ranks) {
            std::string streams;
            for (const auto& l : r.lanes) {
                if (!streams.empty()) streams += ", ";
                streams += std::to_string(l.stream) + ": " + std::to_string(l.size()) + "/" + std::to_string(l.ncclKernels);
            }
            o += strprintf("  %-4d %-28s %8u %6d %10" PRIu64 " %8" PRIu64 "  ", r.id, r.label.c_str(), r.pid, r.device,
                           r.kernelCount(), r.ncclKernelCount());
            o += streams + "\n";
        }
    }
    if (!p.warnings.empty()) {
        o += "\nWarnings:\n";
        for (const auto& w : p.warnings) o += "  - " + w + "\n";
    }
    return o;
}

}  // namespace skew
