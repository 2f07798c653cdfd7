#pragma once
// Generated exports for tests: each config is written once per test binary run, into a temp folder.

#include <map>
#include <string>

#include "generator.h"
#include "test_util.h"

namespace testutil {

struct Generated {
    skewgen::GenResult result;
    std::string path;  // file, or the stem for per-rank files
};

// The folder of this test process's generated exports, removed when the process exits.
inline const std::string& generatedDir() {
    static struct Dir {
        std::string path = tempDir("gen");
        ~Dir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    } dir;
    return dir.path;
}

inline const Generated& generated(const std::string& name, const skewgen::GenConfig& cfg) {
    static std::map<std::string, Generated> cache;
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    const std::string& dir = generatedDir();
    Generated g;
    g.path = dir + "/" + name + (cfg.perRankFiles ? "" : ".sqlite");
    g.result = skewgen::generate(cfg, g.path);
    return cache.emplace(name, std::move(g)).first->second;
}

// An export with CUDA runtime and synchronization rows but no kernel table (a capture without the
// kernel trace), as two real exports in the shared data show: a small generated one, table dropped.
inline const std::string& exportWithoutKernelTable() {
    static const std::string path = [] {
        skewgen::GenConfig cfg;
        cfg.ranks = 2;
        cfg.steps = 1;
        cfg.layers = 2;
        std::string p = generatedDir() + "/no-kernel-table.sqlite";
        skewgen::generate(cfg, p);
        sqlite3* db = nullptr;
        sqlite3_open(p.c_str(), &db);
        sqlite3_exec(db, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        return p;
    }();
    return path;
}

}  // namespace testutil
