// Generator of realistic multi-rank Nsight Systems SQLite exports. See generator.h.
//
// Rooms: gen_common.h (units, clock constants, RNG), schema_ddl / schema_enums (the real DDL and
// enum rows), kernel_kinds (what is launched), batch_insert.h / export_db.h (writing one export),
// static_tables (tables independent of the timeline), run_setup (ranks, files, labels, the file
// clocks), classic_timeline (the default timeline with planted late arrivers), causal_draws /
// causal_world / causal_timeline (causal mode: the run simulated by its dependencies).

#include "generator.h"

#include <algorithm>

#include "causal_timeline.h"
#include "classic_timeline.h"
#include "run_setup.h"

namespace skewgen {

using detail::kMs;
using detail::kUs;

int collectivesPerStep(const GenConfig& cfg) {
    return 3 * cfg.layers + (cfg.allReduce ? 1 : 0) + (cfg.sendRecv ? 1 : 0);
}

uint64_t kernelsPerStep(const GenConfig& cfg) {
    return uint64_t(std::max(cfg.ranks, 0)) * uint64_t(collectivesPerStep(cfg)) *
           uint64_t(1 + std::max(cfg.extraKernelsPerCollective, 0));
}

GenResult generate(const GenConfig& cfg, const std::string& outPath) {
    detail::Run run(cfg, outPath);
    run.validate();
    if (cfg.causal) detail::validateCausal(cfg);
    run.setup();
    if (cfg.causal)
        detail::runCausalTimeline(run);
    else
        detail::runClassicTimeline(run);
    return run.finish();
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

GenConfig causalConfig() {
    GenConfig c;
    c.causal = true;
    c.ranks = 8;
    c.steps = 4;
    c.layers = 4;  // 13 collectives a step: 4 AllGather, 4 x (AllGather, ReduceScatter), AllReduce
    c.seed = 20261202;
    // Per step a CPU stall early in the step (where the CPU is little ahead of its GPU) and a slow
    // GEMM at two later positions, on rotating ranks: neither hides the other.
    for (int s = 1; s <= c.steps; ++s) {
        c.cpuStalls.push_back({s, 2 + s % 2, (5 * s + 3) % c.ranks, 4 * kMs});
        c.slowKernels.push_back({s, 6, (2 * s + 1) % c.ranks, 3 * kMs, -1});
        c.slowKernels.push_back({s, 10, (3 * s + 2) % c.ranks, 2 * kMs, 3});
    }
    return c;
}

}  // namespace skewgen
