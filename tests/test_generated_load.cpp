// Generated exports of both layouts load with exact counts, ranks and labels; per-rank files
// land on one clock.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>

#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "model/file_reader.h"
#include "nsys/export_reader.h"
#include "util/task_graph.h"

using namespace testutil;

namespace {

// Finds the kernel of a truth member in the loaded profile (rank in spec order, by stream and start).
bool hasKernel(const skew::Profile& p, int rank, int stream, int64_t start, int64_t end, uint32_t corr) {
    for (const auto& l : p.ranks[size_t(rank)].lanes) {
        if (l.stream != stream) continue;
        auto it = std::lower_bound(l.start.begin(), l.start.end(), start);
        for (; it != l.start.end() && *it == start; ++it) {
            size_t i = size_t(it - l.start.begin());
            if (l.end(i) == end && l.correlationId[i] == corr) return true;
        }
    }
    return false;
}

void checkAgainstTruth(const skew::Profile& p, const skewgen::GenResult& r) {
    ASSERT_EQ(p.ranks.size(), r.rankLabels.size());
    for (size_t i = 0; i < p.ranks.size(); ++i) EXPECT_EQ(p.ranks[i].label, r.rankLabels[size_t(r.specOrder[i])]);
    EXPECT_EQ(p.kernelCount(), r.kernelRows);
    std::vector<int> specIndexOf(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) specIndexOf[size_t(r.specOrder[i])] = int(i);
    std::map<int, uint64_t> ncclPerRank;
    for (const auto& c : r.collectives)
        for (const auto& m : c.members) {
            ++ncclPerRank[m.rank];
            ASSERT_TRUE(hasKernel(p, specIndexOf[size_t(m.rank)], m.stream, m.startNs, m.endNs, m.correlationId))
                << "group " << c.group << " #" << c.index << " rank " << m.rank;
            // the launch joined on (process, correlation id) is the one the generator wrote
            const skew::Rank& rk = p.ranks[size_t(specIndexOf[size_t(m.rank)])];
            bool found = false;
            for (const auto& l : rk.lanes)
                for (size_t k = 0; k < l.size(); ++k)
                    if (l.stream == m.stream && l.start[k] == m.startNs && l.correlationId[k] == m.correlationId) {
                        ASSERT_TRUE(l.hasLaunch(k));
                        EXPECT_EQ(l.launchEnd(k), m.launchEndNs);
                        found = true;
                    }
            EXPECT_TRUE(found);
        }
    for (size_t i = 0; i < p.ranks.size(); ++i) EXPECT_EQ(p.ranks[i].ncclKernelCount(), ncclPerRank[r.specOrder[i]]);
}

skewgen::GenConfig small(skewgen::Layout layout) {
    skewgen::GenConfig c;
    c.ranks = 4;
    c.steps = 2;
    c.layers = 3;
    c.layout = layout;
    c.sendRecv = true;
    c.seed = 7;
    return c;
}

TEST(GeneratedLoad, OneFile2026Layout) {
    auto cfg = small(skewgen::Layout::V2026_2);
    const auto& g = generated("one2026", cfg);
    skew::Profile p = skew::loadProfile({g.path});
    EXPECT_EQ(p.inputs[0].nsysVersion, "2026.2.1.210");
    EXPECT_EQ(p.inputs[0].schemaVersion, "3.25.0");
    checkAgainstTruth(p, g.result);
    EXPECT_EQ(p.ranks[0].label, "dev 0");
    EXPECT_EQ(p.ranks[3].label, "dev 3");
    // 3 NCCL streams per rank (FSDP, AllReduce, SendRecv) plus the compute stream
    EXPECT_EQ(p.ranks[0].lanes.size(), 4u);
    EXPECT_EQ(int64_t(p.kernelCount()), sqlCount(g.path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST(GeneratedLoad, OneFile2024Layout) {
    auto cfg = small(skewgen::Layout::V2024_5);
    const auto& g = generated("one2024", cfg);
    skew::Profile p = skew::loadProfile({g.path});
    EXPECT_EQ(p.inputs[0].nsysVersion, "2024.5.1.113");
    checkAgainstTruth(p, g.result);
}

TEST(GeneratedLoad, DemoLabelsAndDevices) {
    const auto& g = generated("demo", skewgen::demoConfig());
    skew::Profile p = skew::loadProfile({g.path});
    ASSERT_EQ(p.ranks.size(), 7u);
    for (size_t i = 0; i < 7; ++i) {
        EXPECT_EQ(p.ranks[i].device, int(i) + 1);
        EXPECT_EQ(p.ranks[i].label, "dev " + std::to_string(i + 1));
    }
    checkAgainstTruth(p, g.result);
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0], g.path + ": no kernels on device(s) 0 of the node's 8 (not captured, or idle): collectives there "
                                      "lack those ranks");
}

TEST(GeneratedLoad, PerRankFilesLandOnOneClock) {
    for (auto layout : {skewgen::Layout::V2024_5, skewgen::Layout::V2026_2}) {
        auto cfg = small(layout);
        cfg.perRankFiles = true;
        const auto& g = generated(layout == skewgen::Layout::V2024_5 ? "prf2024" : "prf2026", cfg);
        skew::Profile p = skew::loadProfile(g.result.files);
        ASSERT_EQ(p.ranks.size(), 4u);
        for (const auto& r : p.ranks) EXPECT_EQ(r.device, 0);  // per-rank captures: device 0 everywhere
        EXPECT_EQ(p.ranks[2].label, g.result.rankLabels[size_t(g.result.specOrder[2])]);
        EXPECT_EQ(p.ranks[2].label, "prf" + std::string(layout == skewgen::Layout::V2024_5 ? "2024" : "2026") + "_rank2");
        // each file has its own session start; the aligned base is the earliest one
        EXPECT_EQ(p.inputs[0].alignNs, 0);
        EXPECT_EQ(p.inputs[1].alignNs, 1'234'567);
        EXPECT_EQ(p.inputs[3].alignNs, 3 * 1'234'567);
        checkAgainstTruth(p, g.result);
    }
}

TEST(GeneratedLoad, ManyPerRankFilesKeepSpecOrder) {
    auto cfg = small(skewgen::Layout::V2026_2);
    cfg.ranks = 12;
    cfg.perRankFiles = true;
    cfg.allReduce = false;
    cfg.sendRecv = false;
    const auto& g = generated("prf12", cfg);
    skew::Profile p = skew::loadProfile(g.result.files);
    checkAgainstTruth(p, g.result);
    // file-name order: rank10 and rank11 come before rank2
    EXPECT_EQ(g.result.specOrder[2], 10);
    EXPECT_EQ(p.ranks[2].label, "prf12_rank10");
}

TEST(GeneratedLoad, InfoJsonOfPerRankFiles) {
    auto cfg = small(skewgen::Layout::V2026_2);
    cfg.perRankFiles = true;
    const auto& g = generated("prf2026", cfg);
    std::vector<std::string> args = {"info", "--format", "json"};
    for (const auto& f : g.result.files) args.push_back(f);
    RunResult r = runSkewscope(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto v = testjson::parse(r.out);
    ASSERT_EQ(v["inputs"].size(), 4u);
    ASSERT_EQ(v["ranks"].size(), 4u);
    int64_t total = 0;
    for (const auto& rank : v["ranks"].arr) total += rank["kernels"].i64();
    EXPECT_EQ(uint64_t(total), g.result.kernelRows);
    EXPECT_EQ(v["inputs"][1]["session_start_utc_ns"].i64() - v["inputs"][0]["session_start_utc_ns"].i64(), 1'234'567);
}

TEST(GeneratedLoad, ResidentMemoryPerKernelWithinBudget) {
    auto cfg = small(skewgen::Layout::V2026_2);
    cfg.ranks = 8;
    cfg.steps = 40;
    cfg.layers = 9;
    const auto& g = generated("mem", cfg);
    skew::Profile p = skew::loadProfile({g.path});
    ASSERT_GT(p.kernelCount(), 50'000u);
    double perKernel = double(p.residentBytes()) / double(p.kernelCount());
    // a kernel: start 8, 32-bit duration 4, name code 2, correlation id 4, index 0.5; its launch:
    // 32-bit offset and duration 4 + 4, API and thread codes 2 + 2 (model/columns.h): 30.5 bytes,
    // plus the lanes' small dictionaries. The bound is a budget, not the figure (the benchmark
    // reports that): 1.5 bytes over it fail when any per-kernel column goes wide (2 bytes or more)
    // or a new one is added, while a smaller model, or dictionaries a little larger, pass.
    EXPECT_LE(perKernel, 32.0);
    for (const auto& r : p.ranks)
        for (const auto& l : r.lanes)
            EXPECT_FALSE(l.duration.wide() || l.name.wide() || l.launchLead.wide() || l.launchDuration.wide() || l.launchApi.wide() ||
                         l.launchTid.wide())
                << r.label << " stream " << l.stream;
}

// Progress rises to 1; a cancel makes loadProfile throw instead of returning a partial profile
// (that the reading threads themselves stop is CancelStopsTheReadingThreads, below).
// The row-id bounds that size progress and split the reads: the same numbers as min(rowid) and
// max(rowid) asked one at a time, by a query whose plan only searches (a scan of a 6-million-kernel
// table took 0.57 s per call, four calls per table).
TEST(GeneratedLoad, RowidBoundsSeekAndNeverScan) {
    const auto& g = generated("demo", skewgen::demoConfig());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(g.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    auto one = [&](const std::string& q) {
        sqlite3_stmt* st = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, q.c_str(), -1, &st, nullptr), SQLITE_OK) << q;
        int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        sqlite3_finalize(st);
        return v;
    };
    skew::ExportFile f(g.path);
    for (const std::string t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"}) {
        SCOPED_TRACE(t);
        EXPECT_EQ(f.rowidBounds(t), std::make_pair(one("SELECT min(rowid) FROM " + t), one("SELECT max(rowid) FROM " + t)));
        EXPECT_GT(f.rowidBounds(t).second, 0);
        std::vector<std::string> plan;
        sqlite3_stmt* st = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + skew::rowidBoundsSql(t)).c_str(), -1, &st, nullptr), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) plan.push_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)));
        sqlite3_finalize(st);
        EXPECT_THAT(plan, ::testing::Contains("SEARCH " + t));
        EXPECT_THAT(plan, ::testing::Not(::testing::Contains(::testing::HasSubstr("SCAN " + t)))) << ::testing::PrintToString(plan);
    }
    EXPECT_EQ(f.rowidBounds("NO_SUCH_TABLE"), std::make_pair(int64_t(0), int64_t(0)));
    sqlite3_close(db);
}

TEST(GeneratedLoad, ProgressRisesToOneAndCancelThrows) {
    const auto& g = generated("demo", skewgen::demoConfig());
    std::vector<double> seen;
    skew::LoadOptions o;
    o.progress = [&](std::string_view, double f) {
        seen.push_back(f);
        return true;
    };
    skew::loadProfile({g.path}, o);
    ASSERT_GE(seen.size(), 3u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
    int calls = 0;
    o.progress = [&](std::string_view, double) { return ++calls < 2; };
    EXPECT_THROW(skew::loadProfile({g.path}, o), skew::Cancelled);
}

// A cancel asked for while the files are read (at the first progress call of the reading) makes
// loadProfile throw instead of returning a partial profile; that the reading tasks themselves stop
// is the next test.
skewgen::GenConfig cancelConfig() {
    skewgen::GenConfig cfg;  // 8 ranks; a kernel table of about 150,000 rows: one range, over two counts
    cfg.steps = int(150'000 / skewgen::kernelsPerStep(cfg)) + 1;
    return cfg;
}

TEST(GeneratedLoad, CancelWhileReadingThrows) {
    const auto& g = generated("cancel-readers", cancelConfig());
    skew::LoadOptions o;
    int readingCalls = 0;
    bool cancelled = false;
    o.progress = [&](std::string_view phase, double) {
        // the first "reading" call comes before any task runs; the second while they read (or, for
        // a read faster than a poll, once they are done: that one cancels as well)
        if (phase == "reading" && ++readingCalls == 2) cancelled = true;
        return !cancelled;
    };
    EXPECT_THROW(skew::loadProfile({g.path}, o), skew::Cancelled);
    EXPECT_TRUE(cancelled);
}

// A reading task that finds the cancel set stops at its next count of rows (every kProgressEvery)
// instead of reading its range to the end: a cancel stops the reading threads, not only the
// result. Without timing: one thread runs the tasks in their order, and a task of the test sets
// the readers' cancel as soon as the strings are read (the first task FileReader::plan adds), so
// the first kernel range counts exactly one batch of rows and stops; its failure cancels the graph.
TEST(GeneratedLoad, ReadingTasksStopAtTheirNextCountOnceCancelled) {
    const auto& g = generated("cancel-readers", cancelConfig());
    ASSERT_GT(g.result.kernelRows, 2 * skew::kProgressEvery);
    ASSERT_LT(g.result.kernelRows, 400'000u);  // one range of the kernel table
    const int64_t strings = sqlCount(g.path, "SELECT count(*) FROM StringIds");
    ASSERT_LT(strings, int64_t(skew::kProgressEvery));
    skew::ExportFile file(g.path);
    skew::FilePart part;
    part.input.path = g.path;
    const double total = 1e12;  // fraction() x total: the rows counted
    skew::ReadProgress prog(total);
    skew::FileReader reader(file, part, prog);
    skew::TaskGraph graph;
    reader.plan(graph);
    graph.add("cancel the readers", [&] { prog.cancel = true; }, {0}, 100);
    std::atomic<bool> graphCancel{false};
    EXPECT_THROW(graph.run(1, graphCancel, {}), skew::Cancelled);
    EXPECT_TRUE(graphCancel);  // set by the reader that stopped, not by the test
    // the strings (one count, under a batch), then one batch of kernel rows: the count that threw
    EXPECT_EQ(std::llround(prog.fraction() * total), strings + int64_t(skew::kProgressEvery));
}

}  // namespace

namespace {

// The result does not depend on how the read is split or on how many threads read: the JSON
// report is byte-identical with 1 and several threads, and with ranges of 997 rows or whole tables.
TEST(GeneratedLoad, ParallelReadGivesByteIdenticalReports) {
    const auto& demo = generated("demo", skewgen::demoConfig());
    auto prf = skewgen::demoConfig();
    prf.perRankFiles = true;
    prf.devices.clear();
    const auto& perRank = generated("demo-prf", prf);
    std::vector<std::vector<std::string>> inputs = {{demo.path}, perRank.result.files,
                                                    {realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"},
                                                    {realDataDir() + "/nsysai-h100_2gpu_1s.sqlite"}};
    for (const auto& files : inputs) {
        std::vector<std::string> args = {"analyze"};
        args.insert(args.end(), files.begin(), files.end());
        args.insert(args.end(), {"--format", "json"});
        RunResult one = runSkewscope(args, "SKEWSCOPE_LOAD_THREADS=1");
        ASSERT_EQ(one.exitCode, 0) << one.err;
        for (const char* env : {"SKEWSCOPE_LOAD_THREADS=2", "SKEWSCOPE_LOAD_THREADS=4 SKEWSCOPE_LOAD_RANGE_ROWS=997",
                                "SKEWSCOPE_LOAD_THREADS=1 SKEWSCOPE_LOAD_RANGE_ROWS=997"}) {
            RunResult other = runSkewscope(args, env);
            ASSERT_EQ(other.exitCode, 0) << other.err;
            EXPECT_TRUE(other.out == one.out) << files[0] << " with " << env;
            EXPECT_EQ(other.err, one.err) << env;
        }
    }
}

}  // namespace

namespace {

// Every real export has its tables in start order, and the generator's default is out of order
// (each step's ranks in rotation, compute chunks backwards): the same capture written either way
// gives the same report, so the loader's sorts and lookups do not depend on the row order.
TEST(GeneratedLoad, RowOrderOfTheTablesDoesNotChangeTheReport) {
    auto cfg = skewgen::demoConfig();
    const auto& shuffled = generated("demo", cfg);
    cfg.timeOrdered = true;
    const auto& ordered = generated("demo-ordered", cfg);
    ASSERT_EQ(sqlCount(ordered.path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
              sqlCount(shuffled.path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    // written in start order, and not so before
    const char* backwards = "SELECT count(*) FROM (SELECT start, lag(start) OVER (ORDER BY rowid) AS prev FROM CUPTI_ACTIVITY_KIND_KERNEL) "
                            "WHERE start < prev";
    EXPECT_EQ(sqlCount(ordered.path, backwards), 0);
    EXPECT_GT(sqlCount(shuffled.path, backwards), 100);
    RunResult a = runSkewscope({"analyze", shuffled.path, "--format", "json"});
    RunResult b = runSkewscope({"analyze", ordered.path, "--format", "json"});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    auto withoutPaths = [](std::string json, const std::string& path) {
        for (size_t at; (at = json.find(path)) != std::string::npos;) json.replace(at, path.size(), "FILE");
        return json;
    };
    EXPECT_TRUE(withoutPaths(a.out, shuffled.path) == withoutPaths(b.out, ordered.path));
}

}  // namespace

namespace {

std::string copyInto(const std::string& from, const std::string& dir, const std::string& name) {
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(from, dir + "/" + name, std::filesystem::copy_options::overwrite_existing);
    return dir + "/" + name;
}

void exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << msg;
}

// Files of one rank each with the same name in two folders: each rank is named by its path.
TEST(GeneratedLoad, SameStemInTwoFoldersLabelsByPath) {
    auto cfg = small(skewgen::Layout::V2026_2);
    cfg.perRankFiles = true;
    cfg.ranks = 2;
    const auto& g = generated("stems", cfg);
    std::string dir = tempDir("stems");
    std::string a = copyInto(g.result.files[0], dir + "/a", "rank.sqlite");
    std::string b = copyInto(g.result.files[1], dir + "/b", "rank.sqlite");
    skew::Profile p = skew::loadProfile({a, b});
    ASSERT_EQ(p.ranks.size(), 2u);
    EXPECT_EQ(p.ranks[0].label, a);
    EXPECT_EQ(p.ranks[1].label, b);
    std::filesystem::remove_all(dir);
}

TEST(GeneratedLoad, FileWithoutSessionStartIsSaidNotAligned) {
    auto cfg = small(skewgen::Layout::V2026_2);
    cfg.perRankFiles = true;
    cfg.ranks = 2;
    const auto& g = generated("nostart", cfg);
    std::string dir = tempDir("nostart");
    std::string a = copyInto(g.result.files[0], dir, "r0.sqlite");
    std::string b = copyInto(g.result.files[1], dir, "r1.sqlite");
    exec(b, "DROP TABLE TARGET_INFO_SESSION_START_TIME");
    skew::Profile p = skew::loadProfile({a, b});
    EXPECT_THAT(p.warnings, ::testing::Contains(b + ": no session start time (TARGET_INFO_SESSION_START_TIME); its clock is not "
                                                    "aligned with the other files"));
    EXPECT_FALSE(p.inputs[1].hasSessionStart);
    EXPECT_EQ(p.inputs[1].alignNs, 0);
    std::filesystem::remove_all(dir);
}

// Stream waits are the synchronization rows of type 2 (stream wait event), per process, as SQL
// counts them; exports that only have deprecatedSyncType are read through it.
TEST(GeneratedLoad, StreamWaitsAsSqlCountsThemAlsoWithDeprecatedSyncType) {
    const auto& g = generated("layout2024", small(skewgen::Layout::V2024_5));
    std::string dir = tempDir("synctype");
    std::string old = copyInto(g.path, dir, "old.sqlite");
    exec(old, "ALTER TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION RENAME COLUMN syncType TO deprecatedSyncType");
    for (const std::string& path : {g.path, old}) {
        SCOPED_TRACE(path);
        skew::Profile p = skew::loadProfile({path});
        const std::string col = path == old ? "deprecatedSyncType" : "syncType";
        uint64_t total = 0;
        for (const auto& pr : p.processes) {
            EXPECT_EQ(int64_t(pr.waits.size()),
                      sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE " + col +
                                         "=2 AND ((globalPid>>24)&16777215)=" + std::to_string(pr.pid)));
            total += pr.waits.size();
        }
        EXPECT_GT(total, 0u);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
