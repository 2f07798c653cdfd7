// The loader's launch join: after the kernels and the last range of CUDA API rows, each lane's
// kernels joined to their launch rows (process and correlation id; model/profile.h joinLaunches),
// in shards of processes, each process's rows freed once joined; and the warnings of the join.
#include <algorithm>
#include <unordered_map>

#include "model/column_sort.h"
#include "model/file_reader_state.h"
#include "util/release_memory.h"

namespace skew {

using namespace reader;

// After the kernels and the last API range: each lane's kernels joined to their launch rows
// (process and correlation id; the first row read of an id), in kShards tasks of processes,
// each process's rows freed once joined. Rows that repeat a joined id are counted.
void FileReader::State::launchesMerged() {
    part.input.runtimeRows = runtimeRowsMerged;
    std::vector<RuntimePiece>().swap(runtime);
    runtimePool.release();
    std::unordered_map<uint64_t, size_t> at;
    for (auto& l : part.lanes) {
        auto [it, fresh] = at.emplace(l.globalPid, joinOrder.size());
        if (fresh) joinOrder.emplace_back(l.globalPid, std::vector<KernelLane*>());
        joinOrder[it->second].second.push_back(&l.lane);
    }
}

void FileReader::State::joinShard(size_t shard) {
    SortScratch scratch;
    for (size_t pi = shard; pi < joinOrder.size(); pi += kShards) {
        auto it = launches.find(joinOrder[pi].first);
        Launches none;  // a process without launch rows
        Launches& l = it == launches.end() ? none : it->second;
        if (!std::is_sorted(l.correlationId.begin(), l.correlationId.end())) {
            // (id, read position) pairs side by side: a stable order without indirection
            std::vector<uint64_t> keys(l.size());
            for (size_t i = 0; i < keys.size(); ++i) keys[i] = uint64_t(l.correlationId[i]) << 32 | i;
            std::sort(keys.begin(), keys.end());
            scratch.perm.resize(keys.size());
            for (size_t i = 0; i < keys.size(); ++i) scratch.perm[i] = uint32_t(keys[i]);
            std::vector<uint64_t>().swap(keys);
            applyPermutation(scratch, scratch.perm, l.correlationId, l.end, l.duration, l.name, l.tid);
        }
        std::vector<bool> used(l.size(), false);
        for (KernelLane* lane : joinOrder[pi].second) joinLaunches(l, *lane, &used);
        for (size_t i = 0; i < l.size(); ++i)  // rows after a joined row of the same id
            if (used[i])
                for (size_t j = i + 1; j < l.size() && l.correlationId[j] == l.correlationId[i]; ++j) ++shardDuplicates[shard];
        l = Launches();  // freed as soon as joined (the map itself is not touched by other shards),
        releaseFreedMemory();  // and given back: the join's new columns come on top of what is left
    }
}

void FileReader::State::finishLaunches() {
    launches.clear();
    joinOrder.clear();
    // the launch rows' memory back to the system now, not when the load ends: the NVTX ranges
    // and stream waits read next would otherwise come on top of it in what `top` shows
    releaseFreedMemory();
    uint64_t duplicateLaunches = 0;
    for (uint64_t d : shardDuplicates) duplicateLaunches += d;
    const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
    if (!file.hasTable(t) && part.input.kernelRows > 0)
        launchWarnings.push_back(part.input.path + ": no " + t + " table: kernels cannot be joined to their launches");
    warnSkipped(launchWarnings, skippedLaunches, "launch", t, "start, end or correlation id");
    if (duplicateLaunches > 0)
        launchWarnings.push_back(part.input.path + ": " + std::to_string(duplicateLaunches) + " " + t +
                                " rows (eventClass 0/1) repeat the process and correlation id of another launch row; "
                                "kernels are joined to the first one read");
}
}  // namespace skew
