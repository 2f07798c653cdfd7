#include "model/file_reader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "model/lane_index.h"
#include "nsys/export_reader.h"
#include "util/release_memory.h"

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

// Memory one task's sorts reuse: touching fresh pages is the dearest part of sorting a big lane.
struct SortScratch {
    struct Key {
        int64_t start, dur;
        uint32_t index;
    };
    std::vector<Key> keys;
    std::vector<uint64_t> keys16;  // a lane's (start, 32-bit duration, index) keys, two words each
    std::vector<uint32_t> perm;
    std::vector<uint64_t> column;  // one column at a time, reordered
};

// Reorders one column by a permutation (perm[i]: the old index of new element i).
template <typename T>
void permute(SortScratch& s, const std::vector<uint32_t>& perm, std::vector<T>& v) {
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>);
    s.column.resize((perm.size() * sizeof(T) + 7) / 8);
    T* tmp = reinterpret_cast<T*>(s.column.data());
    for (size_t i = 0; i < perm.size(); ++i) tmp[i] = v[perm[i]];
    std::copy(tmp, tmp + perm.size(), v.begin());
}
void permute(SortScratch& s, const std::vector<uint32_t>& perm, Durations& d) {
    d.visit([&](auto& v) { permute(s, perm, v); });
}
void permute(SortScratch& s, const std::vector<uint32_t>& perm, CodedIds& c) {
    c.visit([&](auto& v) { permute(s, perm, v); });
}

// Reorders parallel columns by one permutation.
template <typename... Cols>
void applyPermutation(SortScratch& s, const std::vector<uint32_t>& perm, Cols&... cols) {
    (permute(s, perm, cols), ...);
}

// Parallel columns sorted by (start, end), that is by (start, duration), ties in read order;
// skipped when already sorted. Narrow durations sort on 16-byte keys.
template <typename... Cols>
void sortByStartDuration(SortScratch& s, std::vector<int64_t>& start, Durations& duration, Cols&... cols) {
    const size_t n = start.size();
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i)
        sorted = start[i - 1] < start[i] || (start[i - 1] == start[i] && duration[i - 1] <= duration[i]);
    if (sorted) return;
    s.perm.resize(n);
    if (!duration.wide()) {
        // (start, duration << 32 | index): start is compared as signed, the second word as unsigned
        s.keys16.resize(2 * n);
        struct K {
            int64_t start;
            uint64_t rest;
        };
        K* k = reinterpret_cast<K*>(s.keys16.data());
        for (size_t i = 0; i < n; ++i) k[i] = {start[i], uint64_t(duration[i]) << 32 | uint32_t(i)};
        std::sort(k, k + n, [](const K& a, const K& b) { return a.start != b.start ? a.start < b.start : a.rest < b.rest; });
        for (size_t i = 0; i < n; ++i) start[i] = k[i].start, s.perm[i] = uint32_t(k[i].rest);
    } else {
        s.keys.resize(n);
        for (size_t i = 0; i < n; ++i) s.keys[i] = {start[i], duration[i], uint32_t(i)};
        std::sort(s.keys.begin(), s.keys.end(), [](const SortScratch::Key& a, const SortScratch::Key& b) {
            return a.start != b.start ? a.start < b.start : a.dur != b.dur ? a.dur < b.dur : a.index < b.index;
        });
        for (size_t i = 0; i < n; ++i) start[i] = s.keys[i].start, s.perm[i] = s.keys[i].index;
    }
    applyPermutation(s, s.perm, duration, cols...);
}

void sortLane(SortScratch& s, KernelLane& l) { sortByStartDuration(s, l.start, l.duration, l.name, l.correlationId); }

// One row's integer columns, each read once (Query::ints).
struct Row {
    int64_t v[8];
    Query::Kind k[8];
    bool isInt(int c) const { return k[c] == Query::kInt; }
    bool isNull(int c) const { return k[c] == Query::kNull; }
};

// A row's [start, end] is usable when both are integers within kMaxAbsTimeNs and end >= start:
// text, NULL, REAL or wild values would give wrapped or negative durations downstream.
bool usableInterval(const Row& r, int startCol, int endCol) {
    if (!r.isInt(startCol) || !r.isInt(endCol)) return false;
    int64_t a = r.v[startCol], b = r.v[endCol];
    return a >= -kMaxAbsTimeNs && a <= kMaxAbsTimeNs && b >= a && b <= kMaxAbsTimeNs;
}
// device and stream ids: small non-negative integers
bool smallId(const Row& r, int col) { return r.isInt(col) && r.v[col] >= 0 && r.v[col] <= INT32_MAX; }
// a correlation id: a whole number below kNoCorrelation
bool usableCorrelation(const Row& r, int col) { return r.isInt(col) && r.v[col] >= 0 && r.v[col] < int64_t(kNoCorrelation); }

struct Range {
    int64_t lo, hi;  // rowid in [lo, hi)
};

// Rows a range's columns are reserved for: the range's row-id span, capped (a file with a wild
// row id must not reserve gigabytes; beyond the cap the columns grow as usual).
size_t expectedRows(const Range& r) { return size_t(std::clamp<int64_t>(r.hi - r.lo, 0, int64_t(1) << 21)); }

// One range's kernels in row order, each with its lane (an index into `keys`, the range's lanes
// in order of first appearance). One record per row (one append, one write), reserved once: no
// growth while reading.
struct KernelPiece {
#pragma pack(push, 4)
    struct Row {
        int64_t start, end;
        uint32_t lane;
        StrId name;
        uint32_t correlationId;
    };
#pragma pack(pop)
    static_assert(sizeof(Row) == 28);
    std::vector<LaneKey> keys;
    std::vector<Row> rows;
    uint64_t skipped = 0, badCorrelation = 0;
    // Empty again, its memory kept for the next range.
    void clear() {
        keys.clear(), rows.clear();
        skipped = badCorrelation = 0;
    }
};

// One range's launch rows in row order, each with its process (an index into `pids`).
struct RuntimePiece {
    struct Row {
        int64_t start, end;
        uint32_t proc, correlationId, tid;
        StrId name;
    };
    std::vector<uint64_t> pids;
    std::vector<Row> rows;
    uint64_t skipped = 0;
    void clear() {
        pids.clear(), rows.clear();
        skipped = 0;
    }
};

// Pieces whose ranges were merged, kept for the next ranges to read into: their columns are
// already paged in (a fresh 16 MB column costs milliseconds of page faults, and the allocator
// hands freed big blocks back to the system). A few are enough: readers take one each.
template <class Piece>
class PiecePool {
public:
    // `slot` (an empty piece) gets a used one's memory, if any is free.
    void take(Piece& slot) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) return;
        slot = std::move(free_.back());
        free_.pop_back();
    }
    // `piece` emptied; its memory kept when the pool is not full.
    void give(Piece& piece) {
        piece.clear();
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.size() < kKept) free_.push_back(std::move(piece));
        piece = Piece();
    }
    void release() {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<Piece>().swap(free_);
    }

private:
    static constexpr size_t kKept = 4;
    std::mutex mutex_;
    std::vector<Piece> free_;
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

// The index of a process in `pids` (appended when new), through a small direct-mapped cache: rows
// in start order (as nsys writes them) change process almost every row.
class ProcessSlots {
public:
    explicit ProcessSlots(std::vector<uint64_t>& pids) : pids_(pids) {}
    // (index, whether the process is new)
    std::pair<uint32_t, bool> find(uint64_t gpid) {
        Slot& s = cache_[(gpid >> 24) * 0x9E3779B97F4A7C15ull >> 60];
        if (s.index != ~0u && s.gpid == gpid) return {s.index, false};
        const auto it = std::find(pids_.begin(), pids_.end(), gpid);  // a handful of processes per file
        const bool fresh = it == pids_.end();
        s = {gpid, uint32_t(it - pids_.begin())};
        if (fresh) pids_.push_back(gpid);
        return {s.index, fresh};
    }

private:
    struct Slot {
        uint64_t gpid = 0;
        uint32_t index = ~0u;
    };
    std::vector<uint64_t>& pids_;
    std::array<Slot, 16> cache_{};
};

// The rows of process `gpid`, a new empty list for a new process.
template <typename Rows>
Rows& rowsOf(ProcessSlots& slots, std::vector<Rows>& rows, uint64_t gpid) {
    auto [index, fresh] = slots.find(gpid);
    if (fresh) rows.emplace_back();
    return rows[index];
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
    PiecePool<KernelPiece> kernelPool;
    PiecePool<RuntimePiece> runtimePool;
    std::vector<NvtxPiece> nvtx;
    std::vector<SyncPiece> sync;
    std::vector<Range> kernelRanges, runtimeRanges, nvtxRanges, syncRanges;
    std::vector<uint64_t> kernelRowsPerRange, runtimeRowsPerRange, nvtxRowsPerRange, syncRowsPerRange;  // rows read, per range
    std::vector<std::string> kernelWarnings, launchWarnings, nvtxWarnings, syncWarnings;  // one list per merge task
    bool kernelTable = false, runtimeTable = false, nvtxTable = false, syncTable = false, processesTable = false,
         threadNamesTable = false;
    std::string kernelSql, runtimeSql, nvtxSql, syncSql;  // the columns read by each table's RowScan
    std::string processesSql;
    // phase 3: merged, keyed by globalPid until processes are assembled
    std::vector<uint64_t> kernelPids;  // processes in order of first appearance in the kernel table
    std::unordered_map<uint64_t, Launches> launches;  // globalPid -> its launch rows, until joined to its kernels
    std::vector<uint64_t> nvtxPids, syncPids;
    std::unordered_map<uint64_t, NvtxRanges> nvtxMerged;
    std::unordered_map<uint64_t, StreamWaits> syncMerged;
    std::unordered_map<LaneKey, uint32_t, LaneKeyHash> laneOf;  // index in part.lanes
    uint64_t kernelRowsMerged = 0, kernelSkipped = 0, kernelBadCorrelation = 0;
    uint64_t runtimeRowsMerged = 0, skippedLaunches = 0;

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

    // The capacity for a column that needs `want` elements when `merged` rows of a table split
    // into `ranges` have been merged: what it would need at the end if the rows to come resemble
    // those merged (with a margin), so that most columns grow once. Room reserved and never
    // written costs address space, not memory.
    static size_t growTo(size_t want, uint64_t merged, const std::vector<Range>& ranges) {
        int64_t span = 0;
        for (const Range& r : ranges) span += r.hi - r.lo;
        double share = double(want) / double(std::max<uint64_t>(merged, 1));
        // the row-id span can be wild in a damaged file: never plan for more than 64 times the rows seen
        double rows = std::min(double(std::max<int64_t>(span, int64_t(merged))), 64.0 * double(merged) + double(1 << 20));
        return std::max(want + want / 2, size_t(share * rows * 1.1) + 4096);
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
            kernelSql = "start, end, deviceId, streamId, " + file.colOrNull(k, "correlationId") + ", " + file.colOrNull(k, "globalPid") +
                        ", " + file.colOrNull(k, "demangledName") + ", " + file.colOrNull(k, "shortName");
            kernelRanges = split(k);
        }
        runtimeTable = file.hasTable(r) && readable(r, {"start", "end", "eventClass", "globalTid", "nameId"}, false);
        if (runtimeTable) {
            runtimeSql = "start, end, eventClass, globalTid, " + file.colOrNull(r, "correlationId") + ", nameId";
            runtimeRanges = split(r);
        }
        nvtxTable = file.hasTable(nv) && readable(nv, {"start", "end", "eventType", "globalTid", "text"}, false);
        if (nvtxTable) {
            nvtxSql = "start, end, eventType, globalTid, text, " + file.colOrNull(nv, "textId");
            nvtxRanges = split(nv);
        }
        syncTable = file.hasTable(sy) && readable(sy, {"start", "end", "deviceId", "streamId", "globalPid"}, false);
        if (syncTable) {
            std::string type = file.columns(sy).count("syncType") ? "syncType" : file.colOrNull(sy, "deprecatedSyncType");
            syncSql = "start, end, deviceId, streamId, globalPid, " + type;
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

    // ---- phase 2 ------------------------------------------------------------------------------
    void readKernels(size_t ri) {
        Connection c(path);
        RowScan scan(c.db(), "CUPTI_ACTIVITY_KIND_KERNEL", kernelSql, path);
        KernelPiece& piece = kernels[ri];
        kernelPool.take(piece);
        const size_t expect = expectedRows(kernelRanges[ri]);
        piece.rows.reserve(expect);
        std::unordered_map<LaneKey, uint32_t, LaneKeyHash> index;
        // the lanes seen lately, direct-mapped: rows in start order (as nsys writes them) change
        // lane almost every row, between the streams of every GPU
        struct Cached {
            LaneKey key{~0ull, -1, -1};
            uint32_t lane = ~0u;
        };
        std::array<Cached, 64> cache{};
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
            Cached& recent = cache[uint64_t(LaneKeyHash()(key)) * 0x9E3779B97F4A7C15ull >> 58];
            if (recent.lane == ~0u || !(recent.key == key)) {
                auto [it, fresh] = index.emplace(key, uint32_t(piece.keys.size()));
                if (fresh) piece.keys.push_back(key);
                recent = {key, it->second};
            }
            const uint32_t lane = recent.lane;
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

    void readRuntime(size_t ri) {
        Connection c(path);
        RowScan scan(c.db(), "CUPTI_ACTIVITY_KIND_RUNTIME", runtimeSql, path);
        RuntimePiece& piece = runtime[ri];
        runtimePool.take(piece);
        const size_t expect = expectedRows(runtimeRanges[ri]);
        piece.rows.reserve(expect);
        uint64_t n = 0;
        ProcessSlots slots(piece.pids);
        Row r;
        scan.run(runtimeRanges[ri].lo, runtimeRanges[ri].hi, [&](const RowValues& row) {
            if (++n % kProgressEvery == 0) prog.add(kProgressEvery);
            row.ints(6, r.v, r.k);
            // other classes (backtraces, ...) repeat correlation ids; a class that is not an integer
            // (NULL, text) is no class: read as 0 it would make any row a launch
            if (!r.isInt(2) || (r.v[2] != 0 && r.v[2] != 1)) return;
            if (r.isNull(4)) return;
            if (!usableInterval(r, 0, 1) || !usableCorrelation(r, 4)) {
                ++piece.skipped;
                return;
            }
            StrId name = str(r.v[5]);
            if (name >= isLaunchApi.size() || !isLaunchApi[name]) return;  // not a launch: launched no kernel
            const uint64_t gtid = uint64_t(r.v[3]);
            const uint32_t proc = slots.find(gtid & ~kTidMask).first;
            piece.rows.push_back({r.v[0], r.v[1], proc, uint32_t(r.v[4]), uint32_t(gtid & kTidMask), name});
        });
        prog.add(n % kProgressEvery);
        runtimeRowsPerRange[ri] = n;
    }

    void readNvtx(size_t ri) {
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

    void readSync(size_t ri) {
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

    // ---- phase 3 ------------------------------------------------------------------------------
    // Range `ri` of the kernel table, after the ranges before it (the merges run in row order, each
    // as soon as it can, so only a few ranges wait in memory): its rows appended to their lanes.
    [[gnu::flatten]] void mergeKernelRange(size_t ri) {
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
    static constexpr size_t kShards = 2;  // (4 on 2 cores: no faster, 16 MB more of sort scratch and join columns at once)
    void kernelsMerged() {
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
    void finishLanes(size_t shard) {
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
    [[gnu::flatten]] void mergeRuntimeRange(size_t ri) {
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

    // After the kernels and the last API range: each lane's kernels joined to their launch rows
    // (process and correlation id; the first row read of an id), in kShards tasks of processes,
    // each process's rows freed once joined. Rows that repeat a joined id are counted.
    std::vector<std::pair<uint64_t, std::vector<KernelLane*>>> joinOrder;  // processes with kernels, and their lanes
    uint64_t shardDuplicates[kShards] = {};
    void launchesMerged() {
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
    void joinShard(size_t shard) {
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
    void finishLaunches() {
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

    void mergeNvtx() {
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

    void mergeSync() {
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
    auto strings = g.add("strings", [s] { s->readStrings(); });
    auto procs = g.add("processes", [s] { s->readProcesses(); });
    auto threads = g.add("thread names", [s] { s->readThreadNames(); }, {strings});
    std::vector<TaskGraph::Id> k, r, n, y;
    // the kernel ranges first: their merge can run while the API rows are still being read
    for (size_t i = 0; i < s->kernelRanges.size(); ++i) k.push_back(g.add("kernels " + std::to_string(i), [s, i] { s->readKernels(i); }, {strings}));
    for (size_t i = 0; i < s->runtimeRanges.size(); ++i) r.push_back(g.add("runtime " + std::to_string(i), [s, i] { s->readRuntime(i); }, {strings}));
    // Ranges are merged in row order, each as soon as it and the one before are done (merges go
    // before reads): few ranges wait in memory.
    auto chain = [&g](const std::string& what, const std::vector<TaskGraph::Id>& reads, auto merge) {
        TaskGraph::Id prev = 0;
        for (size_t i = 0; i < reads.size(); ++i) {
            std::vector<TaskGraph::Id> deps{reads[i]};
            if (i > 0) deps.push_back(prev);
            prev = g.add("merge " + what + " " + std::to_string(i), [merge, i] { merge(i); }, deps, 1);
        }
        return reads.empty() ? std::vector<TaskGraph::Id>{} : std::vector<TaskGraph::Id>{prev};
    };
    // the lanes sorted and indexed in shards, then joined to their launches in shards of processes
    auto km = g.add("kernels merged", [s] { s->kernelsMerged(); }, chain("kernels", k, [s](size_t i) { s->mergeKernelRange(i); }), 1);
    std::vector<TaskGraph::Id> lanesDone;
    for (size_t i = 0; i < State::kShards; ++i)
        lanesDone.push_back(g.add("sort lanes " + std::to_string(i), [s, i] { s->finishLanes(i); }, {km}, 1));
    std::vector<TaskGraph::Id> beforeJoin = chain("runtime", r, [s](size_t i) { s->mergeRuntimeRange(i); });
    beforeJoin.insert(beforeJoin.end(), lanesDone.begin(), lanesDone.end());
    auto lm = g.add("launches merged", [s] { s->launchesMerged(); }, beforeJoin, 1);
    std::vector<TaskGraph::Id> joined;
    for (size_t i = 0; i < State::kShards; ++i) joined.push_back(g.add("join launches " + std::to_string(i), [s, i] { s->joinShard(i); }, {lm}, 1));
    auto ml = g.add("finish launches", [s] { s->finishLaunches(); }, joined, 1);
    // the small tables after the join: the launch rows (held until joined) and the NVTX ranges and
    // stream waits are then never in memory at once (+26 MB at the peak of a 6M-kernel export)
    for (size_t i = 0; i < s->nvtxRanges.size(); ++i) n.push_back(g.add("nvtx " + std::to_string(i), [s, i] { s->readNvtx(i); }, {strings, ml}));
    for (size_t i = 0; i < s->syncRanges.size(); ++i) y.push_back(g.add("sync " + std::to_string(i), [s, i] { s->readSync(i); }, {ml}));
    auto mn = g.add("merge nvtx", [s] { s->mergeNvtx(); }, n, 1);
    auto ms = g.add("merge sync", [s] { s->mergeSync(); }, y, 1);
    g.add("assemble", [s] { s->assemble(); }, {ml, mn, ms, procs, threads}, 1);
}

}  // namespace skew
