#include "analysis/capture_advice.h"

#include <cstdio>
#include <set>

#include "util/text.h"

namespace skew {
namespace {


// Where the Nsight Systems documentation places an option's spelling; docs/analysis.md (Capture
// advice) cites each page. A renamed option: `older` in the guides up to `lastOlder`, `newer` from
// `firstNewer` on; releases between the two were not checked, so they get both spellings.
struct Renamed {
    const char* newer;
    const char* older;
    NsysRelease lastOlder, firstNewer;
};
constexpr Renamed kSampleProcessTree{"--sample=process-tree", "--sample=cpu", {2021, 4}, {2022, 1}};
// An option the release notes call new in this release.
constexpr NsysRelease kCudaTraceScope{2025, 6};

std::string name(NsysRelease r) { return std::to_string(r.year) + "." + std::to_string(r.minor); }

// Option spellings for the release that wrote the export(s); both spellings with their releases
// when that release is unknown, falls between two checked guides, or the open files disagree.
class Spelling {
public:
    explicit Spelling(const Profile& p) {
        std::set<std::string> versions;
        for (const auto& in : p.inputs) versions.insert(in.nsysVersion);
        if (versions.size() == 1) release_ = parseNsysRelease(*versions.begin());
        if (release_) version_ = *versions.begin();
    }

    std::string option(const Renamed& r) const {
        if (release_ && *release_ >= r.firstNewer) return r.newer;
        if (release_ && *release_ <= r.lastOlder) return r.older;
        return std::string(r.newer) + " (Nsight Systems " + name(r.firstNewer) + " and later; " + r.older + " in " +
               name(r.lastOlder) + " and earlier)";
    }
    // An option new in release `from`: `known` for such an export, nothing for an older one, and
    // `unknown` (which names the release) otherwise.
    std::string since(NsysRelease from, const std::string& known, const std::string& unknown) const {
        if (release_) return *release_ >= from ? known : std::string();
        return unknown;
    }
    // Whether the export's release picks one spelling of `r`.
    bool decides(const Renamed& r) const { return release_ && (*release_ >= r.firstNewer || *release_ <= r.lastOlder); }
    // " (options spelled for Nsight Systems V, the export's version)" when the release is known and
    // `spelled` (the rule's options were picked for it), nothing otherwise.
    std::string note(bool spelled = true) const {
        return release_ && spelled ? " (options spelled for Nsight Systems " + version_ + ", the export's version)"
                                   : std::string();
    }

private:
    std::optional<NsysRelease> release_;
    std::string version_;
};

}  // namespace

std::optional<NsysRelease> parseNsysRelease(const std::string& version) {
    int year = 0, minor = 0, used = 0;
    if (std::sscanf(version.c_str(), "%4d.%d%n", &year, &minor, &used) != 2 || year < 2000 || minor < 0) return std::nullopt;
    if (size_t(used) < version.size() && version[size_t(used)] != '.') return std::nullopt;
    return NsysRelease{year, minor};
}

namespace {

// What the rules look at: the analysis's findings over complete collectives, and what the export holds.
struct Evidence {
    uint64_t complete = 0, withoutLaunch = 0, gpuCaused = 0, cpuCaused = 0;
    std::set<int> withoutLaunchGroups, gpuGroups, cpuGroups;  // the groups of those late arrivers
    uint64_t nvtxRanges = 0, syncRows = 0, runtimeRows = 0;
    bool nvtxSteps = false, gpuMetrics = false, cpuSamples = false, contextSwitches = false;
};

Evidence gatherEvidence(const Profile& p, const Analysis& a) {
    Evidence e;
    for (const Collective& c : a.collectives) {
        if (!c.complete) continue;
        ++e.complete;
        if (!c.launched) ++e.withoutLaunch, e.withoutLaunchGroups.insert(c.group);  // (a cause is unknown also when nobody was late)
        if (c.cause == Cause::GpuDependency || c.cause == Cause::GpuOther) ++e.gpuCaused, e.gpuGroups.insert(c.group);
        if (c.cause == Cause::CpuLaunch) ++e.cpuCaused, e.cpuGroups.insert(c.group);
    }
    for (const Group& g : a.groups) e.nvtxSteps |= g.stepsSource == StepSource::Nvtx;
    for (const auto& in : p.inputs) {
        e.nvtxRanges += in.nvtxRanges;
        e.syncRows += in.syncRows;
        e.runtimeRows += in.runtimeRows;
        e.gpuMetrics |= in.rowsOf("GPU_METRICS") > 0;
        e.cpuSamples |= in.rowsOf("COMPOSITE_EVENTS") > 0 || in.rowsOf("SAMPLING_CALLCHAINS") > 0;
        e.contextSwitches |= in.rowsOf("SCHED_EVENTS") > 0;
    }
    return e;
}

using Out = std::vector<CaptureAdvice>;

// An advice whose evidence reads the same for users as in the JSON (no cause identifiers in it).
CaptureAdvice plainAdvice(const char* id, const char* title, const std::string& evidence, const std::string& advice,
                          const std::set<int>& groups = {}) {
    return {id, evidence, advice, title, evidence, std::vector<int>(groups.begin(), groups.end())};
}

// missing_devices: a node file has device ids without kernels (one advice per such file).
void missingDevices(const Profile& p, const Spelling& nsys, Out& out) {
    for (const auto& in : p.inputs)
        if (!in.missingDevices.empty())
            out.push_back(plainAdvice("missing_devices", "Capture every GPU", in.path + ": " + in.missingDevices,
                           "Capture every GPU of the node: run nsys over the launcher of all ranks (nsys profile ... "
                           "torchrun ...), or one nsys per rank with per-rank names (-o rank_%q{RANK}), and open every "
                           "file together; check CUDA_VISIBLE_DEVICES" +
                               nsys.since(kCudaTraceScope, " and --cuda-trace-scope",
                                          " and --cuda-trace-scope (Nsight Systems " + name(kCudaTraceScope) + " and later)") +
                               nsys.note() + "."));
}

// no_nvtx_steps: groups exist but no NVTX range matches the step pattern.
void noNvtxSteps(const Analysis& a, const Evidence& e, Out& out) {
    if (e.nvtxSteps || a.groups.empty()) return;
    out.push_back(plainAdvice("no_nvtx_steps", "Mark the training steps",
                   "no NVTX range matches the step pattern (" + plural(e.nvtxRanges, "NVTX range") + " read); steps are " +
                       (a.groups[0].stepsSource == StepSource::None ? "unknown" : "inferred from the op period"),
                   "Mark each training step with an NVTX range (torch.cuda.nvtx.range_push(f\"step {i}\") ... "
                   "range_pop(), or the PyTorch profiler's ProfilerStep#N) and trace NVTX (--trace=cuda,nvtx), so "
                   "that big events can be placed in the step."));
}

// no_launch_rows: late arrivers without a launch row, or no CUDA API rows at all.
void noLaunchRows(const Profile& p, const Evidence& e, Out& out) {
    if (e.withoutLaunch == 0 && (e.runtimeRows > 0 || p.kernelCount() == 0)) return;
    out.push_back(plainAdvice("no_launch_rows", "Keep the launch calls",
                   e.runtimeRows == 0 ? "no CUDA API rows (CUPTI_ACTIVITY_KIND_RUNTIME) in the export"
                                      : plural(e.withoutLaunch, "late arriver") + " of " + plural(e.complete, "complete collective") +
                                            " without a launch row (same process and correlation id): cause unknown",
                   "Keep the CUDA API trace that --trace=cuda records by default (runtime and driver calls), and "
                   "start the capture before the first collective of the window (--capture-range=cudaProfilerApi "
                   "or nvtx with cudaProfilerStart/Stop around whole steps), so every kernel's launch is in it.",
                   e.withoutLaunchGroups));
}

// no_stream_waits: GPU-caused late arrivers and no synchronization rows.
void noStreamWaits(const Evidence& e, Out& out) {
    if (e.syncRows > 0 || e.gpuCaused == 0) return;
    const auto evidence = [&](const char* (*name)(Cause)) {
        return plural(e.gpuCaused, "late arriver") + " caused on the GPU (" + name(Cause::GpuDependency) + " or " + name(Cause::GpuOther) +
               ") and no synchronization rows (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)";
    };
    out.push_back({"no_stream_waits", evidence(causeName),
                   // the release that brought --cuda-event-trace was not found: no release named
                   "Capture with --trace=cuda so that stream-wait records are kept, and export without a --tables "
                   "filter; --cuda-event-trace=true, where nsys profile --help lists it, adds CUDA event completion "
                   "(overhead; auto turns it off when CUDA_DEVICE_MAX_CONNECTIONS=1).",
                   "Record stream waits", evidence(causeLabel),
                   std::vector<int>(e.gpuGroups.begin(), e.gpuGroups.end())});
}

// no_gpu_metrics: no rows in GPU_METRICS.
void noGpuMetrics(const Evidence& e, Out& out) {
    if (e.gpuMetrics) return;
    out.push_back(plainAdvice("no_gpu_metrics", "Sample GPU metrics", "no GPU metrics (GPU_METRICS table): clocks, power and throttling of each GPU are unknown",
                   // the release of the rename was not found: both spellings, no release named
                   "Sample GPU metrics on one rank per node: --gpu-metrics-devices=all (earlier releases spell it "
                   "--gpu-metrics-device=all; nsys profile --help shows which yours takes), with "
                   "--gpu-metrics-frequency for the rate."));
}

// no_cpu_sampling: cpu_launch causes and no CPU samples or no context switches.
void noCpuSampling(const Evidence& e, const Spelling& nsys, Out& out) {
    if (e.cpuCaused == 0 || (e.cpuSamples && e.contextSwitches)) return;
    const std::string lacking = std::string(" and ") +
                                (!e.cpuSamples && !e.contextSwitches ? "neither CPU samples nor context switches"
                                 : !e.cpuSamples                    ? "no CPU samples (COMPOSITE_EVENTS)"
                                                                    : "no context switches (SCHED_EVENTS)") +
                                " in the export";
    const std::string late = plural(e.cpuCaused, "late arriver") + " launched late by the CPU";
    out.push_back({"no_cpu_sampling", late + " (" + causeName(Cause::CpuLaunch) + ")" + lacking,
                   "Record what the launching thread was doing: " + nsys.option(kSampleProcessTree) +
                       " --cpuctxsw=process-tree, with --backtrace=dwarf for native call stacks" +
                       nsys.note(nsys.decides(kSampleProcessTree)) + ".",
                   "Record CPU sampling", late + lacking, std::vector<int>(e.cpuGroups.begin(), e.cpuGroups.end())});
}

// nccl_config_unknown: always (exports do not carry NCCL's topology, algorithm and protocol).
void ncclConfigUnknown(Out& out) {
    out.push_back(plainAdvice("nccl_config_unknown", "Log NCCL's configuration",
                   "the export does not say which NCCL topology, algorithm and protocol ran (kernel names do not carry them)",
                   "Log them on every rank: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,COLL "
                   "NCCL_DEBUG_FILE=nccl.%h.%p.log (TUNING lines give algorithm and protocol per size, on rank 0), "
                   "NCCL_TOPO_DUMP_FILE=topo.xml; keep NCCL's NVTX payloads (message sizes) with nsys export "
                   "--include-blobs=true; and PyTorch's flight recorder for process groups and sequence numbers: "
                   "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1."));
}

// A group's big events as the ab_test rule saw them: "group 0: 10 big events, 10 of them
// gpu_dependency; late ranks: 8 distinct among the 10, none late in more than half (at most 2
// times: dev 2, dev 3)".
std::string rotationEvidence(const Profile& p, const Group& g, const char* (*cause)(Cause)) {
    const Answers& ans = g.answers;
    const uint32_t most = ans.bigMostLate;
    std::string mostRanks;
    for (auto [r, n] : ans.bigLateCount)
        if (n == most) mostRanks += (mostRanks.empty() ? "" : ", ") + p.ranks[size_t(r)].label;
    const size_t big = ans.big.size();
    return "group " + std::to_string(g.id) + ": " + plural(big, "big event") + ", " +
           std::to_string(ans.bigCauses[size_t(Cause::GpuDependency)]) + " of them " + cause(Cause::GpuDependency) + "; late ranks: " +
           std::to_string(ans.bigLateCount.size()) + " distinct among the " + std::to_string(big) +
           ", none late in more than half (at most " + plural(most, "time") + ": " + mostRanks + ")";
}

// ab_test: in a group, big events rotate (docs/analysis.md, Answers) and more than half of them
// are gpu_dependency. One advice, its evidence naming each such group.
void abTest(const Profile& p, const Analysis& a, Out& out) {
    std::string evidence, words;
    std::vector<int> groups;
    for (const Group& g : a.groups) {
        const Answers& ans = g.answers;
        if (!ans.bigRotate || 2 * size_t(ans.bigCauses[size_t(Cause::GpuDependency)]) <= ans.big.size()) continue;
        evidence += (evidence.empty() ? "" : "; ") + rotationEvidence(p, g, causeName);
        words += (words.empty() ? "" : "; ") + rotationEvidence(p, g, causeLabel);
        groups.push_back(g.id);
    }
    if (evidence.empty()) return;
    out.push_back({"ab_test", evidence,
                   "Run a controlled A/B capture: change one thing (CUDA_DEVICE_MAX_CONNECTIONS=1 against the default, "
                   "so kernels start in launch order; or move the GEMM the late kernel waited behind), capture both "
                   "runs the same way and compare them (skewscope compare A.sqlite --vs B.sqlite).",
                   "Run an A/B test", words, groups});
}

}  // namespace

std::vector<CaptureAdvice> captureAdvice(const Profile& p, const Analysis& a) {
    const Spelling nsys(p);
    const Evidence e = gatherEvidence(p, a);
    Out out;
    missingDevices(p, nsys, out);
    noNvtxSteps(a, e, out);
    noLaunchRows(p, e, out);
    noStreamWaits(e, out);
    noGpuMetrics(e, out);
    noCpuSampling(e, nsys, out);
    ncclConfigUnknown(out);
    abTest(p, a, out);
    return out;
}

}  // namespace skew
