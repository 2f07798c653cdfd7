#pragma once
// Helpers shared by the tests: paths, running the CLI, counting with SQLite directly.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace testutil {

inline std::string realDataDir() { return SKEWSCOPE_REAL_DATA_DIR; }
inline std::string binDir() { return SKEWSCOPE_BIN_DIR; }

// The real exports under tests/data/real; empty (never an exception: test discovery runs this)
// when the folder is missing.
inline std::vector<std::string> realExports() {
    std::vector<std::string> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(realDataDir(), ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".sqlite") out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Every temporary folder a test made is removed when the test program ends, also after a failed
// ASSERT returned before the test's own remove_all (nothing is left in /tmp either way).
inline void rememberTempDir(const std::filesystem::path& d) {
    struct Made {
        std::vector<std::filesystem::path> dirs;
        ~Made() {
            for (const auto& d : dirs) {
                std::error_code ec;
                std::filesystem::permissions(d, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
                std::filesystem::remove_all(d, ec);
            }
        }
    };
    static Made made;
    static std::mutex m;  // tests may run commands from several threads
    std::lock_guard<std::mutex> lock(m);
    made.dirs.push_back(d);
}

// A fresh temporary folder per test.
inline std::string tempDir(const std::string& name) {
    auto d = std::filesystem::temp_directory_path() / ("skewscope-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    rememberTempDir(d);
    return d.string();
}

struct RunResult {
    int exitCode = -1;
    std::string out, err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs a program with arguments (each quoted), capturing stdout and stderr; exitCode is -1 when
// the program died of a signal.
inline RunResult runCommand(const std::string& program, const std::vector<std::string>& args, const std::string& env = "") {
    static std::atomic<int> counter{0};  // each run its own folder, also when tests run commands from several threads
    std::string dir = tempDir("run" + std::to_string(counter++));
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
    auto quote = [](const std::string& a) {
        std::string q = "'";
        for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return q + "'";
    };
    // the viewer's private runtime folder and the profile cache go into this run's folder, removed
    // below (a test that wants a cache across runs names its own in `env`)
    std::string cmd = "XDG_RUNTIME_DIR=" + dir + " SKEWSCOPE_CACHE_DIR=" + dir + "/cache " + env + " " + quote(program);
    for (const auto& a : args) cmd += " " + quote(a);
    cmd += " >" + dir + "/out 2>" + dir + "/err </dev/null";
    int st = std::system(cmd.c_str());
    RunResult r;
    // the shell reports a child killed by signal N as exit status 128 + N
    r.exitCode = WIFEXITED(st) && WEXITSTATUS(st) < 128 ? WEXITSTATUS(st) : -1;
    r.out = slurp(dir + "/out");
    r.err = slurp(dir + "/err");
    std::filesystem::remove_all(dir);
    return r;
}

// Runs the skewscope executable.
// stderr without the what-if's "no scenario computed" warning, which every capture without training
// steps (the real exports among them) gets: for tests about other warnings
inline std::string withoutWhatIfWarning(const std::string& err) {
    std::string out;
    size_t at = 0;
    while (at < err.size()) {
        size_t end = err.find('\n', at);
        end = end == std::string::npos ? err.size() : end + 1;
        const std::string line = err.substr(at, end - at);
        if (line.rfind("skewscope: warning: what-if: no scenario computed", 0) != 0) out += line;
        at = end;
    }
    return out;
}

inline RunResult runSkewscope(const std::vector<std::string>& args, const std::string& env = "") {
    return runCommand(binDir() + "/skewscope", args, env);
}

// Runs `sql` on the file read-only and hands its first row, if any, to onRow. A file that does not
// open or SQL that fails is a test failure with SQLite's message (never a silent "no row").
template <typename F>
void sqlFirstRow(const std::string& path, const std::string& sql, F&& onRow) {
    sqlite3* db = nullptr;
    if (int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr); rc != SQLITE_OK) {
        ADD_FAILURE() << "cannot open " << path << ": " << (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return;
    }
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) onRow(st);
    else if (rc != SQLITE_DONE) ADD_FAILURE() << path << ": " << sqlite3_errmsg(db) << " in: " << sql;
    sqlite3_finalize(st);
    sqlite3_close(db);
}

// The first column of the first row as an integer (-1 when there is no row).
inline int64_t sqlCount(const std::string& path, const std::string& sql) {
    int64_t v = -1;
    sqlFirstRow(path, sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
}

// The first column of the first row as text ("" when there is none).
inline std::string sqlText(const std::string& path, const std::string& sql) {
    std::string v;
    sqlFirstRow(path, sql, [&](sqlite3_stmt* st) {
        if (const unsigned char* t = sqlite3_column_text(st, 0)) v = reinterpret_cast<const char*>(t);
    });
    return v;
}

inline bool hasTable(const std::string& path, const std::string& table) {
    return sqlCount(path, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + table + "'") == 1;
}

}  // namespace testutil
