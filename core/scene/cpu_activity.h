#pragma once
// What the late arriver's launching thread did while the other ranks had already launched: the
// CPU row of the collective view and the "CPU before the launch" section of Details, for a
// collective whose late arrival is a late CPU launch (docs/analysis.md, Run views: CPU row).
//
// The window runs from the first launch call's end among the other members to the late member's
// own launch call's end: the time the late rank's CPU should have spent launching and did not.
// In it, the thread's CUDA API calls, OS runtime calls and CPU samples come from its export
// (nsys/thread_activity.h, read on demand: the profile keeps only kernels' launches) and its NVTX
// ranges from the profile. Times on the aligned base.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/profile.h"
#include "nsys/thread_activity.h"

namespace skew {

struct CpuWindow {
    bool present = false;
    std::string why;          // why there is none (when !present)
    int collective = -1, rank = -1;
    uint32_t tid = 0;
    uint64_t globalTid = 0;
    std::string threadName;   // "" when the export names none
    std::string exportPath;   // the export the rank was read from (a summary's: the path it names)
    int64_t fileToAligned = 0;  // aligned time = the export's time + this
    int64_t fromNs = 0, toNs = 0;  // aligned
    int64_t launchStartNs = 0;     // aligned: the late launch call's start (within the window's end)
};

CpuWindow cpuWindowFor(const Profile& p, const Analysis& a, int collectiveIndex);

enum class CpuKind : uint8_t { CudaApi, OsRuntime, Nvtx, Sample };
const char* cpuKindLabel(CpuKind k);  // "CUDA API", "OS runtime", "NVTX", "CPU samples"

struct CpuItem {
    CpuKind kind = CpuKind::CudaApi;
    int64_t start = 0, end = 0;  // aligned, clipped to the window (a sample: end == start)
    std::string name;
};

struct CpuTotal {
    CpuKind kind = CpuKind::CudaApi;
    std::string name;
    int64_t ns = 0;      // time in the window (samples: 0)
    uint32_t count = 0;  // calls, ranges or samples
};

struct CpuActivity {
    CpuWindow window;
    bool exportRead = false;       // the export's events are in (else NVTX only, and `note` says why)
    std::vector<CpuItem> items;    // by kind (CUDA API, OS runtime, NVTX, samples), each in start order
    std::vector<CpuTotal> totals;  // per kind and name: spans by time, then samples by count, largest first
    uint32_t samples = 0;          // CPU samples in the window
    std::vector<std::string> notes;  // what the export lacks, an unreadable export, a cut list
};

// The window's activity: `fromExport` is what readThreadActivity gave for the window (on the
// export's clock), null when it could not be read (`unread` then says why, e.g. the export is not
// reachable from a summary).
CpuActivity cpuActivity(const Profile& p, const CpuWindow& w, const ThreadActivity* fromExport, const std::string& unread = {});

// The export's window of `w`: [from, to) on the export's own clock.
inline int64_t exportFrom(const CpuWindow& w) { return w.fromNs - w.fileToAligned; }
inline int64_t exportTo(const CpuWindow& w) { return w.toNs - w.fileToAligned; }

// Reads the export and builds the activity: cpuActivity with what readThreadActivity gave, or with
// the reason it could not (an export that is gone or unreadable is said, never thrown).
CpuActivity readCpuActivity(const Profile& p, const CpuWindow& w, const std::atomic<bool>* cancel = nullptr);

// The Details section: a heading line with the thread and the window, then one line per total
// (at most `maxLines`), then the notes.
std::string cpuActivityText(const CpuActivity& c, size_t maxLines = 8);

}  // namespace skew
