// The CPU row (issue 24, docs/analysis.md, Run views: CPU before a late launch): what the late
// arriver's launching thread did between the first other rank's launch and its own. A causal run
// with CPU stalls, generated with --cpu-trace (GenConfig::cpuTrace): each stall is written as
// samples in collate_batch, a cudaMemcpyAsync call, pthread_mutex_lock with a nested futex, and on
// the rank's other thread a poll call and a sample. Expected numbers come from the generator's
// truth (the stalls' events, the members' launch ends) and from SQL on the export (the thread's
// CUDA API calls), never from the code under test.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "analysis/analysis.h"
#include "gen/gen_common.h"
#include "gen_fixture.h"
#include "model/loader.h"
#include "nsys/thread_activity.h"
#include "scene/cpu_activity.h"
#include "scene/kernel_details.h"

using namespace testutil;

namespace {

skewgen::GenConfig stallRun(bool cpuTrace) {
    skewgen::GenConfig c;
    c.causal = true;
    c.ranks = 4;
    c.steps = 3;
    c.layers = 3;
    c.cpuStalls = {{2, 3, 1, 4'000'000}};  // step 2, collective 3, rank 1: 4 ms
    c.slowKernels.clear();
    c.cpuTrace = cpuTrace;
    return c;
}

struct Loaded {
    const Generated& g;
    skew::Profile p;
    skew::Analysis a;
    explicit Loaded(const Generated& gen) : g(gen), p(skew::loadProfile({gen.path})), a(skew::analyze(p)) {}
    // the analysis' collective that is the truth's (group, index)
    int collective(int group, int index) const {
        for (size_t i = 0; i < a.collectives.size(); ++i)
            if (a.collectives[i].group == group && int(a.collectives[i].index) == index) return int(i);
        return -1;
    }
};

// The truth's collective of step 2 at position 3 of the step in group 0.
const skewgen::TruthCollective* stalledCollective(const skewgen::GenResult& r) {
    int pos = 0;
    for (const auto& c : r.collectives) {
        if (c.step != 2) continue;
        ++pos;  // collectives of a step in plan order (every group)
        if (pos == 3) return &c;
    }
    return nullptr;
}

struct Span {
    int64_t ns = 0;
    uint32_t count = 0;
};

// Clipped time per CUDA API name (version suffix dropped) of the thread's eventClass 0/1 rows, by SQL.
std::map<std::string, Span> cudaApiBySql(const std::string& path, uint64_t gtid, int64_t from, int64_t to) {
    std::map<std::string, Span> out;
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    const std::string sql = "SELECT r.start, r.end, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                            "WHERE r.eventClass IN (0, 1) AND r.globalTid = " + std::to_string(gtid);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const int64_t s = std::max<int64_t>(sqlite3_column_int64(st, 0), from), e = std::min<int64_t>(sqlite3_column_int64(st, 1), to);
        if (sqlite3_column_int64(st, 0) >= to || sqlite3_column_int64(st, 1) <= from) continue;
        std::string name = reinterpret_cast<const char*>(sqlite3_column_text(st, 2));
        if (const size_t v = name.rfind("_v"); v != std::string::npos && name.find_first_not_of("0123456789", v + 2) == std::string::npos)
            name.resize(v);
        out[name].ns += e - s;
        ++out[name].count;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

const skew::CpuTotal* total(const skew::CpuActivity& c, skew::CpuKind k, const std::string& name) {
    for (const auto& t : c.totals)
        if (t.kind == k && t.name == name) return &t;
    return nullptr;
}

TEST(CpuActivity, ApiNamesLoseOnlyTheirVersionSuffix) {
    EXPECT_EQ(skew::apiDisplayName("cudaStreamSynchronize_v3020"), "cudaStreamSynchronize");
    EXPECT_EQ(skew::apiDisplayName("cuLaunchKernelEx"), "cuLaunchKernelEx");
    EXPECT_EQ(skew::apiDisplayName("my_v2_call"), "my_v2_call");
    EXPECT_EQ(skew::apiDisplayName("odd_v"), "odd_v");
}

TEST(CpuActivity, TheStalledLaunchShowsWhatItsThreadDid) {
    Loaded run(generated("cpu-trace", stallRun(true)));
    const skewgen::TruthCollective* tc = stalledCollective(run.g.result);
    ASSERT_NE(tc, nullptr);
    const int ci = run.collective(tc->group, tc->index);
    ASSERT_GE(ci, 0);
    const skew::Collective& c = run.a.collectives[size_t(ci)];
    ASSERT_EQ(c.cause, skew::Cause::CpuLaunch);
    // the window, from the truth: the first other member's launch end to the stalled rank's own
    int64_t from = INT64_MAX, to = 0;
    for (const auto& m : tc->members) (m.rank == 1 ? to : from) = m.rank == 1 ? m.launchEndNs : std::min(from, m.launchEndNs);
    const skew::CpuWindow w = skew::cpuWindowFor(run.p, run.a, ci);
    ASSERT_TRUE(w.present) << w.why;
    EXPECT_EQ(run.p.ranks[size_t(w.rank)].label, run.g.result.rankLabels[1]);
    EXPECT_EQ(w.fromNs, from);
    EXPECT_EQ(w.toNs, to);
    const skew::CpuActivity act = skew::readCpuActivity(run.p, w);
    ASSERT_TRUE(act.exportRead);
    EXPECT_TRUE(act.notes.empty()) << act.notes.front();
    // OS runtime and samples: the truth's events of the launching thread, clipped (the nested futex
    // and the other thread's poll and sample are not the thread's outermost calls)
    std::map<std::string, Span> osrt;
    uint32_t samples = 0;
    for (const auto& e : run.g.result.cpuEvents) {
        if (e.rank != 1 || !e.launchingThread) continue;
        if (e.kind == "sample" && e.startNs >= from && e.startNs < to) ++samples;
        if (e.kind == "osrt" && e.startNs < to && e.endNs > from) {
            osrt[e.name].ns += std::min(e.endNs, to) - std::max(e.startNs, from);
            ++osrt[e.name].count;
        }
    }
    ASSERT_EQ(osrt.size(), 1u);
    EXPECT_EQ(osrt["pthread_mutex_lock"].ns, 2'000'000);  // half the 4 ms stall, inside the window
    EXPECT_EQ(samples, 10u);                              // every 100 us over the stall's second ms
    const skew::CpuTotal* lock = total(act, skew::CpuKind::OsRuntime, "pthread_mutex_lock");
    ASSERT_NE(lock, nullptr);
    EXPECT_EQ(lock->ns, 2'000'000);
    EXPECT_EQ(lock->count, 1u);
    EXPECT_EQ(total(act, skew::CpuKind::OsRuntime, "futex"), nullptr);
    EXPECT_EQ(total(act, skew::CpuKind::OsRuntime, "poll"), nullptr);
    EXPECT_EQ(act.samples, samples);
    const skew::CpuTotal* collate = total(act, skew::CpuKind::Sample, "collate_batch");
    ASSERT_NE(collate, nullptr);
    EXPECT_EQ(collate->count, 10u);
    EXPECT_EQ(total(act, skew::CpuKind::Sample, "watchdog_poll"), nullptr);
    // CUDA API calls: as SQL sums the thread's rows in the window
    const auto api = cudaApiBySql(run.g.path, w.globalTid, from, to);
    ASSERT_TRUE(api.count("cudaMemcpyAsync"));
    EXPECT_EQ(api.at("cudaMemcpyAsync").ns, 200'000);
    size_t apiTotals = 0;
    for (const auto& t : act.totals) apiTotals += t.kind == skew::CpuKind::CudaApi;
    EXPECT_EQ(apiTotals, api.size());
    for (const auto& [name, s] : api) {
        const skew::CpuTotal* t = total(act, skew::CpuKind::CudaApi, name);
        ASSERT_NE(t, nullptr) << name;
        EXPECT_EQ(t->ns, s.ns) << name;
        EXPECT_EQ(t->count, s.count) << name;
    }
    // NVTX from the profile: the step's range holds the whole window
    const skew::CpuTotal* stepRange = total(act, skew::CpuKind::Nvtx, "ProfilerStep#2");
    ASSERT_NE(stepRange, nullptr);
    EXPECT_EQ(stepRange->ns, to - from);
    // the largest span first: the lock (2 ms) outlasts every API call; the samples come last
    EXPECT_EQ(act.totals.front().kind, skew::CpuKind::Nvtx);  // the step range covers it all
    EXPECT_EQ(act.totals.back().kind, skew::CpuKind::Sample);
    const std::string text = skew::cpuActivityText(act, 20);
    EXPECT_NE(text.find("OS runtime: pthread_mutex_lock 2.00 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("CPU samples: collate_batch in 10 of 10"), std::string::npos) << text;
}

TEST(CpuActivity, OnlyALateCpuLaunchHasAWindow) {
    Loaded run(generated("cpu-trace", stallRun(true)));
    size_t cpu = 0, none = 0;
    for (size_t i = 0; i < run.a.collectives.size(); ++i) {
        const skew::CpuWindow w = skew::cpuWindowFor(run.p, run.a, int(i));
        if (run.a.collectives[i].cause == skew::Cause::CpuLaunch) {
            cpu += w.present;
        } else {
            EXPECT_FALSE(w.present);
            EXPECT_FALSE(w.why.empty());
            ++none;
        }
    }
    EXPECT_GE(cpu, 1u);
    EXPECT_GE(none, 1u);
    EXPECT_FALSE(skew::cpuWindowFor(run.p, run.a, -1).present);
}

TEST(CpuActivity, AnExportWithoutTheCpuTablesSaysWhatToRecord) {
    Loaded run(generated("cpu-trace-off", stallRun(false)));
    const skewgen::TruthCollective* tc = stalledCollective(run.g.result);
    ASSERT_NE(tc, nullptr);
    const skew::CpuWindow w = skew::cpuWindowFor(run.p, run.a, run.collective(tc->group, tc->index));
    ASSERT_TRUE(w.present) << w.why;
    const skew::CpuActivity act = skew::readCpuActivity(run.p, w);
    ASSERT_TRUE(act.exportRead);
    EXPECT_EQ(act.samples, 0u);
    ASSERT_EQ(act.notes.size(), 1u);
    EXPECT_EQ(act.notes[0], "The export has no OS runtime calls (--trace=osrt) or CPU samples (--sample=process-tree): record them to see "
                            "more of what the thread did.");
    EXPECT_NE(total(act, skew::CpuKind::CudaApi, "cuLaunchKernelEx"), nullptr);
}

TEST(CpuActivity, AnExportThatIsGoneLeavesTheNvtxRanges) {
    Loaded run(generated("cpu-trace", stallRun(true)));
    const skewgen::TruthCollective* tc = stalledCollective(run.g.result);
    ASSERT_NE(tc, nullptr);
    skew::CpuWindow w = skew::cpuWindowFor(run.p, run.a, run.collective(tc->group, tc->index));
    ASSERT_TRUE(w.present);
    w.exportPath = generatedDir() + "/no-such-export.sqlite";
    const skew::CpuActivity act = skew::readCpuActivity(run.p, w);
    EXPECT_FALSE(act.exportRead);
    ASSERT_EQ(act.notes.size(), 1u);
    EXPECT_NE(act.notes[0].find("could not be read"), std::string::npos) << act.notes[0];
    ASSERT_NE(total(act, skew::CpuKind::Nvtx, "ProfilerStep#2"), nullptr);
    for (const auto& t : act.totals) EXPECT_EQ(t.kind, skew::CpuKind::Nvtx);
}

TEST(CpuActivity, ACancelledReadReturnsWithoutThrowing) {
    Loaded run(generated("cpu-trace", stallRun(true)));
    const skewgen::TruthCollective* tc = stalledCollective(run.g.result);
    ASSERT_NE(tc, nullptr);
    const skew::CpuWindow w = skew::cpuWindowFor(run.p, run.a, run.collective(tc->group, tc->index));
    std::atomic<bool> cancel{true};
    const skew::ThreadActivity t = skew::readThreadActivity(w.exportPath, w.globalTid, skew::exportFrom(w), skew::exportTo(w), &cancel);
    EXPECT_TRUE(t.events.empty());
}

}  // namespace

namespace {

// A real export with CPU samples and an (empty) OS runtime table (tests/data/real, Nsight Systems
// 2022.2): the counts below are those of SQL on the file (sqlite3: COMPOSITE_EVENTS 5,451 rows of
// one thread, from 24,479,746 to 2,087,144,630 ns; on top of their stacks main 2,980 times,
// std::abs(double) 492; 57 runtime rows of eventClass 0/1, 54 of them starting before the last
// sample, and 38 backtraces of class 67).
TEST(CpuActivity, ARealExportsSamplesAndCalls) {
    const std::string path = testutil::realDataDir() + "/pipit-saxpy-mpi.sqlite";
    const skew::ThreadActivity t = skew::readThreadActivity(path, 302119224788637ull, 0, 2'087'144'631);
    EXPECT_TRUE(t.hasCudaApi);
    EXPECT_TRUE(t.hasOsRuntime);
    EXPECT_TRUE(t.hasSamples);
    EXPECT_FALSE(t.truncated);
    std::map<std::string, size_t> top;
    size_t api = 0, osrt = 0;
    for (const auto& e : t.events) {
        if (e.kind == skew::CpuEvent::Sample) ++top[e.name];
        api += e.kind == skew::CpuEvent::CudaApi;
        osrt += e.kind == skew::CpuEvent::OsRuntime;
    }
    size_t samples = 0;
    for (const auto& [name, n] : top) samples += n;
    EXPECT_EQ(samples, 5451u);
    EXPECT_EQ(top["main"], 2980u);
    EXPECT_EQ(top["std::abs(double)"], 492u);
    EXPECT_EQ(api, 54u);
    EXPECT_EQ(osrt, 0u);
    // the window is half-open: a sample at its end is not in it
    const skew::ThreadActivity cut = skew::readThreadActivity(path, 302119224788637ull, 24'479'746, 2'087'144'630);
    size_t cutSamples = 0;
    for (const auto& e : cut.events) cutSamples += e.kind == skew::CpuEvent::Sample;
    EXPECT_EQ(cutSamples, 5450u);
}

}  // namespace

namespace {

// Details names what the late arriver's last stream wait waited for. In the causal run the NCCL
// stream waits (cudaStreamWaitEvent) for the chunk of kernels launched before it on the compute
// stream: when the chunk was still running, the wait ends 200-800 ns (the generator's syncDelta)
// after the chunk's last kernel ends; when it had ended before the wait was issued, the wait ends
// right away. By SQL: that kernel (the compute stream's kernel of the rank with the latest end
// before the NCCL kernel's start) and the wait (the NCCL stream's syncType 2 row with the latest end
// before the start).
std::pair<std::string, int64_t> sqlPair(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::pair<std::string, int64_t> out{"", -1};
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (const unsigned char* t = sqlite3_column_text(st, 0)) out.first = reinterpret_cast<const char*>(t);
        out.second = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

TEST(StreamWaitDetails, TheLastWaitNamesTheKernelItWaitedFor) {
    Loaded run(generated("cpu-trace", stallRun(true)));
    const int compute = skewgen::detail::kComputeStream;
    int named = 0, none = 0;
    for (size_t ci = 0; ci < run.a.collectives.size(); ++ci) {
        const skew::Collective& c = run.a.collectives[ci];
        if (c.waitIndex < 0 || c.lateSlot < 0) continue;
        const skew::GroupSlot& gl = run.a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
        const uint32_t k = run.a.slotKernel(c, size_t(c.lateSlot));
        const skew::Rank& r = run.p.ranks[size_t(gl.rank)];
        const skew::KernelLane& lane = r.lanes[size_t(gl.lane)];
        const std::string on = " AND (globalPid / 16777216) % 16777216 = " + std::to_string(r.pid) + " AND deviceId = " + std::to_string(r.device);
        const auto [name, kernelEnd] = sqlPair(run.g.path, "SELECT s.value, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                                                           "WHERE k.streamId = " + std::to_string(compute) + on + " AND k.end <= " +
                                                               std::to_string(lane.start[k]) + " ORDER BY k.end DESC LIMIT 1");
        const auto [unused, waitEnd] = sqlPair(run.g.path, "SELECT '', end FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE syncType = 2 AND streamId = " +
                                                                std::to_string(lane.stream) + on + " AND end <= " + std::to_string(lane.start[k] + 2'000) +
                                                                " ORDER BY end DESC LIMIT 1");
        ASSERT_GE(kernelEnd, 0);
        ASSERT_GE(waitEnd, 0);
        const std::string d = skew::kernelDetails(run.p, run.a, int(ci), gl.rank, gl.lane, k);
        EXPECT_NE(d.find("Last stream wait: ended "), std::string::npos) << d;
        if (waitEnd - kernelEnd >= 200 && waitEnd - kernelEnd <= 800) {
            const std::string want = "the wait was for " + name + " on stream " + std::to_string(compute) + ", which ended " +
                                     std::to_string(waitEnd - kernelEnd) + " ns before the wait did";
            EXPECT_NE(d.find(want), std::string::npos) << want << "\n" << d;
            ++named;
        } else {
            EXPECT_GT(waitEnd - kernelEnd, 5'000);  // the chunk had ended long before
            EXPECT_NE(d.find("no kernel of another stream ended with the wait"), std::string::npos) << d;
            ++none;
        }
    }
    EXPECT_GE(named, 10);
    EXPECT_GE(none, 1);
}

}  // namespace
