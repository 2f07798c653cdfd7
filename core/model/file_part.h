#pragma once
// What one export file contributes to a Profile, on the file's own clock (no alignment): its
// strings, processes (launches, NVTX, waits, thread names), kernel lanes keyed by (process, device,
// stream), its metadata and warnings. The loader builds one per file (file_reader.h), in parallel,
// and merges them in file order (loader.cpp); the profile cache stores exactly this, per file.

#include <string>
#include <vector>

#include "model/profile.h"

namespace skew {

struct FilePart {
    InputFile input;  // alignNs is decided when files are merged
    StringTable strings;
    std::vector<CollOp> nameOps;  // per string id of `strings`
    // A kernel lane with the process and device it belongs to: ranks are made of lanes only when
    // every file is read (loader.cpp).
    struct KeyedLane {
        uint64_t globalPid = 0;
        int32_t device = 0;
        KernelLane lane;  // sorted by (start, end), indexed
    };
    std::vector<KeyedLane> lanes;         // in order of first appearance in the kernel table
    std::vector<Process> processes;  // file index set when merged
    std::vector<std::string> warnings;
};

}  // namespace skew
