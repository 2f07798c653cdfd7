#pragma once
// Owns one question: how much memory may a big optional stage (the what-if's replay graph) take
// before it would push the machine into swap or the process into the OOM killer? Linux overcommits:
// an allocation past the memory there is does not fail, the process is killed later. A stage that
// can be left out asks here first and, when it would not fit, is left out with a warning.

#include <cstdint>
#include <optional>
#include <string>

namespace skew {

// The memory this process may still take, in bytes: the least of the system's MemAvailable
// (/proc/meminfo) and the headroom of the memory cgroups it is in (v2 memory.max, v1
// memory.limit_in_bytes, each less its usage but its inactive file cache, which the kernel reclaims
// first; a Slurm job's limit is one). nullopt when none of them can be read (not Linux).
std::optional<uint64_t> availableMemoryBytes();

// The same, read from the texts of those files (for tests): `meminfo` as /proc/meminfo, each cgroup
// as its limit, its usage and its memory.stat; empty texts are left out.
struct CgroupMemory {
    std::string limit, usage, stat;
};
std::optional<uint64_t> availableMemoryFrom(const std::string& meminfo, const CgroupMemory* cgroups, size_t count);

// The budget of an optional stage: `variable` (a whole number of MiB in the environment, blanks
// around it allowed; one too large for 64 bits of bytes: no limit) when it is set, else
// availableMemoryBytes(); nullopt: no limit known. `source` says which, for the warning. A variable
// set to anything else ("4G", "1e3", "-5") is ignored, and `ignored` says so for a warning.
struct MemoryBudget {
    std::optional<uint64_t> bytes;
    std::string source;   // "SKEWSCOPE_WHATIF_MAX_MB" or "available memory"
    std::string ignored;  // e.g. `SKEWSCOPE_WHATIF_MAX_MB="4G" is not a whole number of MB: ignored`
};
MemoryBudget memoryBudget(const char* variable);

}  // namespace skew
