// The hostile-input corpus: broken files made at test time from a real export (truncated,
// tables and columns missing, wrong types, NULLs, inverted and extreme times, dangling and huge
// ids, huge device ids, long NVTX texts, names and texts that are not UTF-8, WAL mode, hot journal,
// locked, directory, FIFO, symlink loop, 0 bytes). `info`, `analyze --format json` and `render` run
// on each: no crash, no hang, the case's exit code with its one clear line (or its one warning, or
// nothing), render as analyze, input bytes unchanged, nothing left beside the input, what the JSON
// then says, and the JSON strict JSON.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <functional>
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

// What `analyze --format json` of the source export says, for the cases whose result is "the same".
const testjson::Value& sourceAnalysis() {
    static const testjson::Value v = testjson::parse(runSkewscope({"analyze", realDataDir() + "/" + kSource, "--format", "json"}).out);
    return v;
}

struct Case {
    std::string name;
    std::function<std::string(const std::string& dir)> make;  // builds the input, returns the path to give
    int exit = 0;               // of info and analyze
    // part of the one error line (exit != 0) or of a warning (exit 0); empty: nothing at all on stderr
    std::string message;
    // what analyze's JSON says about the input (exit 0), beside the warning
    std::function<void(const testjson::Value&)> json = {};
    // render of collective 1 exits as analyze and says the same, unless the analysis has no
    // collective 1 to draw: then one more line, after analyze's warnings, and exit 1
    int renderExit = -1;        // -1: as analyze
    std::string renderError = {};  // part of render's error line when it differs from analyze's
    size_t warnings = 1;        // warning lines with exit 0 and a message (one per table with bad rows)
};

// The collectives as the source export gives them: the damage did not change the analysis.
void sameCollectivesAsTheSource(const testjson::Value& v) {
    const auto& src = sourceAnalysis()["collectives"];
    ASSERT_EQ(v["collectives"].size(), src.size());
    for (size_t i = 0; i < src.size(); ++i)
        for (const char* k : {"start_skew_ns", "end_skew_ns", "late_rank", "excess_ns", "lateness_cpu_ns"})
            EXPECT_EQ(v["collectives"][i][k].raw, src[i][k].raw) << "collective " << i << " " << k;
    for (size_t i = 0; i < src.size(); ++i) EXPECT_EQ(v["collectives"][i]["cause"].str, src[i]["cause"].str) << "collective " << i;
}

std::string trunc(const std::string& dir, double fraction) {
    std::string p = copyOfReal(dir);
    truncateTo(p, std::uintmax_t(double(fs::file_size(p)) * fraction));
    return p;
}

std::vector<Case> cases() {
    const int64_t int64Max = 9223372036854775807LL;
    return {
        {"truncated_100_bytes", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, 100); return p; }, 3, "is truncated"},
        {"truncated_one_page", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, 4096); return p; }, 3, "is truncated"},
        {"truncated_half", [](auto d) { return trunc(d, 0.5); }, 3, "is truncated"},
        {"truncated_last_byte", [](auto d) { std::string p = copyOfReal(d); truncateTo(p, fs::file_size(p) - 1); return p; }, 3, "is truncated"},
        {"header_page_count_zero_truncated",
         [](auto d) {
             std::string p = copyOfReal(d);
             overwrite(p, 28, std::string(4, '\0'));  // an old-style header without a page count
             truncateTo(p, fs::file_size(p) / 3);
             return p;
         },
         3, "damaged or truncated"},
        // 64 KiB of 0xff over pages in the middle of the file: SQLite finds them malformed
        {"garbage_pages",
         [](auto d) {
             std::string p = copyOfReal(d);
             overwrite(p, std::streamoff(fs::file_size(p) / 2), std::string(65536, '\xff'));
             return p;
         },
         3, "/x.sqlite is damaged or truncated (SQLite: database disk image is malformed)"},
        {"no_kernel_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL"); return p; }, 0, "kernel trace was not captured",
         [](const testjson::Value& v) { EXPECT_EQ(v["collectives"].size(), 0u); }, 1, "no group 0: the exports have 0 group(s) of matched collectives"},
        {"no_runtime_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME"); return p; }, 0, "cannot be joined to their launches"},
        {"no_string_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE StringIds"); return p; }, 3, "not an Nsight Systems export"},
        {"no_metadata_table", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE META_DATA_EXPORT"); return p; }, 3, "not an Nsight Systems export"},
        {"no_session_start", [](auto d) { auto p = copyOfReal(d); sql(p, "DROP TABLE TARGET_INFO_SESSION_START_TIME"); return p; }, 0, "",
         [](const testjson::Value& v) {
             // one file needs no session start: its own clock is the aligned one
             EXPECT_TRUE(v["inputs"][0]["session_start_utc_ns"].isNull());
             EXPECT_EQ(v["inputs"][0]["align_ns"].i64(), 0);
             sameCollectivesAsTheSource(v);
         }},
        {"no_nvtx_sync_processes_threads",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "DROP TABLE NVTX_EVENTS; DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; DROP TABLE PROCESSES; DROP TABLE ThreadNames;");
             return p;
         },
         0, "",
         [](const testjson::Value& v) {
             // no NVTX ranges, no stream waits; ranks still from the kernels' globalPid
             EXPECT_EQ(v["inputs"][0]["nvtx_ranges"].i64(), 0);
             ASSERT_EQ(v["ranks"].size(), 2u);
             EXPECT_EQ(v["ranks"][0]["pid"].i64(), sqlCount(realDataDir() + "/" + kSource, "SELECT min((globalPid >> 24) & 16777215) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
             for (const auto& c : v["collectives"].arr) EXPECT_TRUE(c["stream_wait"].isNull());
             sameCollectivesAsTheSource(v);
         }},
        {"kernel_without_start_column", [](auto d) { auto p = copyOfReal(d); sql(p, "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN start"); return p; }, 3,
         "the CUPTI_ACTIVITY_KIND_KERNEL table has no start column: not an export Skewscope can read"},
        {"kernel_without_optional_columns",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, std::string(kLooseKernels) + "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN correlationId;"
                    "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN demangledName; ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN globalPid;");
             return p;
         },
         0, "",
         [](const testjson::Value& v) {
             // names from shortName, no process (pid 0), no launch joined: every cause unknown
             ASSERT_EQ(v["collectives"].size(), sourceAnalysis()["collectives"].size());
             for (const auto& r : v["ranks"].arr) EXPECT_EQ(r["pid"].i64(), 0);
             for (const auto& c : v["collectives"].arr) {
                 EXPECT_EQ(c["cause"].str, "unknown");
                 EXPECT_TRUE(c["launch"].isNull());
                 for (const auto& m : c["members"].arr) EXPECT_EQ(m["name"].str, "ncclDevKernel_SendRecv");
             }
         }},
        {"runtime_without_name_column", [](auto d) { auto p = copyOfReal(d); sql(p, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN nameId"); return p; }, 0, "has no nameId column; the table is ignored"},
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
         0, "kernel rows with an unusable start, end, device or stream"},
        {"inverted_times", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid % 5 = 0"); return p; }, 0, "ending before it starts"},
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
         0, "unusable", {}, -1, "", 4},  // kernel, launch, NVTX and stream-wait rows: a warning each
        {"extreme_session_start",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs=9223372036854775807");
             return p;
         },
         0, "is not a time from 1970 to 2116"},
        {"text_session_start", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs='soon'"); return p; }, 0,
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
         0, "unusable correlation id", {}, -1, "", 2},  // and the launch rows with an unusable correlation id
        {"huge_device_id", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=100000000 WHERE rowid = 5"); return p; }, 0, "unusual device ids"},
        {"int_max_device_id", [](auto d) { auto p = copyOfReal(d); sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=2147483647 WHERE rowid = 5"); return p; }, 0, "unusual device ids"},
        {"device_and_stream_out_of_range",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId=1099511627776 WHERE rowid % 13 = 0;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId=-3 WHERE rowid % 13 = 1;");
             return p;
         },
         0, "unusable start, end, device or stream"},
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
         0, "",
         [](const testjson::Value& v) {
             // the two long texts match the step pattern: two steps of 100 ms
             EXPECT_EQ(v["groups"][0]["steps"]["source"].str, "nvtx");
             EXPECT_EQ(v["groups"][0]["steps"]["count"].i64(), 2);
             EXPECT_EQ(v["groups"][0]["steps"]["median_ns"].i64(), 100'000'000);
         }},
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
         0, "",
         [](const testjson::Value& v) {
             const std::string name = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)\xEF\xBF\xBD"
                                      "A\xEF\xBF\xBD" "B\x01\xEF\xBF\xBD\xEF\xBF\xBD";
             size_t carried = 0;
             for (const auto& col : v["collectives"].arr)
                 for (const auto& m : col["members"].arr) carried += m["name"].str == name;
             EXPECT_GT(carried, 0u) << "no member named " << name;
         }},
        {"duplicate_launch_rows",
         [](auto d) {
             auto p = copyOfReal(d);
             sql(p, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1) "
                    "AND correlationId IN (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid > 2000 LIMIT 5)");
             return p;
         },
         0, "repeat the process and correlation id"},
        {"wal_mode", [](auto d) { auto p = copyOfReal(d); sql(p, "PRAGMA journal_mode=WAL"); return p; }, 0, "", sameCollectivesAsTheSource},
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
         3, "wal_checkpoint"},
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
         3, "hot journal"},
        {"directory", [](auto d) { fs::create_directories(d + "/x.sqlite"); return d + "/x.sqlite"; }, 3, "is a directory"},
        {"fifo", [](auto d) { std::string p = d + "/x.sqlite"; ::mkfifo(p.c_str(), 0600); return p; }, 3, "not a regular file"},
        // SQLite opens a journal it finds blocking: a FIFO there hung every read (issue 21)
        {"fifo_as_journal", [](auto d) { auto p = copyOfReal(d); ::mkfifo((p + "-journal").c_str(), 0600); return p; }, 3,
         "-journal is not a regular file"},
        {"symlink_loop",
         [](auto d) {
             fs::create_symlink(d + "/b.sqlite", d + "/x.sqlite");
             fs::create_symlink(d + "/x.sqlite", d + "/b.sqlite");
             return d + "/x.sqlite";
         },
         3, "Too many levels of symbolic links"},
        {"dangling_symlink", [](auto d) { fs::create_symlink(d + "/gone.sqlite", d + "/x.sqlite"); return d + "/x.sqlite"; }, 3, "No such file"},
        {"zero_bytes", [](auto d) { std::ofstream(d + "/x.sqlite").close(); return d + "/x.sqlite"; }, 3, "is empty"},
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

// stderr's lines, warnings ("skewscope: warning: ...") apart from the rest
// The what-if's warnings (docs/analysis.md, What-if), counted apart from the case's own: its reason
// for computing no scenario (a capture without steps, as every input here is, gets it on every run
// that analyzes), and collectives it replays uncoupled (rows skipped leave kernels matched as one
// collective that did not run together).
const std::string kNoStepsWhatIf =
    "what-if: no scenario computed: no training steps (no NVTX step ranges, no repeating collective sequence)";
bool isWhatIfWarning(const std::string& w) {
    return w == kNoStepsWhatIf || (w.rfind("what-if: ", 0) == 0 && w.find(" collective(s) replay uncoupled: ") != std::string::npos);
}

struct Stderr {
    std::vector<std::string> warnings, errors, whatIf;
};
Stderr splitStderr(const std::string& err) {
    Stderr out;
    size_t pos = 0;
    while (pos < err.size()) {
        size_t nl = err.find('\n', pos);
        std::string line = err.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? err.size() : nl + 1;
        const std::string prefix = "skewscope: warning: ";
        if (line.rfind(prefix, 0) == 0 && isWhatIfWarning(line.substr(prefix.size()))) out.whatIf.push_back(line);
        else (line.rfind("skewscope: warning: ", 0) == 0 ? out.warnings : out.errors).push_back(line);
    }
    return out;
}
std::vector<std::string> errorLines(const std::string& err) { return splitStderr(err).errors; }

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class Hostile : public ::testing::TestWithParam<Case> {};

// info, analyze and render on each input: no crash, no hang, the exit code of the case and its
// message, nothing else; render says what analyze says (the same warnings, the same error line and
// exit code), and fails only where analyze succeeded when the analysis has no collective to draw.
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
    std::vector<std::string> analyzeWarnings;
    for (const auto& run : runs) {
        SCOPED_TRACE(run.args[0]);
        // `timeout` turns a hang into exit 124; a crash shows as a signal (exit -1 here)
        std::vector<std::string> args = {"120", binDir() + "/skewscope"};
        args.insert(args.end(), run.args.begin(), run.args.end());
        RunResult r = runCommand("timeout", args, "QT_QPA_PLATFORM=offscreen");
        ASSERT_NE(r.exitCode, 124) << "hang";
        ASSERT_NE(r.exitCode, -1) << "crash: " << r.err;
        ASSERT_LT(r.err.size(), 20000u) << "stderr must stay short";
        const Stderr e = splitStderr(r.err);
        EXPECT_LE(e.whatIf.size(), 2u) << r.err;
        for (const auto& l : e.errors) EXPECT_LT(l.size(), 1000u) << l.substr(0, 200);
        const bool renderDiffers = run.render && c.renderExit >= 0;
        const int exit = renderDiffers ? c.renderExit : c.exit;
        ASSERT_EQ(r.exitCode, exit) << r.err;
        if (exit != 0) {
            ASSERT_EQ(e.errors.size(), 1u) << r.err;
            EXPECT_EQ(e.errors[0].rfind("skewscope: ", 0), 0u) << e.errors[0];
            EXPECT_THAT(e.errors[0], HasSubstr(renderDiffers ? c.renderError : c.message));
        } else {
            EXPECT_TRUE(e.errors.empty()) << r.err;
        }
        if (c.exit == 0) {
            // the case's warnings, or nothing at all; render warns as analyze does
            EXPECT_EQ(e.warnings.size(), c.message.empty() ? 0u : c.warnings) << r.err;
            if (!c.message.empty()) {
                EXPECT_THAT(e.warnings, ::testing::Contains(HasSubstr(c.message))) << r.err;
            }
            if (run.args[0] == "analyze") analyzeWarnings = e.warnings;
            if (run.render) {
                EXPECT_EQ(e.warnings, analyzeWarnings);
            }
        } else {
            EXPECT_TRUE(e.warnings.empty()) << r.err;
        }
    }
    if (c.exit == 0) {
        // the warning reaches the JSON too, and the JSON says what the input holds
        const std::string json = slurp(out + "/a.json");
        testjson::Value v = testjson::parse(json);
        if (c.message.empty()) {
            // nothing but the what-if's warnings, where there was a kernel to replay
            for (size_t i = 0; i < v["warnings"].size(); ++i) EXPECT_TRUE(isWhatIfWarning(v["warnings"][i].str)) << v["warnings"][i].str;
            EXPECT_LE(v["warnings"].size(), 2u);
        } else {
            EXPECT_NE(json.find(c.message), std::string::npos) << "the JSON warnings lack: " << c.message;
        }
        if (c.json) c.json(v);
    }
    if (fs::exists(out + "/a.json")) {
        EXPECT_NO_THROW(testjson::parse(slurp(out + "/a.json"))) << "analyze wrote JSON that is not strict JSON";
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
