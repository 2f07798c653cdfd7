#include "model/file_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "model/lane_index.h"
#include "nsys/export_reader.h"

namespace skew {

void ReadProgress::add(uint64_t rows) {
    done_ += rows;
    if (cancel) throw Cancelled();
}

double ReadProgress::fraction() const { return std::min(1.0, double(done_.load()) / total_); }

namespace {

constexpr uint64_t kTidMask = 0xFFFFFF;
constexpr uint32_t kInlineText = 0x80000000u;  // NVTX text id of a range's own (inline) string list
constexpr int64_t kRowsPerRange = 400'000;     // a range of a big table read by one task
constexpr int kMaxRanges = 64;

uint32_t pidOf(uint64_t globalPid) { return static_cast<uint32_t>((globalPid >> 24) & 0xFFFFFF); }

struct LaneKey {
    uint64_t globalPid;
    int32_t device, stream;
    bool operator==(const LaneKey& o) const { return globalPid == o.globalPid && device == o.device && stream == o.stream; }
};
struct LaneKeyHash {
    size_t operator()(const LaneKey& k) const {
        return std::hash<uint64_t>()(k.globalPid * 1000003u ^ (uint64_t(uint32_t(k.device)) << 32) ^ uint32_t(k.stream));
    }
};

// Reorders parallel columns by one permutation.
template <typename... Cols>
void applyPermutation(const std::vector<uint32_t>& perm, Cols&... cols) {
    auto apply = [&](auto& v) {
        std::remove_reference_t<decltype(v)> out(v.size());
        for (size_t i = 0; i < perm.size(); ++i) out[i] = v[perm[i]];
        v.swap(out);
    };
    (apply(cols), ...);
}

// Sorts parallel columns by (start, end) with one permutation; skipped when already sorted.
template <typename... Cols>
void sortByStart(std::vector<int64_t>& start, std::vector<int64_t>& end, Cols&... cols) {
    bool sorted = true;
    for (size_t i = 1; i < start.size() && sorted; ++i)
        sorted = start[i - 1] < start[i] || (start[i - 1] == start[i] && end[i - 1] <= end[i]);
    if (sorted) return;
    std::vector<uint32_t> perm(start.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return start[a] != start[b] ? start[a] < start[b] : end[a] < end[b]; });
    applyPermutation(perm, start, end, cols...);
}

// Appends the elements of `from` to `to` and frees `from`.
template <typename T>
void moveAppend(std::vector<T>& to, std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
    std::vector<T>().swap(from);
}

// A row's [start, end] is usable when both are integers within kMaxAbsTimeNs and end >= start:
// text, NULL, REAL or wild values would give wrapped or negative durations downstream.
bool usableInterval(const Query& q, int startCol, int endCol) {
    if (!q.isInteger(startCol) || !q.isInteger(endCol)) return false;
    int64_t a = q.i64(startCol), b = q.i64(endCol);
    return a >= -kMaxAbsTimeNs && a <= kMaxAbsTimeNs && b >= a && b <= kMaxAbsTimeNs;
}
// device and stream ids: small non-negative integers
bool smallId(const Query& q, int col) { return q.isInteger(col) && q.i64(col) >= 0 && q.i64(col) <= INT32_MAX; }

struct Range {
    int64_t lo, hi;  // rowid in [lo, hi)
};

// One range's kernels, per lane in order of first appearance.
struct KernelPiece {
    std::vector<LaneKey> keys;
    std::vector<KernelLane> lanes;
    uint64_t skipped = 0, badCorrelation = 0;
};

struct LaunchRows {
    std::vector<uint32_t> correlationId;
    std::vector<int64_t> start, end;
    std::vector<StrId> name;
    std::vector<uint32_t> tid;
};
// One range's launch rows, per process (globalPid) in order of first appearance.
struct RuntimePiece {
    std::vector<uint64_t> pids;
    std::vector<LaunchRows> rows;
    uint64_t skipped = 0;
};

struct NvtxPiece {
    std::vector<uint64_t> pids;
    std::vector<NvtxRanges> ranges;  // text: part string id, or kInlineText | index into `inlineTexts`
    std::vector<std::string> inlineTexts;
    uint64_t skipped = 0, ranges_ = 0;
};

struct SyncPiece {
    std::vector<uint64_t> pids;
    std::vector<StreamWaits> waits;
    uint64_t skipped = 0;
};

template <typename Rows>
Rows& rowsOf(std::vector<uint64_t>& pids, std::vector<Rows>& rows, uint64_t gpid, uint64_t& lastPid, size_t& lastIdx) {
    if (gpid != lastPid || lastIdx >= rows.size()) {
        auto it = std::find(pids.begin(), pids.end(), gpid);  // a handful of processes per file
        lastIdx = size_t(it - pids.begin());
        if (it == pids.end()) {
            pids.push_back(gpid);
            rows.emplace_back();
        }
        lastPid = gpid;
    }
    return rows[lastIdx];
}

}  // namespace

struct FileReader::State {
    ExportFile& file;
    FilePart& part;
    ReadProgress& prog;
    const std::string path;  // the file SQLite opens (a converted report's copy, or the input)

    // phase 1: strings, processes, thread names
    std::vector<StrId> strMap;
    std::unordered_map<int64_t, StrId> sparseStr;
    std::vector<uint8_t> isLaunchApi;  // per part string id
    std::unordered_map<uint64_t, std::string> procNames;
    std::unordered_map<uint64_t, StrId> threadNames;  // globalTid -> name
    // phase 2: pieces per range
    std::vector<KernelPiece> kernels;
    std::vector<RuntimePiece> runtime;
    std::vector<NvtxPiece> nvtx;
    std::vector<SyncPiece> sync;
    std::vector<Range> kernelRanges, runtimeRanges, nvtxRanges, syncRanges;
    std::vector<uint64_t> kernelRowsPerRange, runtimeRowsPerRange, nvtxRowsPerRange, syncRowsPerRange;  // rows read, per range
    std::vector<std::string> kernelWarnings, launchWarnings, nvtxWarnings, syncWarnings;  // one list per merge task
    bool kernelTable = false, runtimeTable = false, nvtxTable = false, syncTable = false, processesTable = false,
         threadNamesTable = false;
    std::string kernelSql, runtimeSql, nvtxSql, syncSql, processesSql;
    // phase 3: merged, keyed by globalPid until processes are assembled
    std::vector<uint64_t> kernelPids;  // processes in order of first appearance in the kernel table
    std::unordered_map<uint64_t, std::vector<uint64_t>> kernelCorr;  // globalPid -> bitmap of kernel correlation ids
    std::unordered_map<uint64_t, std::unordered_set<uint32_t>> kernelCorrHigh;
    std::unordered_map<uint64_t, Launches> launches;
    std::vector<uint64_t> nvtxPids, syncPids;
    std::unordered_map<uint64_t, NvtxRanges> nvtxMerged;
    std::unordered_map<uint64_t, StreamWaits> syncMerged;
    uint64_t duplicateLaunches = 0;

    State(ExportFile& f, FilePart& p, ReadProgress& pr) : file(f), part(p), prog(pr), path(f.path()) {}

    StrId str(int64_t localId) const {
        if (localId >= 0 && size_t(localId) < strMap.size()) return strMap[size_t(localId)];
        auto it = sparseStr.find(localId);
        return it == sparseStr.end() ? kNoString : it->second;
    }

    // A table without one of the columns read: an essential one makes the file unreadable, any
    // other is ignored with a warning.
    bool readable(const std::string& t, std::initializer_list<const char*> required, bool essential) {
        std::string missing;
        for (const char* c : required)
            if (!file.columns(t).count(c)) missing += (missing.empty() ? "" : ", ") + std::string(c);
        if (missing.empty()) return true;
        std::string msg = part.input.path + ": the " + t + " table has no " + missing + " column";
        if (essential) throw InputError(msg + ": not an export Skewscope can read");
        part.warnings.push_back(msg + "; the table is ignored");
        return false;
    }

    void warnSkipped(std::vector<std::string>& to, uint64_t count, const char* what, const std::string& table, const char* columns) {
        if (count == 0) return;
        to.push_back(part.input.path + ": " + std::to_string(count) + " " + what + " row" + (count == 1 ? "" : "s") +
                                " with an unusable " + columns + " (text, NULL, fractional, out of range, or ending "
                                "before it starts) skipped in " + table);
    }

    std::vector<Range> split(const std::string& table) {
        auto [lo, hi] = file.rowidBounds(table);
        if (hi < lo || (lo == 0 && hi == 0)) return {{0, 1}};  // empty: one range that reads nothing
        int64_t rows = hi - lo + 1;
        int64_t perRange = kRowsPerRange;  // SKEWSCOPE_LOAD_RANGE_ROWS: smaller ranges, for tests
        if (const char* e = std::getenv("SKEWSCOPE_LOAD_RANGE_ROWS"); e && std::atoll(e) > 0) perRange = std::atoll(e);
        int n = int(std::clamp<int64_t>((rows + perRange - 1) / perRange, 1, kMaxRanges));
        std::vector<Range> out;
        for (int i = 0; i < n; ++i) {
            int64_t a = lo + rows * i / n, b = i + 1 == n ? hi + 1 : lo + rows * (i + 1) / n;
            out.push_back({a, b});
        }
        return out;
    }

    // ---- phase 1 ------------------------------------------------------------------------------
    void readStrings() {
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
    }

    void readProcesses() {
        if (!processesTable) return;
        Connection c(path);
        Query q(c.db(), processesSql, path);
        while (q.step()) procNames[uint64_t(q.i64(0))] = std::string(q.text(1));
    }

    void readThreadNames() {  // after the strings
        if (!threadNamesTable) return;
        Connection c(path);
        Query q(c.db(), "SELECT nameId, globalTid FROM ThreadNames", path);
        while (q.step()) threadNames[uint64_t(q.i64(1))] = str(q.i64(0));
    }

    // Decides what phase 2 reads (columns present, warnings of missing ones) and how it splits.
    void prepareTables() {
        const std::string k = "CUPTI_ACTIVITY_KIND_KERNEL", r = "CUPTI_ACTIVITY_KIND_RUNTIME", nv = "NVTX_EVENTS",
                          sy = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
        readable("StringIds", {"id", "value"}, true);
        processesTable = file.hasTable("PROCESSES") && readable("PROCESSES", {"globalPid"}, false);
        if (processesTable) processesSql = "SELECT globalPid, " + file.colOrNull("PROCESSES", "name") + " FROM PROCESSES";
        threadNamesTable = file.hasTable("ThreadNames") && readable("ThreadNames", {"nameId", "globalTid"}, false);
        kernelTable = file.hasTable(k);
        if (!kernelTable) {
            part.warnings.push_back(part.input.path + ": no " + k + " table: the CUDA kernel trace was not captured (nsys profile --trace=cuda)");
        } else {
            readable(k, {"start", "end", "deviceId", "streamId"}, true);
            kernelSql = "SELECT start, end, deviceId, streamId, " + file.colOrNull(k, "correlationId") + ", " +
                        file.colOrNull(k, "globalPid") + ", " + file.colOrNull(k, "demangledName") + ", " +
                        file.colOrNull(k, "shortName") + " FROM " + k + " WHERE rowid >= ?1 AND rowid < ?2";
            kernelRanges = split(k);
        }
        runtimeTable = file.hasTable(r) && readable(r, {"start", "end", "eventClass", "globalTid", "nameId"}, false);
        if (runtimeTable) {
            runtimeSql = "SELECT start, end, eventClass, globalTid, " + file.colOrNull(r, "correlationId") + ", nameId FROM " + r +
                         " WHERE rowid >= ?1 AND rowid < ?2";
            runtimeRanges = split(r);
        }
        nvtxTable = file.hasTable(nv) && readable(nv, {"start", "end", "eventType", "globalTid", "text"}, false);
        if (nvtxTable) {
            nvtxSql = "SELECT start, end, eventType, globalTid, text, " + file.colOrNull(nv, "textId") + " FROM " + nv +
                      " WHERE rowid >= ?1 AND rowid < ?2";
            nvtxRanges = split(nv);
        }
        syncTable = file.hasTable(sy) && readable(sy, {"start", "end", "deviceId", "streamId", "globalPid"}, false);
        if (syncTable) {
            std::string type = file.columns(sy).count("syncType") ? "syncType" : file.colOrNull(sy, "deprecatedSyncType");
            syncSql = "SELECT start, end, deviceId, streamId, globalPid, " + type + " FROM " + sy + " WHERE rowid >= ?1 AND rowid < ?2";
            syncRanges = split(sy);
        }
        kernels.resize(kernelRanges.size());
        runtime.resize(runtimeRanges.size());
        nvtx.resize(nvtxRanges.size());
        sync.resize(syncRanges.size());
        kernelRowsPerRange.assign(kernelRanges.size(), 0);
        runtimeRowsPerRange.assign(runtimeRanges.size(), 0);
        nvtxRowsPerRange.assign(nvtxRanges.size(), 0);
        syncRowsPerRange.assign(syncRanges.size(), 0);
    }

    std::unique_ptr<Query> rangeQuery(Connection& c, const std::string& sql, const Range& r) {
        auto q = std::make_unique<Query>(c.db(), sql, path);
        q->bind(1, r.lo).bind(2, r.hi);
        return q;
    }

    // ---- phase 2 ------------------------------------------------------------------------------
    void readKernels(size_t ri) {
        Connection c(path);
        auto q = rangeQuery(c, kernelSql, kernelRanges[ri]);
        KernelPiece& piece = kernels[ri];
        std::unordered_map<LaneKey, uint32_t, LaneKeyHash> index;
        LaneKey last{~0ull, -1, -1};
        KernelLane* lane = nullptr;
        uint64_t n = 0;
        while (q->step()) {
            if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
            if (!usableInterval(*q, 0, 1) || !smallId(*q, 2) || !smallId(*q, 3)) {
                ++piece.skipped;
                continue;
            }
            LaneKey key{uint64_t(q->i64(5)), int32_t(q->i64(2)), int32_t(q->i64(3))};
            if (!lane || !(key == last)) {
                auto [it, fresh] = index.emplace(key, uint32_t(piece.lanes.size()));
                if (fresh) {
                    piece.keys.push_back(key);
                    piece.lanes.emplace_back();
                    piece.lanes.back().stream = key.stream;
                }
                lane = &piece.lanes[it->second];
                last = key;
            }
            StrId name = str(q->isNull(6) ? q->i64(7) : q->i64(6));
            if (name == kNoString && !q->isNull(7)) name = str(q->i64(7));
            lane->start.push_back(q->i64(0));
            lane->end.push_back(q->i64(1));
            lane->name.push_back(name);
            // an id that cannot be a correlation id joins nothing (kNoCorrelation matches no launch)
            uint32_t corr = kNoCorrelation;
            if (q->isInteger(4) && q->i64(4) >= 0 && q->i64(4) < int64_t(kNoCorrelation)) corr = uint32_t(q->i64(4));
            else if (!q->isNull(4)) ++piece.badCorrelation;
            lane->correlationId.push_back(corr);
        }
        prog.add(n % kProgressEvery);
        for (auto& l : piece.lanes) {  // a piece keeps no spare capacity while it waits for the merge
            l.start.shrink_to_fit(), l.end.shrink_to_fit(), l.name.shrink_to_fit(), l.correlationId.shrink_to_fit();
        }
        kernelRowsPerRange[ri] = n;
    }

    void readRuntime(size_t ri) {
        Connection c(path);
        auto q = rangeQuery(c, runtimeSql, runtimeRanges[ri]);
        RuntimePiece& piece = runtime[ri];
        uint64_t n = 0, lastPid = ~0ull;
        size_t lastIdx = 0;
        while (q->step()) {
            if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
            int64_t cls = q->i64(2);
            if (cls != 0 && cls != 1) continue;  // other classes (backtraces, ...) repeat correlation ids
            if (q->isNull(4)) continue;
            if (!usableInterval(*q, 0, 1) || !q->isInteger(4) || q->i64(4) < 0 || q->i64(4) >= int64_t(kNoCorrelation)) {
                ++piece.skipped;
                continue;
            }
            StrId name = str(q->i64(5));
            if (name >= isLaunchApi.size() || !isLaunchApi[name]) continue;  // not a launch: launched no kernel
            uint64_t gtid = uint64_t(q->i64(3));
            LaunchRows& L = rowsOf(piece.pids, piece.rows, gtid & ~kTidMask, lastPid, lastIdx);
            L.correlationId.push_back(uint32_t(q->i64(4)));
            L.start.push_back(q->i64(0));
            L.end.push_back(q->i64(1));
            L.name.push_back(name);
            L.tid.push_back(uint32_t(gtid & kTidMask));
        }
        prog.add(n % kProgressEvery);
        runtimeRowsPerRange[ri] = n;
    }

    void readNvtx(size_t ri) {
        Connection c(path);
        auto q = rangeQuery(c, nvtxSql, nvtxRanges[ri]);
        NvtxPiece& piece = nvtx[ri];
        std::unordered_map<std::string, uint32_t> inlineIndex;
        uint64_t n = 0, lastPid = ~0ull;
        size_t lastIdx = 0;
        while (q->step()) {
            if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
            int64_t type = q->i64(2);
            // 59/60: push/pop and start/end ranges; 70/71: the same from NVTX text extensions
            if (type != 59 && type != 60 && type != 70 && type != 71) continue;
            if (q->isNull(1)) continue;  // an unfinished range
            if (!usableInterval(*q, 0, 1)) {
                ++piece.skipped;
                continue;
            }
            uint64_t gtid = uint64_t(q->i64(3));
            NvtxRanges& r = rowsOf(piece.pids, piece.ranges, gtid & ~kTidMask, lastPid, lastIdx);
            uint32_t text;
            if (q->isNull(4)) {
                text = str(q->i64(5));
            } else {
                auto [it, fresh] = inlineIndex.emplace(std::string(q->text(4)), uint32_t(piece.inlineTexts.size()));
                if (fresh) piece.inlineTexts.push_back(it->first);
                text = kInlineText | it->second;
            }
            r.start.push_back(q->i64(0));
            r.end.push_back(q->i64(1));
            r.tid.push_back(uint32_t(gtid & kTidMask));
            r.text.push_back(text);
            ++piece.ranges_;
        }
        prog.add(n % kProgressEvery);
        nvtxRowsPerRange[ri] = n;
    }

    void readSync(size_t ri) {
        Connection c(path);
        auto q = rangeQuery(c, syncSql, syncRanges[ri]);
        SyncPiece& piece = sync[ri];
        uint64_t n = 0, lastPid = ~0ull;
        size_t lastIdx = 0;
        while (q->step()) {
            if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
            if (q->i64(5) != 2) continue;  // CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT
            if (!usableInterval(*q, 0, 1) || !smallId(*q, 2) || !smallId(*q, 3)) {
                ++piece.skipped;
                continue;
            }
            StreamWaits& w = rowsOf(piece.pids, piece.waits, uint64_t(q->i64(4)), lastPid, lastIdx);
            w.start.push_back(q->i64(0));
            w.end.push_back(q->i64(1));
            w.device.push_back(int32_t(q->i64(2)));
            w.stream.push_back(int32_t(q->i64(3)));
        }
        prog.add(n % kProgressEvery);
        syncRowsPerRange[ri] = n;
    }

    // ---- phase 3 ------------------------------------------------------------------------------
    // Correlation ids count up from small numbers; a bitmap covers them. Ids beyond 2^26 (a
    // malformed or exotic file) go to a set instead of growing the bitmap to hundreds of MB.
    static constexpr uint32_t kBitmapIds = 1u << 26;
    void markCorrelation(uint64_t gpid, uint32_t corr) {
        if (corr >= kBitmapIds) {
            kernelCorrHigh[gpid].insert(corr);
            return;
        }
        auto& bits = kernelCorr[gpid];
        if ((corr >> 6) >= bits.size()) bits.resize(std::min<size_t>((corr >> 6) + 1 + bits.size() / 2, kBitmapIds >> 6), 0);
        bits[corr >> 6] |= uint64_t(1) << (corr & 63);
    }
    bool hasCorrelation(uint64_t gpid, uint32_t corr) const {
        if (corr >= kBitmapIds) {
            auto it = kernelCorrHigh.find(gpid);
            return it != kernelCorrHigh.end() && it->second.count(corr);
        }
        auto it = kernelCorr.find(gpid);
        if (it == kernelCorr.end()) return false;
        const auto& bits = it->second;
        return (corr >> 6) < bits.size() && (bits[corr >> 6] >> (corr & 63) & 1);
    }

    void mergeKernels() {
        uint64_t skipped = 0, badCorr = 0, rows = 0;
        std::unordered_map<LaneKey, size_t, LaneKeyHash> laneOf;
        // lanes in order of first appearance; their pieces in range order
        std::vector<std::vector<KernelLane*>> pieces;
        for (KernelPiece& kp : kernels) {
            skipped += kp.skipped;
            badCorr += kp.badCorrelation;
            for (size_t i = 0; i < kp.keys.size(); ++i) {
                auto [it, fresh] = laneOf.emplace(kp.keys[i], part.lanes.size());
                if (fresh) {
                    part.lanes.push_back({kp.keys[i].globalPid, kp.keys[i].device, {}});
                    part.lanes.back().lane.stream = kp.keys[i].stream;
                    pieces.emplace_back();
                    if (std::find(kernelPids.begin(), kernelPids.end(), kp.keys[i].globalPid) == kernelPids.end())
                        kernelPids.push_back(kp.keys[i].globalPid);
                }
                pieces[it->second].push_back(&kp.lanes[i]);
            }
        }
        for (uint64_t n : kernelRowsPerRange) rows += n;
        part.input.kernelRows = rows;
        for (size_t li = 0; li < part.lanes.size(); ++li) {
            KernelLane& l = part.lanes[li].lane;
            size_t total = 0;
            for (KernelLane* p : pieces[li]) total += p->size();
            // one column at a time, each piece's column freed once copied: no doubling of the lane
            l.start.reserve(total);
            for (KernelLane* p : pieces[li]) moveAppend(l.start, p->start);
            l.end.reserve(total);
            for (KernelLane* p : pieces[li]) moveAppend(l.end, p->end);
            l.name.reserve(total);
            for (KernelLane* p : pieces[li]) moveAppend(l.name, p->name);
            l.correlationId.reserve(total);
            for (KernelLane* p : pieces[li]) moveAppend(l.correlationId, p->correlationId);
            sortByStart(l.start, l.end, l.name, l.correlationId);
            buildLaneIndex(l);
            l.ncclKernels = 0;
            for (StrId n : l.name) l.ncclKernels += part.nameOps[n] != CollOp::NotNccl;
            for (uint32_t corr : l.correlationId)
                if (corr != kNoCorrelation) markCorrelation(part.lanes[li].globalPid, corr);
        }
        std::vector<KernelPiece>().swap(kernels);
        const std::string t = "CUPTI_ACTIVITY_KIND_KERNEL";
        warnSkipped(kernelWarnings, skipped, "kernel", t, "start, end, device or stream");
        if (badCorr > 0)
            kernelWarnings.push_back(part.input.path + ": " + std::to_string(badCorr) + " kernel rows of " + t +
                                    " have an unusable correlation id (not a whole number from 0 to 2^32-2): they are "
                                    "kept but cannot be joined to their launch");
    }

    // Keeps the first row (in read order: the sort is stable) of each correlation id; returns how
    // many were dropped.
    static uint64_t dropDuplicateLaunches(Launches& l) {
        size_t out = 0;
        for (size_t i = 0; i < l.size(); ++i) {
            if (out > 0 && l.correlationId[out - 1] == l.correlationId[i]) continue;
            l.correlationId[out] = l.correlationId[i];
            l.start[out] = l.start[i];
            l.end[out] = l.end[i];
            l.name[out] = l.name[i];
            l.tid[out] = l.tid[i];
            ++out;
        }
        uint64_t dropped = l.size() - out;
        l.correlationId.resize(out);
        l.start.resize(out);
        l.end.resize(out);
        l.name.resize(out);
        l.tid.resize(out);
        return dropped;
    }

    void mergeLaunches() {  // after mergeKernels: only rows that launched a kernel of the file
        uint64_t skipped = 0, rows = 0;
        for (uint64_t n : runtimeRowsPerRange) rows += n;
        part.input.runtimeRows = rows;
        for (RuntimePiece& rp : runtime) {
            skipped += rp.skipped;
            for (size_t i = 0; i < rp.pids.size(); ++i) {
                const uint64_t gpid = rp.pids[i];
                if (!kernelCorr.count(gpid) && !kernelCorrHigh.count(gpid)) continue;  // a process without kernels
                LaunchRows& from = rp.rows[i];
                Launches& to = launches[gpid];
                for (size_t k = 0; k < from.correlationId.size(); ++k) {
                    if (!hasCorrelation(gpid, from.correlationId[k])) continue;
                    to.correlationId.push_back(from.correlationId[k]);
                    to.start.push_back(from.start[k]);
                    to.end.push_back(from.end[k]);
                    to.name.push_back(from.name[k]);
                    to.tid.push_back(from.tid[k]);
                }
                from = {};
            }
        }
        std::vector<RuntimePiece>().swap(runtime);
        for (auto& [gpid, l] : launches) {
            if (!std::is_sorted(l.correlationId.begin(), l.correlationId.end())) {
                std::vector<uint32_t> perm(l.size());
                std::iota(perm.begin(), perm.end(), 0u);
                std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return l.correlationId[a] < l.correlationId[b]; });
                applyPermutation(perm, l.correlationId, l.start, l.end, l.name, l.tid);
            }
            duplicateLaunches += dropDuplicateLaunches(l);
            l.correlationId.shrink_to_fit(), l.start.shrink_to_fit(), l.end.shrink_to_fit(), l.name.shrink_to_fit(), l.tid.shrink_to_fit();
        }
        kernelCorr.clear();
        kernelCorrHigh.clear();
        const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!file.hasTable(t) && part.input.kernelRows > 0)
            launchWarnings.push_back(part.input.path + ": no " + t + " table: kernels cannot be joined to their launches");
        warnSkipped(launchWarnings, skipped, "launch", t, "start, end or correlation id");
        if (duplicateLaunches > 0)
            launchWarnings.push_back(part.input.path + ": " + std::to_string(duplicateLaunches) + " " + t +
                                    " rows (eventClass 0/1) repeat the process and correlation id of another launch row; "
                                    "kernels are joined to the first one read");
    }

    void mergeNvtx() {
        uint64_t skipped = 0, ranges = 0;
        for (NvtxPiece& np : nvtx) {
            skipped += np.skipped;
            ranges += np.ranges_;
            // the range's own strings go into the file's table, in range order
            std::vector<StrId> inlineIds(np.inlineTexts.size());
            for (size_t i = 0; i < inlineIds.size(); ++i) inlineIds[i] = part.strings.intern(np.inlineTexts[i]);
            for (size_t i = 0; i < np.pids.size(); ++i) {
                const uint64_t gpid = np.pids[i];
                if (!nvtxMerged.count(gpid)) nvtxPids.push_back(gpid);
                NvtxRanges& to = nvtxMerged[gpid];
                NvtxRanges& from = np.ranges[i];
                for (auto& t : from.text)
                    if (t & kInlineText) t = inlineIds[t & ~kInlineText];
                moveAppend(to.start, from.start);
                moveAppend(to.end, from.end);
                moveAppend(to.tid, from.tid);
                moveAppend(to.text, from.text);
            }
        }
        std::vector<NvtxPiece>().swap(nvtx);
        part.input.nvtxRanges = ranges;
        for (auto& [gpid, r] : nvtxMerged) sortByStart(r.start, r.end, r.tid, r.text);
        warnSkipped(nvtxWarnings, skipped, "NVTX range", "NVTX_EVENTS", "start or end");
    }

    void mergeSync() {
        uint64_t skipped = 0, rows = 0;
        for (uint64_t n : syncRowsPerRange) rows += n;
        part.input.syncRows = rows;
        for (SyncPiece& sp : sync) {
            skipped += sp.skipped;
            for (size_t i = 0; i < sp.pids.size(); ++i) {
                if (!syncMerged.count(sp.pids[i])) syncPids.push_back(sp.pids[i]);
                StreamWaits& to = syncMerged[sp.pids[i]];
                StreamWaits& from = sp.waits[i];
                moveAppend(to.start, from.start);
                moveAppend(to.end, from.end);
                moveAppend(to.device, from.device);
                moveAppend(to.stream, from.stream);
            }
        }
        std::vector<SyncPiece>().swap(sync);
        for (auto& [gpid, w] : syncMerged) sortByStart(w.start, w.end, w.device, w.stream);
        warnSkipped(syncWarnings, skipped, "stream-wait", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "start, end, device or stream");
    }

    // Processes in order of first appearance: kernels, then NVTX, then stream waits.
    void assemble() {
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
            if (auto it = launches.find(gpid); it != launches.end()) pr.launches = std::move(it->second);
            if (auto it = nvtxMerged.find(gpid); it != nvtxMerged.end()) pr.nvtx = std::move(it->second);
            if (auto it = syncMerged.find(gpid); it != syncMerged.end()) pr.waits = std::move(it->second);
            part.processes.push_back(std::move(pr));
        }
        for (const auto& [gtid, name] : threadNames) {
            for (auto& pr : part.processes)
                if (pr.globalPid == (gtid & ~kTidMask)) pr.threadNames[uint32_t(gtid & kTidMask)] = name;
        }
    }
};

FileReader::FileReader(ExportFile& file, FilePart& part, ReadProgress& progress) : s_(std::make_unique<State>(file, part, progress)) {}
FileReader::~FileReader() = default;

double FileReader::estimatedRows() {
    double rows = 0;
    for (const char* t : {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
                          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"})
        rows += double(s_->file.estimatedRows(t));
    return rows;
}

void FileReader::plan(TaskGraph& g) {
    State* s = s_.get();
    s->prepareTables();  // on the calling thread: column checks and splits, before any task runs
    auto strings = g.add([s] { s->readStrings(); });
    auto procs = g.add([s] { s->readProcesses(); });
    auto threads = g.add([s] { s->readThreadNames(); }, {strings});
    std::vector<TaskGraph::Id> k, r, n, y;
    // kernel ranges first: their merge can then run while the API rows are still being read
    for (size_t i = 0; i < s->kernelRanges.size(); ++i) k.push_back(g.add([s, i] { s->readKernels(i); }, {strings}));
    for (size_t i = 0; i < s->runtimeRanges.size(); ++i) r.push_back(g.add([s, i] { s->readRuntime(i); }, {strings}));
    for (size_t i = 0; i < s->nvtxRanges.size(); ++i) n.push_back(g.add([s, i] { s->readNvtx(i); }, {strings}));
    for (size_t i = 0; i < s->syncRanges.size(); ++i) y.push_back(g.add([s, i] { s->readSync(i); }));
    auto mk = g.add([s] { s->mergeKernels(); }, k, 1);
    std::vector<TaskGraph::Id> afterRuntime = r;
    afterRuntime.push_back(mk);
    auto ml = g.add([s] { s->mergeLaunches(); }, afterRuntime, 1);
    auto mn = g.add([s] { s->mergeNvtx(); }, n, 1);
    auto ms = g.add([s] { s->mergeSync(); }, y, 1);
    g.add([s] { s->assemble(); }, {ml, mn, ms, procs, threads}, 1);
}

}  // namespace skew
