// Generator of realistic multi-rank Nsight Systems SQLite exports. See generator.h.
//
// Timing model (all on one "model" timeline in ns since the session start; file time = model +
// kFileBase - fileShift + clockError; truth (aligned) time = model + kFileBase):
//   step s starts at O_s. For every collective k (FSDP AllGather/ReduceScatter group, then
//   AllReduce, then SendRecv), with E_{k-1} the latest end of the previous collective:
//     b_k = E_{k-1} + max(max_r(compute chunk length) - overlap, 0) + 20..200 us, where overlap is
//           0..half the previous transfer time (compute overlaps the previous collective)
//     a_r = b_k + jitter_r (0..300 us) + planted delay      (NCCL kernel start of rank r)
//     end_r = max_r(a_r) + transfer(op) + 0..30 us           (ends aligned, as NCCL does)
//   Before each collective the compute stream (7) runs `extraKernelsPerCollective` kernels, the last
//   one a GEMM ending ~1.5 us before the undelayed a_r. LateKind::Gpu stretches that GEMM by the
//   delay; LateKind::Cpu leaves the GPU idle and launches the NCCL kernel ~8 us before it starts.
//   The CPU (main thread) launches every kernel 0.2..5 ms ahead of its start (never after it), and
//   synchronizes at the end of each step, so the ProfilerStep#N range holds the step's GPU work.

#include "generator.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <initializer_list>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace skewgen {
namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;
constexpr int64_t kFileBase = 5'000'000'000LL;  // session start on each file's own clock (ns)
constexpr int64_t kFirstStepModel = 20 * kMs;   // step 1 begins 20 ms into the session
constexpr int64_t kSessionShiftPerRank = 1'234'567;  // per-rank files: utcEpochNs(r) - utcEpochNs(0)
constexpr uint32_t kCorrBase = 1000;
constexpr int kComputeStream = 7;
constexpr int kFsdpStream = 56;
constexpr int kAllReduceStreamBase = 60;  // + rank % 2: stream ids differ between ranks
constexpr int kSendRecvStream = 68;
constexpr int kNcclDomain = 1;
constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

struct EnumRow {
    int id;
    const char* name;
    const char* label;
};

// Rows of the enum tables, copied from the real exports: 2026.2.1.210 from nsysai-mfu_2gpu_before.sqlite,
// 2024.5.1.113 from pipit-cloverleaf.sqlite.
const EnumRow kENUM_NSYS_EVENT_TYPE_V2026[] = {
    {0, "Unknown", "Unknown"},
    {1, "CpuCycles", "CpuCycles"},
    {2, "Instructions", "Instructions"},
    {3, "CacheReferences", "CacheReferences"},
    {4, "L1CacheDataWriteMisses", "L1CacheDataWriteMisses"},
    {5, "L1CacheDataReadMisses", "L1CacheDataReadMisses"},
    {6, "L1CacheInstructionMisses", "L1CacheInstructionMisses"},
    {7, "L2CacheDataWriteMisses", "L2CacheDataWriteMisses"},
    {8, "L2CacheDataReadMisses", "L2CacheDataReadMisses"},
    {9, "L2CacheInstructionMisses", "L2CacheInstructionMisses"},
    {10, "BranchInstructions", "BranchInstructions"},
    {11, "BranchMisses", "BranchMisses"},
    {12, "BusCycles", "BusCycles"},
    {13, "CpuClock", "CpuClock"},
    {14, "TaskClock", "TaskClock"},
    {15, "PageFault", "PageFault"},
    {16, "ContextSwitches", "ContextSwitches"},
    {17, "CpuMigrations", "CpuMigrations"},
    {18, "PageFaultsMin", "PageFaultsMin"},
    {19, "PageFaultsMax", "PageFaultsMax"},
    {20, "AlignmentFaults", "AlignmentFaults"},
    {21, "EmulationFaults", "EmulationFaults"},
    {22, "ThreadState", "ThreadState"},
    {23, "Frames", "Frames"},
    {24, "Annotations", "Annotations"},
    {25, "SchedSwitch", "SchedSwitch"},
    {26, "SchedWakeup", "SchedWakeup"},
    {27, "Command", "Command"},
    {28, "Mmap", "Mmap"},
    {29, "MemUsage", "MemUsage"},
    {30, "Emc", "Emc"},
    {31, "Composite", "Composite"},
    {32, "NvtxEvents", "NvtxEvents"},
    {33, "NvtxCategory", "NvtxCategory"},
    {34, "NvtxMark", "NvtxMark"},
    {35, "NvtxPushRange", "NvtxPushRange"},
    {36, "NvtxPopRange", "NvtxPopRange"},
    {37, "NvtxStartRange", "NvtxStartRange"},
    {38, "NvtxEndRange", "NvtxEndRange"},
    {39, "NvtxThread", "NvtxThread"},
    {40, "PowerRate", "PowerRate"},
    {41, "Sched", "Sched"},
    {42, "CpuCyclesSelf", "CpuCyclesSelf"},
    {43, "CpuCyclesTotal", "CpuCyclesTotal"},
    {44, "CpuCyclesSelfPlus", "CpuCyclesSelfPlus"},
    {45, "Cuda", "Cuda"},
    {46, "CudaDevice", "CudaDevice"},
    {47, "TraceProcess", "TraceProcess"},
    {48, "TraceFunctions", "TraceFunctions"},
    {49, "Diagnostic", "Diagnostic"},
    {50, "GlWorkload", "GlWorkload"},
    {51, "BandwidthUsage", "BandwidthUsage"},
    {52, "KhrDebugMark", "KhrDebugMark"},
    {53, "KhrDebugPushRange", "KhrDebugPushRange"},
    {54, "KhrDebugPopRange", "KhrDebugPopRange"},
    {55, "KhrDebugGpuMark", "KhrDebugGpuMark"},
    {56, "KhrDebugGpuPushRange", "KhrDebugGpuPushRange"},
    {57, "KhrDebugGpuPopRange", "KhrDebugGpuPopRange"},
    {58, "GpuCtxsw", "GpuCtxsw"},
    {59, "NvtxPushPopRange", "NvtxPushPopRange"},
    {60, "NvtxStartEndRange", "NvtxStartEndRange"},
    {61, "ProfTime", "ProfTime"},
    {62, "KhrDebugPushPopRange", "KhrDebugPushPopRange"},
    {63, "KhrDebugGpuPushPopRange", "KhrDebugGpuPushPopRange"},
    {64, "NvtxtCategory", "NvtxtCategory"},
    {65, "NvtxtMark", "NvtxtMark"},
    {66, "NvtxtPushRange", "NvtxtPushRange"},
    {67, "NvtxtPopRange", "NvtxtPopRange"},
    {68, "NvtxtStartRange", "NvtxtStartRange"},
    {69, "NvtxtEndRange", "NvtxtEndRange"},
    {70, "NvtxtPushPopRange", "NvtxtPushPopRange"},
    {71, "NvtxtStartEndRange", "NvtxtStartEndRange"},
    {72, "NvtxtMetaThread", "NvtxtMetaThread"},
    {73, "NvtxtMetaProcess", "NvtxtMetaProcess"},
    {74, "NvtxtMetaFileDisplay", "NvtxtMetaFileDisplay"},
    {75, "NvtxDomainCreate", "NvtxDomainCreate"},
    {76, "NvtxDomainDestroy", "NvtxDomainDestroy"},
    {77, "NvnGpuCmdBuf", "NvnGpuCmdBuf"},
    {78, "TraceVSync", "TraceVSync"},
    {79, "CudaDeviceKernel", "CudaDeviceKernel"},
    {80, "CudaDeviceMemory", "CudaDeviceMemory"},
    {81, "Pmu", "Pmu"},
    {82, "NvnGpuDraw", "NvnGpuDraw"},
    {83, "NvnGpuCompute", "NvnGpuCompute"},
    {84, "NvnGpuDebug", "NvnGpuDebug"},
    {85, "OS runtime libraries", "OS runtime libraries"},
    {86, "CuDNN", "CuDNN"},
    {87, "CuBLAS", "CuBLAS"},
    {88, "NvMedia", "NvMedia"},
    {89, "OpenACC", "OpenACC"},
    {90, "Correlation", "Correlation"},
    {91, "DX12", "DX12"},
    {92, "DX12Workload", "DX12Workload"},
    {93, "PmuRawEvent", "PmuRawEvent"},
    {94, "GraphicsFrame", "GraphicsFrame"},
    {95, "Vulkan", "Vulkan"},
    {96, "VulkanWorkload", "VulkanWorkload"},
    {97, "NvtxNameCudaDevice", "NvtxNameCudaDevice"},
    {98, "NvtxNameCudaContext", "NvtxNameCudaContext"},
    {99, "NvtxNameCudaStream", "NvtxNameCudaStream"},
    {100, "SystemEvent", "SystemEvent"},
    {101, "GpuMemoryEvent", "GpuMemoryEvent"},
    {102, "DX12CreateObject", "DX12CreateObject"},
    {103, "VulkanCreateObject", "VulkanCreateObject"},
    {104, "UnitTraceEvent", "UnitTraceEvent"},
    {105, "CustomETWEvent", "CustomETWEvent"},
    {106, "CudaSyncEvent", "CudaSyncEvent"},
    {107, "SLIEvent (DEPRECATED)", "SLIEvent (DEPRECATED)"},
    {108, "CudaBacktrace", "CudaBacktrace"},
    {109, "WddmEvent", "WddmEvent"},
    {110, "DX11", "DX11"},
    {111, "DX11CreateObject", "DX11CreateObject"},
    {112, "DXGI", "DXGI"},
    {113, "CudaGraphNodeCreation", "CudaGraphNodeCreation"},
    {114, "OpenMP", "OpenMP"},
    {115, "UncorePmuEvent", "UncorePmuEvent"},
    {116, "UncorePmuCarmel", "UncorePmuCarmel"},
    {117, "CudaDeviceMemoryUsage", "CudaDeviceMemoryUsage"},
    {118, "ETWDxgKrnlEvent", "ETWDxgKrnlEvent"},
    {119, "CudaUvmCpuPageFaultEvent", "CudaUvmCpuPageFaultEvent"},
    {120, "CudaUvmGpuPageFaultEvent", "CudaUvmGpuPageFaultEvent"},
    {121, "NICMetricsValuesEvent", "NICMetricsValuesEvent"},
    {122, "NICMetricsListEvent", "NICMetricsListEvent"},
    {123, "InterruptHandler", "InterruptHandler"},
    {124, "NvEncode", "NvEncode"},
    {125, "NVDecode", "NVDecode"},
    {126, "nvJPEG", "nvJPEG"},
    {127, "CudaEventRecord", "CudaEventRecord"},
    {128, "PerfEventCountEvent", "PerfEventCountEvent"},
    {129, "CudaDeviceMemoryPool", "CudaDeviceMemoryPool"},
    {130, "CudaDeviceGraph", "CudaDeviceGraph"},
    {131, "CudaGraphExecCreation", "CudaGraphExecCreation"},
    {132, "CudaGraphCreation", "CudaGraphCreation"},
    {133, "CudaGraphClone", "CudaGraphClone"},
    {134, "GpuMemoryTransferEvent", "GpuMemoryTransferEvent"},
    {135, "GlTrace", "GlTrace"},
    {136, "GpuVideoEngineWorkload", "GpuVideoEngineWorkload"},
    {137, "IBSwitchMetricsValuesEvent", "IBSwitchMetricsValuesEvent"},
    {138, "GenericEvent", "GenericEvent"},
    {139, "UncorePmuT23xScf", "UncorePmuT23xScf"},
    {140, "UncorePmuT23xDsu", "UncorePmuT23xDsu"},
    {141, "IBSwitchCongestionEvent", "IBSwitchCongestionEvent"},
    {142, "CudaDeviceMemcpy", "CudaDeviceMemcpy"},
    {143, "PerfMetricValueEvent", "PerfMetricValueEvent"},
    {144, "OpenXREvent", "OpenXREvent"},
    {145, "TegraInternalEvent", "TegraInternalEvent"},
    {146, "TraceStartFinish", "TraceStartFinish"},
    {147, "Syscall", "Syscall"},
    {148, "CudaConfidentialComputeKeyRotation", "CudaConfidentialComputeKeyRotation"},
    {149, "CudaGraphExecNodeSetParams", "CudaGraphExecNodeSetParams"},
    {150, "NvApi", "NvApi"},
    {151, "CudaHostFunc", "CudaHostFunc"},
    {152, "CudaApi", "CudaApi"},
    {153, "Overhead", "Overhead"},
    {154, "CudaOverhead", "CudaOverhead"},
};
const EnumRow kENUM_NSYS_EVENT_CLASS_V2026[] = {
    {0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
    {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
    {2, "TRACE_PROCESS_EVENT_GL", "GL"},
    {3, "TRACE_PROCESS_EVENT_TSP_OVERHEAD", "TSP overhead"},
    {4, "TRACE_PROCESS_EVENT_GL_DEBUG", "GL debug"},
    {5, "TRACE_PROCESS_EVENT_GL_WORKLOAD", "GL workload"},
    {6, "TRACE_PROCESS_EVENT_NVTX_START", "NVTX start"},
    {7, "TRACE_PROCESS_EVENT_NVTX_FINISH", "NVTX finish"},
    {8, "TRACE_PROCESS_EVENT_GL_START", "GL start"},
    {9, "TRACE_PROCESS_EVENT_GL_FINISH", "GL finish"},
    {10, "TRACE_PROCESS_EVENT_CUDA_START", "CUDA start"},
    {11, "TRACE_PROCESS_EVENT_CUDA_FINISH", "CUDA finish"},
    {12, "TRACE_PROCESS_EVENT_CUDA_INIT_ERROR", "CUDA init error"},
    {13, "TRACE_PROCESS_EVENT_CUDA_EGL_DRIVER", "CUDA EGL driver"},
    {18, "TRACE_PROCESS_EVENT_VSYNC", "Vsync"},
    {26, "TRACE_PROCESS_EVENT_CUDA_API", "CUDA API"},
    {27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"},
    {28, "TRACE_PROCESS_EVENT_CUDNN", "cuDNN"},
    {29, "TRACE_PROCESS_EVENT_CUBLAS", "cuBLAS"},
    {31, "TRACE_PROCESS_EVENT_OS_RUNTIME_START", "OSRT start"},
    {32, "TRACE_PROCESS_EVENT_OS_RUNTIME_FINISH", "OSRT finish"},
    {33, "TRACE_PROCESS_EVENT_CUDNN_START", "cuDNN start"},
    {34, "TRACE_PROCESS_EVENT_CUDNN_FINISH", "cuDNN finish"},
    {35, "TRACE_PROCESS_EVENT_CUBLAS_START", "cuBLAS start"},
    {36, "TRACE_PROCESS_EVENT_CUBLAS_FINISH", "cuBLAS finish"},
    {37, "TRACE_PROCESS_EVENT_THREAD_BLOCK", "Thread block"},
    {38, "TRACE_PROCESS_EVENT_NVMEDIA", "NVmedia"},
    {39, "TRACE_PROCESS_EVENT_NVMEDIA_START", "NVmedia start"},
    {40, "TRACE_PROCESS_EVENT_NVMEDIA_FINISH", "NVmedia finish"},
    {41, "TRACE_PROCESS_EVENT_DX12_API", "DX12 API"},
    {42, "TRACE_PROCESS_EVENT_DX12_WORKLOAD", "DX12 workload"},
    {43, "TRACE_PROCESS_EVENT_DX12_START", "DX12 start"},
    {44, "TRACE_PROCESS_EVENT_DX12_FINISH", "DX12 finish"},
    {45, "TRACE_PROCESS_EVENT_OPENACC_START", "OpenACC start"},
    {46, "TRACE_PROCESS_EVENT_OPENACC_FINISH", "OpenACC finish"},
    {47, "TRACE_PROCESS_EVENT_OPENACC_INIT_ERROR", "OpenACC init error"},
    {48, "TRACE_PROCESS_EVENT_OPENACC", "OpenACC"},
    {49, "TRACE_PROCESS_EVENT_CPU_FPS", "CPU FPS"},
    {50, "TRACE_PROCESS_EVENT_GPU_FPS", "GPU FPS"},
    {51, "TRACE_PROCESS_EVENT_GL_MULTI_ERROR", "GL multi-error"},
    {52, "TRACE_PROCESS_EVENT_DX12_DISPLAY", "DX12 display"},
    {53, "TRACE_PROCESS_EVENT_VULKAN_API", "Vulkan API"},
    {54, "TRACE_PROCESS_EVENT_VULKAN_WORKLOAD", "Vulkan workload"},
    {55, "TRACE_PROCESS_EVENT_VULKAN_START", "Vulkan start"},
    {56, "TRACE_PROCESS_EVENT_VULKAN_FINISH", "Vulkan finish"},
    {57, "TRACE_PROCESS_EVENT_SYSTEM_EVENT", "System event"},
    {58, "TRACE_PROCESS_EVENT_GPU_MEMORY", "GPU memory"},
    {59, "TRACE_PROCESS_EVENT_DX12_CREATE_OBJECT", "DX12 create object"},
    {60, "TRACE_PROCESS_EVENT_VULKAN_CREATE_OBJECT", "Vulkan create object"},
    {61, "TRACE_PROCESS_EVENT_CUSTOM_ETW_TRACE", "Custom ETW trace"},
    {62, "TRACE_PROCESS_EVENT_SLI_DEPRECATED", "SLI (Deprecated)"},
    {63, "TRACE_PROCESS_EVENT_SLI_START_DEPRECATED", "SLI start (Deprecated)"},
    {64, "TRACE_PROCESS_EVENT_SLI_FINISH_DEPRECATED", "SLI finish (Deprecated)"},
    {65, "TRACE_PROCESS_EVENT_DX12_DEBUG_API", "DX12 debug API"},
    {66, "TRACE_PROCESS_EVENT_VULKAN_DEBUG_API", "Vulkan debug API"},
    {67, "TRACE_PROCESS_EVENT_CUDABACKTRACE", "CUDA backtrace"},
    {68, "TRACE_PROCESS_EVENT_CUDABACKTRACE_START", "CUDA backtrace start"},
    {69, "TRACE_PROCESS_EVENT_CUDABACKTRACE_FINISH", "CUDA backtrace finish"},
    {70, "TRACE_PROCESS_EVENT_WDDM", "WDDM"},
    {71, "TRACE_PROCESS_EVENT_DX11_API", "DX11 API"},
    {72, "TRACE_PROCESS_EVENT_DX11_START", "DX11 start"},
    {73, "TRACE_PROCESS_EVENT_DX11_FINISH", "DX11 finish"},
    {74, "TRACE_PROCESS_EVENT_DX11_CREATE_OBJECT", "DX11 create object"},
    {75, "TRACE_PROCESS_EVENT_DX11_DEBUG_API", "DX11 debug API"},
    {76, "TRACE_PROCESS_EVENT_DXCOMMON_API", "DX common API"},
    {77, "TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation"},
    {78, "TRACE_PROCESS_EVENT_OPENMP", "OpenMP"},
    {79, "TRACE_PROCESS_EVENT_OPENMP_START", "OpenMP start"},
    {80, "TRACE_PROCESS_EVENT_OPENMP_FINISH", "OpenMP finish"},
    {81, "TRACE_PROCESS_EVENT_NVAPI", "NV API"},
    {82, "TRACE_PROCESS_EVENT_ETWDXGKRNL", "ETW DXG KRNL"},
    {83, "TRACE_PROCESS_EVENT_NVENCODE", "NVENCODE"},
    {84, "TRACE_PROCESS_EVENT_NVENCODE_START", "NVENCODE start"},
    {85, "TRACE_PROCESS_EVENT_NVENCODE_FINISH", "NVENCODE finish"},
    {86, "TRACE_PROCESS_EVENT_NVDECODE", "NVDECODE"},
    {87, "TRACE_PROCESS_EVENT_NVDECODE_START", "NVDECODE start"},
    {88, "TRACE_PROCESS_EVENT_NVDECODE_FINISH", "NVDECODE finish"},
    {89, "TRACE_PROCESS_EVENT_NVJPEG", "nvJPEG"},
    {90, "TRACE_PROCESS_EVENT_NVJPEG_START", "nvJPEG start"},
    {91, "TRACE_PROCESS_EVENT_NVJPEG_FINISH", "nvJPEG finish"},
    {92, "TRACE_PROCESS_EVENT_DX12_BATCH_WORKLOAD", "DX12 batch workload"},
    {93, "TRACE_PROCESS_EVENT_VULKAN_BATCH_WORKLOAD", "Vulkan batch workload"},
    {94, "TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION", "CUDA graph exec creation"},
    {95, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION", "CUDA graph creation"},
    {96, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE", "CUDA graph clone"},
    {98, "TRACE_PROCESS_EVENT_OPENCL", "OpenCL event"},
    {99, "TRACE_PROCESS_EVENT_OPENCL_START", "OpenCL start"},
    {100, "TRACE_PROCESS_EVENT_OPENCL_FINISH", "OpenCL finish"},
    {101, "TRACE_PROCESS_EVENT_OPENCL_INIT_ERROR", "OpenCL Init error"},
    {102, "TRACE_PROCESS_EVENT_CUDA_JIT", "CUDA JIT"},
    {103, "TRACE_PROCESS_EVENT_CUDA_OVERHEAD", "CUDA overhead"},
    {104, "TRACE_PROCESS_EVENT_OPENXR", "OpenXR event"},
    {105, "TRACE_PROCESS_EVENT_OPENXR_START", "OpenXR start"},
    {106, "TRACE_PROCESS_EVENT_OPENXR_FINISH", "OpenXR finish"},
    {107, "TRACE_PROCESS_EVENT_SYSCALL", "Syscall"},
    {108, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL", "Tegra Internal API"},
    {109, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_START", "Tegra Internal API start"},
    {110, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_FINISH", "Tegra Internal API finish"},
    {111, "TRACE_PROCESS_EVENT_CUDA_GRAPH_EXEC_NODE_SET_PARAMS", "CUDA graph exec-node set params"},
};
const EnumRow kENUM_CUPTI_SYNC_TYPE_V2026[] = {
    {0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
    {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
    {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
    {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
    {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"},
};
const EnumRow kENUM_NSYS_EVENT_TYPE_V2024[] = {
    {0, "Unknown", "Unknown"},
    {1, "CpuCycles", "CpuCycles"},
    {2, "Instructions", "Instructions"},
    {3, "CacheReferences", "CacheReferences"},
    {4, "L1CacheDataWriteMisses", "L1CacheDataWriteMisses"},
    {5, "L1CacheDataReadMisses", "L1CacheDataReadMisses"},
    {6, "L1CacheInstructionMisses", "L1CacheInstructionMisses"},
    {7, "L2CacheDataWriteMisses", "L2CacheDataWriteMisses"},
    {8, "L2CacheDataReadMisses", "L2CacheDataReadMisses"},
    {9, "L2CacheInstructionMisses", "L2CacheInstructionMisses"},
    {10, "BranchInstructions", "BranchInstructions"},
    {11, "BranchMisses", "BranchMisses"},
    {12, "BusCycles", "BusCycles"},
    {13, "CpuClock", "CpuClock"},
    {14, "TaskClock", "TaskClock"},
    {15, "PageFault", "PageFault"},
    {16, "ContextSwitches", "ContextSwitches"},
    {17, "CpuMigrations", "CpuMigrations"},
    {18, "PageFaultsMin", "PageFaultsMin"},
    {19, "PageFaultsMax", "PageFaultsMax"},
    {20, "AlignmentFaults", "AlignmentFaults"},
    {21, "EmulationFaults", "EmulationFaults"},
    {22, "ThreadState", "ThreadState"},
    {23, "Frames", "Frames"},
    {24, "Annotations", "Annotations"},
    {25, "SchedSwitch", "SchedSwitch"},
    {26, "SchedWakeup", "SchedWakeup"},
    {27, "Command", "Command"},
    {28, "Mmap", "Mmap"},
    {29, "MemUsage", "MemUsage"},
    {30, "Emc", "Emc"},
    {31, "Composite", "Composite"},
    {32, "NvtxEvents", "NvtxEvents"},
    {33, "NvtxCategory", "NvtxCategory"},
    {34, "NvtxMark", "NvtxMark"},
    {35, "NvtxPushRange", "NvtxPushRange"},
    {36, "NvtxPopRange", "NvtxPopRange"},
    {37, "NvtxStartRange", "NvtxStartRange"},
    {38, "NvtxEndRange", "NvtxEndRange"},
    {39, "NvtxThread", "NvtxThread"},
    {40, "PowerRate", "PowerRate"},
    {41, "Sched", "Sched"},
    {42, "CpuCyclesSelf", "CpuCyclesSelf"},
    {43, "CpuCyclesTotal", "CpuCyclesTotal"},
    {44, "CpuCyclesSelfPlus", "CpuCyclesSelfPlus"},
    {45, "Cuda", "Cuda"},
    {46, "CudaDevice", "CudaDevice"},
    {47, "TraceProcess", "TraceProcess"},
    {48, "TraceFunctions", "TraceFunctions"},
    {49, "Diagnostic", "Diagnostic"},
    {50, "GlWorkload", "GlWorkload"},
    {51, "BandwidthUsage", "BandwidthUsage"},
    {52, "KhrDebugMark", "KhrDebugMark"},
    {53, "KhrDebugPushRange", "KhrDebugPushRange"},
    {54, "KhrDebugPopRange", "KhrDebugPopRange"},
    {55, "KhrDebugGpuMark", "KhrDebugGpuMark"},
    {56, "KhrDebugGpuPushRange", "KhrDebugGpuPushRange"},
    {57, "KhrDebugGpuPopRange", "KhrDebugGpuPopRange"},
    {58, "GpuCtxsw", "GpuCtxsw"},
    {59, "NvtxPushPopRange", "NvtxPushPopRange"},
    {60, "NvtxStartEndRange", "NvtxStartEndRange"},
    {61, "ProfTime", "ProfTime"},
    {62, "KhrDebugPushPopRange", "KhrDebugPushPopRange"},
    {63, "KhrDebugGpuPushPopRange", "KhrDebugGpuPushPopRange"},
    {64, "NvtxtCategory", "NvtxtCategory"},
    {65, "NvtxtMark", "NvtxtMark"},
    {66, "NvtxtPushRange", "NvtxtPushRange"},
    {67, "NvtxtPopRange", "NvtxtPopRange"},
    {68, "NvtxtStartRange", "NvtxtStartRange"},
    {69, "NvtxtEndRange", "NvtxtEndRange"},
    {70, "NvtxtPushPopRange", "NvtxtPushPopRange"},
    {71, "NvtxtStartEndRange", "NvtxtStartEndRange"},
    {72, "NvtxtMetaThread", "NvtxtMetaThread"},
    {73, "NvtxtMetaProcess", "NvtxtMetaProcess"},
    {74, "NvtxtMetaFileDisplay", "NvtxtMetaFileDisplay"},
    {75, "NvtxDomainCreate", "NvtxDomainCreate"},
    {76, "NvtxDomainDestroy", "NvtxDomainDestroy"},
    {77, "NvnGpuCmdBuf", "NvnGpuCmdBuf"},
    {78, "TraceVSync", "TraceVSync"},
    {79, "CudaDeviceKernel", "CudaDeviceKernel"},
    {80, "CudaDeviceMemory", "CudaDeviceMemory"},
    {81, "Pmu", "Pmu"},
    {82, "NvnGpuDraw", "NvnGpuDraw"},
    {83, "NvnGpuCompute", "NvnGpuCompute"},
    {84, "NvnGpuDebug", "NvnGpuDebug"},
    {85, "OS runtime libraries", "OS runtime libraries"},
    {86, "CuDNN", "CuDNN"},
    {87, "CuBLAS", "CuBLAS"},
    {88, "NvMedia", "NvMedia"},
    {89, "OpenACC", "OpenACC"},
    {90, "Correlation", "Correlation"},
    {91, "DX12", "DX12"},
    {92, "DX12Workload", "DX12Workload"},
    {93, "PmuRawEvent", "PmuRawEvent"},
    {94, "GraphicsFrame", "GraphicsFrame"},
    {95, "Vulkan", "Vulkan"},
    {96, "VulkanWorkload", "VulkanWorkload"},
    {97, "NvtxNameCudaDevice", "NvtxNameCudaDevice"},
    {98, "NvtxNameCudaContext", "NvtxNameCudaContext"},
    {99, "NvtxNameCudaStream", "NvtxNameCudaStream"},
    {100, "SystemEvent", "SystemEvent"},
    {101, "GpuMemoryEvent", "GpuMemoryEvent"},
    {102, "DX12CreateObject", "DX12CreateObject"},
    {103, "VulkanCreateObject", "VulkanCreateObject"},
    {104, "UnitTraceEvent", "UnitTraceEvent"},
    {105, "CustomETWEvent", "CustomETWEvent"},
    {106, "CudaSyncEvent", "CudaSyncEvent"},
    {107, "SLIEvent", "SLIEvent"},
    {108, "CudaBacktrace", "CudaBacktrace"},
    {109, "WddmEvent", "WddmEvent"},
    {110, "DX11", "DX11"},
    {111, "DX11CreateObject", "DX11CreateObject"},
    {112, "DXGI", "DXGI"},
    {113, "CudaGraphNodeCreation", "CudaGraphNodeCreation"},
    {114, "OpenMP", "OpenMP"},
    {115, "UncorePmuEvent", "UncorePmuEvent"},
    {116, "UncorePmuCarmel", "UncorePmuCarmel"},
    {117, "CudaDeviceMemoryUsage", "CudaDeviceMemoryUsage"},
    {118, "ETWDxgKrnlEvent", "ETWDxgKrnlEvent"},
    {119, "CudaUvmCpuPageFaultEvent", "CudaUvmCpuPageFaultEvent"},
    {120, "CudaUvmGpuPageFaultEvent", "CudaUvmGpuPageFaultEvent"},
    {121, "NICMetricsValuesEvent", "NICMetricsValuesEvent"},
    {122, "NICMetricsListEvent", "NICMetricsListEvent"},
    {123, "InterruptHandler", "InterruptHandler"},
    {124, "NVENC", "NVENC"},
    {125, "NVDEC", "NVDEC"},
    {126, "nvJPEG", "nvJPEG"},
    {127, "CudaEventRecord", "CudaEventRecord"},
    {128, "PerfEventCountEvent", "PerfEventCountEvent"},
    {129, "CudaDeviceMemoryPool", "CudaDeviceMemoryPool"},
    {130, "CudaDeviceGraph", "CudaDeviceGraph"},
    {131, "CudaGraphExecCreation", "CudaGraphExecCreation"},
    {132, "CudaGraphCreation", "CudaGraphCreation"},
    {133, "CudaGraphClone", "CudaGraphClone"},
    {134, "GpuMemoryTransferEvent", "GpuMemoryTransferEvent"},
    {135, "GlTrace", "GlTrace"},
    {136, "GpuVideoEngineWorkload", "GpuVideoEngineWorkload"},
    {137, "IBSwitchMetricsValuesEvent", "IBSwitchMetricsValuesEvent"},
    {138, "GenericEvent", "GenericEvent"},
    {139, "UncorePmuT23xScf", "UncorePmuT23xScf"},
    {140, "UncorePmuT23xDsu", "UncorePmuT23xDsu"},
    {141, "IBSwitchCongestionEvent", "IBSwitchCongestionEvent"},
    {142, "CudaDeviceMemcpy", "CudaDeviceMemcpy"},
    {143, "PerfMetricValueEvent", "PerfMetricValueEvent"},
    {144, "OpenXREvent", "OpenXREvent"},
    {145, "TegraInternalEvent", "TegraInternalEvent"},
    {146, "OSRuntimeStartStop", "OSRuntimeStartStop"},
};
const EnumRow kENUM_NSYS_EVENT_CLASS_V2024[] = {
    {0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
    {1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"},
    {2, "TRACE_PROCESS_EVENT_GL", "GL"},
    {3, "TRACE_PROCESS_EVENT_TSP_OVERHEAD", "TSP overhead"},
    {4, "TRACE_PROCESS_EVENT_GL_DEBUG", "GL debug"},
    {5, "TRACE_PROCESS_EVENT_GL_WORKLOAD", "GL workload"},
    {6, "TRACE_PROCESS_EVENT_NVTX_START", "NVTX start"},
    {7, "TRACE_PROCESS_EVENT_NVTX_FINISH", "NVTX finish"},
    {8, "TRACE_PROCESS_EVENT_GL_START", "GL start"},
    {9, "TRACE_PROCESS_EVENT_GL_FINISH", "GL finish"},
    {10, "TRACE_PROCESS_EVENT_CUDA_START", "CUDA start"},
    {11, "TRACE_PROCESS_EVENT_CUDA_FINISH", "CUDA finish"},
    {12, "TRACE_PROCESS_EVENT_CUDA_INIT_ERROR", "CUDA init error"},
    {13, "TRACE_PROCESS_EVENT_CUDA_EGL_DRIVER", "CUDA EGL driver"},
    {18, "TRACE_PROCESS_EVENT_VSYNC", "Vsync"},
    {26, "TRACE_PROCESS_EVENT_CUDA_API", "CUDA API"},
    {27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"},
    {28, "TRACE_PROCESS_EVENT_CUDNN", "cuDNN"},
    {29, "TRACE_PROCESS_EVENT_CUBLAS", "cuBLAS"},
    {31, "TRACE_PROCESS_EVENT_OS_RUNTIME_START", "OSRT start"},
    {32, "TRACE_PROCESS_EVENT_OS_RUNTIME_FINISH", "OSRT finish"},
    {33, "TRACE_PROCESS_EVENT_CUDNN_START", "cuDNN start"},
    {34, "TRACE_PROCESS_EVENT_CUDNN_FINISH", "cuDNN finish"},
    {35, "TRACE_PROCESS_EVENT_CUBLAS_START", "cuBLAS start"},
    {36, "TRACE_PROCESS_EVENT_CUBLAS_FINISH", "cuBLAS finish"},
    {37, "TRACE_PROCESS_EVENT_THREAD_BLOCK", "Thread block"},
    {38, "TRACE_PROCESS_EVENT_NVMEDIA", "NVmedia"},
    {39, "TRACE_PROCESS_EVENT_NVMEDIA_START", "NVmedia start"},
    {40, "TRACE_PROCESS_EVENT_NVMEDIA_FINISH", "NVmedia finish"},
    {41, "TRACE_PROCESS_EVENT_DX12_API", "DX12 API"},
    {42, "TRACE_PROCESS_EVENT_DX12_WORKLOAD", "DX12 workload"},
    {43, "TRACE_PROCESS_EVENT_DX12_START", "DX12 start"},
    {44, "TRACE_PROCESS_EVENT_DX12_FINISH", "DX12 finish"},
    {45, "TRACE_PROCESS_EVENT_OPENACC_START", "OpenACC start"},
    {46, "TRACE_PROCESS_EVENT_OPENACC_FINISH", "OpenACC finish"},
    {47, "TRACE_PROCESS_EVENT_OPENACC_INIT_ERROR", "OpenACC init error"},
    {48, "TRACE_PROCESS_EVENT_OPENACC", "OpenACC"},
    {49, "TRACE_PROCESS_EVENT_CPU_FPS", "CPU FPS"},
    {50, "TRACE_PROCESS_EVENT_GPU_FPS", "GPU FPS"},
    {51, "TRACE_PROCESS_EVENT_GL_MULTI_ERROR", "GL multi-error"},
    {52, "TRACE_PROCESS_EVENT_DX12_DISPLAY", "DX12 display"},
    {53, "TRACE_PROCESS_EVENT_VULKAN_API", "Vulkan API"},
    {54, "TRACE_PROCESS_EVENT_VULKAN_WORKLOAD", "Vulkan workload"},
    {55, "TRACE_PROCESS_EVENT_VULKAN_START", "Vulkan start"},
    {56, "TRACE_PROCESS_EVENT_VULKAN_FINISH", "Vulkan finish"},
    {57, "TRACE_PROCESS_EVENT_SYSTEM_EVENT", "System event"},
    {58, "TRACE_PROCESS_EVENT_GPU_MEMORY", "GPU memory"},
    {59, "TRACE_PROCESS_EVENT_DX12_CREATE_OBJECT", "DX12 create object"},
    {60, "TRACE_PROCESS_EVENT_VULKAN_CREATE_OBJECT", "Vulkan create object"},
    {61, "TRACE_PROCESS_EVENT_CUSTOM_ETW_TRACE", "Custom ETW trace"},
    {62, "TRACE_PROCESS_EVENT_SLI", "SLI"},
    {63, "TRACE_PROCESS_EVENT_SLI_START", "SLI start"},
    {64, "TRACE_PROCESS_EVENT_SLI_FINISH", "SLI finish"},
    {65, "TRACE_PROCESS_EVENT_DX12_DEBUG_API", "DX12 debug API"},
    {66, "TRACE_PROCESS_EVENT_VULKAN_DEBUG_API", "Vulkan debug API"},
    {67, "TRACE_PROCESS_EVENT_CUDABACKTRACE", "CUDA backtrace"},
    {68, "TRACE_PROCESS_EVENT_CUDABACKTRACE_START", "CUDA backtrace start"},
    {69, "TRACE_PROCESS_EVENT_CUDABACKTRACE_FINISH", "CUDA backtrace finish"},
    {70, "TRACE_PROCESS_EVENT_WDDM", "WDDM"},
    {71, "TRACE_PROCESS_EVENT_DX11_API", "DX11 API"},
    {72, "TRACE_PROCESS_EVENT_DX11_START", "DX11 start"},
    {73, "TRACE_PROCESS_EVENT_DX11_FINISH", "DX11 finish"},
    {74, "TRACE_PROCESS_EVENT_DX11_CREATE_OBJECT", "DX11 create object"},
    {75, "TRACE_PROCESS_EVENT_DX11_DEBUG_API", "DX11 debug API"},
    {76, "TRACE_PROCESS_EVENT_DXCOMMON_API", "DX common API"},
    {77, "TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION", "CUDA graph node creation"},
    {78, "TRACE_PROCESS_EVENT_OPENMP", "OpenMP"},
    {79, "TRACE_PROCESS_EVENT_OPENMP_START", "OpenMP start"},
    {80, "TRACE_PROCESS_EVENT_OPENMP_FINISH", "OpenMP finish"},
    {81, "TRACE_PROCESS_EVENT_NVAPI", "NV API"},
    {82, "TRACE_PROCESS_EVENT_ETWDXGKRNL", "ETW DXG KRNL"},
    {83, "TRACE_PROCESS_EVENT_NVENC", "NVENC"},
    {84, "TRACE_PROCESS_EVENT_NVENC_START", "NVENC start"},
    {85, "TRACE_PROCESS_EVENT_NVENC_FINISH", "NVENC finish"},
    {86, "TRACE_PROCESS_EVENT_NVDEC", "NVDEC"},
    {87, "TRACE_PROCESS_EVENT_NVDEC_START", "NVDEC start"},
    {88, "TRACE_PROCESS_EVENT_NVDEC_FINISH", "NVDEC finish"},
    {89, "TRACE_PROCESS_EVENT_NVJPEG", "nvJPEG"},
    {90, "TRACE_PROCESS_EVENT_NVJPEG_START", "nvJPEG start"},
    {91, "TRACE_PROCESS_EVENT_NVJPEG_FINISH", "nvJPEG finish"},
    {92, "TRACE_PROCESS_EVENT_DX12_BATCH_WORKLOAD", "DX12 batch workload"},
    {93, "TRACE_PROCESS_EVENT_VULKAN_BATCH_WORKLOAD", "Vulkan batch workload"},
    {94, "TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION", "CUDA graph exec creation"},
    {95, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION", "CUDA graph creation"},
    {96, "TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE", "CUDA graph clone"},
    {107, "TRACE_PROCESS_EVENT_SYSCALL", "Syscall"},
    {108, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL", "Tegra Internal API"},
    {109, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_START", "Tegra Internal API start"},
    {110, "TRACE_PROCESS_EVENT_TEGRA_INTERNAL_FINISH", "Tegra Internal API finish"},
};
const EnumRow kENUM_CUPTI_SYNC_TYPE_V2024[] = {
    {0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
    {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
    {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
    {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
    {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"},
};

// DDL copied verbatim from the Nsight Systems schema dump ddl-2026.2.1.210-schema3.25.0.sql (the project's shared data, schema/) (table order as there).
const char* const kDdl_V2026 = R"SQL(
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT,                                  -- Start of the capture in local time of target.
    systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
);
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    deprecatedSyncType          INTEGER,                               -- Deprecated, use syncType instead. For older report, REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    syncType                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    eventId                     INTEGER   NOT NULL,                    -- Event ID for which the synchronization API is called.
    eventSyncId                 INTEGER                                -- CUDA Event Sync ID to link the synchronization API to associated event record API.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
    shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
    mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
    launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)
    cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
    registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
    gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
    gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
    gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
    blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
    blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
    blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
    staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
    dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
    localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
    localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
    gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
    sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    sharedMemoryLimitConfig     INTEGER,                               -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
    qmdBulkReleaseDone          INTEGER,                               -- QMD bulk release done timestamp from CWD events.
    qmdPreexitDone              INTEGER,                               -- QMD pre-exit done timestamp from CWD events.
    qmdLastCtaDone              INTEGER,                               -- QMD last CTA done timestamp from CWD events.
    graphId                     INTEGER,                               -- Kernel graph ID.
    clusterX                    INTEGER,                               -- Cluster X dimension.
    clusterY                    INTEGER,                               -- Cluster Y dimension.
    clusterZ                    INTEGER,                               -- Cluster Z dimension.
    clusterSchedulingPolicy     INTEGER,                               -- Cluster scheduling policy.
    maxPotentialClusterSize     INTEGER,                               -- Maximum potential cluster size.
    maxActiveClusters           INTEGER,                               -- Maximum active clusters.
    sharedMemoryRequestedPercentage   INTEGER,                         -- Shared memory requested percentage.
    tensorSizeMinusOneElements   TEXT      NOT NULL                    -- TMA descriptor tensor size minus one elements array.
);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    callchainId                 INTEGER                                -- REFERENCES CUDA_CALLCHAINS(id)
);
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
    flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    -- Nsys event type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    -- Nsys event class labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    -- CUPTI synchronization type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
)SQL";

// DDL copied verbatim from the Nsight Systems schema dump ddl-2024.5.1.113-schema3.13.2.sql (the project's shared data, schema/) (table order as there).
const char* const kDdl_V2024 = R"SQL(
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
);
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    callchainId                 INTEGER                                -- REFERENCES CUDA_CALLCHAINS(id)
);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
    shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
    mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
    launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)
    cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
    registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
    gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
    gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
    gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
    blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
    blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
    blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
    staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
    dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
    localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
    localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
    gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
    sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    sharedMemoryLimitConfig     INTEGER                                -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    syncType                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    eventId                     INTEGER   NOT NULL                     -- Event ID for which the synchronization API is called.
);
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
    flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    -- Nsys event type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    -- Nsys event class labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    -- CUPTI synchronization type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
)SQL";
// The 2024.5.1 dump has no NVTX_EVENTS (that capture had no NVTX). The nearest version with the table
// among the dumps is 2026.2.1 (the 2023.3/2023.4/2026.1 dumps lack it too; 2022.2 is an older layout
// without binaryData), so its statement is used for the 2024.5 layout.
const char* const kDdl_V2024_NVTX = R"SQL(
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);
)SQL";

// Seeded RNG with our own mapping to ranges: identical sequences on every standard library.
class Rng {
public:
    explicit Rng(uint64_t seed) : g_(seed) {}
    int64_t uni(int64_t lo, int64_t hi) {  // inclusive, hi >= lo
        if (hi <= lo) return lo;
        const uint64_t span = uint64_t(hi - lo) + 1;
        return lo + int64_t(g_() % span);
    }

private:
    std::mt19937_64 g_;
};

// ----------------------------------------------------------------------------------------------
// Kernels

struct Kind {
    std::string name, shortName, mangled;
    bool gemm = false;
    int regs = 32, gx = 1, gy = 1, gz = 1, bx = 128, by = 1, bz = 1;
    int staticSmem = 0, dynSmem = 0, smemExecuted = 32768, limitConfig = 0;
    int64_t localTotal = 250871808;
    int cx = 0, cy = 0, cz = 0, cpolicy = 1, cmaxPot = 0, cmaxActive = 0;
    int64_t minDur = 10 * kUs, maxDur = 60 * kUs;
};

Kind gemmKind(const char* name, const char* shortName, const char* mangled, int regs, int gx, int gy,
              int bx, int dyn, int cx, int64_t minDur, int64_t maxDur) {
    Kind k;
    k.name = name;
    k.shortName = shortName;
    k.mangled = mangled;
    k.gemm = true;
    k.regs = regs;
    k.gx = gx;
    k.gy = gy;
    k.bx = bx;
    k.dynSmem = dyn;
    k.smemExecuted = 233472;
    k.limitConfig = 1;
    k.localTotal = 291962880;
    if (cx > 0) {
        k.cx = cx;
        k.cy = 1;
        k.cz = 1;
        k.cmaxPot = 16;
        k.cmaxActive = 66;
    }
    k.minDur = minDur;
    k.maxDur = maxDur;
    return k;
}

Kind elemKind(const char* name, const char* shortName, const char* mangled, int regs, int gx, int bx,
              int by, int64_t minDur, int64_t maxDur) {
    Kind k;
    k.name = name;
    k.shortName = shortName;
    k.mangled = mangled;
    k.regs = regs;
    k.gx = gx;
    k.bx = bx;
    k.by = by;
    k.minDur = minDur;
    k.maxDur = maxDur;
    return k;
}

constexpr int kGemmKinds = 4;  // compute kinds 0..3 are GEMMs, 4..7 elementwise/reductions
constexpr int kElemKinds = 4;

std::vector<Kind> computeKinds() {
    std::vector<Kind> v;
    v.push_back(gemmKind(
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
        "segment_k_off_kernel__5x_cublas",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
        "segment_k_off_kernel__5x_cublas",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
        "segment_k_off_kernel__5x_cublas",
        168, 132, 1, 384, 213248, 1, 80 * kUs, 450 * kUs));
    v.push_back(gemmKind(
        "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>("
        "cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)",
        "Kernel2",
        "_ZN7cutlass7Kernel2I68cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8EEvNT_"
        "6ParamsE",
        122, 64, 16, 128, 69632, 0, 60 * kUs, 300 * kUs));
    v.push_back(gemmKind("nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN", "nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN",
                         "nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTN", 168, 132, 1, 384, 197632, 2,
                         100 * kUs, 600 * kUs));
    v.push_back(gemmKind("nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN",
                         "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN",
                         "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", 168, 132, 1, 384, 221184, 2,
                         100 * kUs, 500 * kUs));
    v.push_back(elemKind(
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char *, "
        "1ul>>(int, at::native::FillFunctor<float>, std::array<char *, 1ul>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_", 16,
        1024, 128, 1, 10 * kUs, 40 * kUs));
    v.push_back(elemKind(
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
        "std::array<char *, 3ul>>(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char *, 3ul>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIN3c108BFloat16EEESt5arrayIPcLm3EEE"
        "EviT0_T1_",
        20, 2048, 128, 1, 12 * kUs, 60 * kUs));
    v.push_back(elemKind(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
        "float, float>, unsigned int, float, 4, 4>>(T3)",
        "reduce_kernel",
        "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOpsIffffEEjfLi4ELi4EEEEEvT1_", 32, 264,
        32, 16, 10 * kUs, 50 * kUs));
    v.push_back(elemKind(
        "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, false>(int, "
        "float, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
        "vectorized_layer_norm_kernel",
        "_ZN2at6native12_GLOBAL__N_128vectorized_layer_norm_kernelIN3c108BFloat16EfLb0EEEviT0_PKT_S8_S8_PS5_S9_"
        "S7_",
        30, 8192, 32, 4, 15 * kUs, 55 * kUs));
    return v;
}

const char* const kOpNames[4] = {"AllGather", "ReduceScatter", "AllReduce", "SendRecv"};
const char* const kNvtxNcclNames[4] = {"ncclAllGather", "ncclReduceScatter", "ncclAllReduce", "ncclSend"};
const char* const kNewNcclNames[4] = {
    "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"};
const char* const kOldNcclNames[4] = {
    "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)",
    "ncclKernel_ReduceScatter_RING_LL_Sum_bf16(ncclWorkElem)",
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
    "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"};
const char* const kGenericNcclName = "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)";
const int64_t kTransferMin[4] = {400 * kUs, 600 * kUs, 1000 * kUs, 300 * kUs};
const int64_t kTransferMax[4] = {1500 * kUs, 2000 * kUs, 3000 * kUs, 1000 * kUs};

Kind ncclKind(const GenConfig& cfg, int op) {
    Kind k;
    k.name = cfg.genericNcclNames ? kGenericNcclName : cfg.oldKernelNames ? kOldNcclNames[op] : kNewNcclNames[op];
    k.shortName = k.name.substr(0, k.name.find('('));
    const bool old = !cfg.genericNcclNames && cfg.oldKernelNames;
    k.mangled = "_Z" + std::to_string(k.shortName.size()) + k.shortName +
                (old ? "12ncclWorkElem" : "24ncclDevKernelArgsStorageILm4096EE");
    k.regs = 96;
    k.gx = op == 3 ? 2 : 32;
    k.bx = 640;
    k.staticSmem = 21568;
    k.dynSmem = 82240;
    k.smemExecuted = 135168;
    k.limitConfig = 1;
    k.localTotal = 787218432;
    k.cx = 4;
    k.cy = 1;
    k.cz = 1;
    k.cmaxPot = 8;
    k.cmaxActive = 30;
    return k;
}

// ----------------------------------------------------------------------------------------------
// Output database

struct KRow {
    int64_t start, end;  // file clock
    int32_t kind;
    int32_t stream;
    uint32_t corr;
    int64_t gridId;
};

struct RankInfo {
    int idx = 0, file = 0, pid = 0, device = 0, context = 1;
    uint64_t gpid = 0, gtidMain = 0, gtidOther = 0;
    int streams[3] = {kFsdpStream, kAllReduceStreamBase, kSendRecvStream};
    int64_t shift = 0;     // utcEpochNs(file) - min utcEpochNs
    int64_t clockErr = 0;  // host clock error of the file
};

// Multi-row INSERT of integer rows: `rowsPerBatch` rows per statement execution (much faster than
// one row per sqlite3_step), single-row statement for the remainder. kNoValue binds NULL.
class BatchInsert {
public:
    void init(sqlite3* db, const std::string& path, const std::string& head, const std::string& rowValues,
              int params, int rowsPerBatch) {
        db_ = db;
        path_ = &path;
        params_ = params;
        rows_ = rowsPerBatch;
        std::string many = head;
        for (int i = 0; i < rowsPerBatch; ++i) many += (i ? ", " : "") + rowValues;
        one_ = prepare(head + rowValues);
        many_ = prepare(many);
        buf_.reserve(size_t(params) * size_t(rowsPerBatch));
    }
    ~BatchInsert() { finalize(); }
    void finalize() {
        if (one_) sqlite3_finalize(one_);
        if (many_) sqlite3_finalize(many_);
        one_ = many_ = nullptr;
    }
    // Rows held until flushOrdered(), then written in order of their first value (the start).
    void setOrdered(bool on) { ordered_ = on; }
    // Appends one row of `params` values.
    void add(std::initializer_list<int64_t> values) {
        if (ordered_) {
            pending_.insert(pending_.end(), values.begin(), values.end());
            return;
        }
        append(values.begin());
    }
    // The held rows, sorted by start (stable), written.
    void flushOrdered() {
        const size_t n = pending_.size() / size_t(params_);
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return pending_[a * size_t(params_)] < pending_[b * size_t(params_)]; });
        for (size_t i : order) append(pending_.data() + i * size_t(params_));
        pending_.clear();
    }
    void flush() {
        flushOrdered();
        for (size_t i = 0; i < buf_.size(); i += size_t(params_)) bindAll(one_, buf_.data() + i, params_);
        buf_.clear();
    }

private:
    void append(const int64_t* values) {
        buf_.insert(buf_.end(), values, values + params_);
        if (buf_.size() == size_t(params_) * size_t(rows_)) {
            bindAll(many_, buf_.data(), params_ * rows_);
            buf_.clear();
        }
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error("skewgen: " + *path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql.substr(0, 200));
        return s;
    }
    void bindAll(sqlite3_stmt* s, const int64_t* v, int n) {
        for (int i = 0; i < n; ++i) {
            if (v[i] == kNoValue)
                sqlite3_bind_null(s, i + 1);
            else
                sqlite3_bind_int64(s, i + 1, v[i]);
        }
        if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error("skewgen: " + *path_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }

    sqlite3* db_ = nullptr;
    const std::string* path_ = nullptr;
    int params_ = 0, rows_ = 0;
    sqlite3_stmt *one_ = nullptr, *many_ = nullptr;
    std::vector<int64_t> buf_;
    bool ordered_ = false;
    std::vector<int64_t> pending_;
};

class Db {
public:
    Db(const std::string& path, Layout layout, const std::vector<Kind>& kinds)
        : path_(path), layout_(layout), kinds_(kinds) {
        std::remove(path.c_str());
        std::remove((path + "-journal").c_str());
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK) {
            std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
            throw std::runtime_error("skewgen: cannot create " + path + ": " + msg);
        }
        // One connection per file, used by one thread: no mutexes (SQLITE_OPEN_NOMUTEX), no journal.
        exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
             "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384;");
        if (layout == Layout::V2026_2) {
            exec(kDdl_V2026);
        } else {
            exec(kDdl_V2024);
            exec(kDdl_V2024_NVTX);
        }
        exec("BEGIN");
        const bool v26 = layout == Layout::V2026_2;
        str_ = prepare("INSERT INTO StringIds(id, value) VALUES(?1, ?2)");
        // Columns left out are NULL (graphNodeId, qmd*, graphId, sharedMemoryRequestedPercentage).
        kernel_.init(db_, path_,
                     std::string("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, ") +
                         (v26 ? "greenContextId, " : "") +
                         "streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, "
                         "cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                         "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, "
                         "sharedMemoryExecuted, sharedMemoryLimitConfig" +
                         (v26 ? ", clusterX, clusterY, clusterZ, clusterSchedulingPolicy, maxPotentialClusterSize, "
                                "maxActiveClusters, tensorSizeMinusOneElements"
                              : "") +
                         ") VALUES ",
                     std::string("(?, ?, ?, ?, ") + (v26 ? "0, " : "") +
                         "?, ?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?" +
                         (v26 ? ", ?, ?, ?, ?, ?, ?, '[]'" : "") + ")",
                     v26 ? 29 : 23, 32);
        runtime_.init(db_, path_,
                      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass, globalTid, correlationId, "
                      "nameId, returnValue, callchainId) VALUES ",
                      "(?, ?, ?, ?, ?, ?, 0, ?)", 7, 64);
        sync_.init(db_, path_,
                   std::string("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start, end, deviceId, contextId, ") +
                       (v26 ? "greenContextId, " : "") + "streamId, correlationId, globalPid, syncType, eventId" +
                       (v26 ? ", eventSyncId" : "") + ") VALUES ",
                   std::string("(?, ?, ?, ?, ") + (v26 ? "0, " : "") + "?, ?, ?, ?, ?" + (v26 ? ", ?" : "") + ")",
                   v26 ? 10 : 9, 64);
        nvtx_.init(db_, path_,
                   "INSERT INTO NVTX_EVENTS(start, end, eventType, globalTid, textId, domainId) VALUES ",
                   "(?, ?, ?, ?, ?, ?)", 6, 64);
        nvtxText_ = prepare(
            "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, textId, domainId) "
            "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        for (const Kind& k : kinds) {
            kindName.push_back(intern(k.name));
            kindShort.push_back(intern(k.shortName));
            kindMangled.push_back(intern(k.mangled));
        }
        sLaunchKernel = intern("cudaLaunchKernel_v7000");
        sLaunchKernelEx = intern("cuLaunchKernelEx");
        sBtLaunchKernel = intern("cudaLaunchKernel");
        sBtLaunchKernelEx = intern("cuLaunchKernelEx");  // backtrace rows: API name without version suffix
        sStreamWait = intern("cudaStreamWaitEvent_v3020");
        sStreamSync = intern("cudaStreamSynchronize_v3020");
        sEventQuery = intern("cudaEventQuery_v3020");
        for (int op = 0; op < 4; ++op) sNvtxNccl[op] = intern(kNvtxNcclNames[op]);
    }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    ~Db() {
        closeStatements();
        if (db_) sqlite3_close(db_);
        if (!committed_) std::remove(path_.c_str());
    }

    void exec(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : "unknown error";
            sqlite3_free(err);
            throw std::runtime_error("skewgen: " + path_ + ": " + msg);
        }
    }
    void exec(const std::string& sql) { exec(sql.c_str()); }

    int64_t intern(const std::string& v) {
        auto it = strings_.find(v);
        if (it != strings_.end()) return it->second;
        const int64_t id = int64_t(strings_.size()) + 1;
        strings_.emplace(v, id);
        sqlite3_bind_int64(str_, 1, id);
        sqlite3_bind_text(str_, 2, v.data(), int(v.size()), SQLITE_TRANSIENT);
        step(str_);
        return id;
    }

    void kernel(const RankInfo& r, const KRow& k) {
        const size_t ki = size_t(k.kind);
        const Kind& kind = kinds_[ki];
        if (layout_ == Layout::V2026_2)
            kernel_.add({k.start, k.end, r.device, r.context, k.stream, k.corr, int64_t(r.gpid), kindName[ki],
                         kindShort[ki], kindMangled[ki], kind.regs, kind.gx, kind.gy, kind.gz, kind.bx, kind.by,
                         kind.bz, kind.staticSmem, kind.dynSmem, kind.localTotal, k.gridId, kind.smemExecuted,
                         kind.limitConfig, kind.cx, kind.cy, kind.cz, kind.cpolicy, kind.cmaxPot, kind.cmaxActive});
        else
            kernel_.add({k.start, k.end, r.device, r.context, k.stream, k.corr, int64_t(r.gpid), kindName[ki],
                         kindShort[ki], kindMangled[ki], kind.regs, kind.gx, kind.gy, kind.gz, kind.bx, kind.by,
                         kind.bz, kind.staticSmem, kind.dynSmem, kind.localTotal, k.gridId, kind.smemExecuted,
                         kind.limitConfig});
        ++kernelRows;
        noteTime(k.end);
    }

    void runtime(int64_t start, int64_t end, int eventClass, uint64_t gtid, uint32_t corr, int64_t nameId,
                 int64_t callchain = kNoValue) {
        runtime_.add({start, end, eventClass, int64_t(gtid), corr, nameId, callchain});
        ++runtimeRows;
        noteTime(end);
    }

    void sync(int64_t start, int64_t end, const RankInfo& r, int stream, uint32_t corr, int syncType,
              int64_t eventId, int64_t eventSyncId) {
        if (layout_ == Layout::V2026_2)
            sync_.add({start, end, r.device, r.context, stream, corr, int64_t(r.gpid), syncType, eventId, eventSyncId});
        else
            sync_.add({start, end, r.device, r.context, stream, corr, int64_t(r.gpid), syncType, eventId});
        ++syncRows;
        noteTime(end);
    }

    // NVTX row without inline text (registered string textId, or a domain row). end/textId kNoValue: NULL.
    void nvtx(int64_t start, int64_t end, int eventType, uint64_t gtid, int64_t textId, int domainId) {
        nvtx_.add({start, end, eventType, int64_t(gtid), textId, domainId});
        ++nvtxRows;
        noteTime(end == kNoValue ? start : end);
    }

    // NVTX row with inline text. end kNoValue: NULL.
    void nvtxText(int64_t start, int64_t end, int eventType, const std::string& text, uint64_t gtid, int domainId) {
        sqlite3_stmt* s = nvtxText_;
        sqlite3_bind_int64(s, 1, start);
        if (end == kNoValue)
            sqlite3_bind_null(s, 2);
        else
            sqlite3_bind_int64(s, 2, end);
        sqlite3_bind_int64(s, 3, eventType);
        sqlite3_bind_text(s, 4, text.data(), int(text.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(s, 5, int64_t(gtid));
        sqlite3_bind_null(s, 6);
        sqlite3_bind_int64(s, 7, domainId);
        step(s);
        ++nvtxRows;
        noteTime(end == kNoValue ? start : end);
    }

    // Each table's rows from now on held per step and written in start order (flushStep).
    void setTimeOrdered() {
        for (BatchInsert* b : {&kernel_, &runtime_, &sync_, &nvtx_}) b->setOrdered(true);
    }
    void flushStep() {
        for (BatchInsert* b : {&kernel_, &runtime_, &sync_, &nvtx_}) b->flushOrdered();
    }

    void commit() {
        kernel_.flush();
        runtime_.flush();
        sync_.flush();
        nvtx_.flush();
        exec("COMMIT");
        closeStatements();
        if (sqlite3_close(db_) != SQLITE_OK) throw std::runtime_error("skewgen: cannot close " + path_);
        db_ = nullptr;
        committed_ = true;
    }

    int64_t maxTime() const { return maxTime_; }

    std::vector<int64_t> kindName, kindShort, kindMangled;
    int64_t sLaunchKernel = 0, sLaunchKernelEx = 0, sBtLaunchKernel = 0, sBtLaunchKernelEx = 0, sStreamWait = 0,
            sStreamSync = 0, sEventQuery = 0;
    int64_t sNvtxNccl[4] = {0, 0, 0, 0};
    uint64_t kernelRows = 0, runtimeRows = 0, nvtxRows = 0, syncRows = 0;

private:
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error("skewgen: " + path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql);
        return s;
    }
    void step(sqlite3_stmt* s) {
        if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error("skewgen: " + path_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }
    void closeStatements() {
        kernel_.finalize();
        runtime_.finalize();
        sync_.finalize();
        nvtx_.finalize();
        for (sqlite3_stmt** s : {&str_, &nvtxText_}) {
            if (*s) sqlite3_finalize(*s);
            *s = nullptr;
        }
    }
    void noteTime(int64_t t) { maxTime_ = std::max(maxTime_, t); }

    std::string path_;
    Layout layout_;
    const std::vector<Kind>& kinds_;
    sqlite3* db_ = nullptr;
    sqlite3_stmt *str_ = nullptr, *nvtxText_ = nullptr;
    BatchInsert kernel_, runtime_, sync_, nvtx_;
    std::unordered_map<std::string, int64_t> strings_;
    int64_t maxTime_ = 0;
    bool committed_ = false;
};

std::string utcString(int64_t epochNs) {
    std::time_t secs = std::time_t(epochNs / 1'000'000'000LL);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

std::string sqlQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += '\'';
        out += c;
    }
    return out + "'";
}

std::string fileStem(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::string ext = ".sqlite";
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        name.resize(name.size() - ext.size());
    return name;
}

void writeStaticTables(Db& db, Layout layout, int64_t utcEpochNs, const std::string& stem,
                       const std::vector<const RankInfo*>& ranks) {
    const bool v26 = layout == Layout::V2026_2;
    const char* version = v26 ? "2026.2.1.210" : "2024.5.1.113";
    const char* schema = v26 ? "3.25.0" : "3.13.2";
    const std::pair<const char*, std::string> meta[] = {
        {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
        {"EXPORT_PRODUCT_VERSION", version},
        {"EXPORT_PRODUCT_DATE", v26 ? "2026.2" : "2024.5"},
        {"EXPORT_SCHEMA_VERSION", schema},
        {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
        {"EXPORT_SCHEMA_VERSION_MINOR", v26 ? "25" : "13"},
        {"EXPORT_SCHEMA_VERSION_MICRO", v26 ? "0" : "2"},
        {"EXPORT_PLATFORM", "linux-desktop"},
        {"EXPORT_ARCH", "x64"},
        {"EXPORT_PARAM_INPUT_FILE", stem + ".nsys-rep"},
        {"EXPORT_PARAM_OUTPUT_FILE", stem + ".sqlite"},
        {"EXPORT_PARAM_LAZY", "true"},
        {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
        {"EXPORT_PARAM_TIME_SHIFT", "0"},
        {"DERIVED_BY", "skewgen (synthetic export, Skewscope tests/gen)"},
    };
    std::string sql;
    for (const auto& m : meta)
        sql += "INSERT INTO META_DATA_EXPORT(name, value) VALUES(" + sqlQuote(m.first) + ", " + sqlQuote(m.second) +
               ");\n";
    const std::string t = sqlQuote(utcString(utcEpochNs));
    sql += "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(" + std::to_string(utcEpochNs) + ", " + t + ", " + t +
           (v26 ? ", " + std::to_string(kFileBase - ranks.front()->shift) : std::string()) + ");\n";
    // A launcher process without GPU work, then the ranks' processes.
    const int launcherPid = 900;
    const uint64_t launcherGpid = (1ULL << 48) | (uint64_t(launcherPid) << 24);
    sql += "INSERT INTO PROCESSES VALUES(" + std::to_string(launcherGpid) + ", " + std::to_string(launcherPid) +
           ", 'torchrun');\n";
    const int64_t sTorchrun = db.intern("torchrun");
    const int64_t sPython = db.intern("python3");
    const int64_t sWatchdog = db.intern("pt_nccl_watchdg");
    sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sTorchrun) + ", 20, " +
           std::to_string(launcherGpid | uint64_t(launcherPid)) + ");\n";
    for (const RankInfo* r : ranks) {
        sql += "INSERT INTO PROCESSES VALUES(" + std::to_string(r->gpid) + ", " + std::to_string(r->pid) +
               ", 'python3');\n";
        sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sPython) + ", 20, " + std::to_string(r->gtidMain) +
               ");\n";
        sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sWatchdog) + ", 20, " +
               std::to_string(r->gtidOther) + ");\n";
        const int streams[] = {kComputeStream, r->streams[0], r->streams[1], r->streams[2]};
        const int64_t prio[] = {0, 4294967295LL, 4294967295LL, 4294967295LL};
        for (int i = 0; i < 4; ++i)
            sql += "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES(" + std::to_string(streams[i]) + ", 0, 1, " +
                   std::to_string(r->pid) + ", " + std::to_string(r->context) + ", " + std::to_string(prio[i]) +
                   ", 2);\n";
    }
    db.exec(sql);

    auto enumRows = [&](const char* table, const EnumRow* rows, size_t n) {
        std::string s;
        for (size_t i = 0; i < n; ++i)
            s += std::string("INSERT INTO ") + table + " VALUES(" + std::to_string(rows[i].id) + ", " +
                 sqlQuote(rows[i].name) + ", " + sqlQuote(rows[i].label) + ");\n";
        db.exec(s);
    };
#define SKEWGEN_ENUM(T, A) enumRows(#T, A, sizeof(A) / sizeof(A[0]))
    if (v26) {
        SKEWGEN_ENUM(ENUM_NSYS_EVENT_TYPE, kENUM_NSYS_EVENT_TYPE_V2026);
        SKEWGEN_ENUM(ENUM_NSYS_EVENT_CLASS, kENUM_NSYS_EVENT_CLASS_V2026);
        SKEWGEN_ENUM(ENUM_CUPTI_SYNC_TYPE, kENUM_CUPTI_SYNC_TYPE_V2026);
    } else {
        SKEWGEN_ENUM(ENUM_NSYS_EVENT_TYPE, kENUM_NSYS_EVENT_TYPE_V2024);
        SKEWGEN_ENUM(ENUM_NSYS_EVENT_CLASS, kENUM_NSYS_EVENT_CLASS_V2024);
        SKEWGEN_ENUM(ENUM_CUPTI_SYNC_TYPE, kENUM_CUPTI_SYNC_TYPE_V2024);
    }
#undef SKEWGEN_ENUM
}

// ----------------------------------------------------------------------------------------------
// Generation

struct Coll {
    int group;  // generator group id (renumbered for the truth)
    int op;     // 0 AG, 1 RS, 2 AR, 3 SR
    int pos;    // FSDP position in step (1-based), 0 otherwise
};

struct RankState {
    int64_t cursor = 0;  // main thread CPU time (model)
    uint32_t corr = kCorrBase;
    int64_t gridId = 1;
    int64_t eventId = 1;
    int64_t eventSyncId = 1;
    int64_t callchain = 0;
    int64_t lastGpuEnd = 0;  // model
    int64_t stepRangeStart = 0, stepRangeEnd = 0;
    std::vector<KRow> ncclRows, computeRows;
    std::vector<size_t> chunkStarts;
};

class Generator {
public:
    Generator(const GenConfig& cfg, const std::string& outPath) : cfg_(cfg), out_(outPath), rng_(cfg.seed) {}

    GenResult run() {
        validate();
        setup();
        buildPlan();
        const int n = cfg_.extraKernelsPerCollective;
        chunkKind_.assign(size_t(cfg_.ranks) * size_t(n), 0);
        chunkDur_.assign(size_t(cfg_.ranks) * size_t(n), 0);
        chunkGap_.assign(size_t(cfg_.ranks) * size_t(n), 0);
        chunkLen_.assign(size_t(cfg_.ranks), 0);
        aNo_.assign(size_t(cfg_.ranks), 0);
        a_.assign(size_t(cfg_.ranks), 0);
        delay_.assign(size_t(cfg_.ranks), 0);
        lateKind_.assign(size_t(cfg_.ranks), -1);
        present_.assign(size_t(cfg_.ranks), 1);
        end_.assign(size_t(cfg_.ranks), 0);

        if (cfg_.nvtxNccl)
            for (const RankInfo& r : ranks_)
                db(r).nvtxText(ft(r, 1 * kMs + r.idx * 7 * kUs), kNoValue, 75, "NCCL", r.gtidMain, kNcclDomain);

        int64_t origin = kFirstStepModel;
        res_.firstStepNs = kFileBase + origin;
        res_.stepRangeStartNs.assign(size_t(cfg_.ranks), {});
        for (int s = 1; s <= cfg_.steps; ++s) origin = runStep(s, origin);
        res_.steps = cfg_.steps;

        for (size_t f = 0; f < dbs_.size(); ++f) {
            Db& d = *dbs_[f];
            const int64_t start = kFileBase - fileShift_[f];
            const int64_t stop = d.maxTime() + 1 * kMs;
            d.exec("INSERT INTO ANALYSIS_DETAILS VALUES(" + std::to_string(1ULL << 48) + ", " +
                   std::to_string(stop - start) + ", " + std::to_string(start) + ", " + std::to_string(stop) + ")");
            d.commit();
            res_.kernelRows += d.kernelRows;
            res_.runtimeRows += d.runtimeRows;
            res_.nvtxRows += d.nvtxRows;
            res_.syncRows += d.syncRows;
        }
        return std::move(res_);
    }

private:
    [[noreturn]] static void fail(const std::string& msg) { throw std::runtime_error("skewgen: " + msg); }

    void validate() {
        if (cfg_.ranks < 1) fail("ranks must be >= 1");
        if (cfg_.steps < 1) fail("steps must be >= 1");
        if (cfg_.layers < 1) fail("layers must be >= 1");
        if (cfg_.extraKernelsPerCollective < 0) fail("extraKernelsPerCollective must be >= 0");
        if (!cfg_.devices.empty() && int(cfg_.devices.size()) != cfg_.ranks) fail("devices must have one entry per rank");
        if (!cfg_.clockErrorNs.empty() && int(cfg_.clockErrorNs.size()) != cfg_.ranks)
            fail("clockErrorNs must have one entry per rank");
        const int fsdp = 3 * cfg_.layers;
        for (const PlantedLate& p : cfg_.late) {
            if (p.step < 1 || p.step > cfg_.steps) fail("planted late: step out of range");
            if (p.positionInStep < 1 || p.positionInStep > fsdp) fail("planted late: position out of range");
            if (p.rank < 0 || p.rank >= cfg_.ranks) fail("planted late: rank out of range");
            if (p.delayNs < 0) fail("planted late: negative delay");
        }
        for (const MissingCollective& m : cfg_.missing) {
            if (m.rank < 0 || m.rank >= cfg_.ranks) fail("missing collective: rank out of range");
            if (m.index < 1 || m.index > fsdp * cfg_.steps) fail("missing collective: index out of range");
            missing_.insert({m.rank, m.index});
        }
    }

    void setup() {
        kinds_ = computeKinds();
        ncclKind0_ = int(kinds_.size());
        for (int op = 0; op < 4; ++op) kinds_.push_back(ncclKind(cfg_, op));

        const int R = cfg_.ranks;
        ranks_.resize(size_t(R));
        std::vector<int64_t> utc;
        if (cfg_.perRankFiles) {
            std::string stem = out_;
            const std::string ext = ".sqlite";
            if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
                stem.resize(stem.size() - ext.size());
            for (int r = 0; r < R; ++r) {
                res_.files.push_back(stem + "_rank" + std::to_string(r) + ".sqlite");
                utc.push_back(cfg_.sessionStartUtcNs + int64_t(r) * kSessionShiftPerRank);
            }
        } else {
            res_.files.push_back(out_);
            utc.push_back(cfg_.sessionStartUtcNs);
        }
        const int64_t minUtc = *std::min_element(utc.begin(), utc.end());
        for (int64_t u : utc) fileShift_.push_back(u - minUtc);

        for (int r = 0; r < R; ++r) {
            RankInfo& ri = ranks_[size_t(r)];
            ri.idx = r;
            ri.file = cfg_.perRankFiles ? r : 0;
            ri.pid = 1000 + r;
            ri.device = !cfg_.devices.empty() ? cfg_.devices[size_t(r)] : cfg_.perRankFiles ? 0 : r;
            ri.context = cfg_.perRankFiles ? 1 : r + 1;
            ri.gpid = (1ULL << 48) | (uint64_t(ri.pid) << 24);
            ri.gtidMain = ri.gpid | uint64_t(ri.pid);
            ri.gtidOther = ri.gpid | uint64_t(ri.pid + 37);
            ri.streams[0] = kFsdpStream;
            ri.streams[1] = kAllReduceStreamBase + r % 2;
            ri.streams[2] = kSendRecvStream;
            ri.shift = fileShift_[size_t(ri.file)];
            ri.clockErr = (cfg_.perRankFiles && !cfg_.clockErrorNs.empty()) ? cfg_.clockErrorNs[size_t(r)] : 0;
        }
        state_.resize(size_t(R));

        for (size_t f = 0; f < res_.files.size(); ++f) {
            dbs_.push_back(std::make_unique<Db>(res_.files[f], cfg_.layout, kinds_));
            if (cfg_.timeOrdered) dbs_.back()->setTimeOrdered();
            std::vector<const RankInfo*> fr;
            for (const RankInfo& r : ranks_)
                if (r.file == int(f)) fr.push_back(&r);
            writeStaticTables(*dbs_.back(), cfg_.layout, utc[f], fileStem(res_.files[f]), fr);
        }

        // Labels and the spec's rank order.
        std::set<int> devs;
        for (const RankInfo& r : ranks_) devs.insert(r.device);
        const bool uniqueDevices = int(devs.size()) == R;
        for (const RankInfo& r : ranks_) {
            const std::string stem = fileStem(res_.files[size_t(r.file)]);
            if (cfg_.perRankFiles)
                res_.rankLabels.push_back(stem);
            else if (uniqueDevices)
                res_.rankLabels.push_back("dev " + std::to_string(r.device));
            else
                res_.rankLabels.push_back(stem + "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device));
        }
        for (int r = 0; r < R; ++r) res_.specOrder.push_back(r);
        std::stable_sort(res_.specOrder.begin(), res_.specOrder.end(), [&](int x, int y) {
            const RankInfo& a = ranks_[size_t(x)];
            const RankInfo& b = ranks_[size_t(y)];
            const std::string& fa = res_.files[size_t(a.file)];
            const std::string& fb = res_.files[size_t(b.file)];
            if (fa != fb) return fa < fb;
            if (a.device != b.device) return a.device < b.device;
            return a.pid < b.pid;
        });
    }

    void buildPlan() {
        const int L = cfg_.layers;
        for (int i = 1; i <= L; ++i) plan_.push_back({0, 0, i});
        for (int j = 0; j < L; ++j) {
            plan_.push_back({0, 0, L + 1 + 2 * j});
            plan_.push_back({0, 1, L + 2 + 2 * j});
        }
        int next = 1;
        if (cfg_.allReduce) plan_.push_back({next++, 2, 0});
        if (cfg_.sendRecv) plan_.push_back({next++, 3, 0});
        groupIndex_.assign(size_t(next), 0);
        for (const PlantedLate& p : cfg_.late) {
            TruthLate t;
            t.planted = p;
            t.group = 0;
            t.index = (p.step - 1) * 3 * L + p.positionInStep;
            res_.late.push_back(t);
        }
    }

    Db& db(const RankInfo& r) { return *dbs_[size_t(r.file)]; }
    static int64_t ft(const RankInfo& r, int64_t model) { return model + kFileBase - r.shift + r.clockErr; }
    static int64_t aligned(int64_t model) { return model + kFileBase; }
    bool inWindow(int64_t modelStart) const {
        const int64_t rel = modelStart - kFirstStepModel;
        if (cfg_.trimStartNs >= 0 && rel < cfg_.trimStartNs) return false;
        if (cfg_.trimEndNs >= 0 && rel >= cfg_.trimEndNs) return false;
        return true;
    }
    static void checkLaunch(int64_t launchEnd, int64_t kernelStart) {
        if (launchEnd >= kernelStart) fail("internal error: launch ends after its kernel starts");
    }

    int64_t launch(const RankInfo& r, RankState& st, int64_t desiredEnd, int64_t dur, bool driver) {
        const int64_t start = std::max(st.cursor, desiredEnd - dur);
        const int64_t end = start + dur;
        const uint32_t corr = st.corr++;
        Db& d = db(r);
        d.runtime(ft(r, start), ft(r, end), driver ? 1 : 0, r.gtidMain, corr,
                  driver ? d.sLaunchKernelEx : d.sLaunchKernel);
        // Backtrace rows (eventClass 67) repeat the launch's correlation id; analyses must skip them.
        if (corr % (driver ? 3 : 10) == 0)
            d.runtime(ft(r, start - 300), ft(r, end + 150), 67, r.gtidMain, corr,
                      driver ? d.sBtLaunchKernelEx : d.sBtLaunchKernel, st.callchain++);
        st.cursor = end;
        lastCorr_ = corr;
        return end;
    }

    // Returns the origin of the next step.
    int64_t runStep(int step, int64_t origin) {
        const int R = cfg_.ranks;
        for (int r = 0; r < R; ++r) {
            RankState& st = state_[size_t(r)];
            const RankInfo& ri = ranks_[size_t(r)];
            st.stepRangeStart = origin + rng_.uni(2 * kUs, 40 * kUs);
            res_.stepRangeStartNs[size_t(r)].push_back(aligned(st.stepRangeStart));
            st.cursor = st.stepRangeStart + rng_.uni(5 * kUs, 20 * kUs);
            st.lastGpuEnd = 0;
            // The NCCL watchdog thread polls an event once per step (own thread, own correlation id).
            const int64_t q = origin + rng_.uni(0, 2 * kMs);
            db(ri).runtime(ft(ri, q), ft(ri, q + rng_.uni(1 * kUs, 3 * kUs)), 0, ri.gtidOther, st.corr++,
                           db(ri).sEventQuery);
        }
        int64_t prevE = origin + 100 * kUs;
        prevTransfer_ = 0;  // no overlap with the previous step (it ended with a synchronization)
        for (const Coll& c : plan_) prevE = runCollective(step, c, prevE);

        int64_t next = 0;
        for (int r = 0; r < R; ++r) {
            RankState& st = state_[size_t(r)];
            const RankInfo& ri = ranks_[size_t(r)];
            Db& d = db(ri);
            const int64_t s0 = st.cursor + rng_.uni(2 * kUs, 10 * kUs);
            const int64_t s1 = std::max(s0 + rng_.uni(1 * kUs, 3 * kUs), st.lastGpuEnd + rng_.uni(2 * kUs, 6 * kUs));
            const uint32_t corr = st.corr++;
            d.runtime(ft(ri, s0), ft(ri, s1), 0, ri.gtidMain, corr, d.sStreamSync);
            d.sync(ft(ri, s0 + 300), ft(ri, s1 - 200), ri, kComputeStream, corr, 3, 4294967295LL, 0);
            st.stepRangeEnd = s1 + rng_.uni(3 * kUs, 8 * kUs);
            st.cursor = st.stepRangeEnd;
            if (cfg_.nvtxSteps) {
                const std::string text = "ProfilerStep#" + std::to_string(step);
                d.nvtxText(ft(ri, st.stepRangeStart), ft(ri, st.stepRangeEnd), 59, text, ri.gtidMain, 0);
            }
            next = std::max(next, st.stepRangeEnd);
        }
        flushKernels(step);
        if (cfg_.timeOrdered)
            for (auto& d : dbs_) d->flushStep();
        return next + rng_.uni(50 * kUs, 150 * kUs);
    }

    int64_t runCollective(int step, const Coll& c, int64_t prevE) {
        const int R = cfg_.ranks;
        const int n = cfg_.extraKernelsPerCollective;
        const int index = ++groupIndex_[size_t(c.group)];

        // Compute chunks before the collective (same layout whatever the delay).
        int64_t maxC = 0;
        for (int r = 0; r < R; ++r) {
            int64_t len = 0;
            for (int j = 0; j < n; ++j) {
                const size_t i = size_t(r) * size_t(n) + size_t(j);
                const bool gemm = (n - 1 - j) % 2 == 0;
                const int kind = gemm ? int(rng_.uni(0, kGemmKinds - 1)) : kGemmKinds + int(rng_.uni(0, kElemKinds - 1));
                chunkKind_[i] = kind;
                chunkDur_[i] = rng_.uni(kinds_[size_t(kind)].minDur, kinds_[size_t(kind)].maxDur);
                chunkGap_[i] = j + 1 < n ? rng_.uni(1 * kUs, 4 * kUs) : 0;
                len += chunkDur_[i] + chunkGap_[i];
            }
            chunkLen_[size_t(r)] = len;
            maxC = std::max(maxC, len);
        }
        // The compute chunk may start while the previous collective still runs (FSDP overlaps compute
        // with communication): up to half of the previous transfer time, never before the previous
        // chunk has ended on the compute stream (previous NCCL starts <= E - transfer).
        const int64_t overlap = rng_.uni(0, prevTransfer_ / 2);
        const int64_t b = prevE + std::max<int64_t>(maxC - overlap, 0) + rng_.uni(20 * kUs, 200 * kUs);

        int64_t amax = b;
        bool any = false;
        for (int r = 0; r < R; ++r) {
            const size_t ur = size_t(r);
            delay_[ur] = 0;
            lateKind_[ur] = -1;
            if (c.group == 0)
                for (const PlantedLate& p : cfg_.late)
                    if (p.step == step && p.positionInStep == c.pos && p.rank == r) {
                        delay_[ur] += p.delayNs;
                        lateKind_[ur] = p.kind == LateKind::Cpu ? 0 : 1;
                    }
            aNo_[ur] = b + rng_.uni(0, 300 * kUs);
            if (c.group == 0 && r == cfg_.slow.rank && rng_.uni(1, 100) <= cfg_.slow.percent)
                aNo_[ur] += rng_.uni(cfg_.slow.minNs, cfg_.slow.maxNs);
            a_[ur] = aNo_[ur] + delay_[ur];
            present_[ur] = !(c.group == 0 && missing_.count({r, index}));
            if (present_[ur]) {
                amax = any ? std::max(amax, a_[ur]) : a_[ur];
                any = true;
            }
        }
        const int64_t transfer = rng_.uni(kTransferMin[c.op], kTransferMax[c.op]);
        prevTransfer_ = transfer;
        int64_t E = any ? amax : b;
        for (int r = 0; r < R; ++r) {
            end_[size_t(r)] = amax + transfer + rng_.uni(0, 30 * kUs);
            if (present_[size_t(r)]) E = std::max(E, end_[size_t(r)]);
        }
        if (!any) E = b + transfer;

        TruthCollective truth;
        truth.group = c.group;
        truth.index = index;
        truth.op = kOpNames[c.op];
        truth.step = step;

        for (int r = 0; r < R; ++r) {
            const size_t ur = size_t(r);
            const RankInfo& ri = ranks_[ur];
            RankState& st = state_[ur];
            Db& d = db(ri);
            const int64_t lead = rng_.uni(200 * kUs, 5 * kMs);
            const int64_t pre = rng_.uni(1200, 1800);

            // Compute chunk on stream 7: launches (CPU) and kernels (GPU, written at the step's end).
            st.chunkStarts.push_back(st.computeRows.size());
            int64_t t = aNo_[ur] - pre - chunkLen_[ur];
            for (int j = 0; j < n; ++j) {
                const size_t i = ur * size_t(n) + size_t(j);
                const int64_t start = t;
                const int64_t end = start + chunkDur_[i] + (j == n - 1 && lateKind_[ur] == 1 ? delay_[ur] : 0);
                const int64_t le = launch(ri, st, start - lead, rng_.uni(2500, 5000), false);
                checkLaunch(le, start);
                st.cursor += rng_.uni(500, 2000);
                if (inWindow(start))
                    st.computeRows.push_back(KRow{ft(ri, start), ft(ri, end), chunkKind_[i], kComputeStream, lastCorr_,
                                                  st.gridId});
                ++st.gridId;
                st.lastGpuEnd = std::max(st.lastGpuEnd, end);
                t = end + chunkGap_[i];
            }
            if (lateKind_[ur] >= 0)
                for (TruthLate& tl : res_.late)
                    if (tl.planted.step == step && tl.planted.positionInStep == c.pos && tl.planted.rank == r &&
                        tl.planted.kind == LateKind::Gpu && n > 0) {
                        tl.predecessorName = kinds_[size_t(chunkKind_[ur * size_t(n) + size_t(n - 1)])].name;
                        tl.predecessorStream = kComputeStream;
                    }
            if (!present_[ur]) continue;

            // NCCL launch: NVTX push, cudaStreamWaitEvent, cuLaunchKernelEx, NVTX pop.
            const int64_t a = a_[ur];
            const int stream = ri.streams[c.group == 0 ? 0 : c.op == 2 ? 1 : 2];
            int64_t launchEnd = lateKind_[ur] == 0 ? a - rng_.uni(7 * kUs, 9 * kUs) : aNo_[ur] - lead;
            const int64_t ld = rng_.uni(5 * kUs, 12 * kUs), wd = rng_.uni(1500, 4000);
            const int64_t g0 = rng_.uni(300, 1000), g1 = rng_.uni(500, 1500), g2 = rng_.uni(500, 1500);
            int64_t push = launchEnd - ld - g2 - wd - g1 - g0;
            if (push < st.cursor) {
                launchEnd += st.cursor - push;
                push = st.cursor;
            }
            const int64_t waitStart = push + g0;
            const uint32_t waitCorr = st.corr++;
            d.runtime(ft(ri, waitStart), ft(ri, waitStart + wd), 0, ri.gtidMain, waitCorr, d.sStreamWait);
            const int64_t syncEnd = a - rng_.uni(1 * kUs, 3 * kUs);
            d.sync(ft(ri, syncEnd - rng_.uni(500, 2500)), ft(ri, syncEnd), ri, stream, waitCorr, 2, st.eventId++,
                   st.eventSyncId++);
            st.cursor = waitStart + wd + g1;
            const int64_t le = launch(ri, st, launchEnd, ld, true);
            checkLaunch(le, a);
            const uint32_t corr = lastCorr_;
            const int64_t pop = le + rng_.uni(500, 2000);
            if (cfg_.nvtxNccl) d.nvtx(ft(ri, push), ft(ri, pop), 59, ri.gtidMain, d.sNvtxNccl[c.op], kNcclDomain);
            st.cursor = pop + rng_.uni(1 * kUs, 3 * kUs);

            const int64_t end = end_[ur];
            st.lastGpuEnd = std::max(st.lastGpuEnd, end);
            if (inWindow(a)) {
                st.ncclRows.push_back(KRow{ft(ri, a), ft(ri, end), ncclKind0_ + c.op, stream, corr, st.gridId});
                truth.members.push_back(TruthMember{r, stream, aligned(a), aligned(end), corr, aligned(le)});
            }
            ++st.gridId;
        }
        if (!truth.members.empty()) res_.collectives.push_back(std::move(truth));
        return E;
    }

    // Kernel rows are deliberately not written in time order: per step, ranks in a rotating order,
    // each rank's NCCL kernels first, then its compute chunks from the last to the first.
    void flushKernels(int step) {
        const int R = cfg_.ranks;
        for (int i = 0; i < R; ++i) {
            const int r = (i + step) % R;
            RankState& st = state_[size_t(r)];
            const RankInfo& ri = ranks_[size_t(r)];
            Db& d = db(ri);
            for (const KRow& k : st.ncclRows) d.kernel(ri, k);
            size_t end = st.computeRows.size();
            for (size_t c = st.chunkStarts.size(); c-- > 0;) {
                for (size_t j = st.chunkStarts[c]; j < end; ++j)
                    d.kernel(ri, st.computeRows[j]);
                end = st.chunkStarts[c];
            }
            st.ncclRows.clear();
            st.computeRows.clear();
            st.chunkStarts.clear();
        }
    }

    const GenConfig& cfg_;
    std::string out_;
    Rng rng_;
    std::vector<Kind> kinds_;
    int ncclKind0_ = 0;
    std::vector<RankInfo> ranks_;
    std::vector<RankState> state_;
    std::vector<std::unique_ptr<Db>> dbs_;
    std::vector<int64_t> fileShift_;
    std::vector<Coll> plan_;
    std::vector<int> groupIndex_;
    std::set<std::pair<int, int>> missing_;
    GenResult res_;
    uint32_t lastCorr_ = 0;
    int64_t prevTransfer_ = 0;
    // Per-collective scratch, indexed by rank (and rank * n + j for chunks).
    std::vector<int> chunkKind_;
    std::vector<int64_t> chunkDur_, chunkGap_, chunkLen_, aNo_, a_, delay_, end_;
    std::vector<int> lateKind_;  // -1 none, 0 Cpu, 1 Gpu
    std::vector<char> present_;
};

}  // namespace

int collectivesPerStep(const GenConfig& cfg) {
    return 3 * cfg.layers + (cfg.allReduce ? 1 : 0) + (cfg.sendRecv ? 1 : 0);
}

uint64_t kernelsPerStep(const GenConfig& cfg) {
    return uint64_t(std::max(cfg.ranks, 0)) * uint64_t(collectivesPerStep(cfg)) *
           uint64_t(1 + std::max(cfg.extraKernelsPerCollective, 0));
}

GenResult generate(const GenConfig& cfg, const std::string& outPath) {
    Generator g(cfg, outPath);
    return g.run();
}

GenConfig demoConfig() {
    GenConfig c;
    c.ranks = 7;
    c.devices = {1, 2, 3, 4, 5, 6, 7};  // an 8-GPU node whose device 0 was not captured
    c.perRankFiles = false;
    c.layout = Layout::V2026_2;
    c.steps = 5;
    c.layers = 9;
    c.allReduce = true;
    c.sendRecv = false;
    c.seed = 20260526;
    // Fixed step positions (of the 27 FSDP collectives per step), rotating ranks, mixed causes.
    c.late = {
        {1, 5, 2, 32 * kMs, LateKind::Cpu},
        {2, 14, 4, 47 * kMs, LateKind::Gpu},
        {3, 9, 6, 24 * kMs, LateKind::Cpu},
        {4, 21, 1, 55 * kMs, LateKind::Gpu},
        {5, 3, 3, 20 * kMs + 500 * kUs, LateKind::Cpu},
    };
    return c;
}

}  // namespace skewgen
