#include "scene/cpu_activity.h"

#include <algorithm>
#include <map>

#include "nsys/global_ids.h"
#include "report/format.h"
#include "util/errors.h"

namespace skew {

const char* cpuKindLabel(CpuKind k) {
    switch (k) {
    case CpuKind::CudaApi: return "CUDA API";
    case CpuKind::OsRuntime: return "OS runtime";
    case CpuKind::Nvtx: return "NVTX";
    case CpuKind::Sample: return "CPU samples";
    }
    return "";
}

CpuWindow cpuWindowFor(const Profile& p, const Analysis& a, int ci) {
    CpuWindow w;
    w.collective = ci;
    if (ci < 0 || size_t(ci) >= a.collectives.size()) return w.why = "no collective", w;
    const Collective& c = a.collectives[size_t(ci)];
    if (c.cause != Cause::CpuLaunch) return w.why = "the late arrival is not a late CPU launch", w;
    const std::optional<LaunchCall> late = lateLaunch(p, a, c);
    if (!late) return w.why = "the late arriver's kernel has no launch call", w;
    int64_t first = INT64_MAX;
    for (const Member& m : members(p, a, c))
        if (m.rank != a.lateRank(c))
            if (auto l = launchOf(p.ranks[size_t(m.rank)].lanes[size_t(m.lane)], m.kernel)) first = std::min(first, l->endNs);
    if (first == INT64_MAX) return w.why = "no other rank's kernel has its launch call", w;
    if (first >= late->endNs) return w.why = "the late arriver launched no later than the others", w;
    const Rank& r = p.ranks[size_t(a.lateRank(c))];
    const Process& pr = p.processes[size_t(r.process)];
    const InputFile& in = p.inputs[size_t(r.file)];
    w.present = true;
    w.rank = r.id;
    w.tid = late->tid;
    w.globalTid = (pr.globalPid & ~kTidMask) | (uint64_t(late->tid) & kTidMask);
    if (auto it = pr.threadNames.find(late->tid); it != pr.threadNames.end()) w.threadName = p.strings.str(it->second);
    w.exportPath = in.path;
    w.fileToAligned = in.alignNs;
    w.fromNs = first;
    w.toNs = late->endNs;
    w.launchStartNs = late->startNs;
    return w;
}

namespace {

void addNvtx(const Profile& p, const CpuWindow& w, std::vector<CpuItem>& out) {
    const NvtxRanges& n = p.processes[size_t(p.ranks[size_t(w.rank)].process)].nvtx;
    for (size_t i = 0; i < n.size() && n.start[i] < w.toNs; ++i)
        if (n.tid[i] == w.tid && n.end(i) > w.fromNs)
            out.push_back({CpuKind::Nvtx, std::max(n.start[i], w.fromNs), std::min(n.end(i), w.toNs), p.strings.str(n.text[i])});
}

CpuKind kindOf(CpuEvent::Kind k) {
    return k == CpuEvent::OsRuntime ? CpuKind::OsRuntime : k == CpuEvent::Sample ? CpuKind::Sample : CpuKind::CudaApi;
}

std::vector<CpuTotal> totalsOf(const std::vector<CpuItem>& items) {
    std::map<std::pair<CpuKind, std::string>, CpuTotal> by;
    for (const CpuItem& i : items) {
        CpuTotal& t = by[{i.kind, i.name}];
        t.kind = i.kind, t.name = i.name;
        t.ns += i.end - i.start;
        ++t.count;
    }
    std::vector<CpuTotal> out;
    for (auto& [key, t] : by) out.push_back(t);
    std::stable_sort(out.begin(), out.end(), [](const CpuTotal& x, const CpuTotal& y) {
        const bool xs = x.kind == CpuKind::Sample, ys = y.kind == CpuKind::Sample;
        if (xs != ys) return ys;  // spans first
        return xs ? x.count > y.count : x.ns > y.ns;
    });
    return out;
}

}  // namespace

CpuActivity cpuActivity(const Profile& p, const CpuWindow& w, const ThreadActivity* fromExport, const std::string& unread) {
    CpuActivity c;
    c.window = w;
    if (!w.present) return c;
    std::vector<CpuItem> nvtx;
    addNvtx(p, w, nvtx);
    if (fromExport) {
        c.exportRead = true;
        for (const CpuEvent& e : fromExport->events) {
            const int64_t s = e.start + w.fileToAligned, en = e.end + w.fileToAligned;
            const CpuKind k = kindOf(e.kind);
            if (k == CpuKind::Sample) {
                if (s < w.fromNs || s >= w.toNs) continue;
                c.items.push_back({k, s, s, e.name});
                ++c.samples;
            } else if (s < w.toNs && en > w.fromNs) {
                c.items.push_back({k, std::max(s, w.fromNs), std::min(en, w.toNs), k == CpuKind::CudaApi ? apiDisplayName(e.name) : e.name});
            }
        }
        std::vector<std::string> lacks;
        if (!fromExport->hasCudaApi) lacks.push_back("CUDA API calls (nsys --trace=cuda)");
        if (!fromExport->hasOsRuntime) lacks.push_back("OS runtime calls (--trace=osrt)");
        if (!fromExport->hasSamples) lacks.push_back("CPU samples (--sample=process-tree)");
        if (!lacks.empty()) {
            std::string l = "The export has no ";
            for (size_t i = 0; i < lacks.size(); ++i) l += (i ? (i + 1 == lacks.size() ? " or " : ", ") : "") + lacks[i];
            c.notes.push_back(l + ": record them to see more of what the thread did.");
        }
        if (fromExport->truncated) c.notes.push_back("Only the first " + std::to_string(kMaxThreadEvents) + " events of the thread were read.");
    } else {
        c.notes.push_back(unread.empty() ? "The export was not read: NVTX ranges only." : unread);
    }
    // NVTX after the export's kinds, so that items stay grouped by kind (the samples last)
    auto samples = std::stable_partition(c.items.begin(), c.items.end(), [](const CpuItem& i) { return i.kind != CpuKind::Sample; });
    c.items.insert(samples, nvtx.begin(), nvtx.end());
    c.totals = totalsOf(c.items);
    return c;
}

CpuActivity readCpuActivity(const Profile& p, const CpuWindow& w, const std::atomic<bool>* cancel) {
    if (!w.present) return cpuActivity(p, w, nullptr);
    try {
        const ThreadActivity t = readThreadActivity(w.exportPath, w.globalTid, exportFrom(w), exportTo(w), cancel);
        return cpuActivity(p, w, &t);
    } catch (const InputError& e) {
        return cpuActivity(p, w, nullptr, "The export " + w.exportPath + " could not be read (" + e.what() + "): NVTX ranges only.");
    }
}

std::string cpuActivityText(const CpuActivity& c, size_t maxLines) {
    const CpuWindow& w = c.window;
    if (!w.present) return {};
    std::string o = "CPU before the late launch: thread " + std::to_string(w.tid);
    if (!w.threadName.empty()) o += " (" + w.threadName + ")";
    o += ", " + formatDuration(w.toNs - w.fromNs) + " from the first other rank's launch to its own\n";
    size_t shown = 0;
    for (const CpuTotal& t : c.totals) {
        if (shown++ == maxLines) {
            o += "  ... and " + std::to_string(c.totals.size() - maxLines) + " more\n";
            break;
        }
        const std::string name = t.name.empty() ? "(unnamed)" : t.name;
        if (t.kind == CpuKind::Sample) {
            o += "  " + std::string(cpuKindLabel(t.kind)) + ": " + name + " in " + std::to_string(t.count) + " of " + std::to_string(c.samples) + "\n";
            continue;
        }
        const int64_t span = std::max<int64_t>(1, w.toNs - w.fromNs);
        o += "  " + std::string(cpuKindLabel(t.kind)) + ": " + name + " " + formatDuration(t.ns) + " (" +
             std::to_string(int(100.0 * double(t.ns) / double(span) + 0.5)) + "%" + (t.count > 1 ? ", " + std::to_string(t.count) + (t.kind == CpuKind::Nvtx ? " ranges" : " calls") : "") + ")\n";
    }
    if (c.totals.empty()) o += "  nothing recorded on this thread in that time\n";
    for (const std::string& n : c.notes) o += "  " + n + "\n";
    return o;
}

}  // namespace skew
