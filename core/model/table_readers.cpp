// The loader's table readers: the small tables whole (strings, processes, thread names) and a
// row-id range of each big one (kernels, CUDA API rows, NVTX ranges, stream waits), each on its
// own read-only connection, every row checked (read_checks.h) and appended to the range's piece.
#include <string>
#include <unordered_map>

#include "model/file_reader_state.h"
#include "model/read_checks.h"
#include "nsys/global_ids.h"

namespace skew {

using namespace reader;

void FileReader::State::readStrings() {
    Connection c(path);
    Query q(c.db(), "SELECT id, value FROM StringIds", path);
    uint64_t n = 0;
    while (q.step()) {
        int64_t id = q.i64(0);
        // ids are dense in real exports; a stray huge or negative id must not size the table
        StrId sid = part.strings.intern(q.text(1));
        if (id < 0 || id > (int64_t(1) << 24) + 4 * int64_t(n)) {
            sparseStr[id] = sid;
        } else {
            if (size_t(id) >= strMap.size()) strMap.resize(size_t(id) + 1, kNoString);
            strMap[size_t(id)] = sid;
        }
        if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
    }
    prog.add(n % kProgressEvery);
    // what each string is, once: an NCCL kernel name (and its op), a launch API
    part.nameOps.resize(part.strings.size());
    isLaunchApi.resize(part.strings.size());
    for (size_t i = 0; i < part.strings.size(); ++i) {
        const std::string& s = part.strings.str(StrId(i));
        part.nameOps[i] = classifyKernelName(s);
        isLaunchApi[i] = s.find("Launch") != std::string::npos;
    }
    // the file's own ids of those names: the runtime scan decodes only their rows past the name
    std::vector<int64_t> launchIds;
    for (size_t id = 0; id < strMap.size(); ++id)
        if (strMap[id] != kNoString && isLaunchApi[strMap[id]]) launchIds.push_back(int64_t(id));
    for (const auto& [id, sid] : sparseStr)
        if (isLaunchApi[sid]) launchIds.push_back(id);
    // a chain of comparisons: SQLite looks an IN list up in a table of its own, dearer per row than
    // the decoding it would spare (1.47 s against 1.29 s over the 7.9M rows of the benchmark export)
    if (launchIds.empty()) launchFilter = "0";
    else if (launchIds.size() <= kMostLaunchIds)
        for (size_t i = 0; i < launchIds.size(); ++i) launchFilter += (i ? " OR nameId=" : "nameId=") + std::to_string(launchIds[i]);
}

void FileReader::State::readProcesses() {
    if (!processesTable) return;
    Connection c(path);
    Query q(c.db(), processesSql, path);
    while (q.step()) procNames[uint64_t(q.i64(0))] = std::string(q.text(1));
}

void FileReader::State::readThreadNames() {  // after the strings
    if (!threadNamesTable) return;
    Connection c(path);
    Query q(c.db(), "SELECT nameId, globalTid FROM ThreadNames", path);
    while (q.step()) threadNames[uint64_t(q.i64(1))] = str(q.i64(0));
}

void FileReader::State::readKernels(size_t ri) {
    Connection c(path);
    RowScan scan(c.db(), "CUPTI_ACTIVITY_KIND_KERNEL", kernelSql, path);
    KernelPiece& piece = kernels[ri];
    kernelPool.take(piece);
    const size_t expect = expectedRows(kernelRanges[ri]);
    piece.rows.reserve(expect);
    std::unordered_map<LaneKey, uint32_t, LaneKeyHash> index;
    // the lanes seen lately: rows in start order change lane almost every row, between the
    // streams of every GPU
    RecentIndex<LaneKey, 6> recent;
    auto laneOfKey = [&](const LaneKey& key) {
        auto [it, fresh] = index.emplace(key, uint32_t(piece.keys.size()));
        if (fresh) piece.keys.push_back(key);
        return it->second;
    };
    Row r;
    uint64_t n = 0;
    scan.run(kernelRanges[ri].lo, kernelRanges[ri].hi, [&](const RowValues& row) {
        if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
        row.ints(8, r.v, r.k);
        if (!usableInterval(r, 0, 1) || !smallId(r, 2) || !smallId(r, 3)) {
            ++piece.skipped;
            return;
        }
        const LaneKey key{uint64_t(r.v[5]), int32_t(r.v[2]), int32_t(r.v[3])};
        const uint32_t lane = recent.find(key, LaneKeyHash()(key), laneOfKey);
        StrId name = str(r.isNull(6) ? r.v[7] : r.v[6]);
        if (name == kNoString && !r.isNull(7)) name = str(r.v[7]);
        // an id that cannot be a correlation id joins nothing (kNoCorrelation matches no launch)
        uint32_t corr = kNoCorrelation;
        if (usableCorrelation(r, 4)) corr = uint32_t(r.v[4]);
        else if (!r.isNull(4)) ++piece.badCorrelation;
        piece.rows.push_back({r.v[0], r.v[1], lane, name, corr});
    });
    prog.add(n % kProgressEvery);
    kernelRowsPerRange[ri] = n;
}

void FileReader::State::readRuntime(size_t ri) {
    Connection c(path);
    // only the launch calls' rows reach the callback (launchFilter): about half the rows of a
    // PyTorch capture are other calls, whose columns past the name SQLite then never decodes
    RowScan scan(c.db(), "CUPTI_ACTIVITY_KIND_RUNTIME", runtimeSql, path, launchFilter);
    RuntimePiece& piece = runtime[ri];
    runtimePool.take(piece);
    const size_t expect = expectedRows(runtimeRanges[ri]);
    piece.rows.reserve(expect);
    uint64_t n = 0;
    ProcessSlots slots(piece.pids);
    Row r;
    const uint64_t rows = scan.run(runtimeRanges[ri].lo, runtimeRanges[ri].hi, [&](const RowValues& row) {
        if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
        row.ints(6, r.v, r.k);
        // other classes (backtraces, ...) repeat correlation ids; a class that is not an integer
        // (NULL, text) is no class: read as 0 it would make any row a launch
        if (!r.isInt(2) || (r.v[2] != 0 && r.v[2] != 1)) return;
        if (r.isNull(4)) return;
        // not a launch: launched no kernel, whatever its times (the filter leaves these out already
        // but for a file with more launch names than it lists). A name id that is not an integer
        // (REAL, text, NULL) names nothing, as the filter's comparisons would have it: read as an
        // integer, 30.25 would be id 30, and the rows loaded would depend on the filter's being there
        if (!r.isInt(5)) return;
        StrId name = str(r.v[5]);
        if (name >= isLaunchApi.size() || !isLaunchApi[name]) return;
        if (!usableInterval(r, 0, 1) || !usableCorrelation(r, 4)) {
            ++piece.skipped;  // a launch row that cannot be used
            return;
        }
        const uint64_t gtid = uint64_t(r.v[3]);
        const uint32_t proc = slots.find(gtid & ~kTidMask).first;
        piece.rows.push_back({r.v[0], r.v[1], proc, uint32_t(r.v[4]), uint32_t(gtid & kTidMask), name});
    });
    prog.add(rows - (n - n % kProgressEvery));  // every row of the range, those filtered out too
    runtimeRowsPerRange[ri] = rows;
}

void FileReader::State::readNvtx(size_t ri) {
    Connection c(path);
    RowScan scan(c.db(), "NVTX_EVENTS", nvtxSql, path);
    NvtxPiece& piece = nvtx[ri];
    std::unordered_map<std::string, uint32_t> inlineIndex;
    uint64_t n = 0;
    ProcessSlots slots(piece.pids);
    Row row;
    scan.run(nvtxRanges[ri].lo, nvtxRanges[ri].hi, [&](const RowValues& q) {
        if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
        q.ints(4, row.v, row.k);
        int64_t type = row.v[2];
        // 59/60: push/pop and start/end ranges; 70/71: the same from NVTX text extensions
        if (type != 59 && type != 60 && type != 70 && type != 71) return;
        if (row.isNull(1)) return;  // an unfinished range
        if (!usableInterval(row, 0, 1)) {
            ++piece.skipped;
            return;
        }
        uint64_t gtid = uint64_t(row.v[3]);
        NvtxRanges& r = rowsOf(slots, piece.ranges, gtid & ~kTidMask);
        uint32_t text;
        if (q.isNull(4)) {
            text = str(q.i64(5));
        } else {
            auto [it, fresh] = inlineIndex.emplace(std::string(q.text(4)), uint32_t(piece.inlineTexts.size()));
            if (fresh) piece.inlineTexts.push_back(it->first);
            text = kInlineText | it->second;
        }
        r.push_back(row.v[0], row.v[1], uint32_t(gtid & kTidMask), text);
        ++piece.ranges_;
    });
    prog.add(n % kProgressEvery);
    nvtxRowsPerRange[ri] = n;
}

void FileReader::State::readSync(size_t ri) {
    Connection c(path);
    RowScan scan(c.db(), "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", syncSql, path);
    SyncPiece& piece = sync[ri];
    uint64_t n = 0;
    ProcessSlots slots(piece.pids);
    Row r;
    scan.run(syncRanges[ri].lo, syncRanges[ri].hi, [&](const RowValues& row) {
        if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
        row.ints(6, r.v, r.k);
        if (r.v[5] != 2) return;  // CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT
        if (!usableInterval(r, 0, 1) || !smallId(r, 2) || !smallId(r, 3)) {
            ++piece.skipped;
            return;
        }
        StreamWaits& w = rowsOf(slots, piece.waits, uint64_t(r.v[4]));
        w.push_back(r.v[0], r.v[1], int32_t(r.v[2]), int32_t(r.v[3]));
    });
    prog.add(n % kProgressEvery);
    syncRowsPerRange[ri] = n;
}

}  // namespace skew
