#include "analysis/whatif_schedule.h"

#include <algorithm>
#include <memory>

#include "analysis/step_pattern.h"
#include "analysis/whatif.h"
#include "analysis/whatif_medians.h"
#include "analysis/whatif_replay.h"
#include "analysis/whatif_steps.h"
#include "util/errors.h"

namespace skew {

bool IdealSchedule::at(int rank, int lane, uint32_t k, int64_t& s, int64_t& e) const {
    if (empty() || rank < 0 || size_t(rank) + 1 >= kernels.firstLane.size()) return false;
    if (lane < 0 || kernels.firstLane[size_t(rank)] + uint32_t(lane) >= kernels.firstLane[size_t(rank) + 1]) return false;
    const uint32_t id = kernels.id(rank, lane, k);
    if (id == kMissing) return false;
    s = start[id], e = end[id];
    return true;
}

std::pair<uint32_t, uint32_t> IdealSchedule::kernelsIn(int rank, int lane, double a, double b) const {
    if (empty() || rank < 0 || size_t(rank) + 1 >= kernels.firstLane.size()) return {0, 0};
    if (lane < 0 || kernels.firstLane[size_t(rank)] + uint32_t(lane) >= kernels.firstLane[size_t(rank) + 1]) return {0, 0};
    const ReplayLane& l = kernels.lane(rank, lane);
    const auto e0 = end.begin() + l.base, e1 = e0 + (l.hi - l.lo);
    const auto s0 = start.begin() + l.base, s1 = s0 + (l.hi - l.lo);
    const uint32_t first = uint32_t(std::partition_point(e0, e1, [&](int64_t e) { return double(e) <= a; }) - e0);
    const uint32_t last = uint32_t(std::partition_point(s0, s1, [&](int64_t s) { return double(s) < b; }) - s0);
    return {l.lo + first, l.lo + std::max(first, last)};
}

IdealSchedule idealSchedule(const Profile& p, const Analysis& a, const std::function<bool()>& cancelled) {
    IdealSchedule out;
    auto stop = [&] {
        if (cancelled && cancelled()) throw Cancelled();
    };
    if (p.launchCount() == 0) {
        out.why = "the exports have no launch rows (CUDA API trace)";
        return out;
    }
    ReplayKernels k = windowKernels(p, a);
    if (k.count == 0) {
        out.why = "no kernels in the window";
        return out;
    }
    // none when the what-if was left out for want of memory, or when this replay (its starts and
    // ends kept too) would not fit
    out.why = a.whatIf.notComputed.empty() ? replayMemoryProblem(a, k.count, false, 2 * sizeof(int64_t), memoryBudget("SKEWSCOPE_WHATIF_MAX_MB"))
                                           : a.whatIf.notComputed;
    if (!out.why.empty()) return out;
    // the pattern analyze() compiled (an Analysis made some other way: compiled here)
    const std::shared_ptr<const StepPattern> pattern =
        a.options.stepPattern ? a.options.stepPattern : std::make_shared<const StepPattern>(a.options.stepRegex);
    KernelSteps steps = kernelSteps(p, a, k, *pattern);
    if (steps.count == 0) {
        out.why = "no training steps (no NVTX step ranges, no repeating collective sequence)";
        return out;
    }
    stop();
    std::vector<int64_t> median = medianDurations(p, a, k, steps.step, steps.count);
    stop();
    ReplayGraph g = buildReplayGraph(p, a, k, std::move(steps.step), steps.count, std::move(median), kCachedEnds, stop);
    stop();
    ReplayInputs ideal = capturedInputs(p.ranks.size());
    ideal.measureError = false;
    std::fill(ideal.median.begin(), ideal.median.end(), uint8_t(1));
    std::fill(ideal.dropLaunch.begin(), ideal.dropLaunch.end(), uint8_t(1));
    out.start.resize(g.size());
    out.end.resize(g.size());
    replayRecorded(g, ideal, out.start.data(), out.end.data());
    out.kernels = std::move(k);
    return out;
}

}  // namespace skew
