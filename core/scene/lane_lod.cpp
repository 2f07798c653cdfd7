#include "scene/lane_lod.h"

#include <algorithm>
#include <cmath>

namespace skew {

std::vector<ColumnBusy> laneBusy(const CollectiveScene& sc, int row, const PixelColumns& cols) {
    std::vector<ColumnBusy> busy(size_t(std::max(cols.count, 0)));
    if (cols.count <= 0 || !(cols.nsPerPx > 0)) return busy;
    const double x1Ns = cols.x0Ns + cols.nsPerPx * cols.count;
    // the row's thin-lane bars are one contiguous range of the draw list, sorted by start
    auto lo = std::lower_bound(sc.bars.begin(), sc.bars.end(), row, [](const Bar& b, int r) {
        return !b.sub || b.row < r;
    });
    for (auto it = lo; it != sc.bars.end() && it->sub && it->row == row; ++it) {
        const Bar& b = *it;
        if (b.x0 >= x1Ns) break;
        double a = std::max(b.x0, cols.x0Ns), e = std::min(b.x1, x1Ns);
        if (e < a) continue;
        const KernelClass cls = b.kind;  // a thin-lane bar is Gemm, OtherNccl or Other
        int c0 = std::clamp(int(std::floor((a - cols.x0Ns) / cols.nsPerPx)), 0, cols.count - 1);
        int c1 = std::clamp(int(std::ceil((e - cols.x0Ns) / cols.nsPerPx)) - 1, c0, cols.count - 1);
        for (int c = c0; c <= c1; ++c) {
            double cs = cols.x0Ns + c * cols.nsPerPx, ce = cs + cols.nsPerPx;
            double t = std::min(e, ce) - std::max(a, cs);
            if (t <= 0) {
                if (e > a) continue;  // only touches this column
                t = 1e-9;             // a zero-length kernel still ran: the smallest possible share
            }
            ColumnBusy& cb = busy[size_t(c)];
            (cls == KernelClass::Gemm ? cb.gemm : cls == KernelClass::OtherNccl ? cb.otherNccl : cb.other) += t;
        }
    }
    return busy;
}

KernelClass dominantClass(const ColumnBusy& b) {
    if (b.gemm <= 0 && b.otherNccl <= 0 && b.other <= 0) return KernelClass::None;
    if (b.gemm >= b.otherNccl && b.gemm >= b.other) return KernelClass::Gemm;
    if (b.otherNccl >= b.other) return KernelClass::OtherNccl;
    return KernelClass::Other;
}

std::vector<KernelClass> laneColumns(const CollectiveScene& sc, int row, const PixelColumns& cols) {
    std::vector<ColumnBusy> busy = laneBusy(sc, row, cols);
    std::vector<KernelClass> out(busy.size());
    for (size_t i = 0; i < busy.size(); ++i) out[i] = dominantClass(busy[i]);
    return out;
}

std::vector<LaneRun> laneRuns(const std::vector<KernelClass>& columns) {
    std::vector<LaneRun> runs;
    for (int i = 0; i < int(columns.size()); ++i) {
        if (columns[size_t(i)] == KernelClass::None) continue;
        if (!runs.empty() && runs.back().last == i - 1 && runs.back().cls == columns[size_t(i)]) runs.back().last = i;
        else runs.push_back({i, i, columns[size_t(i)]});
    }
    return runs;
}

}  // namespace skew
