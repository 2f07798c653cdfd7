#pragma once
// What one CPU thread did in a time window, read from its export when asked (the profile keeps only
// the launch calls of kernels): its CUDA API calls (runtime and driver rows, eventClass 0/1), its OS
// runtime calls (OSRT_API, outermost calls only: nestingLevel 0) and its CPU samples
// (COMPOSITE_EVENTS, each with the function on top of its call stack from SAMPLING_CALLCHAINS).
// Used to explain a late CPU launch (scene/cpu_activity.h). Times on the export's own clock. The
// exports have no index on time, so each table is scanned once: seconds on an export of millions of
// rows, which is why the viewer asks for it off its GUI thread and a cancel stops the scan.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace skew {

struct CpuEvent {
    enum Kind : uint8_t { CudaApi, OsRuntime, Sample };
    Kind kind = CudaApi;
    int64_t start = 0, end = 0;  // a sample: end == start
    std::string name;            // the API or function ("" when the export has no name for it)
};

struct ThreadActivity {
    std::vector<CpuEvent> events;  // CUDA API calls, then OS runtime calls, then samples, each in start order
    bool hasCudaApi = false, hasOsRuntime = false, hasSamples = false;  // the export has the table
    bool truncated = false;        // more than kMaxEvents in the window: the first ones only
};

constexpr size_t kMaxThreadEvents = 200'000;

// The events of thread `globalTid` that overlap [from, to) (samples: taken in it). Throws
// InputError when the export cannot be read; returns what was read so far when `cancel` is set.
ThreadActivity readThreadActivity(const std::string& exportPath, uint64_t globalTid, int64_t from, int64_t to,
                                  const std::atomic<bool>* cancel = nullptr);

// "cudaStreamSynchronize_v3020" -> "cudaStreamSynchronize": the API's name without the version
// suffix CUPTI gives runtime calls.
std::string apiDisplayName(const std::string& name);

}  // namespace skew
