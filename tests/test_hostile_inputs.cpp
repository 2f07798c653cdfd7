// The hostile-input corpus: broken files made at test time from a real export (truncated,
// tables and columns missing, wrong types, NULLs, inverted and extreme times, dangling and huge
// ids, huge device ids, long NVTX texts, names and texts that are not UTF-8, WAL mode, hot journal,
// locked, directory, FIFO, symlink loop, 0 bytes). `info`, `analyze --format json` and `render` run
// on each: no crash, no hang, exit 0/1/3 with one clear line, input bytes unchanged, nothing left
// beside the input, the bad values warned about, and the JSON strict JSON.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_value.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

const std::string kSource = "nsysai-mfu_2gpu_before.sqlite";

void sql(const std::string& path, const std::string& statements) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << msg << " in: " << statements;
}

std::string copyOfReal(const std::string& dir) {
    std::string p = dir + "/x.sqlite";
    fs::copy_file(realDataDir() + "/" + kSource, p, fs::copy_options::overwrite_existing);
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    return p;
}

void truncateTo(const std::string& path, std::uintmax_t size) { fs::resize_file(path, size); }

void overwrite(const std::string& path, std::streamoff at, const std::string& bytes) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(at);
    f.write(bytes.data(), std::streamsize(bytes.size()));
}

// The kernel table again, without NOT NULL constraints, so that rows can hold any type.
const char* kLooseKernels =
    "CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
    "ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;";

// Runs `fn` in a child process that exits without closing its connection (a crashed writer).
void inCrashedWriter(const std::function<void()>& fn) {
    pid_t pid = ::fork();
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
}

struct Case {
    std::string name;
    std::function<std::string(const std::string& dir)> make;  // builds the input, returns the path to give
    std::set<int> exits;        // allowed exit codes of info and analyze
    std::string message;        // part of the one error line (exit != 0) or of a warning (exit 0)
    bool skipsRender = false;   // no render run (e.g. two inputs)
    std::string memberName{};   // a kernel name the JSON's collectives must carry, as UTF-8
};

std::string trunc(const std::string& dir, double fraction) {
    std::string p = copyOfReal(dir);
    truncateTo(p, std::uintmax_t(double(fs::file_size(p)) * fraction));
    return p;
}

std::vector<Case> cases() {
    const int64_t int64Max = 9223372036854775807LL;
    return {
        {"truncated_100_bytes", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, 100); return p; }, {3}, "is truncated"},
        {"truncated_one_page", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, 4096); return p; }, {3}, "is truncated"},
        {"truncated_half", [](auto d) { return trunc(d, 0.5); }, {3}, "is truncated"},
        {"truncated_last_byte", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, fs::file_size(p) - 1); return p; }, {3}, "is truncated"},
        {"header_page_count_zero_truncated",
         [](auto d) {
             std::string p = copyOfReal(d);
             overwrite(p, 28, std::string(4, '\0'));  // an old-style header without a page count
             truncateTo(p, fs::file_size(p) / 3);
             return p;
         },
         {3}, "damaged or truncated"},
        {"garbage_pages",
         [](auto d) {
             std::string p = copyOfReal(d);
             overwrite(p, std::streamoff(fs::file_size(p) / 2), std::string(65536, '\xff'));
             return p;
         },
         {0, 3}, ""},
        {"no_kernel_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL"); return p; }, {0}, "kernel trace was not captured"},
        {"no_runtime_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME"); return p; }, {0}, "cannot be joined to their launches"},
        {"no_string_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE StringIds"); return p; }, {3}, "not an Nsight Systems export"},
        {"no_metadata_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE META_DATA_EXPORT"); return p; }, {3}, "not an Nsight Systems export"},
        {"no_session_start", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE TARGET_INFO_SESSION_START_TIME"); return p; }, {0}, ""},
        {"no_nvtx_sync_processes_threads",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "DROP TABLE NVTX_EVENTS; DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; DROP TABLE PROCESSES; DROP TABLE ThreadNames;");
             return p;
         },
         {0}, ""},
        {"kernel_without_start_column", [](auto d) { auto p = copyOfReal(d); sql(p, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN start"); return p; }, {3}, "has no start column"},
        {"kernel_without_optional_columns",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, std::string(kLooseKernels) + "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN correlationId;"
                    "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN demangledName; ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN globalPid;");
             return p;
         },
         {0}, ""},
        {"runtime_without_name_column", [](auto d) { auto p = copyOfReal(d); sql(p, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN nameId"); return p; }, {0}, "has no nameId column; the table is ignored"},
        {"text_real_blob_null_times",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, std::string(kLooseKernels) +
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start='abc' WHERE rowid % 11 = 1;"
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end=end + 0.5 WHERE rowid % 11 = 2;"
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=x'0001' WHERE rowid % 11 = 3;"
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end=NULL WHERE rowid % 11 = 4;"
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId='one' WHERE rowid % 11 = 5;"
                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId=NULL WHERE rowid % 11 = 6;");
             return p;
         },
         {0}, "kernel rows with an unusable start, end, device or stream"},
        {"inverted_times", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid % 5 = 0"); return p; }, {0}, "ending before it starts"},
        {"extreme_times",
         [int64Max](auto d) {
             auto p = copyOfReal(d);
             std::string mx = std::to_string(int64Max);
             sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=" + mx + ", end=" + mx + " WHERE rowid % 7 = 0;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=-" + mx + "-1, end=0 WHERE rowid % 7 = 1;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start=0, end=" + mx + " WHERE rowid % 7 = 2;"
                    "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end=" + mx + " WHERE rowid % 3 = 0;"
                    "UPDATE NVTX_EVENTS SET start=-" + mx + "-1 WHERE rowid % 3 = 0;"
                    "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET end=" + mx + " WHERE rowid % 2 = 0;");
             return p;
         },
         {0}, "unusable"},
        {"extreme_session_start",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs=9223372036854775807");
             return p;
         },
         {0}, "is not a time from 1970 to 2116"},
        {"text_session_start", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs='soon'"); return p; }, {0},
         "is not a time from 1970 to 2116"},
        {"dangling_and_huge_ids",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName=999999999 WHERE rowid % 9 = 0;"
                    "INSERT INTO StringIds VALUES (1099511627776, 'huge id');"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName=1099511627776 WHERE rowid % 9 = 1;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId=1099511627776 WHERE rowid % 9 = 2;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET globalPid=4611686018427387904 WHERE rowid % 9 = 3;"
                    "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId=-5 WHERE rowid % 4 = 0;"
                    "UPDATE NVTX_EVENTS SET textId=77777777777 WHERE rowid % 4 = 0;"
                    "UPDATE ThreadNames SET nameId=-1;");
             return p;
         },
         {0}, "unusable correlation id"},
        {"huge_device_id", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=100000000 WHERE rowid = 5"); return p; }, {0}, "unusual device ids"},
        {"int_max_device_id", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=2147483647 WHERE rowid = 5"); return p; }, {0}, "unusual device ids"},
        {"device_and_stream_out_of_range",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=1099511627776 WHERE rowid % 13 = 0;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId=-3 WHERE rowid % 13 = 1;");
             return p;
         },
         {0}, "unusable start, end, device or stream"},
        {"long_nvtx_step_texts",
         [](auto d) {
             auto p = copyOfReal(d);
             std::string tid = "(SELECT globalTid FROM NVTX_EVENTS LIMIT 1)";
             sql(p, "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (60100000000, 60200000000, 59, 'step ' || "
                    "replace(hex(zeroblob(20000)), '00', 'ab'), " + tid + ");"
                    "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (60200000000, 60300000000, 59, 'step ' || "
                    "replace(hex(zeroblob(500000)), '00', 'x'), " + tid + ");");
             return p;
         },
         {0}, ""},
        // kernel and thread names with bytes that are not UTF-8 and a control character, NVTX texts
        // with a surrogate, a step range above U+10FFFF: each ill-formed part becomes one U+FFFD
        {"invalid_utf8_names_and_texts",
         [](auto d) {
             auto p = copyOfReal(d);
             std::string tid = "(SELECT globalTid FROM NVTX_EVENTS LIMIT 1)";
             sql(p, "UPDATE StringIds SET value = CAST(value || x'ff' || 'A' || x'e282' || 'B' || x'01' || x'c0af' AS TEXT) WHERE id IN "
                    "(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT nameId FROM ThreadNames);"
                    "UPDATE NVTX_EVENTS SET text = CAST(coalesce(text, '') || x'eda080' AS TEXT) WHERE rowid % 2 = 0;"
                    "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (60100000000, 60200000000, 59, "
                    "CAST('step 1 ' || x'f4908080' AS TEXT), " + tid + ");");
             return p;
         },
         {0}, "", false,
         "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)\xEF\xBF\xBD" "A\xEF\xBF\xBD" "B\x01\xEF\xBF\xBD\xEF\xBF\xBD"},
        {"duplicate_launch_rows",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1) "
                    "AND correlationId IN (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid > 2000 LIMIT 5)");
             return p;
         },
         {0}, "repeat the process and correlation id"},
        {"wal_mode", [](auto d) { auto p = copyOfReal(d); sql(p, "PRAGMA journal_mode=WAL"); return p; }, {0}, ""},
        {"wal_with_pending_changes",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "PRAGMA journal_mode=WAL");
             inCrashedWriter([p] {
                 sqlite3* db = nullptr;
                 sqlite3_open(p.c_str(), &db);
                 sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0; INSERT INTO StringIds VALUES (99999999, 'pending');", nullptr, nullptr, nullptr);
             });
             fs::remove(p + "-shm");
             return p;
         },
         {3}, "wal_checkpoint"},
        {"hot_journal",
         [](auto d) {
             auto p = copyOfReal(d);
             inCrashedWriter([p] {
                 sqlite3* db = nullptr;
                 sqlite3_open(p.c_str(), &db);
                 sqlite3_exec(db, "PRAGMA cache_size=5; BEGIN; UPDATE StringIds SET value = value || 'x';", nullptr, nullptr, nullptr);
             });
             return p;
         },
         {3}, "hot journal"},
        {"directory", [](auto d) { fs::create_directories(d + "/x.sqlite"); return d + "/x.sqlite"; }, {3}, "is a directory"},
        {"fifo", [](auto d) { std::string p = d + "/x.sqlite"; ::mkfifo(p.c_str(), 0600); return p; }, {3}, "not a regular file"},
        {"symlink_loop",
         [](auto d) {
             fs::create_symlink(d + "/b.sqlite", d + "/x.sqlite");
             fs::create_symlink(d + "/x.sqlite", d + "/b.sqlite");
             return d + "/x.sqlite";
         },
         {3}, "Too many levels of symbolic links"},
        {"dangling_symlink", [](auto d) { fs::create_symlink(d + "/gone.sqlite", d + "/x.sqlite"); return d + "/x.sqlite"; }, {3}, "No such file"},
        {"zero_bytes", [](auto d) { std::ofstream(d + "/x.sqlite").close(); return d + "/x.sqlite"; }, {3}, "is empty"},
    };
}

std::string snapshot(const std::string& dir) {
    // every entry beside the input with its bytes (FIFOs and folders by name only)
    std::string s;
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    for (const auto& p : entries) {
        s += p.filename().string() + "\n";
        if (fs::is_regular_file(fs::symlink_status(p))) s += std::to_string(std::hash<std::string>()(slurp(p.string()))) + "\n";
    }
    return s;
}

std::vector<std::string> errorLines(const std::string& err) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < err.size()) {
        size_t nl = err.find('\n', pos);
        std::string line = err.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? err.size() : nl + 1;
        if (line.rfind("skewscope: warning: ", 0) != 0) out.push_back(line);
    }
    return out;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class Hostile : public ::testing::TestWithParam<Case> {};

TEST_P(Hostile, NoCrashNoHangOneLineInputUnchanged) {
    const Case& c = GetParam();
    std::string dir = tempDir("hostile-" + c.name);
    std::string in = dir + "/in";
    std::string out = dir + "/out";
    fs::create_directories(in);
    fs::create_directories(out);
    std::string path = c.make(in);
    const std::string before = snapshot(in);
    struct Run {
        std::vector<std::string> args;
        bool render;
    };
    std::vector<Run> runs = {{{"info", path}, false},
                             {{"analyze", path, "--format", "json", "--output", out + "/a.json"}, false},
                             {{"render", path, "--collective", "1", "--output", out + "/r.png"}, true}};
    for (const auto& run : runs) {
        SCOPED_TRACE(run.args[0]);
        // `timeout` turns a hang into exit 124; a crash shows as a signal (exit -1 here)
        std::vector<std::string> args = {"120", binDir() + "/skewscope"};
        args.insert(args.end(), run.args.begin(), run.args.end());
        RunResult r = runCommand("timeout", args, "QT_QPA_PLATFORM=offscreen");
        ASSERT_NE(r.exitCode, 124) << "hang";
        ASSERT_NE(r.exitCode, -1) << "crash: " << r.err;
        ASSERT_LT(r.err.size(), 20000u) << "stderr must stay short";
        std::vector<std::string> lines = errorLines(r.err);
        if (run.render) {
            EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1 || c.exits.count(r.exitCode)) << r.exitCode << " " << r.err;
        } else {
            EXPECT_EQ(c.exits.count(r.exitCode), 1u) << "exit " << r.exitCode << ": " << r.err;
        }
        if (r.exitCode == 0) {
            EXPECT_TRUE(lines.empty()) << r.err;
        } else {
            ASSERT_EQ(lines.size(), 1u) << r.err;
            EXPECT_EQ(lines[0].rfind("skewscope: ", 0), 0u) << lines[0];
        }
        if (!c.message.empty()) {
            EXPECT_THAT(r.err, HasSubstr(c.message));  // render warns as analyze does
        }
        for (const auto& l : lines) EXPECT_LT(l.size(), 1000u) << l.substr(0, 200);
    }
    // the warnings reach the JSON too
    if (c.exits.count(0) && !c.message.empty() && fs::exists(out + "/a.json")) {
        EXPECT_NE(slurp(out + "/a.json").find(c.message), std::string::npos) << "the JSON warnings lack: " << c.message;
    }
    if (fs::exists(out + "/a.json")) {
        testjson::Value json;
        ASSERT_NO_THROW(json = testjson::parse(slurp(out + "/a.json"))) << "analyze wrote JSON that is not strict JSON";
        if (!c.memberName.empty()) {
            size_t carried = 0;
            for (const auto& col : json["collectives"].arr)
                for (const auto& m : col["members"].arr) carried += m["name"].str == c.memberName;
            EXPECT_GT(carried, 0u) << "no member named " << c.memberName;
        }
    }
    EXPECT_EQ(snapshot(in), before) << "the input or its folder changed";
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Hostile, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// A writer holding the export locked: after a short busy wait, one line that says so.
TEST(HostileLocked, LockedExportIsNamed) {
    std::string dir = tempDir("hostile-locked");
    std::string path = copyOfReal(dir);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "BEGIN EXCLUSIVE; UPDATE StringIds SET value = value WHERE id = 1;", nullptr, nullptr, nullptr), SQLITE_OK);
    RunResult r = runSkewscope({"info", path});
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_THAT(r.err, HasSubstr("is locked by another process"));
    EXPECT_EQ(errorLines(r.err).size(), 1u);
    fs::remove_all(dir);
}

// The same file twice, or a file and a symlink to it: read once, with a warning.
TEST(HostileDuplicates, SameFileTwiceIsReadOnce) {
    std::string dir = tempDir("hostile-twice");
    std::string path = copyOfReal(dir);
    fs::create_symlink(path, dir + "/link.sqlite");
    RunResult once = runSkewscope({"analyze", path, "--format", "json"});
    RunResult twice = runSkewscope({"analyze", path, dir + "/link.sqlite", path, "--format", "json"});
    ASSERT_EQ(twice.exitCode, 0) << twice.err;
    EXPECT_THAT(twice.err, HasSubstr(dir + "/link.sqlite is the same file as " + path + ": it is read once"));
    EXPECT_THAT(twice.err, HasSubstr(path + " is given twice: it is read once"));
    testjson::Value a = testjson::parse(once.out), b = testjson::parse(twice.out);
    EXPECT_EQ(b["inputs"].size(), 1u);
    EXPECT_EQ(b["ranks"].size(), a["ranks"].size());
    EXPECT_EQ(b["collectives"].size(), a["collectives"].size());
    fs::remove_all(dir);
}

}  // namespace
