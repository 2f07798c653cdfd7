#include "scene/kernel_details.h"

#include <cinttypes>
#include <cstdio>
#include <optional>

#include "analysis/why.h"
#include "model/lane_index.h"
#include "report/analysis_report.h"
#include "report/format.h"

namespace skew {

namespace {

std::string nsAndDuration(int64_t v) {
    char b[64];
    std::snprintf(b, sizeof b, "%" PRId64 " ns (%s)", v, formatDuration(v).c_str());
    return b;
}

// The last stream wait before a late kernel's start and, inferred, what it waited for: of the rank's
// kernels on other streams, the one whose end is latest within [wait end - 5 us, wait end + 2 us]
// (a stream wait ends when the event it waits for completes, right after the kernel before the
// event's record ends).
std::string lastWaitText(const Profile& p, const Rank& r, const StreamWaits& w, size_t i, int64_t kernelStart) {
    const int64_t end = w.end(i);
    // each "it" named: the kernel, the wait, the kernel waited for (review: "it" meant two things)
    std::string o = "ended " + formatDuration(kernelStart - end) + " before the kernel started";
    int bestLane = -1;
    size_t bestKernel = 0;
    for (size_t l = 0; l < r.lanes.size(); ++l) {
        const KernelLane& lane = r.lanes[l];
        if (lane.stream == w.stream(i)) continue;
        forEachEndingIn(lane, end - kWaitedForBeforeNs, end + kWaitedForAfterNs, [&](size_t k) {
            if (bestLane < 0 || lane.end(k) > r.lanes[size_t(bestLane)].end(bestKernel)) bestLane = int(l), bestKernel = k;
        });
    }
    if (bestLane < 0) return o + "; no kernel of another stream ended with the wait";
    const KernelLane& bl = r.lanes[size_t(bestLane)];
    const int64_t gap = end - bl.end(bestKernel);
    return o + "; the wait was for " + p.strings.str(bl.name[bestKernel]) + " on stream " + std::to_string(bl.stream) + ", which ended " +
           (gap >= 0 ? formatDuration(gap) + " before the wait did" : formatDuration(-gap) + " after the wait did");
}

}  // namespace

std::string kernelDetails(const Profile& p, const Analysis& a, int ci, int rank, int lane, uint32_t kernel,
                          const std::vector<NvtxIndex>* nvtxIndexes) {
    const Rank& r = p.ranks[size_t(rank)];
    const KernelLane& kl = r.lanes[size_t(lane)];
    const Process& pr = p.processes[size_t(r.process)];
    std::string o;
    auto line = [&](const std::string& k, const std::string& v) { o += k + ": " + v + "\n"; };
    line("Kernel", p.strings.str(kl.name[kernel]));
    line("Rank", r.label + " (pid " + std::to_string(r.pid) + ", device " + std::to_string(r.device) + ")");
    line("Stream", std::to_string(kl.stream));
    line("Start", nsAndDuration(kl.start[kernel]));
    line("End", nsAndDuration(kl.end(kernel)));
    line("Duration", formatDuration(kl.end(kernel) - kl.start[kernel]));
    line("Correlation id", std::to_string(kl.correlationId[kernel]));
    if (auto launch = launchOf(kl, kernel)) {
        auto tn = pr.threadNames.find(launch->tid);
        line("Launch API", p.strings.str(launch->api));
        line("Launch thread", std::to_string(launch->tid) +
                                  (tn != pr.threadNames.end() ? " (" + p.strings.str(tn->second) + ")" : std::string()));
        line("Launch call", "from " + nsAndDuration(launch->startNs) + ", " + formatDuration(launch->endNs - launch->startNs) + " long");
        line("Launch to start", formatDuration(kl.start[kernel] - launch->endNs));
        // NVTX ranges enclosing the launch on the launching thread, outermost first
        std::string nvtx;
        std::optional<NvtxIndex> own;
        const NvtxIndex& index = nvtxIndexes ? (*nvtxIndexes)[size_t(r.process)] : own.emplace(pr.nvtx);
        for (uint32_t j : index.enclosing(launch->tid, launch->startNs, launch->endNs))
            nvtx += (nvtx.empty() ? "" : " > ") + p.strings.str(pr.nvtx.text[j]);
        line("NVTX at launch", nvtx.empty() ? "none" : nvtx);
    } else {
        line("Launch", "no CUDA runtime/driver row with this process and correlation id");
    }
    if (ci >= 0 && size_t(ci) < a.collectives.size()) {
        const Collective& c = a.collectives[size_t(ci)];
        if (auto m = memberOfKernel(p, a, c, rank, lane, kernel)) {
            const size_t s = m->slot;
            line("Collective", "group " + std::to_string(c.group) + " #" + std::to_string(c.index) + " " + opName(c.op) +
                                   (c.complete ? "" : " (partial)"));
            line("Lateness", formatDuration(m->latenessNs));
            if (c.step) line("Step", std::to_string(c.step) + ", offset " + formatDuration(c.offsetInStepNs));
            if (int(s) == c.lateSlot) {
                line("Late arriver", std::string("yes, cause ") + causeLabel(c.cause));
                line("Lateness split", "CPU " + formatDuration(c.cpuNs) + ", GPU " + formatDuration(c.gpuNs));
                if (c.predLane >= 0) {
                    const KernelLane& pl = r.lanes[size_t(c.predLane)];
                    line("Predecessor", p.strings.str(pl.name[c.predKernel]));
                    line("Predecessor stream", std::to_string(pl.stream) + (c.predSameStream ? " (its own stream)" : "") +
                                                   ", gap " + formatDuration(c.predGapNs) + (c.predIsGemm ? ", GEMM" : ""));
                    line("Why", predecessorText(p, c, pl));
                } else {
                    line("Predecessor", "no kernel of this rank ended within " + formatDuration(kPredBeforeNs) + " before the start");
                }
                if (c.waitCount) line("Stream waits", std::to_string(c.waitCount) + " on this stream just before the start");
                if (c.waitIndex >= 0) line("Last stream wait", lastWaitText(p, r, pr.waits, size_t(c.waitIndex), m->startNs));
            } else if (int(s) == c.earlySlot) {
                line("Early arriver", "yes");
            }
        }
    }
    return o;
}

std::string barSummary(const Profile& p, const CollectiveScene& sc, const Bar& b) {
    const Rank& r = p.ranks[size_t(b.rank)];
    const KernelLane& kl = r.lanes[size_t(b.lane)];
    std::string what;
    switch (b.kind) {
    case KernelClass::NcclWait: what = b.late ? "late arriver, waiting" : "waiting for the last rank"; break;
    case KernelClass::NcclTransfer: what = b.late ? "late arriver" : "transfer (after the last rank arrived)"; break;
    case KernelClass::Gemm: what = "GEMM"; break;
    case KernelClass::OtherNccl: what = "other NCCL kernel"; break;
    default: what = "kernel"; break;
    }
    if (b.predecessor) what += ", predecessor of the late arriver";
    auto rel = [&](int64_t t) {
        int64_t d = t - sc.t0;
        return (d < 0 ? "-" : "+") + formatDuration(d < 0 ? -d : d);
    };
    int64_t s = kl.start[b.kernel], e = kl.end(b.kernel);
    std::string name = p.strings.str(kl.name[b.kernel]);
    if (name.size() > 160) name = name.substr(0, 157) + "...";  // template names run to kilobytes
    return name + "\n" + r.label + ", stream " + std::to_string(kl.stream) + ": " + what + "\n" +
           rel(s) + " to " + rel(e) + " (" + formatDuration(e - s) + ")";
}

}  // namespace skew
