// Input that cannot be read exits 3 with one clear line on stderr, and is never changed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "gen_fixture.h"
#include "model/loader.h"
#include "nsys/export_reader.h"
#include "test_util.h"

using namespace testutil;

namespace {

struct BadCase {
    std::string path;
    std::string expected;  // part of the message
};

void writeFile(const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
}

int lineCount(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// A small generated export (2 ranks, 1 step, 2 layers) at dir/name.
std::string smallExport(const std::string& dir, const std::string& name) {
    skewgen::GenConfig cfg;
    cfg.ranks = 2;
    cfg.steps = 1;
    cfg.layers = 2;
    const std::string path = dir + "/" + name;
    skewgen::generate(cfg, path);
    return path;
}

// Runs `statements` on the file, writing; a failure fails the test with SQLite's message.
void writeSql(const std::string& path, const std::string& statements) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, statements.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

TEST(BadInputs, EachExitsThreeWithOneLine) {
    std::string dir = tempDir("bad");
    std::string real = slurp(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite");
    writeFile(dir + "/notes.txt", "step,time\n1,2\n");
    writeFile(dir + "/empty.sqlite", "");
    writeFile(dir + "/truncated.sqlite", real.substr(0, real.size() / 2));
    writeFile(dir + "/header-only.sqlite", real.substr(0, 50));
    writeFile(dir + "/capture.nsys-rep", "not really a report");
    {
        sqlite3* db = nullptr;
        sqlite3_open((dir + "/other.sqlite").c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    std::vector<BadCase> cases = {
        {dir + "/missing.sqlite", "No such file or directory"},
        {dir + "/notes.txt", "is not an SQLite database"},
        {dir + "/empty.sqlite", "is empty"},
        {dir + "/truncated.sqlite", "is truncated"},
        {dir + "/header-only.sqlite", "is truncated"},
        {dir + "/other.sqlite", "not an Nsight Systems export"},
        {dir + "/capture.nsys-rep", "nsys export --type sqlite --output " + dir + "/capture.sqlite " + dir + "/capture.nsys-rep"},
        {dir, "is a directory"},
    };
    for (const auto& c : cases) {
        std::string before = std::filesystem::is_regular_file(c.path) ? slurp(c.path) : "";
        for (const char* format : {"text", "json"}) {
            RunResult r = runSkewscope({"info", c.path, "--format", format}, "PATH=/usr/bin:/bin");
            EXPECT_EQ(r.exitCode, 3) << c.path;
            EXPECT_EQ(lineCount(r.err), 1) << r.err;
            EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
            EXPECT_TRUE(r.out.empty());
        }
        if (std::filesystem::is_regular_file(c.path)) { EXPECT_TRUE(slurp(c.path) == before) << c.path; }
        EXPECT_THROW(skew::loadProfile({c.path}), skew::InputError) << c.path;
    }
    // no stray files next to the inputs (e.g. a converted .sqlite or a journal)
    EXPECT_FALSE(std::filesystem::exists(dir + "/capture.sqlite"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/truncated.sqlite-journal"));
    std::filesystem::remove_all(dir);
}

// Stray ids (a huge string id, a correlation id of 2^32-1) load without giant allocations.
TEST(BadInputs, MalformedIdsLoad) {
    skewgen::GenConfig cfg;
    cfg.ranks = 2;
    cfg.steps = 1;
    cfg.layers = 2;
    std::string dir = tempDir("malformed");
    std::string path = dir + "/odd.sqlite";
    auto r = skewgen::generate(cfg, path);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO StringIds VALUES (2147483653, 'odd kernel');"
                           "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName=2147483653, correlationId=4294967295 "
                           "WHERE rowid=(SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL);",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    skew::Profile p = skew::loadProfile({path});
    EXPECT_EQ(p.kernelCount(), r.kernelRows);
    bool found = false;
    for (const auto& rank : p.ranks)
        for (const auto& l : rank.lanes)
            for (size_t i = 0; i < l.size(); ++i) found |= p.strings.str(l.name[i]) == "odd kernel" && l.correlationId[i] == 4294967295u;
    EXPECT_TRUE(found);
    EXPECT_LT(p.residentBytes(), size_t(64) * 1024 * 1024);
    std::filesystem::remove_all(dir);
}

// A CUDA API row whose eventClass is NULL, text or a blob has no class: it is not a launch row
// (read as 0 it was one), so its kernel has no launch; rows of class 0 and 1 still join.
TEST(BadInputs, ApiRowsWithoutAnIntegerClassLaunchNothing) {
    const std::string dir = tempDir("event-class");
    const std::string path = smallExport(dir, "classes.sqlite");
    auto launched = [](const skew::Profile& p) {
        std::map<uint32_t, int> byCorrelation;  // kernels with a launch, per correlation id
        for (const auto& r : p.ranks)
            for (const auto& l : r.lanes)
                for (size_t i = 0; i < l.size(); ++i) byCorrelation[l.correlationId[i]] += l.hasLaunch(i);
        return byCorrelation;
    };
    const std::map<uint32_t, int> before = launched(skew::loadProfile({path}));
    // three launched correlation ids, each made class-less in its own way
    std::vector<uint32_t> ids;
    for (const auto& [corr, n] : before)
        if (n > 0 && ids.size() < 3) ids.push_back(corr);
    ASSERT_EQ(ids.size(), 3u);
    const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
    writeSql(path, "CREATE TABLE loose AS SELECT * FROM " + t + "; DROP TABLE " + t + "; ALTER TABLE loose RENAME TO " + t + ";" +
                       "UPDATE " + t + " SET eventClass = NULL WHERE correlationId = " + std::to_string(ids[0]) + ";" +
                       "UPDATE " + t + " SET eventClass = 'launch' WHERE correlationId = " + std::to_string(ids[1]) + ";" +
                       "UPDATE " + t + " SET eventClass = x'00' WHERE correlationId = " + std::to_string(ids[2]) + ";");
    std::map<uint32_t, int> expected = before;
    for (uint32_t id : ids) expected[id] = 0;
    EXPECT_EQ(launched(skew::loadProfile({path})), expected);
    std::filesystem::remove_all(dir);
}

// Only launch calls are read past their name (the runtime scan's filter): a call that launches
// nothing is not counted among the unusable launch rows whatever its times, every row is counted
// in the input's runtime calls, and a file with more launch names than the filter lists (read
// without it) loads the same.
TEST(BadInputs, OnlyLaunchRowsAreCountedAsUnusableLaunchRows) {
    const std::string dir = tempDir("launch-filter");
    const std::string path = smallExport(dir, "calls.sqlite");
    const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
    const std::string launch = "(SELECT id FROM StringIds WHERE value LIKE '%Launch%')";
    const int64_t rows = sqlCount(path, "SELECT count(*) FROM " + t);
    const int64_t others = sqlCount(path, "SELECT count(*) FROM " + t + " WHERE nameId NOT IN " + launch);
    ASSERT_GT(others, 3);
    // three calls that launch nothing end before they start; two launch calls too, and one has a
    // negative correlation id
    writeSql(path, "UPDATE " + t + " SET end = start - 1 WHERE rowid IN (SELECT rowid FROM " + t + " WHERE nameId NOT IN " + launch +
                       " LIMIT 3);" + "UPDATE " + t + " SET end = start - 1 WHERE rowid IN (SELECT rowid FROM " + t + " WHERE nameId IN " +
                       launch + " LIMIT 2);" + "UPDATE " + t + " SET correlationId = -4 WHERE rowid IN (SELECT rowid FROM " + t +
                       " WHERE nameId IN " + launch + " LIMIT 1 OFFSET 5);");
    const skew::Profile p = skew::loadProfile({path});
    ASSERT_EQ(p.inputs.size(), 1u);
    EXPECT_EQ(int64_t(p.inputs[0].runtimeRows), rows);
    const std::string said = path + ": 3 launch rows with an unusable start, end or correlation id (text, NULL, fractional, out of "
                                    "range, or ending before it starts) skipped in " + t;
    EXPECT_EQ(std::count(p.warnings.begin(), p.warnings.end(), said), 1) << ::testing::PrintToString(p.warnings);
    // nine more launch names, used by no row: past the filter's eight, the scan reads every row
    writeSql(path,
             "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9) "
             "INSERT INTO StringIds SELECT 900000 + i, 'cudaLaunchUnused' || i FROM n");
    const skew::Profile q = skew::loadProfile({path});
    EXPECT_EQ(q.inputs[0].runtimeRows, p.inputs[0].runtimeRows);
    EXPECT_EQ(q.warnings, p.warnings);
    EXPECT_EQ(q.launchCount(), p.launchCount());
    std::filesystem::remove_all(dir);
}

// A launch row whose name id is not an integer (REAL, text) names no launch call, with the
// filter (up to eight launch names) and without it: the rows loaded never depend on it.
TEST(BadInputs, ANameIdThatIsNoIntegerNamesNoLaunchWithOrWithoutTheFilter) {
    const std::string dir = tempDir("launch-filter-real");
    const std::string path = smallExport(dir, "calls.sqlite"), gone = dir + "/gone.sqlite";
    const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
    const std::string launch = "(SELECT id FROM StringIds WHERE value LIKE '%Launch%')";
    // three launch rows (their kernels' own): two name ids a quarter off, one text (the column is
    // INTEGER NOT NULL: no NULL, and a whole REAL would be stored as an integer); in a copy, the same
    // rows deleted
    std::vector<int64_t> rowids;
    for (int k : {3, 11, 20})
        rowids.push_back(sqlCount(path, "SELECT rowid FROM " + t + " WHERE nameId IN " + launch + " LIMIT 1 OFFSET " + std::to_string(k)));
    std::filesystem::copy_file(path, gone);
    const std::string set = "(" + std::to_string(rowids[0]) + ", " + std::to_string(rowids[1]) + ", " + std::to_string(rowids[2]) + ")";
    writeSql(gone, "DELETE FROM " + t + " WHERE rowid IN " + set);
    writeSql(path, "UPDATE " + t + " SET nameId = nameId + 0.25 WHERE rowid IN " + set + " AND rowid <> " + std::to_string(rowids[2]) +
                       "; UPDATE " + t + " SET nameId = 'x' || nameId WHERE rowid = " + std::to_string(rowids[2]));
    ASSERT_EQ(sqlCount(path, "SELECT count(*) FROM " + t + " WHERE typeof(nameId) <> 'integer'"), 3);
    const skew::Profile full = skew::loadProfile({smallExport(dir, "untouched.sqlite")});
    const skew::Profile p = skew::loadProfile({path}), d = skew::loadProfile({gone});
    EXPECT_EQ(p.launchCount(), d.launchCount());
    EXPECT_EQ(full.launchCount(), d.launchCount() + 3);
    EXPECT_EQ(p.inputs[0].runtimeRows, d.inputs[0].runtimeRows + 3);
    // nine more launch names, used by no row: past the filter's eight, the scan reads every row
    writeSql(path,
             "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9) "
             "INSERT INTO StringIds SELECT 900000 + i, 'cudaLaunchUnused' || i FROM n");
    const skew::Profile q = skew::loadProfile({path});
    EXPECT_EQ(q.launchCount(), p.launchCount());
    EXPECT_EQ(q.warnings, p.warnings);
    std::filesystem::remove_all(dir);
}

// With `nsys` on PATH a report is converted into a private folder, read, and the copy removed.
TEST(BadInputs, NsysRepIsConvertedWhenNsysIsOnPath) {
    std::string dir = tempDir("nsysrep");
    std::string bin = dir + "/bin";
    std::filesystem::create_directories(bin);
    std::string fake = bin + "/nsys";
    {
        // a stand-in for `nsys export --type sqlite --output OUT IN`: copies a real export to OUT
        std::ofstream f(fake);
        f << "#!/bin/sh\n[ \"$1\" = export ] && [ \"$4\" = --output ] || exit 9\ncp '" << realDataDir()
          << "/nsysai-mfu_2gpu_before.sqlite' \"$5\"\necho \"$5\" > '" << dir << "/converted-to'\n";
    }
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    writeFile(dir + "/capture.nsys-rep", "report bytes");
    RunResult r = runSkewscope({"info", dir + "/capture.nsys-rep", "--format", "json"}, "PATH=" + bin + ":/usr/bin:/bin TMPDIR=" + dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"nccl_kernels\": 33"), std::string::npos);
    std::string converted = slurp(dir + "/converted-to");
    ASSERT_FALSE(converted.empty());
    converted.pop_back();
    EXPECT_EQ(converted.rfind(dir + "/skewscope-", 0), 0u);      // a private folder in TMPDIR
    EXPECT_FALSE(std::filesystem::exists(converted));            // removed after reading
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(converted).parent_path()));
    EXPECT_EQ(slurp(dir + "/capture.nsys-rep"), "report bytes");  // the report is untouched
    std::filesystem::remove_all(dir);
}

// A .qdrep (the report file of older Nsight Systems releases, before .nsys-rep) is a report too:
// without `nsys` on PATH, exit 3 with the one line that gives the command to convert it (README.md,
// exit codes; docs/analysis.md); with `nsys` on PATH it is converted and read like a .nsys-rep.
TEST(BadInputs, QdrepIsAReportToConvert) {
    std::string dir = tempDir("qdrep");
    writeFile(dir + "/old capture.qdrep", "report bytes");
    const std::string report = dir + "/old capture.qdrep";
    for (const char* command : {"info", "analyze", "render"}) {
        SCOPED_TRACE(command);
        std::vector<std::string> args = {command, report};
        if (std::string(command) == "render") args.insert(args.end(), {"--collective", "1", "--output", dir + "/r.png"});
        RunResult r = runSkewscope(args, "PATH=/usr/bin:/bin QT_QPA_PLATFORM=offscreen");
        EXPECT_EQ(r.exitCode, 3);
        EXPECT_EQ(r.err, "skewscope: " + report + " is an Nsight Systems report, not an SQLite export, and `nsys` is not on PATH; "
                         "convert it with: nsys export --type sqlite --output " + dir + "/old capture.sqlite " + report + "\n");
        EXPECT_TRUE(r.out.empty());
    }
    EXPECT_THROW(skew::loadProfile({report}), skew::InputError);
    // with nsys: converted into a private folder, read, the copy removed, the report untouched
    std::string bin = dir + "/bin";
    std::filesystem::create_directories(bin);
    {
        std::ofstream f(bin + "/nsys");
        f << "#!/bin/sh\n[ \"$1\" = export ] && [ \"$4\" = --output ] || exit 9\ncp '" << realDataDir()
          << "/nsysai-mfu_2gpu_before.sqlite' \"$5\"\necho \"$5\" > '" << dir << "/converted-to'\n";
    }
    std::filesystem::permissions(bin + "/nsys", std::filesystem::perms::owner_all);
    RunResult r = runSkewscope({"info", report, "--format", "json"}, "PATH=" + bin + ":/usr/bin:/bin TMPDIR=" + dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"nccl_kernels\": 33"), std::string::npos);
    std::string converted = slurp(dir + "/converted-to");
    ASSERT_FALSE(converted.empty());
    converted.pop_back();
    EXPECT_EQ(converted, std::filesystem::path(converted).parent_path().string() + "/old capture.sqlite");
    EXPECT_EQ(converted.rfind(dir + "/skewscope-", 0), 0u);
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(converted).parent_path()));
    EXPECT_EQ(slurp(report), "report bytes");
    EXPECT_FALSE(std::filesystem::exists(dir + "/old capture.sqlite"));  // nothing beside the report
    std::filesystem::remove_all(dir);
}

TEST(BadInputs, UsageErrorsExitTwo) {
    EXPECT_EQ(runSkewscope({"info"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"info", "x.sqlite", "--format", "yaml"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"info", "x.sqlite", "--bogus"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"analyze", "x.sqlite", "--trim", "5", "1"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"render", "x.sqlite", "--output", "a.png"}).exitCode, 2);
}

TEST(BadInputs, OneBadFileAmongGoodOnesStillExitsThree) {
    RunResult r = runSkewscope({"info", realDataDir() + "/nsysai-mock.sqlite", "/nonexistent/rank1.sqlite"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("/nonexistent/rank1.sqlite"), std::string::npos);
}

TEST(BadInputs, ExportWithoutKernelTableOpensWithWarning) {
    RunResult r = runSkewscope({"info", exportWithoutKernelTable()});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.err.find("the CUDA kernel trace was not captured"), std::string::npos);
    EXPECT_NE(r.out.find("No GPU kernels"), std::string::npos);
}

}  // namespace
