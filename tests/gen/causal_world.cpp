// Causal mode: one simulated world of a run (see causal_world.h).

#include "causal_world.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace skewgen {
namespace detail {

CausalWorld::CausalWorld(Run& run, const std::vector<CausalColl>& plan, bool delays, bool write)
    : run_(run), cfg_(run.cfg), plan_(plan), delays_(delays), write_(write), n_(run.cfg.extraKernelsPerCollective) {
    clocks_.resize(run.ranks.size());
    for (RankClock& k : clocks_) k.ncclEnd.assign(plan.size(), 0);
    int groups = 0;
    for (const CausalColl& c : plan) groups = std::max(groups, c.group + 1);
    groupIndex_.assign(size_t(groups), 0);
}

StepSpan CausalWorld::runStep(int step, const StepDraws& d) {
    span_ = StepSpan{};
    const int R = int(clocks_.size());
    beginStep(d);
    for (size_t c = 0; c < plan_.size(); ++c) {
        for (int r = 0; r < R; ++r) {
            launchChunk(step, c, r, d);
            launchNccl(step, c, r, d);
        }
        finishCollective(step, c, d);
    }
    endStep(step, d);
    return span_;
}

int64_t CausalWorld::kernelDuration(int step, size_t c, int j, int r, const StepDraws& d) const {
    int64_t dur = d.dur[c * size_t(n_) + size_t(j)];
    if (!delays_) return dur;
    if (r == cfg_.slowComputeRank) dur = int64_t(std::llround(double(dur) * cfg_.slowComputeFactor));
    for (const SlowKernel& k : cfg_.slowKernels)
        if (k.step == step && k.position == int(c) + 1 && k.rank == r && (k.kernel < 0 ? n_ - 1 : k.kernel) == j)
            dur += k.extraNs;
    return dur;
}

int64_t CausalWorld::stallBefore(int step, size_t c, int r) const {
    int64_t stall = 0;
    if (!delays_) return stall;
    for (const CpuStall& s : cfg_.cpuStalls)
        if (s.step == step && s.position == int(c) + 1 && s.rank == r) stall += s.stallNs;
    return stall;
}

uint32_t CausalWorld::apiCall(int r, int64_t start, int64_t end, bool driver, int64_t nameId, bool launch) {
    RankClock& k = clocks_[size_t(r)];
    const uint32_t corr = k.corr++;
    if (!write_) return corr;
    const RankInfo& ri = run_.ranks[size_t(r)];
    Db& db = run_.db(ri);
    db.runtime(Run::ft(ri, start), Run::ft(ri, end), driver ? 1 : 0, ri.gtidMain, corr, nameId);
    // Backtrace rows (eventClass 67) repeat the launch's correlation id; analyses must skip them.
    if (launch && corr % (driver ? 3 : 10) == 0)
        db.runtime(Run::ft(ri, start - 300), Run::ft(ri, end + 150), 67, ri.gtidMain, corr,
                   driver ? db.sBtLaunchKernelEx : db.sBtLaunchKernel, k.callchain++);
    return corr;
}

void CausalWorld::kernel(int r, int64_t start, int64_t end, int kind, int stream, uint32_t corr) {
    RankClock& k = clocks_[size_t(r)];
    const int64_t gridId = k.gridId++;
    if (write_ && !run_.inWindow(start)) {
        span_.complete = false;
        return;
    }
    span_.first = std::min(span_.first, start);
    span_.last = std::max(span_.last, end);
    if (!write_) return;
    const RankInfo& ri = run_.ranks[size_t(r)];
    k.rows.push_back(KRow{Run::ft(ri, start), Run::ft(ri, end), kind, stream, corr, gridId});
}

void CausalWorld::streamWaitRow(int r, int stream, int64_t start, int64_t end, uint32_t corr) {
    RankClock& k = clocks_[size_t(r)];
    const int64_t eventId = k.eventId++, eventSyncId = k.eventSyncId++;
    if (!write_) return;
    const RankInfo& ri = run_.ranks[size_t(r)];
    run_.db(ri).sync(Run::ft(ri, start), Run::ft(ri, end), ri, stream, corr, 2, eventId, eventSyncId);
}

void CausalWorld::beginStep(const StepDraws& d) {
    for (size_t r = 0; r < clocks_.size(); ++r) {
        RankClock& k = clocks_[r];
        const RankStepDraws& rd = d.ranks[r];
        k.rangeStart = (k.rangeEnd < 0 ? kFirstStepModel : k.rangeEnd + rd.interGap) + rd.rangeGap;
        k.cpu = k.rangeStart + rd.firstGap;
        if (!write_) continue;
        const RankInfo& ri = run_.ranks[r];
        run_.res.stepRangeStartNs[r].push_back(Run::aligned(k.rangeStart));
        // The NCCL watchdog thread polls an event once per step (own thread, own correlation id).
        const int64_t q = k.rangeStart + rd.watchdogAt;
        Db& db = run_.db(ri);
        db.runtime(Run::ft(ri, q), Run::ft(ri, q + rd.watchdogDur), 0, ri.gtidOther, k.corr++, db.sEventQuery);
    }
}

void CausalWorld::launchChunk(int step, size_t c, int r, const StepDraws& d) {
    RankClock& k = clocks_[size_t(r)];
    const RankStepDraws& rd = d.ranks[size_t(r)];
    const RankInfo& ri = run_.ranks[size_t(r)];
    Db& db = run_.db(ri);
    k.chunkEnd = 0;
    if (n_ == 0) return;
    // From the third collective on, the chunk waits for the NCCL kernel two collectives before.
    int64_t awaited = 0;
    if (c >= 2) {
        const WaitDraw& w = rd.chunkWaits[c];
        awaited = k.ncclEnd[c - 2];
        const int64_t callStart = k.cpu + w.before, callEnd = callStart + w.callDur;
        const uint32_t corr = apiCall(r, callStart, callEnd, false, db.sStreamWait, false);
        const int64_t ready = std::max(k.computeEnd, callEnd);
        streamWaitRow(r, kComputeStream, ready, std::max(ready, awaited) + w.syncDelta, corr);
        k.cpu = callEnd + w.after;
    }
    for (int j = 0; j < n_; ++j) {
        const LaunchDraw& l = rd.kernels[c * size_t(n_) + size_t(j)];
        const int64_t callStart = k.cpu + l.cpuGap, callEnd = callStart + l.launchDur;
        const uint32_t corr = apiCall(r, callStart, callEnd, false, db.sLaunchKernel, true);
        k.cpu = callEnd;
        const int64_t start = std::max({k.computeEnd, callEnd, j == 0 ? awaited : 0}) + l.gpuGap;
        const int64_t end = start + kernelDuration(step, c, j, r, d);
        kernel(r, start, end, d.kind[c * size_t(n_) + size_t(j)], kComputeStream, corr);
        k.computeEnd = end;
    }
    k.chunkEnd = k.computeEnd;
}

void CausalWorld::launchNccl(int step, size_t c, int r, const StepDraws& d) {
    RankClock& k = clocks_[size_t(r)];
    const NcclDraw& x = d.ranks[size_t(r)].nccl[c];
    const RankInfo& ri = run_.ranks[size_t(r)];
    Db& db = run_.db(ri);
    const int role = plan_[c].streamRole;
    const int stream = ri.streams[role];
    const int64_t stall = stallBefore(step, c, r);
    if (stall > 0 && write_ && cfg_.cpuTrace) writeStall(r, k.cpu, stall);
    k.cpu += stall;
    // NVTX push, cudaStreamWaitEvent (the NCCL stream waits for the chunk), cuLaunchKernelEx, NVTX pop.
    const int64_t push = k.cpu + x.pushGap;
    const int64_t waitStart = push + x.wait.before, waitEnd = waitStart + x.wait.callDur;
    const uint32_t waitCorr = apiCall(r, waitStart, waitEnd, false, db.sStreamWait, false);
    const int64_t ready = std::max(k.streamEnd[role], waitEnd);
    streamWaitRow(r, stream, ready, std::max(ready, k.chunkEnd) + x.wait.syncDelta, waitCorr);
    const int64_t launchStart = waitEnd + x.wait.after, launchEnd = launchStart + x.launchDur;
    k.ncclCorr = apiCall(r, launchStart, launchEnd, true, db.sLaunchKernelEx, true);
    const int64_t pop = launchEnd + x.popGap;
    if (write_ && cfg_.nvtxNccl)
        db.nvtx(Run::ft(ri, push), Run::ft(ri, pop), 59, ri.gtidMain, db.sNvtxNccl[plan_[c].op], kNcclDomain);
    k.cpu = pop + x.postGap;
    k.ncclLaunchEnd = launchEnd;
    k.ncclStart = std::max({k.streamEnd[role], launchEnd, k.chunkEnd}) + x.gpuGap;
}

void CausalWorld::writeStall(int r, int64_t cpu, int64_t stall) {
    const RankInfo& ri = run_.ranks[size_t(r)];
    Db& db = run_.db(ri);
    CpuTraceTables& t = *db.cpuTrace();
    auto truth = [&](bool main, const char* kind, const std::string& name, int64_t s, int64_t e) {
        run_.res.cpuEvents.push_back(TruthCpuEvent{r, main, kind, name, Run::aligned(s), Run::aligned(e)});
    };
    const int64_t q = stall / 4, busy = cpu + q, blocked = cpu + 2 * q;
    const int64_t collate = db.intern("collate_batch"), caller = db.intern("DataLoader::next"), module = db.intern("libdataloader.so");
    for (int64_t s = busy + 50'000; s < blocked; s += 100'000) {
        t.sample(Run::ft(ri, s), ri.gtidMain, collate, caller, module);
        truth(true, "sample", "collate_batch", s, s);
    }
    // a copy queued while computing: a CUDA API call that launches no kernel (its own correlation id)
    const int64_t copyEnd = busy + stall / 20;
    db.runtime(Run::ft(ri, busy), Run::ft(ri, copyEnd), 0, ri.gtidMain, stallCorr_++, db.intern("cudaMemcpyAsync_v3020"));
    truth(true, "cuda", "cudaMemcpyAsync", busy, copyEnd);
    t.osrt(Run::ft(ri, blocked), Run::ft(ri, cpu + stall), ri.gtidMain, db.intern("pthread_mutex_lock"), 0);
    truth(true, "osrt", "pthread_mutex_lock", blocked, cpu + stall);
    t.osrt(Run::ft(ri, blocked + 1'000), Run::ft(ri, cpu + stall - 1'000), ri.gtidMain, db.intern("futex"), 1);
    truth(true, "osrt_nested", "futex", blocked + 1'000, cpu + stall - 1'000);
    // the rank's other thread, busy at the same time: not what the launching thread did
    t.sample(Run::ft(ri, busy + 50'000), ri.gtidOther, db.intern("watchdog_poll"), caller, module);
    truth(false, "sample", "watchdog_poll", busy + 50'000, busy + 50'000);
    t.osrt(Run::ft(ri, busy), Run::ft(ri, blocked), ri.gtidOther, db.intern("poll"), 0);
    truth(false, "osrt", "poll", busy, blocked);
}

void CausalWorld::finishCollective(int step, size_t c, const StepDraws& d) {
    const CausalColl& cc = plan_[c];
    int64_t latest = 0;
    for (const RankClock& k : clocks_) latest = std::max(latest, k.ncclStart);
    const int64_t end = latest + d.transfer[c];
    TruthCollective truth;
    truth.group = cc.group;
    truth.index = ++groupIndex_[size_t(cc.group)];
    truth.op = kOpNames[cc.op];
    truth.step = step;
    for (size_t r = 0; r < clocks_.size(); ++r) {
        RankClock& k = clocks_[r];
        const int stream = run_.ranks[r].streams[cc.streamRole];
        kernel(int(r), k.ncclStart, end, run_.ncclKind0 + cc.op, stream, k.ncclCorr);
        k.streamEnd[cc.streamRole] = end;
        k.ncclEnd[c] = end;
        if (write_ && run_.inWindow(k.ncclStart))
            truth.members.push_back(TruthMember{int(r), stream, Run::aligned(k.ncclStart), Run::aligned(end), k.ncclCorr,
                                                Run::aligned(k.ncclLaunchEnd)});
    }
    if (write_ && !truth.members.empty()) run_.res.collectives.push_back(std::move(truth));
}

void CausalWorld::endStep(int step, const StepDraws& d) {
    const int R = int(clocks_.size());
    for (int r = 0; r < R; ++r) {
        RankClock& k = clocks_[size_t(r)];
        const RankStepDraws& rd = d.ranks[size_t(r)];
        const RankInfo& ri = run_.ranks[size_t(r)];
        Db& db = run_.db(ri);
        // The CPU synchronizes until its GPU work is done, then closes the step's range.
        const int64_t gpuEnd = std::max({k.computeEnd, k.streamEnd[0], k.streamEnd[1], k.streamEnd[2]});
        const int64_t s0 = k.cpu + rd.syncGap;
        const int64_t s1 = std::max(s0 + rd.syncMin, gpuEnd + rd.syncLatency);
        const uint32_t corr = apiCall(r, s0, s1, false, db.sStreamSync, false);
        k.rangeEnd = s1 + rd.rangeEndGap;
        k.cpu = k.rangeEnd;
        if (!write_) continue;
        db.sync(Run::ft(ri, s0 + 300), Run::ft(ri, s1 - 200), ri, kComputeStream, corr, 3, 4294967295LL, 0);
        if (cfg_.nvtxSteps)
            db.nvtxText(Run::ft(ri, k.rangeStart), Run::ft(ri, k.rangeEnd), 59, "ProfilerStep#" + std::to_string(step),
                        ri.gtidMain, 0);
    }
    if (!write_) return;
    // Kernel rows out of time order, as the classic timeline writes them: ranks in a rotating
    // order, each rank's kernels from the step's last to its first.
    for (int i = 0; i < R; ++i) {
        const int r = (i + step) % R;
        RankClock& k = clocks_[size_t(r)];
        const RankInfo& ri = run_.ranks[size_t(r)];
        for (size_t j = k.rows.size(); j-- > 0;) run_.db(ri).kernel(ri, k.rows[j]);
        k.rows.clear();
    }
    if (cfg_.timeOrdered)
        for (auto& db : run_.dbs) db->flushStep();
}

}  // namespace detail
}  // namespace skewgen
