#include "model/loader.h"

#include <malloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>
#include <memory>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "model/lane_index.h"
#include "nsys/export_reader.h"

namespace skew {
namespace {

constexpr uint64_t kTidMask = 0xFFFFFF;

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

struct LaneBuild {
    LaneKey key;
    KernelLane lane;
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
    std::sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
        return start[a] != start[b] ? start[a] < start[b] : end[a] < end[b];
    });
    applyPermutation(perm, start, end, cols...);
}

// Rows read so far, shared by the loading threads; the caller's thread reports it. A set
// `cancel` makes every loading thread stop at its next count.
class Progress {
public:
    explicit Progress(double totalRows) : total_(std::max(1.0, totalRows)) {}
    void add(uint64_t rows) {
        done_ += rows;
        if (cancel) throw Cancelled();
    }
    double fraction() const { return std::min(1.0, double(done_.load()) / total_); }
    std::atomic<bool> cancel{false};

private:
    double total_;
    std::atomic<uint64_t> done_{0};
};

constexpr uint64_t kProgressEvery = 1 << 16;

class FileLoader {
public:
    FileLoader(Profile& p, int fileIndex, ExportFile& f, Progress& prog)
        : p_(p), fi_(fileIndex), f_(f), in_(p.inputs[fileIndex]), prog_(prog) {}

    void load() {
        loadStrings();
        loadProcesses();
        loadKernels();
        loadRuntime();
        loadNvtx();
        loadSync();
        loadThreadNames();
    }

    std::vector<LaneBuild>& lanes() { return lanes_; }

private:
    StrId str(int64_t localId) const {
        if (localId >= 0 && size_t(localId) < strMap_.size()) return strMap_[size_t(localId)];
        auto it = sparseStr_.find(localId);
        return it == sparseStr_.end() ? kNoString : it->second;
    }

    int processIndex(uint64_t globalPid) {
        if (globalPid == lastGpid_ && lastProc_ >= 0) return lastProc_;
        auto it = procIndex_.find(globalPid);
        int idx;
        if (it == procIndex_.end()) {
            idx = int(p_.processes.size());
            Process pr;
            pr.file = fi_;
            pr.globalPid = globalPid;
            pr.pid = pidOf(globalPid);
            p_.processes.push_back(std::move(pr));
            procIndex_.emplace(globalPid, idx);
            kernelCorr_.emplace_back();
        } else {
            idx = it->second;
        }
        lastGpid_ = globalPid;
        lastProc_ = idx;
        return idx;
    }
    size_t local(int procIdx) const { return size_t(procIdx - firstProc_); }

    // Correlation ids count up from small numbers; a bitmap covers them. Ids beyond 2^26 (a
    // malformed or exotic file) go to a set instead of growing the bitmap to hundreds of MB.
    static constexpr uint32_t kBitmapIds = 1u << 26;
    void markCorrelation(size_t proc, uint32_t corr) {
        if (kernelCorrHigh_.size() < kernelCorr_.size()) kernelCorrHigh_.resize(kernelCorr_.size());
        if (corr >= kBitmapIds) {
            kernelCorrHigh_[proc].insert(corr);
            return;
        }
        auto& bits = kernelCorr_[proc];
        if ((corr >> 6) >= bits.size()) bits.resize(std::min<size_t>((corr >> 6) + 1 + bits.size() / 2, kBitmapIds >> 6), 0);
        bits[corr >> 6] |= uint64_t(1) << (corr & 63);
    }
    bool hasCorrelation(size_t proc, uint32_t corr) const {
        if (corr >= kBitmapIds) return proc < kernelCorrHigh_.size() && kernelCorrHigh_[proc].count(corr);
        const auto& bits = kernelCorr_[proc];
        return (corr >> 6) < bits.size() && (bits[corr >> 6] >> (corr & 63) & 1);
    }

    // A row's [start, end] is usable when both are integers within kMaxAbsTimeNs and end >= start:
    // text, NULL, REAL or wild values would give wrapped or negative durations downstream.
    static bool usableInterval(const Query& q, int startCol, int endCol) {
        if (!q.isInteger(startCol) || !q.isInteger(endCol)) return false;
        int64_t a = q.i64(startCol), b = q.i64(endCol);
        return a >= -kMaxAbsTimeNs && a <= kMaxAbsTimeNs && b >= a && b <= kMaxAbsTimeNs;
    }
    // device and stream ids: small non-negative integers
    static bool smallId(const Query& q, int col) { return q.isInteger(col) && q.i64(col) >= 0 && q.i64(col) <= INT32_MAX; }

    void warnSkipped(uint64_t count, const char* what, const std::string& table, const char* columns) {
        if (count == 0) return;
        p_.warnings.push_back(in_.path + ": " + std::to_string(count) + " " + what + " row" + (count == 1 ? "" : "s") +
                              " with an unusable " + columns + " (text, NULL, fractional, out of range, or ending "
                              "before it starts) skipped in " + table);
    }

    // A table without one of the columns read: an essential one makes the file unreadable, any
    // other is ignored with a warning.
    bool readable(const std::string& t, std::initializer_list<const char*> required, bool essential) {
        std::string missing;
        for (const char* c : required)
            if (!f_.columns(t).count(c)) missing += (missing.empty() ? "" : ", ") + std::string(c);
        if (missing.empty()) return true;
        std::string msg = in_.path + ": the " + t + " table has no " + missing + " column";
        if (essential) throw InputError(msg + ": not an export Skewscope can read");
        p_.warnings.push_back(msg + "; the table is ignored");
        return false;
    }

    void loadStrings() {
        readable("StringIds", {"id", "value"}, true);
        Query q(f_.db(), "SELECT id, value FROM StringIds", f_.path());
        uint64_t n = 0;
        while (q.step()) {
            int64_t id = q.i64(0);
            // ids are dense in real exports; a stray huge or negative id must not size the table
            if (id < 0 || id > (int64_t(1) << 24) + 4 * int64_t(n)) {
                sparseStr_[id] = p_.strings.intern(q.text(1));
            } else {
                if (size_t(id) >= strMap_.size()) strMap_.resize(size_t(id) + 1, kNoString);
                strMap_[size_t(id)] = p_.strings.intern(q.text(1));
            }
            if (++n % kProgressEvery == 0) prog_.add(kProgressEvery);
        }
        prog_.add(n % kProgressEvery);
    }

    void loadProcesses() {
        firstProc_ = int(p_.processes.size());
        if (!f_.hasTable("PROCESSES") || !readable("PROCESSES", {"globalPid"}, false)) return;
        Query q(f_.db(), "SELECT globalPid, " + f_.colOrNull("PROCESSES", "name") + " FROM PROCESSES", f_.path());
        while (q.step()) procNames_[uint64_t(q.i64(0))] = std::string(q.text(1));
    }

    void loadKernels() {
        const std::string t = "CUPTI_ACTIVITY_KIND_KERNEL";
        if (!f_.hasTable(t)) {
            p_.warnings.push_back(in_.path + ": no " + t + " table: the CUDA kernel trace was not captured (nsys profile --trace=cuda)");
            return;
        }
        readable(t, {"start", "end", "deviceId", "streamId"}, true);
        Query q(f_.db(),
                "SELECT start, end, deviceId, streamId, " + f_.colOrNull(t, "correlationId") + ", " +
                    f_.colOrNull(t, "globalPid") + ", " + f_.colOrNull(t, "demangledName") + ", " +
                    f_.colOrNull(t, "shortName") + " FROM " + t,
                f_.path());
        std::unordered_map<LaneKey, uint32_t, LaneKeyHash> index;
        LaneKey last{~0ull, -1, -1};
        uint32_t lastIdx = 0;
        uint64_t n = 0;
        const int64_t align = in_.alignNs;
        while (q.step()) {
            if (++n % kProgressEvery == 0) prog_.add(kProgressEvery);
            if (!usableInterval(q, 0, 1) || !smallId(q, 2) || !smallId(q, 3)) {
                ++skipped.kernels;
                continue;
            }
            LaneKey key{uint64_t(q.i64(5)), int32_t(q.i64(2)), int32_t(q.i64(3))};
            if (!(key == last)) {
                auto it = index.find(key);
                if (it == index.end()) {
                    it = index.emplace(key, uint32_t(lanes_.size())).first;
                    lanes_.push_back({key, {}});
                    lanes_.back().lane.stream = key.stream;
                    processIndex(key.globalPid);
                }
                last = key;
                lastIdx = it->second;
            }
            KernelLane& lane = lanes_[lastIdx].lane;
            StrId name = str(q.isNull(6) ? q.i64(7) : q.i64(6));
            if (name == kNoString && !q.isNull(7)) name = str(q.i64(7));
            lane.start.push_back(q.i64(0) + align);
            lane.end.push_back(q.i64(1) + align);
            lane.name.push_back(name);
            // an id that cannot be a correlation id joins nothing (kNoCorrelation matches no launch)
            uint32_t corr = kNoCorrelation;
            if (q.isInteger(4) && q.i64(4) >= 0 && q.i64(4) < int64_t(kNoCorrelation)) corr = uint32_t(q.i64(4));
            else if (!q.isNull(4)) ++skipped.kernelCorrelation;
            lane.correlationId.push_back(corr);
            if (name >= p_.nameOps.size()) p_.nameOps.resize(p_.strings.size(), CollOp::Count);
            CollOp& op = p_.nameOps[name];
            if (op == CollOp::Count) op = classifyKernelName(p_.strings.str(name));
            if (op != CollOp::NotNccl) ++lane.ncclKernels;
            // remember which correlation ids launched kernels, to keep only those launch rows
            if (corr != kNoCorrelation) markCorrelation(local(processIndex(key.globalPid)), corr);
        }
        prog_.add(n % kProgressEvery);
        in_.kernelRows = n;
        warnSkipped(skipped.kernels, "kernel", t, "start, end, device or stream");
        if (skipped.kernelCorrelation > 0)
            p_.warnings.push_back(in_.path + ": " + std::to_string(skipped.kernelCorrelation) + " kernel rows of " + t +
                                  " have an unusable correlation id (not a whole number from 0 to 2^32-2): they are "
                                  "kept but cannot be joined to their launch");
    }

    void loadRuntime() {
        const std::string t = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!f_.hasTable(t)) {
            if (in_.kernelRows > 0)
                p_.warnings.push_back(in_.path + ": no " + t + " table: kernels cannot be joined to their launches");
            return;
        }
        if (!readable(t, {"start", "end", "eventClass", "globalTid", "nameId"}, false)) return;
        Query q(f_.db(),
                "SELECT start, end, eventClass, globalTid, " + f_.colOrNull(t, "correlationId") + ", nameId FROM " + t,
                f_.path());
        uint64_t n = 0;
        const int64_t align = in_.alignNs;
        while (q.step()) {
            if (++n % kProgressEvery == 0) prog_.add(kProgressEvery);
            int64_t cls = q.i64(2);
            if (cls != 0 && cls != 1) continue;  // other classes (backtraces, ...) repeat correlation ids
            if (q.isNull(4)) continue;
            if (!usableInterval(q, 0, 1) || !q.isInteger(4) || q.i64(4) < 0 || q.i64(4) >= int64_t(kNoCorrelation)) {
                ++skipped.runtime;
                continue;
            }
            uint64_t gtid = uint64_t(q.i64(3));
            auto it = procIndex_.find(gtid & ~kTidMask);
            if (it == procIndex_.end()) continue;
            uint32_t corr = uint32_t(q.i64(4));
            if (!hasCorrelation(local(it->second), corr)) continue;
            Launches& l = p_.processes[size_t(it->second)].launches;
            l.correlationId.push_back(corr);
            l.start.push_back(q.i64(0) + align);
            l.end.push_back(q.i64(1) + align);
            l.name.push_back(str(q.i64(5)));
            l.tid.push_back(uint32_t(gtid & kTidMask));
        }
        prog_.add(n % kProgressEvery);
        in_.runtimeRows = n;
        warnSkipped(skipped.runtime, "launch", t, "start, end or correlation id");
        uint64_t duplicates = 0;
        for (int i = firstProc_; i < int(p_.processes.size()); ++i) {
            Launches& l = p_.processes[size_t(i)].launches;
            sortByCorrelation(l);
            duplicates += dropDuplicateLaunches(l);
        }
        if (duplicates > 0)
            p_.warnings.push_back(in_.path + ": " + std::to_string(duplicates) + " " + t +
                                  " rows (eventClass 0/1) repeat the process and correlation id of another launch row; "
                                  "kernels are joined to the first one read");
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

    static void sortByCorrelation(Launches& l) {
        if (std::is_sorted(l.correlationId.begin(), l.correlationId.end())) return;
        std::vector<uint32_t> perm(l.size());
        std::iota(perm.begin(), perm.end(), 0u);
        std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return l.correlationId[a] < l.correlationId[b]; });
        applyPermutation(perm, l.correlationId, l.start, l.end, l.name, l.tid);
    }

    void loadNvtx() {
        const std::string t = "NVTX_EVENTS";
        if (!f_.hasTable(t) || !readable(t, {"start", "end", "eventType", "globalTid", "text"}, false)) return;
        Query q(f_.db(),
                "SELECT start, end, eventType, globalTid, text, " + f_.colOrNull(t, "textId") + ", " +
                    f_.colOrNull(t, "domainId") + " FROM " + t,
                f_.path());
        uint64_t n = 0, ranges = 0;
        const int64_t align = in_.alignNs;
        while (q.step()) {
            if (++n % kProgressEvery == 0) prog_.add(kProgressEvery);
            int64_t type = q.i64(2);
            // 59/60: push/pop and start/end ranges; 70/71: the same from NVTX text extensions
            if (type != 59 && type != 60 && type != 70 && type != 71) continue;
            if (q.isNull(1)) continue;  // an unfinished range
            if (!usableInterval(q, 0, 1)) {
                ++skipped.nvtx;
                continue;
            }
            uint64_t gtid = uint64_t(q.i64(3));
            NvtxRanges& r = p_.processes[size_t(processIndex(gtid & ~kTidMask))].nvtx;
            r.start.push_back(q.i64(0) + align);
            r.end.push_back(q.i64(1) + align);
            r.tid.push_back(uint32_t(gtid & kTidMask));
            r.text.push_back(q.isNull(4) ? str(q.i64(5)) : p_.strings.intern(q.text(4)));
            r.domain.push_back(uint32_t(q.i64(6)));
            ++ranges;
        }
        prog_.add(n % kProgressEvery);
        in_.nvtxRanges = ranges;
        warnSkipped(skipped.nvtx, "NVTX range", t, "start or end");
        for (int i = firstProc_; i < int(p_.processes.size()); ++i) {
            NvtxRanges& r = p_.processes[size_t(i)].nvtx;
            sortByStart(r.start, r.end, r.tid, r.text, r.domain);
        }
    }

    void loadSync() {
        const std::string t = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
        if (!f_.hasTable(t) || !readable(t, {"start", "end", "deviceId", "streamId", "globalPid"}, false)) return;
        std::string type = f_.columns(t).count("syncType") ? "syncType" : f_.colOrNull(t, "deprecatedSyncType");
        Query q(f_.db(), "SELECT start, end, deviceId, streamId, globalPid, " + type + " FROM " + t, f_.path());
        uint64_t n = 0;
        const int64_t align = in_.alignNs;
        while (q.step()) {
            if (++n % kProgressEvery == 0) prog_.add(kProgressEvery);
            if (q.i64(5) != 2) continue;  // CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT
            if (!usableInterval(q, 0, 1) || !smallId(q, 2) || !smallId(q, 3)) {
                ++skipped.sync;
                continue;
            }
            StreamWaits& w = p_.processes[size_t(processIndex(uint64_t(q.i64(4))))].waits;
            w.start.push_back(q.i64(0) + align);
            w.end.push_back(q.i64(1) + align);
            w.device.push_back(int32_t(q.i64(2)));
            w.stream.push_back(int32_t(q.i64(3)));
        }
        prog_.add(n % kProgressEvery);
        in_.syncRows = n;
        warnSkipped(skipped.sync, "stream-wait", t, "start, end, device or stream");
        for (int i = firstProc_; i < int(p_.processes.size()); ++i) {
            StreamWaits& w = p_.processes[size_t(i)].waits;
            sortByStart(w.start, w.end, w.device, w.stream);
        }
    }

    void loadThreadNames() {
        for (int i = firstProc_; i < int(p_.processes.size()); ++i) {
            Process& pr = p_.processes[size_t(i)];
            if (auto it = procNames_.find(pr.globalPid); it != procNames_.end()) pr.name = it->second;
        }
        if (!f_.hasTable("ThreadNames") || !readable("ThreadNames", {"nameId", "globalTid"}, false)) return;
        Query q(f_.db(), "SELECT nameId, globalTid FROM ThreadNames", f_.path());
        while (q.step()) {
            uint64_t gtid = uint64_t(q.i64(1));
            auto it = procIndex_.find(gtid & ~kTidMask);
            if (it == procIndex_.end()) continue;
            p_.processes[size_t(it->second)].threadNames[uint32_t(gtid & kTidMask)] = str(q.i64(0));
        }
    }

    Profile& p_;
    int fi_;
    ExportFile& f_;
    InputFile& in_;
    Progress& prog_;
    std::vector<StrId> strMap_;
    std::unordered_map<uint64_t, std::string> procNames_;
    std::unordered_map<uint64_t, int> procIndex_;
    std::vector<std::vector<uint64_t>> kernelCorr_;  // per process of this file: bitmap of kernel correlation ids
    std::vector<std::unordered_set<uint32_t>> kernelCorrHigh_;  // ids past the bitmap's range (malformed files)
    std::unordered_map<int64_t, StrId> sparseStr_;
    int firstProc_ = 0;
    uint64_t lastGpid_ = ~0ull;
    int lastProc_ = -1;
    std::vector<LaneBuild> lanes_;
    struct {
        uint64_t kernels = 0, kernelCorrelation = 0, runtime = 0, nvtx = 0, sync = 0;
    } skipped;
};

// Moves one file's part into the profile: its strings are interned into the profile's table and
// every string id of the part is rewritten.
void mergePart(Profile& p, Profile&& part, std::vector<LaneBuild>& lanes) {
    std::vector<StrId> map;
    bool identity = p.strings.size() == 1;  // the first part: take its table as it is
    if (identity) {
        p.strings = std::move(part.strings);
    } else {
        map.resize(part.strings.size());
        for (size_t i = 0; i < map.size(); ++i) map[i] = p.strings.intern(part.strings.str(StrId(i)));
    }
    auto remap = [&](std::vector<StrId>& v) {
        if (!identity)
            for (auto& id : v) id = map[id];
    };
    if (p.nameOps.size() < p.strings.size()) p.nameOps.resize(p.strings.size(), CollOp::Count);
    for (size_t i = 0; i < part.nameOps.size(); ++i)
        if (part.nameOps[i] != CollOp::Count) p.nameOps[identity ? i : map[i]] = part.nameOps[i];
    for (auto& pr : part.processes) {
        remap(pr.launches.name);
        remap(pr.nvtx.text);
        if (!identity)
            for (auto& [tid, name] : pr.threadNames) name = map[name];
        p.processes.push_back(std::move(pr));
    }
    for (auto& lb : lanes) remap(lb.lane.name);
    for (auto& w : part.warnings) p.warnings.push_back(std::move(w));
}

struct RankBuild {
    int file;
    uint64_t globalPid;
    int device;
    std::vector<KernelLane> lanes;
};

}  // namespace

std::string fileStem(const std::string& path) {
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    if (auto dot = base.rfind('.'); dot != std::string::npos && dot > 0) base.resize(dot);
    return base;
}

static std::string baseName(const std::string& path) {
    return path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
}

void assignRankLabels(Profile& p) {
    std::set<int> files;
    std::set<int> devices;
    std::vector<int> ranksPerFile(p.inputs.size(), 0);
    for (const auto& r : p.ranks) {
        files.insert(r.file);
        devices.insert(r.device);
        ++ranksPerFile[size_t(r.file)];
    }
    bool oneFileUniqueDevices = files.size() == 1 && devices.size() == p.ranks.size();
    bool oneRankPerFile = std::all_of(p.ranks.begin(), p.ranks.end(), [&](const Rank& r) { return ranksPerFile[size_t(r.file)] == 1; });
    for (auto& r : p.ranks) {
        std::string stem = fileStem(p.inputs[size_t(r.file)].path);
        if (oneFileUniqueDevices) r.label = "dev " + std::to_string(r.device);
        else if (oneRankPerFile) r.label = stem;
        else r.label = stem + "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device);
    }
    // Distinct files with the same stem (a/rank0.sqlite, b/rank0.sqlite): keep labels unique.
    std::set<std::string> seen;
    for (auto& r : p.ranks) {
        if (seen.insert(r.label).second) continue;
        r.label = p.inputs[size_t(r.file)].path + (oneRankPerFile ? "" : "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device));
        seen.insert(r.label);
    }
}

std::string describeMissingDevices(const std::vector<int>& present) {
    std::set<int> devs(present.begin(), present.end());
    if (devs.size() < 2) return {};
    // ranges between the ids present: their number is bounded by the ranks, never by an id's value
    std::vector<std::pair<int64_t, int64_t>> gaps;
    uint64_t missing = 0;
    int64_t expect = 0;
    for (int d : devs) {
        if (d > expect) {
            gaps.emplace_back(expect, d - 1);
            missing += uint64_t(d - expect);
        }
        expect = int64_t(d) + 1;
    }
    if (gaps.empty()) return {};
    std::string list;
    for (size_t i = 0; i < gaps.size() && i < 4; ++i) {
        auto [a, b] = gaps[i];
        list += (list.empty() ? "" : ", ") + std::to_string(a) + (a == b ? "" : (b == a + 1 ? ", " : "-") + std::to_string(b));
    }
    if (gaps.size() > 4) list += ", ...";
    int top = *devs.rbegin();
    if (top >= 1024)  // no node has that many GPUs: an odd id, not uncaptured devices
        return "device ids up to " + std::to_string(top) + " (" + std::to_string(missing) +
               " ids in between without kernels): unusual device ids, not checked for missing devices";
    return "no kernels on device(s) " + list + " of the node's " +
           std::to_string(top + 1) + " (not captured, or idle): collectives there lack those ranks";
}

namespace {

// A node file whose devices skip an id (8 GPUs, device 0 not captured): say so, since the
// collectives then lack a rank that took part in them.
void warnMissingDevices(Profile& p) {
    for (size_t fi = 0; fi < p.inputs.size(); ++fi) {
        std::vector<int> devs;
        for (const auto& r : p.ranks)
            if (r.file == int(fi)) devs.push_back(r.device);
        std::string w = describeMissingDevices(devs);
        if (w.empty()) continue;
        p.warnings.push_back(p.inputs[fi].path + ": " + w);
        if (w.rfind("no kernels on", 0) == 0) p.inputs[fi].missingDevices = w;
    }
}

}  // namespace

Profile loadProfile(const std::vector<std::string>& paths, const LoadOptions& options) {
    Profile p;
    // exports converted from .nsys-rep into a private temp folder: removed once read (or on error)
    struct Converted {
        std::vector<std::string> paths;
        ~Converted() {
            std::error_code ec;
            for (const auto& c : paths) std::filesystem::remove_all(std::filesystem::path(c).parent_path(), ec);
        }
    } converted;
    std::vector<std::unique_ptr<ExportFile>> files;  // closed before `converted` removes anything
    double totalRows = 0;
    std::vector<std::pair<dev_t, ino_t>> seen;
    for (const auto& path : paths) {
        // the same file twice (or a symlink to one already given) is read once
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) {
            std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
            auto dup = std::find(seen.begin(), seen.end(), id);
            if (dup != seen.end()) {
                const std::string& first = p.inputs[size_t(dup - seen.begin())].path;
                p.warnings.push_back(path == first ? path + " is given twice: it is read once"
                                                   : path + " is the same file as " + first + ": it is read once");
                continue;
            }
            seen.push_back(id);
        } else {
            seen.push_back({0, 0});
        }
        std::string resolved = resolveInput(path);
        if (resolved != path) converted.paths.push_back(resolved);
        files.push_back(std::make_unique<ExportFile>(resolved));
        ExportFile& f = *files.back();
        InputFile in;
        in.path = path;
        in.nsysVersion = f.meta("EXPORT_PRODUCT_VERSION");
        in.schemaVersion = f.meta("EXPORT_SCHEMA_VERSION");
        in.hasSessionStart = f.hasSessionStart();
        in.sessionStartUtcNs = f.sessionStartUtcNs();
        in.tables = f.tables();
        std::sort(in.tables.begin(), in.tables.end());
        for (const char* t : kCaptureFeatureTables)
            if (f.hasTable(t)) in.featureRows[t] = f.estimatedRows(t);
        p.inputs.push_back(std::move(in));
        for (const char* t : {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
                              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"})
            totalRows += double(f.estimatedRows(t));
    }
    // Aligned base: ns since the earliest session start among the files.
    int64_t minUtc = 0;
    bool any = false;
    for (const auto& in : p.inputs)
        if (in.hasSessionStart && (!any || in.sessionStartUtcNs < minUtc)) minUtc = in.sessionStartUtcNs, any = true;
    for (auto& in : p.inputs) {
        if (in.hasSessionStart) in.alignNs = in.sessionStartUtcNs - minUtc;
        else if (p.inputs.size() > 1)
            p.warnings.push_back(in.path + ": no session start time (TARGET_INFO_SESSION_START_TIME); its clock is not aligned with the other files");
    }

    // Files are read in parallel, one connection per file and at most one file per core, each into a
    // part of its own; the parts are merged in file order, so the result does not depend on timing.
    Progress prog(totalRows);
    std::vector<Profile> parts(files.size());
    std::vector<std::vector<LaneBuild>> partLanes(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable done;
    size_t finished = 0;
    auto worker = [&] {
        for (size_t fi; (fi = next++) < files.size();) {
            try {
                parts[fi].inputs = p.inputs;
                FileLoader fl(parts[fi], int(fi), *files[fi], prog);
                fl.load();
                partLanes[fi] = std::move(fl.lanes());
            } catch (...) {
                errors[fi] = std::current_exception();
                prog.cancel = true;
            }
            files[fi].reset();  // close the file as soon as it is read
            std::lock_guard<std::mutex> lock(mutex);
            ++finished;
            done.notify_all();
        }
    };
    if (options.progress && !options.progress("reading", 0.0)) throw Cancelled();
    size_t nThreads = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("SKEWSCOPE_LOAD_THREADS"); env && std::atoi(env) > 0) nThreads = size_t(std::atoi(env));
    nThreads = std::min(nThreads, files.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < nThreads; ++i) threads.emplace_back(worker);
    {
        std::unique_lock<std::mutex> lock(mutex);
        while (finished < files.size()) {
            done.wait_for(lock, std::chrono::milliseconds(30));
            lock.unlock();
            if (options.progress && !options.progress("reading", prog.fraction())) prog.cancel = true;
            lock.lock();
        }
    }
    for (auto& t : threads) t.join();
    // the first real error in file order; a cancellation only when nothing else went wrong
    std::exception_ptr cancelled;
    for (auto& e : errors) {
        if (!e) continue;
        try {
            std::rethrow_exception(e);
        } catch (const Cancelled&) {
            cancelled = e;
        } catch (...) {
            throw;
        }
    }
    if (cancelled || prog.cancel) throw Cancelled();

    std::vector<RankBuild> builds;
    for (size_t fi = 0; fi < files.size(); ++fi) {
        InputFile& in = p.inputs[fi];
        const InputFile& read = parts[fi].inputs[fi];
        in.kernelRows = read.kernelRows;
        in.runtimeRows = read.runtimeRows;
        in.nvtxRanges = read.nvtxRanges;
        in.syncRows = read.syncRows;
        mergePart(p, std::move(parts[fi]), partLanes[fi]);
        for (auto& lb : partLanes[fi]) {
            auto it = std::find_if(builds.begin(), builds.end(), [&](const RankBuild& b) {
                return b.file == int(fi) && b.globalPid == lb.key.globalPid && b.device == lb.key.device;
            });
            if (it == builds.end()) {
                builds.push_back({int(fi), lb.key.globalPid, lb.key.device, {}});
                it = builds.end() - 1;
            }
            it->lanes.push_back(std::move(lb.lane));
        }
    }

    std::sort(builds.begin(), builds.end(), [&](const RankBuild& a, const RankBuild& b) {
        const auto& pa = p.inputs[size_t(a.file)].path;
        const auto& pb = p.inputs[size_t(b.file)].path;
        std::string ba = baseName(pa), bb = baseName(pb);
        if (ba != bb) return ba < bb;
        if (pa != pb) return pa < pb;
        if (a.device != b.device) return a.device < b.device;
        return pidOf(a.globalPid) < pidOf(b.globalPid);
    });
    bool anyKernel = false;
    for (auto& b : builds) {
        Rank r;
        r.id = int(p.ranks.size());
        r.file = b.file;
        r.device = b.device;
        r.pid = pidOf(b.globalPid);
        for (size_t i = 0; i < p.processes.size(); ++i)
            if (p.processes[i].file == b.file && p.processes[i].globalPid == b.globalPid) r.process = int(i);
        r.lanes = std::move(b.lanes);
        std::sort(r.lanes.begin(), r.lanes.end(), [](const KernelLane& x, const KernelLane& y) { return x.stream < y.stream; });
        for (auto& l : r.lanes) {
            sortByStart(l.start, l.end, l.name, l.correlationId);
            l.start.shrink_to_fit();
            l.end.shrink_to_fit();
            l.name.shrink_to_fit();
            l.correlationId.shrink_to_fit();
            buildLaneIndex(l);
            if (l.size() == 0) continue;
            int64_t lo = l.start.front();
            int64_t hi = *std::max_element(l.end.begin(), l.end.end());
            if (!anyKernel || lo < p.timeStart) p.timeStart = lo;
            if (!anyKernel || hi > p.timeEnd) p.timeEnd = hi;
            anyKernel = true;
        }
        p.ranks.push_back(std::move(r));
    }
    for (auto& pr : p.processes) {
        auto& l = pr.launches;
        l.correlationId.shrink_to_fit();
        l.start.shrink_to_fit();
        l.end.shrink_to_fit();
        l.name.shrink_to_fit();
        l.tid.shrink_to_fit();
    }
    if (p.nameOps.size() < p.strings.size()) p.nameOps.resize(p.strings.size(), CollOp::NotNccl);
    for (auto& op : p.nameOps)
        if (op == CollOp::Count) op = CollOp::NotNccl;
    assignRankLabels(p);
    if (options.progress && !options.progress("done", 1.0)) throw Cancelled();
    warnMissingDevices(p);
    // the growth of the column vectors left freed blocks behind: give them back to the system
    malloc_trim(0);
    return p;
}

}  // namespace skew
