#pragma once
// How Nsight Systems packs ids into its global ones: a globalTid is its process's globalPid with
// the thread id in the low 24 bits; the pid sits in bits 24 to 47 of both.

#include <cstdint>

namespace skew {

constexpr uint64_t kTidMask = 0xFFFFFF;

inline uint32_t pidOf(uint64_t globalPid) { return static_cast<uint32_t>((globalPid >> 24) & 0xFFFFFF); }

}  // namespace skew
