#include "util/memory_budget.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace skew {
namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The unsigned number at the start of `t` (after blanks); nullopt for "max", empty or other text.
std::optional<uint64_t> leadingNumber(const std::string& t, size_t at = 0) {
    while (at < t.size() && (t[at] == ' ' || t[at] == '\t')) ++at;
    if (at >= t.size() || !std::isdigit(static_cast<unsigned char>(t[at]))) return std::nullopt;
    uint64_t v = 0;
    for (; at < t.size() && std::isdigit(static_cast<unsigned char>(t[at])); ++at) {
        const uint64_t d = uint64_t(t[at] - '0');
        if (v > (UINT64_MAX - d) / 10) return UINT64_MAX;
        v = v * 10 + d;
    }
    return v;
}

// The value of `key` in a "key value" (memory.stat) or "Key: value kB" (meminfo) text.
std::optional<uint64_t> valueOf(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.compare(0, key.size(), key) == 0 && line.size() > key.size() && (line[key.size()] == ' ' || line[key.size()] == ':'))
            return leadingNumber(line, key.size() + 1);
    return std::nullopt;
}

// The memory cgroups this process is in, innermost first, with their ancestors (a parent's limit
// binds its children too): v2 ("0::/path") and v1 ("N:...memory...:/path") hierarchies.
std::vector<CgroupMemory> ownCgroups() {
    std::vector<CgroupMemory> out;
    std::istringstream in(readText("/proc/self/cgroup"));
    std::string line;
    while (std::getline(in, line)) {
        const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1);
        std::string path = line.substr(b + 1);
        const bool v2 = controllers.empty();
        bool memory = false;
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');) memory = memory || name == "memory";
        if (!v2 && !memory) continue;
        const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
        for (;;) {
            const std::string dir = root + (path == "/" ? "" : path);
            CgroupMemory m{readText(dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes")),
                           readText(dir + (v2 ? "/memory.current" : "/memory.usage_in_bytes")), readText(dir + "/memory.stat")};
            if (!m.limit.empty()) out.push_back(std::move(m));
            if (path.empty() || path == "/") break;
            const size_t slash = path.find_last_of('/');
            path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
        }
    }
    return out;
}

}  // namespace

std::optional<uint64_t> availableMemoryFrom(const std::string& meminfo, const CgroupMemory* cgroups, size_t count) {
    std::optional<uint64_t> least;
    auto take = [&](uint64_t v) { least = least ? std::min(*least, v) : v; };
    if (auto kb = valueOf(meminfo, "MemAvailable")) take(*kb * 1024);
    for (size_t i = 0; i < count; ++i) {
        const std::optional<uint64_t> limit = leadingNumber(cgroups[i].limit), usage = leadingNumber(cgroups[i].usage);
        if (!limit || !usage) continue;  // "max", unreadable: no limit here
        // the file cache the kernel drops first (v1 hierarchies say it with a total_ prefix)
        std::optional<uint64_t> cache = valueOf(cgroups[i].stat, "total_inactive_file");
        if (!cache) cache = valueOf(cgroups[i].stat, "inactive_file");
        const uint64_t used = *usage - std::min(*usage, cache.value_or(0));
        take(*limit > used ? *limit - used : 0);
    }
    return least;
}

std::optional<uint64_t> availableMemoryBytes() {
    const std::vector<CgroupMemory> cg = ownCgroups();
    return availableMemoryFrom(readText("/proc/meminfo"), cg.data(), cg.size());
}

MemoryBudget memoryBudget(const char* variable) {
    const char* e = std::getenv(variable);
    if (!e || !*e) return {availableMemoryBytes(), "available memory", {}};
    const std::string text(e);
    size_t end = text.find_first_not_of(" \t");
    if (end != std::string::npos) end = text.find_first_not_of("0123456789", end);
    if (end != std::string::npos) end = text.find_first_not_of(" \t", end);
    const std::optional<uint64_t> mb = leadingNumber(text);
    if (mb && end == std::string::npos) return {*mb < (UINT64_MAX >> 20) ? *mb << 20 : UINT64_MAX, variable, {}};
    return {availableMemoryBytes(), "available memory", std::string(variable) + "=\"" + text + "\" is not a whole number of MB: ignored"};
}

}  // namespace skew
