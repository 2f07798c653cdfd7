// The kernels of a generated run (see kernel_kinds.h).

#include "kernel_kinds.h"

namespace skewgen {
namespace detail {

namespace {

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

}  // namespace

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

}  // namespace detail
}  // namespace skewgen
