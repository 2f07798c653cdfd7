#include "analysis/why.h"

#include <algorithm>

#include "model/lane_index.h"

namespace skew {

WhyFinder::WhyFinder(const Profile& p)
    : p_(p), gemm_(p.strings), predHints_(p.ranks.size()) {
    for (size_t r = 0; r < p.ranks.size(); ++r) predHints_[r].assign(p.ranks[r].lanes.size(), 0);
}

void WhyFinder::explain(const Group& g, Collective& c) {
    const size_t s = size_t(c.lateSlot);
    const GroupSlot& gl = g.lanes[s];
    const Rank& r = p_.ranks[size_t(gl.rank)];
    const KernelLane& kl = r.lanes[size_t(gl.lane)];
    const uint32_t k = g.cells[size_t(c.index - 1) * g.width() + s];
    const int64_t start = kl.start[k];
    const Process& pr = p_.processes[size_t(r.process)];
    c.latenessNs = start - c.minStart;

    // the launch, joined to the kernel when loading (process + correlation id)
    c.launched = kl.hasLaunch(k);
    if (c.launched) {
        int64_t apiEnd = kl.launchEnd(k);
        c.launchToStartNs = start - apiEnd;
        c.cpuNs = std::clamp<int64_t>(apiEnd - c.minStart, 0, c.latenessNs);
        c.gpuNs = c.latenessNs - c.cpuNs;
    } else {
        c.gpuNs = c.latenessNs;
    }

    // the predecessor: on every lane of the rank, the latest end in the window; ties prefer another stream
    auto& hints = predHints_[size_t(gl.rank)];
    int64_t bestEnd = 0;
    for (size_t li = 0; li < r.lanes.size(); ++li) {
        const KernelLane& l = r.lanes[li];
        if (l.size() == 0) continue;
        int64_t i = latestEndIn(l, start - kPredBeforeNs, start + kPredAfterNs, int(li) == gl.lane ? int64_t(k) : -1, &hints[li]);
        if (i < 0) continue;
        const int64_t e = l.end(size_t(i));
        const bool sameStream = int(li) == gl.lane;
        if (c.predLane < 0 || e > bestEnd || (e == bestEnd && c.predSameStream && !sameStream)) {
            bestEnd = e;
            c.predRank = gl.rank;
            c.predLane = int(li);
            c.predKernel = uint32_t(i);
            c.predSameStream = sameStream;
        }
    }
    if (c.predLane >= 0) {
        const KernelLane& pl = r.lanes[size_t(c.predLane)];
        c.predGapNs = start - pl.end(c.predKernel);
        c.predIsGemm = gemm_(pl.name[c.predKernel]);
    }

    // stream-wait records of the rank's device on the NCCL kernel's stream that end in [start - 1 ms,
    // start + 2 us] (kWaitWindowNs, kPredAfterNs): evidence of a GPU dependency. All are counted,
    // the latest kept; found through the waits' interval index
    const StreamWaits& w = pr.waits;
    forEachEndingIn(w, start - kWaitWindowNs, start + kPredAfterNs, [&](size_t i) {
        if (w.stream(i) != kl.stream || w.device(i) != r.device) return;
        if (c.waitIndex < 0 || w.end(i) >= w.end(size_t(c.waitIndex))) c.waitIndex = int64_t(i);  // ties: the later one
        ++c.waitCount;
    });

    // a cause says why the late arriver was late: without lateness (every member started at once)
    // nobody was late, and nothing was late "because of the CPU" or the GPU
    if (!c.launched || c.latenessNs <= 0) c.cause = Cause::Unknown;
    else if (c.cpuNs * 2 >= c.latenessNs) c.cause = Cause::CpuLaunch;
    else if (c.predLane >= 0) c.cause = Cause::GpuDependency;
    else c.cause = Cause::GpuOther;
}

}  // namespace skew
