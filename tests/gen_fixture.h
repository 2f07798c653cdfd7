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

inline const Generated& generated(const std::string& name, const skewgen::GenConfig& cfg) {
    static std::map<std::string, Generated> cache;
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    static std::string dir = tempDir("gen");
    Generated g;
    g.path = dir + "/" + name + (cfg.perRankFiles ? "" : ".sqlite");
    g.result = skewgen::generate(cfg, g.path);
    return cache.emplace(name, std::move(g)).first->second;
}

}  // namespace testutil
