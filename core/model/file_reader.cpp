#include "model/file_reader.h"

#include <algorithm>
#include <cstdlib>

#include "model/file_reader_state.h"
#include "util/text.h"

namespace skew {

using namespace reader;

const char* const kReadTables[5] = {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
                                    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"};

void ReadProgress::add(uint64_t rows) {
    done_ += rows;
    if (cancel) throw Cancelled();
}

double ReadProgress::fraction() const { return std::min(1.0, double(done_.load()) / total_); }

namespace {
constexpr int64_t kRowsPerRange = 400'000;  // a range of a big table read by one task
constexpr int kMaxRanges = 64;
}  // namespace

// A table without one of the columns read: an essential one makes the file unreadable, any
// other is ignored with a warning.
bool FileReader::State::readable(const std::string& t, std::initializer_list<const char*> required, bool essential) {
    std::string missing;
    for (const char* c : required)
        if (!file.columns(t).count(c)) missing += (missing.empty() ? "" : ", ") + std::string(c);
    if (missing.empty()) return true;
    std::string msg = part.input.path + ": the " + t + " table has no " + missing + " column";
    if (essential) throw InputError(msg + ": not an export Skewscope can read");
    part.warnings.push_back(msg + "; the table is ignored");
    return false;
}

void FileReader::State::warnSkipped(std::vector<std::string>& to, uint64_t count, const char* what, const std::string& table, const char* columns) {
    if (count == 0) return;
    to.push_back(part.input.path + ": " + plural(count, std::string(what) + " row") +
                            " with an unusable " + columns + " (text, NULL, fractional, out of range, or ending "
                            "before it starts) skipped in " + table);
}

// The capacity for a column that needs `want` elements when `merged` rows of a table split
// into `ranges` have been merged: what it would need at the end if the rows to come resemble
// those merged (with a margin), so that most columns grow once. Room reserved and never
// written costs address space, not memory.
size_t FileReader::State::growTo(size_t want, uint64_t merged, const std::vector<reader::Range>& ranges) {
    int64_t span = 0;
    for (const reader::Range& r : ranges) span += r.hi - r.lo;
    double share = double(want) / double(std::max<uint64_t>(merged, 1));
    // the row-id span can be wild in a damaged file: never plan for more than 64 times the rows seen
    double rows = std::min(double(std::max<int64_t>(span, int64_t(merged))), 64.0 * double(merged) + double(1 << 20));
    return std::max(want + want / 2, size_t(share * rows * 1.1) + 4096);
}

std::vector<reader::Range> FileReader::State::split(const std::string& table) {
    auto [lo, hi] = file.rowidBounds(table);
    if (hi < lo || (lo == 0 && hi == 0)) return {{0, 1}};  // empty: one range that reads nothing
    int64_t rows = hi - lo + 1;
    int64_t perRange = kRowsPerRange;  // SKEWSCOPE_LOAD_RANGE_ROWS: smaller ranges, for tests
    if (const char* e = std::getenv("SKEWSCOPE_LOAD_RANGE_ROWS"); e && std::atoll(e) > 0) perRange = std::atoll(e);
    int n = int(std::clamp<int64_t>((rows + perRange - 1) / perRange, 1, kMaxRanges));
    std::vector<reader::Range> out;
    for (int i = 0; i < n; ++i) {
        int64_t a = lo + rows * i / n, b = i + 1 == n ? hi + 1 : lo + rows * (i + 1) / n;
        out.push_back({a, b});
    }
    return out;
}


// Decides what phase 2 reads (columns present, warnings of missing ones) and how it splits.
void FileReader::State::prepareTables() {
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

FileReader::FileReader(ExportFile& file, FilePart& part, ReadProgress& progress) : s_(std::make_unique<State>(file, part, progress)) {}
FileReader::~FileReader() = default;

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
