#include "scene/view_texts.h"

#include <algorithm>

#include "report/format.h"

namespace skew {

namespace {

int64_t maxLateness(const CollectiveScene& sc) {
    int64_t m = 0;
    for (const auto& r : sc.rows) m = std::max(m, r.latenessNs);
    return m;
}

}  // namespace

// ---- empty states -----------------------------------------------------------------------------

std::string noCollectivesText(const Profile& p, const Analysis& a) {
    if (p.kernelCount() == 0)
        return "These exports hold no GPU kernels (the CUDA trace was not captured), so there are no collectives to "
               "show.\nCapture with nsys profile --trace=cuda,nvtx and export again.";
    if (!a.groups.empty()) return {};
    uint64_t nccl = 0;
    for (const auto& r : p.ranks) nccl += r.ncclKernelCount();
    if (nccl == 0)
        return "No NCCL kernels in these exports: " + std::to_string(p.kernelCount()) + " kernels on " + std::to_string(p.ranks.size()) +
               " rank(s), none of them ncclKernel_* or ncclDevKernel_*.\nSkewscope compares NCCL collectives across ranks; open a "
               "capture of a multi-GPU run.";
    return std::to_string(nccl) +
           " NCCL kernels were found, but no lanes of two ranks carry the same op sequence, so no collective could be matched "
           "across ranks. Open every rank's export together.";
}

std::string noCollectiveSelectedText() { return "No collective selected"; }

std::string timelineEmptyText(bool open) { return open ? "No kernels in these exports" : "Open exports to see the run"; }

std::string preparingViewText(const std::string& view) { return "Preparing the " + view + "..."; }

std::string heatmapEmptyText() { return "No collectives were matched across ranks."; }

std::vector<std::string> stepMapEmptyTexts(const StepMap& m) {
    return {m.why + "\n\nSet the pattern of the NVTX ranges that are steps in Analysis > Settings.", m.why,
            "No steps: no NVTX range matches the step pattern."};
}

// ---- titles -----------------------------------------------------------------------------------

std::string groupOpNames(const Group& g, const std::string& separator) {
    std::string out;
    for (const auto& [op, n] : g.ops) out += (out.empty() ? "" : separator) + op;
    return out;
}

std::string stepMapTitle(const StepMap& m, const Analysis& a) {
    if (m.empty()) return "Step map: no steps";
    const std::string src =
        m.source == StepSource::Nvtx ? "NVTX step ranges" : "steps inferred from the op sequence of group " + std::to_string(m.groups[0]);
    // "group 0", "groups 0 and 1", "groups 0, 1 and 2"
    std::string groups;
    for (size_t i = 0; i < m.groups.size(); ++i)
        groups += (i == 0 ? "" : i + 1 == m.groups.size() ? " and " : ", ") + std::to_string(m.groups[i]);
    return "Step map  \u00B7  " + std::to_string(m.steps) + " steps (" + src + ")  \u00B7  " + std::to_string(m.items.size()) +
           (m.groups.size() > 1 ? " collectives of groups " : " collectives of group ") + groups + "  \u00B7  " + std::to_string(m.big.size()) + " big events (start skew > " +
           formatDuration(a.options.bigSkewNs) + ")";
}

std::string stepMapSideTitle(const StepMap& m, const std::string& side) {
    if (m.empty()) return side + ": no steps";
    return side + "  \u00B7  " + std::to_string(m.steps) + " " + (m.source == StepSource::Nvtx ? "NVTX" : "inferred") + " steps  \u00B7  " +
           std::to_string(m.big.size()) + " big events";
}

std::string heatmapTitle(const Analysis& a, int group) {
    if (group < 0 || size_t(group) >= a.groups.size()) return "Lateness heatmap";
    const Group& g = a.groups[size_t(group)];
    const std::string which = a.groups.size() > 1 ? "group " + std::to_string(group) + " of " + std::to_string(a.groups.size())
                                                  : "group " + std::to_string(group);
    return "Lateness heatmap  \u00B7  " + which + " (" + groupOpNames(g, "/") + ")  \u00B7  " + std::to_string(g.count) +
           " collectives \u00D7 " + std::to_string(g.width()) + " ranks  \u00B7  outlined: big events (start skew > " +
           formatDuration(a.options.bigSkewNs) + ")";
}

std::string heatmapGroupItem(const Analysis& a, int group) {
    const Group& g = a.groups[size_t(group)];
    return "group " + std::to_string(group) + ": " + groupOpNames(g, "/") + " (" + std::to_string(g.count) + ")";
}

std::string kernelClassName(KernelClass c) {
    static const char* names[] = {"NCCL transfer", "NCCL waiting", "GEMM", "other NCCL", "other", "none"};
    return names[size_t(c)];
}

// ---- the collective view's labels -------------------------------------------------------------

std::string rowLabel(const CollectiveScene& sc, int row) {
    const SceneRow& r = sc.rows[size_t(row)];
    if (r.missing) return "no kernel here: partial collective";
    if (r.late) return "late arriver: +" + formatDuration(r.latenessNs);
    if (r.early) return "first, waited " + formatDuration(maxLateness(sc));
    return "+" + formatDuration(r.latenessNs);
}

std::string predecessorLabel(KernelClass kind, bool shortText) {
    const std::string what = kind == KernelClass::Gemm ? "GEMM" : "kernel";
    return shortText ? "pred. " + what : "predecessor (" + what + ")";
}

std::string launchLabelPrefix(std::optional<int64_t> beforeViewNs) {
    return beforeViewNs ? "CPU launch " + formatDuration(*beforeViewNs) + " before the view" : "CPU launch";
}

}  // namespace skew
