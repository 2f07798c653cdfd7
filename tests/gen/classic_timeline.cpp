// The (non-causal) timeline of a generated run (see classic_timeline.h).
//
// Each collective is placed from the previous one, planted late arrivers added to it. Timing model
// (all on one "model" timeline in ns since the session start; file time = model + kFileBase -
// fileShift + clockError; truth (aligned) time = model + kFileBase):
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

#include "classic_timeline.h"

#include <algorithm>

namespace skewgen {
namespace detail {

namespace {

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

class ClassicTimeline {
public:
    explicit ClassicTimeline(Run& run)
        : run_(run), cfg_(run.cfg), rng_(run.cfg.seed), kinds_(run.kinds), ncclKind0_(run.ncclKind0),
          ranks_(run.ranks), missing_(run.missing), res_(run.res) {
        state_.resize(ranks_.size());
    }

    void run() {
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
    }

private:
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

    Db& db(const RankInfo& r) { return run_.db(r); }
    static int64_t ft(const RankInfo& r, int64_t model) { return Run::ft(r, model); }
    static int64_t aligned(int64_t model) { return Run::aligned(model); }
    bool inWindow(int64_t modelStart) const { return run_.inWindow(modelStart); }
    [[noreturn]] static void fail(const std::string& msg) { Run::fail(msg); }
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
            for (auto& d : run_.dbs) d->flushStep();
        return next + rng_.uni(50 * kUs, 150 * kUs);
    }

    int64_t runCollective(int step, const Coll& c, int64_t prevE) {
        const int index = ++groupIndex_[size_t(c.group)];
        const int64_t E = placeCollective(step, c, prevE, index);

        TruthCollective truth;
        truth.group = c.group;
        truth.index = index;
        truth.op = kOpNames[c.op];
        truth.step = step;

        for (int r = 0; r < cfg_.ranks; ++r) writeRank(step, c, r, truth);
        if (!truth.members.empty()) res_.collectives.push_back(std::move(truth));
        return E;
    }

    // Places collective `c` (index `index` of its group): the compute chunks' kinds and lengths, each
    // rank's NCCL start and end (the scratch arrays); returns the latest end of its members.
    int64_t placeCollective(int step, const Coll& c, int64_t prevE, int index) {
        const int R = cfg_.ranks;
        const int n = cfg_.extraKernelsPerCollective;

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
        return E;
    }

    // Rank r's part of collective `c`: its compute chunk (launches, kernels) and its NCCL launch and
    // kernel, where placeCollective put them; its member of the truth.
    void writeRank(int step, const Coll& c, int r, TruthCollective& truth) {
        const int n = cfg_.extraKernelsPerCollective;
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
        if (!present_[ur]) return;

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

    Run& run_;
    const GenConfig& cfg_;
    Rng rng_;
    const std::vector<Kind>& kinds_;
    const int ncclKind0_;
    const std::vector<RankInfo>& ranks_;
    std::vector<RankState> state_;
    std::vector<Coll> plan_;
    std::vector<int> groupIndex_;
    const std::set<std::pair<int, int>>& missing_;
    GenResult& res_;
    uint32_t lastCorr_ = 0;
    int64_t prevTransfer_ = 0;
    // Per-collective scratch, indexed by rank (and rank * n + j for chunks).
    std::vector<int> chunkKind_;
    std::vector<int64_t> chunkDur_, chunkGap_, chunkLen_, aNo_, a_, delay_, end_;
    std::vector<int> lateKind_;  // -1 none, 0 Cpu, 1 Gpu
    std::vector<char> present_;
};

}  // namespace

void runClassicTimeline(Run& run) {
    ClassicTimeline t(run);
    t.run();
}

}  // namespace detail
}  // namespace skewgen
