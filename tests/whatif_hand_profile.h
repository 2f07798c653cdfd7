#pragma once
// The hand-built two-rank, two-step profile of the what-if tests (test_whatif.cpp,
// test_whatif_schedule.cpp): every time below is what the expected replays are worked out from.

#include <cstdint>
#include <string>

#include "profile_builder.h"

namespace whatifhand {

using testutil::ProfileBuilder;

constexpr int64_t kUs = 1'000;
constexpr int64_t T = 1'000'000'000;  // times around 1 s
const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32";
const std::string ELEM = "elementwise_kernel";

struct Options {
    bool nvtx = true, launches = true, waitRecord = true;
};

// Two ranks (dev 0, dev 1), each a compute stream 7 and an NCCL stream 56, two steps (NVTX
// ProfilerStep#1 over [0, 1000) us, #2 over [1000, 2000) us). Times in us after T:
//   step 1  rank 0: GEMM [10, 110], AllGather [112, 412] (waits 2 us for the GEMM), elementwise [111, 131]
//           rank 1: GEMM [10, 310] (slow: 300 us, rank 0's takes 100), AllGather [312, 412], elementwise [311, 331]
//   step 2  rank 0: GEMM [1010, 1110]; AllGather launched late (call [1300, 1305]) runs [1308, 1408]; a
//                   stream-wait record on its stream ends at 1306; elementwise launched [1306, 1310] runs [1312, 1332]
//           rank 1: GEMM [1010, 1110], AllGather [1112, 1408], elementwise [1111, 1131]
// Launch calls of the rest: GEMM [0, 5] / [1000, 1005], AllGather [6, 10] / (rank 1) [1006, 1010],
// elementwise [11, 15] / (rank 1) [1011, 1015].
inline skew::Profile handProfile(const Options& o = {}) {
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    auto k = [&](int r, int stream, int64_t s, int64_t e, const std::string& name, uint32_t corr, int64_t ls, int64_t le) {
        b.kernel(r, stream, T + s * kUs, T + e * kUs, name, corr);
        if (o.launches) b.launch(r, corr, T + ls * kUs, T + le * kUs);
    };
    k(0, 7, 10, 110, GEMM, 1, 0, 5);
    k(0, 56, 112, 412, AG, 2, 6, 10);
    k(0, 7, 111, 131, ELEM, 3, 11, 15);
    k(1, 7, 10, 310, GEMM, 1, 0, 5);
    k(1, 56, 312, 412, AG, 2, 6, 10);
    k(1, 7, 311, 331, ELEM, 3, 11, 15);
    k(0, 7, 1010, 1110, GEMM, 4, 1000, 1005);
    k(0, 56, 1308, 1408, AG, 5, 1300, 1305);
    k(0, 7, 1312, 1332, ELEM, 6, 1306, 1310);
    k(1, 7, 1010, 1110, GEMM, 4, 1000, 1005);
    k(1, 56, 1112, 1408, AG, 5, 1006, 1010);
    k(1, 7, 1111, 1131, ELEM, 6, 1011, 1015);
    if (o.waitRecord) b.wait(0, 56, T + 1304 * kUs, T + 1306 * kUs);
    if (o.nvtx)
        for (int r = 0; r < 2; ++r) {
            b.nvtx(r, T, T + 1000 * kUs, "ProfilerStep#1");
            b.nvtx(r, T + 1000 * kUs, T + 2000 * kUs, "ProfilerStep#2");
        }
    return b.build();
}

}  // namespace whatifhand
