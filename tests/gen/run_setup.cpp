// The run being written (see run_setup.h).

#include "run_setup.h"

#include <algorithm>

#include "static_tables.h"

namespace skewgen {
namespace detail {

GenResult Run::finish() {
    for (size_t f = 0; f < dbs.size(); ++f) {
        Db& d = *dbs[f];
        const int64_t start = kFileBase - fileShift[f];
        const int64_t stop = d.maxTime() + 1 * kMs;
        d.exec("INSERT INTO ANALYSIS_DETAILS VALUES(" + std::to_string(1ULL << 48) + ", " +
               std::to_string(stop - start) + ", " + std::to_string(start) + ", " + std::to_string(stop) + ")");
        d.commit();
        res.kernelRows += d.kernelRows;
        res.runtimeRows += d.runtimeRows;
        res.nvtxRows += d.nvtxRows;
        res.syncRows += d.syncRows;
    }
    return std::move(res);
}

void Run::validate() {
    if (cfg.ranks < 1) fail("ranks must be >= 1");
    if (cfg.steps < 1) fail("steps must be >= 1");
    if (cfg.layers < 1) fail("layers must be >= 1");
    if (cfg.extraKernelsPerCollective < 0) fail("extraKernelsPerCollective must be >= 0");
    if (!cfg.devices.empty() && int(cfg.devices.size()) != cfg.ranks) fail("devices must have one entry per rank");
    if (!cfg.clockErrorNs.empty() && int(cfg.clockErrorNs.size()) != cfg.ranks)
        fail("clockErrorNs must have one entry per rank");
    const int fsdp = 3 * cfg.layers;
    for (const PlantedLate& p : cfg.late) {
        if (p.step < 1 || p.step > cfg.steps) fail("planted late: step out of range");
        if (p.positionInStep < 1 || p.positionInStep > fsdp) fail("planted late: position out of range");
        if (p.rank < 0 || p.rank >= cfg.ranks) fail("planted late: rank out of range");
        if (p.delayNs < 0) fail("planted late: negative delay");
    }
    for (const MissingCollective& m : cfg.missing) {
        if (m.rank < 0 || m.rank >= cfg.ranks) fail("missing collective: rank out of range");
        if (m.index < 1 || m.index > fsdp * cfg.steps) fail("missing collective: index out of range");
        missing.insert({m.rank, m.index});
    }
}

void Run::setup() {
    kinds = computeKinds();
    ncclKind0 = int(kinds.size());
    for (int op = 0; op < 4; ++op) kinds.push_back(ncclKind(cfg, op));

    const int R = cfg.ranks;
    ranks.resize(size_t(R));
    std::vector<int64_t> utc;
    if (cfg.perRankFiles) {
        std::string stem = out;
        const std::string ext = ".sqlite";
        if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
            stem.resize(stem.size() - ext.size());
        for (int r = 0; r < R; ++r) {
            res.files.push_back(stem + "_rank" + std::to_string(r) + ".sqlite");
            utc.push_back(cfg.sessionStartUtcNs + int64_t(r) * kSessionShiftPerRank);
        }
    } else {
        res.files.push_back(out);
        utc.push_back(cfg.sessionStartUtcNs);
    }
    const int64_t minUtc = *std::min_element(utc.begin(), utc.end());
    for (int64_t u : utc) fileShift.push_back(u - minUtc);

    for (int r = 0; r < R; ++r) {
        RankInfo& ri = ranks[size_t(r)];
        ri.idx = r;
        ri.file = cfg.perRankFiles ? r : 0;
        ri.pid = 1000 + r;
        ri.device = !cfg.devices.empty() ? cfg.devices[size_t(r)] : cfg.perRankFiles ? 0 : r;
        ri.context = cfg.perRankFiles ? 1 : r + 1;
        ri.gpid = (1ULL << 48) | (uint64_t(ri.pid) << 24);
        ri.gtidMain = ri.gpid | uint64_t(ri.pid);
        ri.gtidOther = ri.gpid | uint64_t(ri.pid + 37);
        ri.streams[0] = kFsdpStream;
        ri.streams[1] = kAllReduceStreamBase + r % 2;
        ri.streams[2] = kSendRecvStream;
        ri.shift = fileShift[size_t(ri.file)];
        ri.clockErr = (cfg.perRankFiles && !cfg.clockErrorNs.empty()) ? cfg.clockErrorNs[size_t(r)] : 0;
    }
    
    for (size_t f = 0; f < res.files.size(); ++f) {
        dbs.push_back(std::make_unique<Db>(res.files[f], cfg.layout, kinds));
        if (cfg.timeOrdered) dbs.back()->setTimeOrdered();
        if (cfg.cpuTrace) dbs.back()->enableCpuTrace();
        std::vector<const RankInfo*> fr;
        for (const RankInfo& r : ranks)
            if (r.file == int(f)) fr.push_back(&r);
        writeStaticTables(*dbs.back(), cfg.layout, utc[f], fileStem(res.files[f]), fr);
    }

    // Labels and the spec's rank order.
    std::set<int> devs;
    for (const RankInfo& r : ranks) devs.insert(r.device);
    const bool uniqueDevices = int(devs.size()) == R;
    for (const RankInfo& r : ranks) {
        const std::string stem = fileStem(res.files[size_t(r.file)]);
        if (cfg.perRankFiles)
            res.rankLabels.push_back(stem);
        else if (uniqueDevices)
            res.rankLabels.push_back("dev " + std::to_string(r.device));
        else
            res.rankLabels.push_back(stem + "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device));
    }
    for (int r = 0; r < R; ++r) res.specOrder.push_back(r);
    std::stable_sort(res.specOrder.begin(), res.specOrder.end(), [&](int x, int y) {
        const RankInfo& a = ranks[size_t(x)];
        const RankInfo& b = ranks[size_t(y)];
        const std::string& fa = res.files[size_t(a.file)];
        const std::string& fb = res.files[size_t(b.file)];
        if (fa != fb) return fa < fb;
        if (a.device != b.device) return a.device < b.device;
        return a.pid < b.pid;
    });
}

}  // namespace detail
}  // namespace skewgen
