#pragma once
// `skewscope export --format perfetto`: the run as Chrome trace event JSON, which the Perfetto UI
// and chrome://tracing open (docs/analysis.md, Hand-off to Perfetto). One process per rank, one
// thread per stream, a complete event per kernel (NCCL ones with their collective's facts as args),
// a flow from each late arriver's launch call to its kernel, the big collectives as instant
// markers, and the what-if's ideal schedule as a second set of processes. Written as it goes: memory stays at a few runs of events, whatever the run's size.

#include <cstddef>
#include <functional>
#include <string_view>

#include "analysis/analysis.h"
#include "analysis/whatif_schedule.h"
#include "model/profile.h"

namespace skew {

// The trace, handed to `sink` in pieces of about `chunk` bytes. Kernels are those of the
// analysis's window (all of them without --trim). `ideal` (analysis/whatif_schedule.h), when given
// and not empty, adds each rank's kernels where the ideal replay puts them; an empty one's `why` is
// said in the trace's otherData.
void writePerfettoTrace(const Profile& p, const Analysis& a, const IdealSchedule* ideal,
                        const std::function<void(std::string_view)>& sink, size_t chunk = size_t(1) << 20);

}  // namespace skew
