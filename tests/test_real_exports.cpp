// Every real export in tests/data/real opens, `info` counts exactly what SQLite counts, and the
// capture advice spells Nsight Systems options for the release that wrote each file.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <filesystem>
#include <map>

#include "advice_texts.h"
#include "analysis/capture_advice.h"
#include "json_value.h"
#include "model/loader.h"
#include "test_util.h"

using namespace testutil;

namespace {

const char* kNcclNameFilter =
    "(s.value LIKE 'ncclDevKernel\\_%' ESCAPE '\\' OR s.value LIKE 'ncclKernel\\_%' ESCAPE '\\')";

TEST(RealExports, AllPresent) {
    // PROVENANCE.md beside them names six files; a missing one would silently shrink these tests.
    EXPECT_EQ(realExports().size(), 6u);
}

class RealExport : public ::testing::TestWithParam<std::string> {};

TEST_P(RealExport, InfoJsonCountsWhatSqliteCounts) {
    const std::string path = GetParam();
    const std::string before = slurp(path);
    RunResult r = runSkewscope({"info", path, "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["tool"]["name"].str, "skewscope");
    ASSERT_EQ(v["inputs"].size(), 1u);
    EXPECT_FALSE(v["inputs"][0]["nsys_version"].str.empty());
    EXPECT_FALSE(v["inputs"][0]["schema_version"].str.empty());

    const bool hasKernels = hasTable(path, "CUPTI_ACTIVITY_KIND_KERNEL");
    int64_t expected = hasKernels ? sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") : 0;
    int64_t total = 0, totalNccl = 0;
    for (const auto& rank : v["ranks"].arr) {
        int64_t perStream = 0;
        for (const auto& s : rank["streams"].arr) {
            int64_t n = sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId=" + s["stream"].raw +
                                           " AND deviceId=" + rank["device"].raw +
                                           " AND ((globalPid>>24)&16777215)=" + rank["pid"].raw);
            EXPECT_EQ(s["kernels"].i64(), n) << rank["label"].str << " stream " << s["stream"].raw;
            perStream += s["kernels"].i64();
        }
        EXPECT_EQ(rank["kernels"].i64(), perStream);
        total += rank["kernels"].i64();
        totalNccl += rank["nccl_kernels"].i64();
    }
    EXPECT_EQ(total, expected);
    if (hasKernels) {
        int64_t nccl = sqlCount(path, std::string("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                                  "s.id=k.demangledName WHERE ") + kNcclNameFilter);
        EXPECT_EQ(totalNccl, nccl);
        EXPECT_EQ(v["time_range_ns"]["start"].i64(), sqlCount(path, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        EXPECT_EQ(v["time_range_ns"]["end"].i64(), sqlCount(path, "SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    } else {
        ASSERT_GE(v["warnings"].size(), 1u);
        EXPECT_NE(v["warnings"][0].str.find("kernel trace was not captured"), std::string::npos);
    }
    if (hasTable(path, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
        EXPECT_EQ(v["runtime_calls"].i64(), sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    }
    // the file's bytes never change
    EXPECT_TRUE(slurp(path) == before);
}

TEST_P(RealExport, TextSummaryOpens) {
    const std::string path = GetParam();
    RunResult r = runSkewscope({"info", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    // the versions the export's metadata table gives, and its kernel count, as SQLite reads them
    std::string meta = hasTable(path, "META_DATA_EXPORT") ? "META_DATA_EXPORT" : "EXPORT_META_DATA";
    auto value = [&](const std::string& name) {
        sqlite3* db = nullptr;
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        std::string v;
        if (sqlite3_prepare_v2(db, ("SELECT value FROM " + meta + " WHERE name='" + name + "'").c_str(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
        return v;
    };
    const std::string version = value("EXPORT_PRODUCT_VERSION"), schema = value("EXPORT_SCHEMA_VERSION");
    ASSERT_FALSE(version.empty());
    int64_t kernels = hasTable(path, "CUPTI_ACTIVITY_KIND_KERNEL") ? sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") : 0;
    EXPECT_NE(r.out.find("Nsight Systems " + version + " (schema " + schema + ")"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", " + std::to_string(kernels) + " kernels,"), std::string::npos) << r.out;
}

TEST_P(RealExport, NcclKernelsJoinTheirLaunchesAsSqlDoes) {
    const std::string path = GetParam();
    skew::Profile p = skew::loadProfile({path});
    int64_t joined = 0;
    for (const auto& r : p.ranks) {
        for (const auto& l : r.lanes)
            for (size_t i = 0; i < l.size(); ++i) {
                if (p.opOfName(l.name[i]) == skew::CollOp::NotNccl) continue;
                if (!l.hasLaunch(i)) continue;
                ++joined;
                EXPECT_LE(l.launchEnd(i), l.start[i]);
            }
    }
    if (hasTable(path, "CUPTI_ACTIVITY_KIND_KERNEL") && hasTable(path, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
        // the join of the spec: same process, same correlation id, eventClass 0/1
        EXPECT_EQ(joined, sqlCount(path, std::string("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                                     "s.id=k.demangledName WHERE ") + kNcclNameFilter +
                                             " AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE "
                                             "r.correlationId=k.correlationId AND r.eventClass IN (0,1) AND "
                                             "(r.globalTid>>24)=(k.globalPid>>24))"));
    }
    if (p.kernelCount() > 1000) { EXPECT_LE(double(p.residentBytes()) / double(p.kernelCount()), 64.0); }
}

// The release each file was written by (PROVENANCE.md), and whether --cuda-trace-scope (new in
// Nsight Systems 2025.6) exists in it; all of them are after --sample=process-tree (2022.1).
const std::map<std::string, bool> kHasTraceScope = {
    {"nsysai-h100_2gpu_1s", true},  {"nsysai-mfu_2gpu_after", true}, {"nsysai-mfu_2gpu_before", true},
    {"nsysai-mock", true},          {"pipit-cloverleaf", false},     {"pipit-saxpy-mpi", false},
};

TEST_P(RealExport, CaptureAdviceIsSpelledForTheFilesRelease) {
    const std::string path = GetParam();
    const std::string stem = std::filesystem::path(path).stem().string();
    ASSERT_TRUE(kHasTraceScope.count(stem)) << stem;
    // the version as SQLite reads it from the export's metadata table
    const std::string meta = hasTable(path, "META_DATA_EXPORT") ? "META_DATA_EXPORT" : "EXPORT_META_DATA";
    std::string version;
    {
        sqlite3* db = nullptr;
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, ("SELECT value FROM " + meta + " WHERE name='EXPORT_PRODUCT_VERSION'").c_str(), -1, &st,
                               nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            version = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    ASSERT_FALSE(version.empty());
    skew::Profile p = skew::loadProfile({path});
    ASSERT_EQ(p.inputs.size(), 1u);
    EXPECT_EQ(p.inputs[0].nsysVersion, version);

    // make the release-dependent rules fire: a device said missing, one cpu_launch late arriver
    p.inputs[0].missingDevices = "no kernels on device(s) 7 of the node's 8";
    skew::Analysis a;
    skew::Collective c;
    c.complete = true;
    c.cause = skew::Cause::CpuLaunch;
    a.collectives.push_back(c);
    std::map<std::string, std::string> byId;
    for (const auto& ad : skew::captureAdvice(p, a)) byId[ad.id] = ad.advice;

    const std::string spelled = advice::spelledFor(version);
    EXPECT_EQ(byId["missing_devices"], advice::kDevices + (kHasTraceScope.at(stem) ? " and --cuda-trace-scope" : "") + spelled);
    // CPU sampling advice only where SQLite finds no samples or no context switches
    auto rows = [&](const char* t) { return hasTable(path, t) ? sqlCount(path, std::string("SELECT count(*) FROM ") + t) : 0; };
    const bool sampled = rows("COMPOSITE_EVENTS") + rows("SAMPLING_CALLCHAINS") > 0 && rows("SCHED_EVENTS") > 0;
    if (sampled) {
        EXPECT_FALSE(byId.count("no_cpu_sampling"));
    } else {
        EXPECT_EQ(byId["no_cpu_sampling"], advice::kSampling + "--sample=process-tree" + advice::kSamplingRest + spelled);
    }
    EXPECT_EQ(byId.count("no_gpu_metrics"), rows("GPU_METRICS") == 0 ? 1u : 0u);
}

INSTANTIATE_TEST_SUITE_P(All, RealExport, ::testing::ValuesIn(realExports()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string n = std::filesystem::path(info.param).stem().string();
                             for (char& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

TEST(RealExports, MfuBeforeRanksAndLaunches) {
    skew::Profile p = skew::loadProfile({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"});
    ASSERT_EQ(p.ranks.size(), 2u);
    EXPECT_EQ(p.ranks[0].label, "dev 0");
    EXPECT_EQ(p.ranks[0].pid, 144u);
    EXPECT_EQ(p.ranks[1].label, "dev 1");
    EXPECT_EQ(p.ranks[1].pid, 145u);
    EXPECT_EQ(p.ranks[0].ncclKernelCount(), 33u);
    EXPECT_EQ(p.ranks[1].ncclKernelCount(), 33u);
    ASSERT_EQ(p.ranks[0].lanes.size(), 1u);
    EXPECT_EQ(p.ranks[0].lanes[0].stream, 7);
    EXPECT_EQ(p.ranks[1].lanes[0].stream, 15);
    // kernels are joined to their cuLaunchKernelEx row (eventClass 0/1) on process and correlation id
    size_t ex = 0;
    for (const auto& r : p.ranks)
        for (const auto& l : r.lanes)
            for (size_t i = 0; i < l.size(); ++i) ex += l.hasLaunch(i) && p.strings.str(l.launchApi[i]) == "cuLaunchKernelEx";
    EXPECT_EQ(int64_t(ex), sqlCount(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite",
                                    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                                    "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id=r.nameId WHERE "
                                    "s.value='cuLaunchKernelEx' AND r.eventClass IN (0, 1) AND k.correlationId=r.correlationId AND "
                                    "((k.globalPid>>24)&16777215)=((r.globalTid>>24)&16777215))"));
    // Kernels sorted by start in each lane
    for (const auto& r : p.ranks)
        for (const auto& l : r.lanes) EXPECT_TRUE(std::is_sorted(l.start.begin(), l.start.end()));
}

// `info` keeps long lines whole: a file's line and a rank's row (its label is the path, since two
// files share a name) of over 512 bytes, which a fixed line buffer cut. (SQLite opens paths of up
// to 512 bytes: these are near that.)
TEST(RealExports, InfoTextKeepsLongPathsAndLabelsWhole) {
    const std::string dir = tempDir("long-info");
    std::vector<std::string> paths;
    for (const char* side : {"a", "b"}) {
        const std::string folder = dir + "/" + side + "/" + std::string(220, 'x') + "/" + std::string(220, 'y');
        std::filesystem::create_directories(folder);
        paths.push_back(folder + "/run.sqlite");
        std::filesystem::copy_file(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", paths.back());
    }
    RunResult r = runSkewscope({"info", paths[0], paths[1]});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto right = [](const std::string& v, size_t width) { return std::string(width > v.size() ? width - v.size() : 0, ' ') + v; };
    for (const auto& path : paths) {
        auto count = [&](const std::string& sql) { return std::to_string(sqlCount(path, sql)); };
        auto meta = [&](const std::string& name) { return sqlText(path, "SELECT value FROM META_DATA_EXPORT WHERE name = '" + name + "'"); };
        const std::string line = path + "\n  Nsight Systems " + meta("EXPORT_PRODUCT_VERSION") + " (schema " + meta("EXPORT_SCHEMA_VERSION") +
                                 "), " + count("SELECT count(*) FROM sqlite_master WHERE type = 'table'") + " tables, " +
                                 count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") + " kernels, " +
                                 count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME") + " runtime calls, " +
                                 count("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL") +
                                 " NVTX ranges\n";
        ASSERT_GT(line.size(), 512u);
        EXPECT_THAT(r.out, ::testing::HasSubstr(line));
        for (int dev : {0, 1}) {
            const std::string where = " FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = " + std::to_string(dev);
            const std::string kernels = std::to_string(sqlCount(path, "SELECT count(*)" + where));
            const std::string stream = std::to_string(sqlCount(path, "SELECT DISTINCT streamId" + where));
            const std::string pid = std::to_string(sqlCount(path, "SELECT DISTINCT (globalPid >> 24) & 16777215" + where));
            const std::string nccl = count(std::string("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON ") +
                                           "s.id = k.demangledName WHERE k.deviceId = " + std::to_string(dev) + " AND " + kNcclNameFilter);
            const std::string label = path + "/pid " + pid + "/dev " + std::to_string(dev);
            const std::string row = " " + label + " " + right(pid, 8) + " " + right(std::to_string(dev), 6) + " " + right(kernels, 10) +
                                    " " + right(nccl, 8) + "  " + stream + ": " + kernels + "/" + nccl + "\n";
            ASSERT_GT(row.size(), 512u);
            EXPECT_THAT(r.out, ::testing::HasSubstr(row));
        }
    }
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2 * 2 + 3 + 4);  // two lines a file, 3 headings, 4 ranks
    std::filesystem::remove_all(dir);
}

// Several different exports at once (read in parallel, each with its own string table): every
// kernel keeps its own name, launch and NCCL classification.
TEST(RealExports, SeveralFilesKeepTheirOwnNames) {
    std::vector<std::string> paths = {realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", realDataDir() + "/pipit-cloverleaf.sqlite",
                                      realDataDir() + "/nsysai-mfu_2gpu_after.sqlite", realDataDir() + "/pipit-saxpy-mpi.sqlite"};
    skew::Profile p = skew::loadProfile(paths);
    ASSERT_EQ(p.inputs.size(), 4u);
    uint64_t total = 0;
    for (const auto& r : p.ranks) {
        const std::string& path = paths[size_t(r.file)];
        for (const auto& l : r.lanes) {
            // the first kernel of each lane: its name as SQLite joins it
            sqlite3* db = nullptr;
            sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
            sqlite3_stmt* st = nullptr;
            std::string sql = "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id=k.demangledName "
                              "WHERE k.streamId=" + std::to_string(l.stream) + " AND k.deviceId=" + std::to_string(r.device) +
                              " AND k.correlationId=" + std::to_string(l.correlationId[0]) +
                              " AND ((k.globalPid>>24)&16777215)=" + std::to_string(r.pid);
            sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
            ASSERT_EQ(sqlite3_step(st), SQLITE_ROW) << sql;
            EXPECT_EQ(p.strings.str(l.name[0]), reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        total += r.kernelCount();
    }
    int64_t expected = 0;
    for (const auto& path : paths) expected += sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    EXPECT_EQ(int64_t(total), expected);
    // NCCL classification survives the merge: 33 + 33 SendRecv before, 31 + 31 after
    uint64_t nccl = 0;
    for (const auto& r : p.ranks) nccl += r.ncclKernelCount();
    EXPECT_EQ(nccl, 128u);
    // labels: several files with several ranks each
    EXPECT_EQ(p.ranks[0].label, "nsysai-mfu_2gpu_after/pid 148/dev 0");
}

TEST(RealExports, OldLayoutIgnoresBacktraceRowsSharingCorrelationIds) {
    const std::string path = realDataDir() + "/pipit-saxpy-mpi.sqlite";
    skew::Profile p = skew::loadProfile({path});
    ASSERT_EQ(p.ranks.size(), 1u);
    EXPECT_EQ(p.inputs[0].nsysVersion, "2022.2.1.31");
    // kernels are joined only to launch rows of class 0/1 (backtrace rows repeat their ids)
    int64_t launched = 0;
    for (const auto& l : p.ranks[0].lanes)
        for (size_t i = 0; i < l.size(); ++i) launched += l.hasLaunch(i);
    EXPECT_EQ(launched, sqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                                       "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id=r.nameId WHERE r.eventClass IN (0,1) "
                                       "AND s.value LIKE '%Launch%' AND r.correlationId = k.correlationId)"));
}

}  // namespace
