// skewgen: writes synthetic multi-rank Nsight Systems SQLite exports (see generator.h).
//
//   skewgen --out PATH [--demo] [--ranks N] [--steps N] [--layers N] [--per-rank-files] [--time-ordered]
//           [--layout 2024.5|2026.2] [--seed N] [--kernels-target N]
//           [--late STEP:POS:RANK:MS[:cpu|gpu]]... [--no-late]
//           [--causal [--slow-kernel STEP:POS:RANK:MS[:J]]... [--cpu-stall STEP:POS:RANK:MS]...
//                     [--slow-rank RANK[:FACTOR]] [--no-delays] [--cpu-trace]]
//
// Prints one line with the file(s) written and the row counts. Exit codes: 0 done, 2 usage error,
// 1 generation failed.

#include "generator.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <locale>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* const kUsage =
    "usage: skewgen --out PATH [--demo] [--ranks N] [--steps N] [--layers N] [--per-rank-files] [--time-ordered]\n"
    "               [--layout 2024.5|2026.2] [--seed N] [--kernels-target N]\n"
    "               [--late S:P:R:MS[:K]]... [--no-late]\n"
    "               [--causal [--slow-kernel S:P:R:MS[:J]]... [--cpu-stall S:P:R:MS]... [--slow-rank R[:F]] [--no-delays] [--cpu-trace]]\n"
    "  --out PATH          output file; with --per-rank-files a stem: PATH_rank<N>.sqlite\n"
    "  --demo              start from the demo profile (7 ranks, devices 1..7, 5 planted late arrivers)\n"
    "  --ranks N           ranks (GPUs), default 8 (demo 7)\n"
    "  --steps N           training steps, default 5\n"
    "  --layers N          FSDP layers: 3N AllGather/ReduceScatter per step, default 9\n"
    "  --per-rank-files    one export per rank, each with its own session start\n"
    "  --time-ordered      each table's rows in start order, as nsys writes them (default: out of order)\n"
    "  --layout V          2026.2 (default) or 2024.5 table layout\n"
    "  --seed N            RNG seed\n"
    "  --kernels-target N  choose steps so that at least N kernels are written (overrides --steps)\n"
    "  --late S:P:R:MS[:K] plant a late arriver: step S, position P of the step (FSDP group), rank R\n"
    "                      (0-based), MS ms late, K cpu (default) or gpu; repeat it; replaces --demo's\n"
    "  --no-late           no planted late arrivers (the same run without them, e.g. the \"after\" of a fix)\n"
    "  --causal            causal mode: the run simulated by its dependencies (8 ranks, 4 steps, 4 layers,\n"
    "                      slow kernels and CPU stalls on rotating ranks unless the options below say)\n"
    "  --slow-kernel S:P:R:MS[:J]  causal: kernel J (default: the last) of the compute chunk before\n"
    "                      collective P of step S takes MS ms longer on rank R; repeat it; replaces the\n"
    "                      default ones (none: no slow kernel)\n"
    "  --cpu-stall S:P:R:MS  causal: rank R's CPU stalls MS ms before launching the NCCL kernel of\n"
    "                      collective P of step S; repeat it; replaces the default ones (none: no stall)\n"
    "  --slow-rank R[:F]   causal: rank R's compute kernels take F x (default 1.3) in every step\n"
    "  --no-delays         causal: the same run without the planted delays (the truth of a what-if)\n"
    "  --cpu-trace         causal: record OS runtime calls and CPU samples; each CPU stall shows what the thread did\n";

int usage(const std::string& msg) {
    if (!msg.empty()) std::fprintf(stderr, "skewgen: %s\n", msg.c_str());
    std::fputs(kUsage, stderr);
    return 2;
}

bool parseInt(const char* s, long long lo, long long hi, long long& out) {
    if (!s || !*s) return false;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
    out = v;
    return true;
}

// A positive factor, read in the C locale's number format ("1.3").
bool parseFactor(const std::string& s, double& out) {
    std::istringstream in(s);
    in.imbue(std::locale::classic());
    double v = 0;
    if (!(in >> v) || !in.eof() || !(v > 0)) return false;
    out = v;
    return true;
}

// "A:B:C..." into fields.
std::vector<std::string> fields(const char* v) {
    std::vector<std::string> f;
    std::string cur;
    for (const char* c = v ? v : ""; *c; ++c) {
        if (*c == ':') f.push_back(cur), cur.clear();
        else cur += *c;
    }
    f.push_back(cur);
    return f;
}

bool parseU64(const char* s, unsigned long long& out) {
    if (!s || !*s || *s == '-') return false;
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0') return false;
    out = v;
    return true;
}

// The causal mode's options (see kUsage).
struct CausalOptions {
    bool on = false, noDelays = false, cpuTrace = false, haveSlowKernels = false, haveStalls = false;
    std::vector<skewgen::SlowKernel> slowKernels;
    std::vector<skewgen::CpuStall> stalls;
    long long slowRank = -1;
    double slowFactor = 1.3;
};

// Reads argv[i] (and its value, advancing i) when it is a causal option: true, with `error` set
// when it is malformed; false when it is not one.
bool parseCausalOption(const std::string& a, int& i, int argc, char** argv, CausalOptions& o, std::string& error) {
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const bool none = i + 1 < argc && std::string(argv[i + 1]) == "none";
    if (a == "--causal") {
        o.on = true;
    } else if (a == "--no-delays") {
        o.noDelays = true;
    } else if (a == "--cpu-trace") {
        o.cpuTrace = true;
    } else if (a == "--slow-kernel") {
        o.haveSlowKernels = true;
        if (none) return ++i, true;
        const std::vector<std::string> f = fields(value());
        long long st = 0, pos = 0, rank = 0, ms = 0, j = -1;
        if ((f.size() != 4 && f.size() != 5) || !parseInt(f[0].c_str(), 1, 10'000'000, st) ||
            !parseInt(f[1].c_str(), 1, 1'000'000, pos) || !parseInt(f[2].c_str(), 0, 4095, rank) ||
            !parseInt(f[3].c_str(), 0, 1'000'000, ms) || (f.size() == 5 && !parseInt(f[4].c_str(), 0, 100'000, j)))
            error = "--slow-kernel needs STEP:POS:RANK:MS[:J] or none, e.g. 2:6:5:3";
        o.slowKernels.push_back({int(st), int(pos), int(rank), ms * 1'000'000, int(j)});
    } else if (a == "--cpu-stall") {
        o.haveStalls = true;
        if (none) return ++i, true;
        const std::vector<std::string> f = fields(value());
        long long st = 0, pos = 0, rank = 0, ms = 0;
        if (f.size() != 4 || !parseInt(f[0].c_str(), 1, 10'000'000, st) || !parseInt(f[1].c_str(), 1, 1'000'000, pos) ||
            !parseInt(f[2].c_str(), 0, 4095, rank) || !parseInt(f[3].c_str(), 0, 1'000'000, ms))
            error = "--cpu-stall needs STEP:POS:RANK:MS or none, e.g. 2:3:1:4";
        o.stalls.push_back({int(st), int(pos), int(rank), ms * 1'000'000});
    } else if (a == "--slow-rank") {
        const std::vector<std::string> f = fields(value());
        if (f.size() > 2 || !parseInt(f[0].c_str(), 0, 4095, o.slowRank) || (f.size() == 2 && !parseFactor(f[1], o.slowFactor)))
            error = "--slow-rank needs RANK[:FACTOR], e.g. 3:1.3";
    } else {
        return false;
    }
    return true;
}

void applyCausal(const CausalOptions& o, skewgen::GenConfig& cfg) {
    if (o.haveSlowKernels) cfg.slowKernels = o.slowKernels;
    if (o.haveStalls) cfg.cpuStalls = o.stalls;
    if (o.slowRank >= 0) cfg.slowComputeRank = int(o.slowRank), cfg.slowComputeFactor = o.slowFactor;
    if (o.noDelays) cfg.delays = false;
    cfg.cpuTrace = o.cpuTrace;
}

// The default causal plants that the (possibly smaller) run cannot hold are left out (those given
// explicitly are checked by the generator).
void fitCausal(const CausalOptions& o, skewgen::GenConfig& cfg) {
    const int C = skewgen::collectivesPerStep(cfg);
    if (!o.haveSlowKernels) {
        std::vector<skewgen::SlowKernel> keep;
        for (const auto& k : cfg.slowKernels)
            if (k.step <= cfg.steps && k.position <= C && k.rank < cfg.ranks && k.kernel < cfg.extraKernelsPerCollective)
                keep.push_back(k);
        cfg.slowKernels = keep;
    }
    if (!o.haveStalls) {
        std::vector<skewgen::CpuStall> keep;
        for (const auto& s : cfg.cpuStalls)
            if (s.step <= cfg.steps && s.position <= C && s.rank < cfg.ranks) keep.push_back(s);
        cfg.cpuStalls = keep;
    }
}

// The command line as given (see kUsage).
struct Args {
    std::string out;
    bool demo = false, perRank = false, timeOrdered = false;
    long long ranks = -1, steps = -1, layers = -1, target = -1;
    bool haveSeed = false;
    unsigned long long seed = 0;
    std::string layout;
    bool noLate = false, haveLate = false;
    std::vector<skewgen::PlantedLate> late;
    CausalOptions causal;
};

// Reads the command line into `o`: -1 to go on, else the exit code (0 after --help, 2 usage error).
int parseArgs(int argc, char** argv, Args& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char*) -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--out") {
            const char* v = value("--out");
            if (!v || !*v) return usage("--out needs a path");
            o.out = v;
        } else if (a == "--demo") {
            o.demo = true;
        } else if (a == "--per-rank-files") {
            o.perRank = true;
        } else if (a == "--time-ordered") {
            o.timeOrdered = true;
        } else if (a == "--ranks") {
            if (!parseInt(value("--ranks"), 1, 4096, o.ranks)) return usage("--ranks needs an integer in 1..4096");
        } else if (a == "--steps") {
            if (!parseInt(value("--steps"), 1, 10'000'000, o.steps)) return usage("--steps needs a positive integer");
        } else if (a == "--layers") {
            if (!parseInt(value("--layers"), 1, 100'000, o.layers)) return usage("--layers needs a positive integer");
        } else if (a == "--kernels-target") {
            if (!parseInt(value("--kernels-target"), 1, 4'000'000'000LL, o.target))
                return usage("--kernels-target needs a positive integer");
        } else if (a == "--seed") {
            if (!parseU64(value("--seed"), o.seed)) return usage("--seed needs a non-negative integer");
            o.haveSeed = true;
        } else if (a == "--no-late") {
            o.noLate = true;
        } else if (a == "--late") {
            // STEP:POS:RANK:MS[:cpu|gpu]
            const char* v = value("--late");
            const std::vector<std::string> f = fields(v);
            long long st = 0, pos = 0, rank = 0, ms = 0;
            if (!v || (f.size() != 4 && f.size() != 5) || !parseInt(f[0].c_str(), 1, 10'000'000, st) ||
                !parseInt(f[1].c_str(), 1, 1'000'000, pos) || !parseInt(f[2].c_str(), 0, 4095, rank) ||
                !parseInt(f[3].c_str(), 1, 1'000'000, ms) || (f.size() == 5 && f[4] != "cpu" && f[4] != "gpu"))
                return usage("--late needs STEP:POS:RANK:MS[:cpu|gpu], e.g. 2:13:3:30:gpu");
            o.late.push_back({int(st), int(pos), int(rank), ms * 1'000'000,
                              f.size() == 5 && f[4] == "gpu" ? skewgen::LateKind::Gpu : skewgen::LateKind::Cpu});
            o.haveLate = true;
        } else if (std::string error; parseCausalOption(a, i, argc, argv, o.causal, error)) {
            if (!error.empty()) return usage(error);
        } else if (a == "--layout") {
            const char* v = value("--layout");
            if (!v) return usage("--layout needs 2024.5 or 2026.2");
            o.layout = v;
            if (o.layout != "2024.5" && o.layout != "2026.2") return usage("--layout must be 2024.5 or 2026.2");
        } else {
            return usage("unknown argument: " + a);
        }
    }
    if (o.out.empty()) return usage("--out is required");
    return -1;
}

// The config the arguments ask for: -1 to go on, else the exit code (2 usage error).
int makeConfig(const Args& o, skewgen::GenConfig& cfg) {
    const bool causalOpts = o.causal.noDelays || o.causal.cpuTrace || o.causal.haveSlowKernels || o.causal.haveStalls || o.causal.slowRank >= 0;
    if (causalOpts && !o.causal.on) return usage("--slow-kernel, --cpu-stall, --slow-rank, --no-delays and --cpu-trace need --causal");
    if (o.causal.on && (o.demo || o.haveLate || o.noLate)) return usage("--causal excludes --demo, --late and --no-late");
    cfg = o.causal.on ? skewgen::causalConfig() : o.demo ? skewgen::demoConfig() : skewgen::GenConfig{};
    if (o.causal.on) applyCausal(o.causal, cfg);
    if (o.ranks > 0 && o.ranks != cfg.ranks) {
        cfg.ranks = int(o.ranks);
        cfg.devices.clear();  // default devices for the new rank count
        // Keep only the planted late arrivers that still name an existing rank.
        std::vector<skewgen::PlantedLate> keep;
        for (const auto& p : cfg.late)
            if (p.rank < cfg.ranks) keep.push_back(p);
        cfg.late = keep;
    }
    if (o.noLate && o.haveLate) return usage("--late and --no-late exclude each other");
    if (o.noLate) cfg.late.clear();
    if (o.haveLate) {
        for (const auto& p : o.late)
            if (p.rank >= cfg.ranks) return usage("--late names rank " + std::to_string(p.rank) + " of " + std::to_string(cfg.ranks));
        cfg.late = o.late;
    }
    if (o.layers > 0) cfg.layers = int(o.layers);
    if (o.steps > 0) cfg.steps = int(o.steps);
    if (o.perRank) {
        cfg.perRankFiles = true;
        cfg.devices.clear();  // per-rank captures: every rank is device 0
    }
    if (!o.layout.empty()) cfg.layout = o.layout == "2024.5" ? skewgen::Layout::V2024_5 : skewgen::Layout::V2026_2;
    if (o.haveSeed) cfg.seed = o.seed;
    cfg.timeOrdered = o.timeOrdered;
    if (o.target > 0) {
        const unsigned long long perStep = skewgen::kernelsPerStep(cfg);
        cfg.steps = int((static_cast<unsigned long long>(o.target) + perStep - 1) / perStep);
        if (cfg.steps < 1) cfg.steps = 1;
    }
    // Planted late arrivers and missing collectives must fit the (possibly smaller) run.
    {
        std::vector<skewgen::PlantedLate> keep;
        for (const auto& p : cfg.late)
            if (p.step <= cfg.steps && p.positionInStep <= 3 * cfg.layers) keep.push_back(p);
        cfg.late = keep;
    }
    if (o.causal.on) {
        fitCausal(o.causal, cfg);
        if (cfg.slowComputeRank >= cfg.ranks) return usage("--slow-rank names a rank the run does not have");
    }
    return -1;
}

// Generates the run and prints what was written: the exit code.
int writeRun(const skewgen::GenConfig& cfg, const std::string& out) {
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const skewgen::GenResult r = skewgen::generate(cfg, out);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string files;
        for (const std::string& f : r.files) files += (files.empty() ? "" : ",") + f;
        std::printf(
            "skewgen: files=%s ranks=%d steps=%d kernels=%llu runtime=%llu nvtx=%llu sync=%llu collectives=%zu "
            "late=%zu seconds=%.2f\n",
            files.c_str(), cfg.ranks, r.steps, static_cast<unsigned long long>(r.kernelRows),
            static_cast<unsigned long long>(r.runtimeRows), static_cast<unsigned long long>(r.nvtxRows),
            static_cast<unsigned long long>(r.syncRows), r.collectives.size(), r.late.size(), secs);
        // Causal runs: each step's time as written and without the planted delays (the what-if's truth).
        for (const skewgen::TruthStep& t : r.stepTimes)
            std::printf("skewgen: step=%d captured_ns=%lld undelayed_ns=%lld%s\n", t.step,
                        static_cast<long long>(t.capturedNs), static_cast<long long>(t.undelayedNs),
                        t.complete ? "" : " trimmed");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (const int rc = parseArgs(argc, argv, args); rc >= 0) return rc;
    skewgen::GenConfig cfg;
    if (const int rc = makeConfig(args, cfg); rc >= 0) return rc;
    return writeRun(cfg, args.out);
}
