#include "analysis/capture_advice.h"

#include <cstdio>

namespace skew {
namespace {

std::string count(uint64_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

}  // namespace

std::vector<CaptureAdvice> captureAdvice(const Profile& p, const Analysis& a) {
    std::vector<CaptureAdvice> out;
    // what the analysis found, over complete collectives
    uint64_t complete = 0, unknown = 0, gpuCaused = 0, cpuCaused = 0, nvtxRanges = 0, syncRows = 0, runtimeRows = 0;
    uint64_t bigEvents = 0, bigGpu = 0;
    bool rotate = false, nvtxSteps = false;
    for (const Collective& c : a.collectives) {
        if (!c.complete) continue;
        ++complete;
        if (c.cause == Cause::Unknown) ++unknown;
        if (c.cause == Cause::GpuDependency || c.cause == Cause::GpuOther) ++gpuCaused;
        if (c.cause == Cause::CpuLaunch) ++cpuCaused;
    }
    for (const Group& g : a.groups) {
        nvtxSteps |= g.stepsSource == "nvtx";
        rotate |= g.answers.bigRotate;
        bigEvents += g.answers.big.size();
        bigGpu += g.answers.bigCauses[size_t(Cause::GpuDependency)];
    }
    bool gpuMetrics = false, cpuSamples = false, contextSwitches = false;
    for (const auto& in : p.inputs) {
        nvtxRanges += in.nvtxRanges;
        syncRows += in.syncRows;
        runtimeRows += in.runtimeRows;
        gpuMetrics |= in.rowsOf("GPU_METRICS") > 0;
        cpuSamples |= in.rowsOf("COMPOSITE_EVENTS") > 0 || in.rowsOf("SAMPLING_CALLCHAINS") > 0;
        contextSwitches |= in.rowsOf("SCHED_EVENTS") > 0;
    }

    for (const auto& in : p.inputs)
        if (!in.missingDevices.empty())
            out.push_back({"missing_devices", in.path + ": " + in.missingDevices,
                           "Capture every GPU of the node: run nsys over the launcher of all ranks (nsys profile ... "
                           "torchrun ...), or one nsys per rank with per-rank names (-o rank_%q{RANK}), and open every "
                           "file together; check CUDA_VISIBLE_DEVICES and, from 2025.6, --cuda-trace-scope."});
    if (!nvtxSteps && !a.groups.empty())
        out.push_back({"no_nvtx_steps",
                       "no NVTX range matches the step pattern (" + count(nvtxRanges, "NVTX range") + " read); steps are " +
                           (a.groups.empty() || a.groups[0].stepsSource == "none" ? "unknown" : "inferred from the op period"),
                       "Mark each training step with an NVTX range (torch.cuda.nvtx.range_push(f\"step {i}\") ... "
                       "range_pop(), or the PyTorch profiler's ProfilerStep#N) and trace NVTX (--trace=cuda,nvtx), so "
                       "that big events can be placed in the step."});
    if (unknown > 0 || (runtimeRows == 0 && p.kernelCount() > 0))
        out.push_back({"no_launch_rows",
                       runtimeRows == 0 ? "no CUDA API rows (CUPTI_ACTIVITY_KIND_RUNTIME) in the export"
                                        : count(unknown, "late arriver") + " of " + count(complete, "complete collective") +
                                              " without a launch row (same process and correlation id): cause unknown",
                       "Keep the CUDA API trace that --trace=cuda records by default (runtime and driver calls), and "
                       "start the capture before the first collective of the window (--capture-range=cudaProfilerApi "
                       "or nvtx with cudaProfilerStart/Stop around whole steps), so every kernel's launch is in it."});
    if (syncRows == 0 && gpuCaused > 0)
        out.push_back({"no_stream_waits",
                       count(gpuCaused, "late arriver") + " caused on the GPU (gpu_dependency or gpu_other) and no "
                                                          "synchronization rows (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)",
                       "Capture with --trace=cuda so that stream-wait records are kept, and export without a --tables "
                       "filter; --cuda-event-trace=true adds CUDA event completion (overhead; auto turns it off when "
                       "CUDA_DEVICE_MAX_CONNECTIONS=1)."});
    if (!gpuMetrics)
        out.push_back({"no_gpu_metrics", "no GPU metrics (GPU_METRICS table): clocks, power and throttling of each GPU are unknown",
                       "Sample GPU metrics on one rank per node: --gpu-metrics-devices=all (older releases: "
                       "--gpu-metrics-device), with --gpu-metrics-frequency for the rate."});
    if (cpuCaused > 0 && (!cpuSamples || !contextSwitches))
        out.push_back({"no_cpu_sampling",
                       count(cpuCaused, "late arriver") + " launched late by the CPU (cpu_launch) and " +
                           (!cpuSamples && !contextSwitches ? "neither CPU samples nor context switches"
                            : !cpuSamples                  ? "no CPU samples (COMPOSITE_EVENTS)"
                                                           : "no context switches (SCHED_EVENTS)") +
                           " in the export",
                       "Record what the launching thread was doing: --sample=process-tree --cpuctxsw=process-tree, "
                       "with --backtrace=dwarf for native call stacks."});
    out.push_back({"nccl_config_unknown",
                   "the export does not say which NCCL topology, algorithm and protocol ran (kernel names do not carry them)",
                   "Log them on every rank: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,COLL "
                   "NCCL_DEBUG_FILE=nccl.%h.%p.log (TUNING lines give algorithm and protocol per size, on rank 0), "
                   "NCCL_TOPO_DUMP_FILE=topo.xml; keep NCCL's NVTX payloads (message sizes) with nsys export "
                   "--include-blobs=true; and PyTorch's flight recorder for process groups and sequence numbers: "
                   "TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1."});
    if (rotate && bigEvents > 0 && 2 * bigGpu > bigEvents)
        out.push_back({"ab_test",
                       count(bigEvents, "big event") + ", " + std::to_string(bigGpu) +
                           " of them gpu_dependency, with a different late rank each time (they rotate)",
                       "Run a controlled A/B capture: change one thing (CUDA_DEVICE_MAX_CONNECTIONS=1 against the default, "
                       "so kernels start in launch order; or move the GEMM the late kernel waited behind), capture both "
                       "runs the same way and compare them (skewscope compare A.sqlite --vs B.sqlite)."});
    return out;
}

}  // namespace skew
