// The loader's merges: each table's ranges put together in row-id order as soon as a range and
// the ones before it are read (kernels into their lanes, launch rows into their processes, NVTX
// ranges and stream waits per process), the lanes sorted and indexed, and the file's processes
// assembled in order of first appearance.
#include <algorithm>
#include <unordered_map>

#include "model/column_sort.h"
#include "model/file_reader_state.h"
#include "model/lane_index.h"
#include "nsys/global_ids.h"

namespace skew {

using namespace reader;

// Range `ri` of the kernel table, after the ranges before it (the merges run in row order, each
// as soon as it can, so only a few ranges wait in memory): its rows appended to their lanes.
[[gnu::flatten]] void FileReader::State::mergeKernelRange(size_t ri) {
    KernelPiece& kp = kernels[ri];
    kernelSkipped += kp.skipped;
    kernelBadCorrelation += kp.badCorrelation;
    kernelRowsMerged += kernelRowsPerRange[ri];
    std::vector<uint32_t> toLane;  // indices: part.lanes grows in this loop
    std::vector<size_t> count(kp.keys.size(), 0);
    for (const KernelPiece::Row& row : kp.rows) ++count[row.lane];
    for (size_t i = 0; i < kp.keys.size(); ++i) {
        const LaneKey& key = kp.keys[i];
        auto [it, fresh] = laneOf.emplace(key, uint32_t(part.lanes.size()));
        if (fresh) {
            part.lanes.push_back({key.globalPid, key.device, {}});
            part.lanes.back().lane.stream = key.stream;
            if (std::find(kernelPids.begin(), kernelPids.end(), key.globalPid) == kernelPids.end()) kernelPids.push_back(key.globalPid);
        }
        KernelLane& l = part.lanes[it->second].lane;
        size_t want = l.size() + count[i];
        if (want > l.start.capacity()) l.reserve(growTo(want, kernelRowsMerged, kernelRanges));
        toLane.push_back(it->second);
    }
    std::vector<KernelLane*> to;
    for (uint32_t li : toLane) to.push_back(&part.lanes[li].lane);
    for (const KernelPiece::Row& row : kp.rows) to[row.lane]->push_back(row.start, row.end, row.name, row.correlationId);
    kernelPool.give(kp);
}

// After the last kernel range: the lanes are complete. Sorting and indexing them is split into
// kShards tasks (lane i goes to shard i % kShards), so that several cores share it.
void FileReader::State::kernelsMerged() {
    std::vector<KernelPiece>().swap(kernels);
    kernelPool.release();
    part.input.kernelRows = kernelRowsMerged;
    const std::string t = "CUPTI_ACTIVITY_KIND_KERNEL";
    warnSkipped(kernelWarnings, kernelSkipped, "kernel", t, "start, end, device or stream");
    if (kernelBadCorrelation > 0)
        kernelWarnings.push_back(part.input.path + ": " + std::to_string(kernelBadCorrelation) + " kernel rows of " + t +
                                " have an unusable correlation id (not a whole number from 0 to 2^32-2): they are "
                                "kept but cannot be joined to their launch");
}

void FileReader::State::finishLanes(size_t shard) {
    SortScratch scratch;
    for (size_t li = shard; li < part.lanes.size(); li += kShards) {
        KernelLane& l = part.lanes[li].lane;
        sortLane(scratch, l);
        buildLaneIndex(l);
        l.ncclKernels = 0;
        for (size_t k = 0; k < l.size(); ++k) l.ncclKernels += part.nameOps[l.name[k]] != CollOp::NotNccl;
    }
}

// Range `ri` of the API rows, after the ranges before it: its launch rows appended to their
// processes (in read order). Which of them launched a kernel of the file is decided at the end.
[[gnu::flatten]] void FileReader::State::mergeRuntimeRange(size_t ri) {
    RuntimePiece& rp = runtime[ri];
    skippedLaunches += rp.skipped;
    runtimeRowsMerged += runtimeRowsPerRange[ri];
    std::vector<size_t> count(rp.pids.size(), 0);
    for (const RuntimePiece::Row& row : rp.rows) ++count[row.proc];
    std::vector<Launches*> to;
    for (size_t i = 0; i < rp.pids.size(); ++i) {
        Launches& L = launches[rp.pids[i]];
        size_t want = L.size() + count[i];
        if (want > L.correlationId.capacity()) L.reserve(growTo(want, runtimeRowsMerged, runtimeRanges));
        to.push_back(&L);
    }
    for (const RuntimePiece::Row& row : rp.rows) to[row.proc]->push_back(row.correlationId, row.start, row.end, row.name, row.tid);
    runtimePool.give(rp);
}

void FileReader::State::mergeNvtx() {
    uint64_t skipped = 0, ranges = 0;
    // each process's columns sized once (growing them would hold twice their size at times)
    std::unordered_map<uint64_t, size_t> rows;
    for (const NvtxPiece& np : nvtx)
        for (size_t i = 0; i < np.pids.size(); ++i) rows[np.pids[i]] += np.ranges[i].size();
    for (const auto& [gpid, n] : rows) nvtxMerged[gpid].reserve(n);
    for (NvtxPiece& np : nvtx) {
        skipped += np.skipped;
        ranges += np.ranges_;
        // the range's own strings go into the file's table, in range order
        std::vector<StrId> inlineIds(np.inlineTexts.size());
        for (size_t i = 0; i < inlineIds.size(); ++i) inlineIds[i] = part.strings.intern(np.inlineTexts[i]);
        for (size_t i = 0; i < np.pids.size(); ++i) {
            const uint64_t gpid = np.pids[i];
            if (std::find(nvtxPids.begin(), nvtxPids.end(), gpid) == nvtxPids.end()) nvtxPids.push_back(gpid);
            NvtxRanges& to = nvtxMerged[gpid];
            NvtxRanges& from = np.ranges[i];
            from.text.transform([&](uint32_t t) { return t & kInlineText ? inlineIds[t & ~kInlineText] : t; });
            for (size_t k = 0; k < from.size(); ++k) to.push_back(from.start[k], from.end(k), from.tid[k], from.text[k]);
            from = NvtxRanges();
        }
        np = NvtxPiece();  // freed as soon as it is in
    }
    std::vector<NvtxPiece>().swap(nvtx);
    part.input.nvtxRanges = ranges;
    SortScratch scratch;
    for (auto& [gpid, r] : nvtxMerged) sortByStartDuration(scratch, r.start, r.duration, r.tid, r.text);
    warnSkipped(nvtxWarnings, skipped, "NVTX range", "NVTX_EVENTS", "start or end");
}

void FileReader::State::mergeSync() {
    uint64_t skipped = 0, rows = 0;
    for (uint64_t n : syncRowsPerRange) rows += n;
    part.input.syncRows = rows;
    std::unordered_map<uint64_t, size_t> perProcess;  // each process's columns sized once
    for (const SyncPiece& sp : sync)
        for (size_t i = 0; i < sp.pids.size(); ++i) perProcess[sp.pids[i]] += sp.waits[i].size();
    for (const auto& [gpid, n] : perProcess) syncMerged[gpid].reserve(n);
    for (SyncPiece& sp : sync) {
        skipped += sp.skipped;
        for (size_t i = 0; i < sp.pids.size(); ++i) {
            if (std::find(syncPids.begin(), syncPids.end(), sp.pids[i]) == syncPids.end()) syncPids.push_back(sp.pids[i]);
            StreamWaits& to = syncMerged[sp.pids[i]];
            StreamWaits& from = sp.waits[i];
            for (size_t k = 0; k < from.size(); ++k) to.push_back(from.start[k], from.end(k), from.device(k), from.stream(k));
            from = StreamWaits();
        }
        sp = SyncPiece();  // freed as soon as it is in
    }
    std::vector<SyncPiece>().swap(sync);
    SortScratch scratch;
    for (auto& [gpid, w] : syncMerged) {
        sortByStartDuration(scratch, w.start, w.duration, w.deviceIds, w.streamIds);
        buildIntervalIndex(w);
    }
    warnSkipped(syncWarnings, skipped, "stream-wait", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "start, end, device or stream");
}

// Processes in order of first appearance: kernels, then NVTX, then stream waits.
void FileReader::State::assemble() {
    for (auto* w : {&kernelWarnings, &launchWarnings, &nvtxWarnings, &syncWarnings})
        for (auto& x : *w) part.warnings.push_back(std::move(x));
    part.nameOps.resize(part.strings.size(), CollOp::NotNccl);  // NVTX texts interned since: not kernel names
    std::vector<uint64_t> order = kernelPids;
    for (uint64_t g : nvtxPids)
        if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
    for (uint64_t g : syncPids)
        if (std::find(order.begin(), order.end(), g) == order.end()) order.push_back(g);
    for (uint64_t gpid : order) {
        Process pr;
        pr.globalPid = gpid;
        pr.pid = pidOf(gpid);
        if (auto it = procNames.find(gpid); it != procNames.end()) pr.name = it->second;
        if (auto it = nvtxMerged.find(gpid); it != nvtxMerged.end()) pr.nvtx = std::move(it->second);
        if (auto it = syncMerged.find(gpid); it != syncMerged.end()) pr.waits = std::move(it->second);
        part.processes.push_back(std::move(pr));
    }
    for (const auto& [gtid, name] : threadNames) {
        for (auto& pr : part.processes)
            if (pr.globalPid == (gtid & ~kTidMask)) pr.threadNames[uint32_t(gtid & kTidMask)] = name;
    }
}
}  // namespace skew
