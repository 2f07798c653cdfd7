#pragma once
// The in-memory profile: everything the analysis and the viewer need from one or several exports,
// in flat columnar arrays (no string per event; names are ids into one StringTable).
// Times are int64 ns on the aligned time base (see docs/analysis.md, Inputs).

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/columns.h"
#include "nsys/nccl_names.h"
#include "util/file_identity.h"

namespace skew {

// Times read from an export are kept only within +-kMaxAbsTimeNs (about 417 days) of the file's
// origin; with session starts bounded too (kMaxUtcNs), aligned times, their differences and the
// clock shifts stay far from int64 overflow.
constexpr int64_t kMaxAbsTimeNs = int64_t(1) << 55;

using StrId = uint32_t;
constexpr StrId kNoString = 0;  // id 0 is always the empty string

class StringTable {
public:
    StringTable() { intern(""); }
    // A copy gets its own index: the views of the original's index point into the original.
    StringTable(const StringTable& o);
    StringTable& operator=(const StringTable& o);
    StringTable(StringTable&&) = default;  // the deque's elements stay where they are
    StringTable& operator=(StringTable&&) = default;
    StrId intern(std::string_view s);
    const std::string& str(StrId id) const { return strings_[id]; }
    size_t size() const { return strings_.size(); }

private:
    std::deque<std::string> strings_;  // deque: elements never move, so the views stay valid
    std::unordered_map<std::string_view, StrId> index_;
};

// Correlation id of a kernel whose row had none usable: matches no launch row.
constexpr uint32_t kNoCorrelation = 0xFFFFFFFFu;

// One rank's kernels on one stream, sorted by (start, end), each with the CUDA runtime/driver
// call that launched it (the eventClass 0/1 row of its process with its correlation id). A kernel
// is its start, its duration (32 bits where the lane's fit), its name (a 16-bit code: a stream runs
// few distinct kernels), its correlation id, and its launch as an offset before its start, a
// duration and two 16-bit codes (API, thread): 30.5 bytes with the interval index (model/columns.h).
struct KernelLane {
    int32_t stream = 0;
    std::vector<int64_t> start;
    Durations duration;
    CodedIds name;  // StrId of each kernel's name
    std::vector<uint32_t> correlationId;
    // the launch (joinLaunches); launchApi is kNoString for a kernel without a launch row
    Offsets launchLead;        // kernel start - the call's end (negative: the call returned after the kernel started)
    Durations launchDuration;  // of the call
    CodedIds launchApi;        // StrId of the API (cuLaunchKernelEx, cudaLaunchKernel, ...)
    CodedIds launchTid;        // the launching thread
    std::vector<int64_t> blockMaxEnd;  // interval index (model/lane_index.h): prefix max of ends per block
    uint32_t ncclKernels = 0;

    size_t size() const { return start.size(); }
    int64_t end(size_t i) const { return start[i] + duration[i]; }
    bool hasLaunch(size_t i) const { return i < launchApi.size() && launchApi[i] != kNoString; }  // (a lane built without launches has none)
    int64_t launchEnd(size_t i) const { return start[i] - launchLead[i]; }
    int64_t launchStart(size_t i) const { return launchEnd(i) - launchDuration[i]; }
    void push_back(int64_t kernelStart, int64_t kernelEnd, StrId kernelName, uint32_t corr) {
        start.push_back(kernelStart);
        duration.push_back(kernelEnd - kernelStart);
        name.push_back(kernelName);
        correlationId.push_back(corr);
    }
    void reserve(size_t n) { start.reserve(n), duration.reserve(n), name.reserve(n), correlationId.reserve(n); }
    size_t bytes() const;
};

// Launch calls as read from an export (eventClass 0/1 rows of launch APIs), sorted by correlation
// id, until they are joined to the kernels they launched; the model keeps each kernel's launch in
// its lane. 20 bytes a row while they wait.
struct Launches {
    std::vector<uint32_t> correlationId;
    std::vector<int64_t> end;
    Durations duration;
    CodedIds name;  // StrId of the API
    CodedIds tid;

    size_t size() const { return correlationId.size(); }
    int64_t start(size_t i) const { return end[i] - duration[i]; }
    void push_back(uint32_t corr, int64_t apiStart, int64_t apiEnd, StrId api, uint32_t thread) {
        correlationId.push_back(corr);
        end.push_back(apiEnd);
        duration.push_back(apiEnd - apiStart);
        name.push_back(api);
        tid.push_back(thread);
    }
    void reserve(size_t n) { correlationId.reserve(n), end.reserve(n), duration.reserve(n), name.reserve(n), tid.reserve(n); }
};

// Fills the lane's launch columns from `rows` (one process's launch rows, sorted by correlation id,
// ties in read order): each kernel gets the first row of its correlation id, or none. `used`, when
// given (one flag per row), marks the rows that launched a kernel.
void joinLaunches(const Launches& rows, KernelLane& lane, std::vector<bool>* used = nullptr);

// NVTX push/pop and start/end ranges of one process, sorted by (start, end): 16 bytes a range
// where durations fit 32 bits and threads and texts are few (model/columns.h).
struct NvtxRanges {
    std::vector<int64_t> start;
    Durations duration;
    CodedIds tid;
    CodedIds text;  // StrId

    size_t size() const { return start.size(); }
    int64_t end(size_t i) const { return start[i] + duration[i]; }
    void push_back(int64_t s, int64_t e, uint32_t thread, StrId t) {
        start.push_back(s), duration.push_back(e - s), tid.push_back(thread), text.push_back(t);
    }
    void reserve(size_t n) { start.reserve(n), duration.reserve(n), tid.reserve(n), text.reserve(n); }
};

// Stream-wait synchronization records (syncType 2) of one process, sorted by (start, end): 16
// bytes a record.
struct StreamWaits {
    std::vector<int64_t> start;
    Durations duration;
    CodedIds deviceIds, streamIds;  // (ids 0 to 2^31-1)
    std::vector<int64_t> blockMaxEnd;  // interval index (model/lane_index.h), as a lane's

    size_t size() const { return start.size(); }
    int64_t end(size_t i) const { return start[i] + duration[i]; }
    int32_t device(size_t i) const { return int32_t(deviceIds[i]); }
    int32_t stream(size_t i) const { return int32_t(streamIds[i]); }
    void push_back(int64_t s, int64_t e, int32_t dev, int32_t str) {
        start.push_back(s), duration.push_back(e - s), deviceIds.push_back(uint32_t(dev)), streamIds.push_back(uint32_t(str));
    }
    void reserve(size_t n) { start.reserve(n), duration.reserve(n), deviceIds.reserve(n), streamIds.reserve(n); }
};

struct Process {
    int file = 0;
    uint64_t globalPid = 0;
    uint32_t pid = 0;
    std::string name;
    NvtxRanges nvtx;
    StreamWaits waits;
    std::unordered_map<uint32_t, StrId> threadNames;  // tid -> name
};

// Adds `off` to every time of a lane (kernels and their interval index) or of a process (its
// NVTX ranges and stream waits; launches move with their kernels): putting a file on the aligned
// base, clock refinement.
void shiftTimes(KernelLane& lane, int64_t off);
void shiftTimes(Process& process, int64_t off);

// One GPU timeline: (file, process, device).
struct Rank {
    int id = 0;
    int file = 0;
    int process = 0;  // index into Profile::processes
    uint32_t pid = 0;
    int device = 0;
    std::string label;
    std::vector<KernelLane> lanes;  // sorted by stream id
    int64_t clockOffsetNs = 0;      // refinement applied on top of the session alignment

    uint64_t kernelCount() const;
    uint64_t ncclKernelCount() const;
};

// Tables whose rows say that a capture feature was on: GPU metrics, CPU sampling, context switches.
inline const char* const kCaptureFeatureTables[] = {"GPU_METRICS", "COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "SCHED_EVENTS"};

struct InputFile {
    std::string path;
    FileIdentity identity;
    bool fromSnapshot = false;            // read from the profile cache or a summary, not from the export
    std::string summaryPath;              // the summary it was read from (model/summary_source.h), empty when none
    std::vector<std::string> readWarnings;  // what reading this file warned about (kept with its snapshot)
    std::string nsysVersion;
    std::string schemaVersion;
    bool hasSessionStart = false;
    int64_t sessionStartUtcNs = 0;
    int64_t alignNs = 0;  // added to every time of this file to put it on the aligned base
    std::vector<std::string> tables;
    uint64_t kernelRows = 0, runtimeRows = 0, nvtxRanges = 0, syncRows = 0;
    std::string missingDevices;  // "no kernels on device(s) 0 of the node's 8 ...", empty when none is missing
    // rows (max rowid) of tables that tell which capture features were on (kCaptureFeatureTables)
    std::map<std::string, int64_t> featureRows;
    bool hasTable(const std::string& t) const;
    int64_t rowsOf(const std::string& t) const;  // 0 when absent or not counted
};

struct Profile {
    std::vector<InputFile> inputs;
    std::vector<Process> processes;
    std::vector<Rank> ranks;
    StringTable strings;
    std::vector<std::string> warnings;
    int64_t timeStart = 0, timeEnd = 0;  // over all kernels, aligned; 0/0 without kernels

    // The op a kernel name says (NotNccl, or Unknown for an NCCL kernel whose name does not tell;
    // analysis/grouping's KernelOps resolves those through the NVTX range around the launch).
    CollOp opOfName(StrId name) const { return name < nameOps.size() ? nameOps[name] : CollOp::NotNccl; }
    std::vector<CollOp> nameOps;  // per string id used as a kernel name

    uint64_t kernelCount() const;
    uint64_t launchCount() const;  // kernels joined to their launch call
    size_t residentBytes() const;  // kernel lanes with their launches
};

}  // namespace skew
