#include "scene/whatif_scene.h"

#include <algorithm>

#include "report/answers_report.h"
#include "report/format.h"
#include "report/whatif_report.h"
#include "util/text.h"

namespace skew {

const std::string& whatIfScenarioName(int scenario) {
    static const std::string names[WhatIfScene::kScenarios] = {"without slow kernels", "without late launches",
                                                               "without either (ideal)"};
    return names[std::clamp(scenario, 0, WhatIfScene::kScenarios - 1)];
}

namespace {

std::string sourceText(StepSource s) {
    switch (s) {
    case StepSource::Nvtx: return "NVTX step ranges";
    case StepSource::Inferred: return "steps inferred from the op sequence";
    default: return "no steps";
    }
}

}  // namespace

WhatIfScene buildWhatIfScene(const Profile& p, const Analysis& a, size_t maxRanks) {
    WhatIfScene s;
    const WhatIf& wi = a.whatIf;
    s.sentence = whatIfSentence(p, a);
    if (wi.pending) {  // the viewer fills it in after its first picture
        s.title = "What-if";
        s.emptyText = "Computing the what-if: the capture is being replayed without its late arrivals\u2026";
        return s;
    }
    if (!wi.notComputed.empty()) {
        s.title = "What-if";
        s.emptyText = "The what-if was not computed: " + wi.notComputed + ".";
        return s;
    }
    if (wi.kernels == 0) {
        s.title = "What-if";
        s.emptyText = "No kernels to replay: the what-if needs a capture with CUDA kernels.";
        return s;
    }
    if (wi.steps.empty()) {  // nothing computed: no replay figures above the reason
        s.title = "What-if";
        s.emptyText = s.sentence;
        return s;
    }
    // the captured replay's largest difference from the capture (replay.max_error_ns), in words
    s.title = "What-if  \u00B7  " + plural(wi.steps.size(), "step") + " (" + sourceText(wi.stepSource) + ")  \u00B7  " +
              plural(wi.kernels, "kernel") + " replayed (off by " + formatDuration(wi.maxErrorNs) + ")";
    for (const WhatIfStep& st : wi.steps) {
        s.steps.push_back(st.step);
        s.capturedNs.push_back(st.capturedNs);
        const std::optional<int64_t>* v[WhatIfScene::kScenarios] = {&st.noSlowKernelsNs, &st.noLateLaunchesNs, &st.idealNs};
        for (int k = 0; k < WhatIfScene::kScenarios; ++k)
            if (v[k]->has_value()) s.scenarioNs[size_t(k)].push_back(**v[k]);
    }
    for (int k = 0; k < WhatIfScene::kScenarios; ++k)
        s.hasScenario[size_t(k)] = s.scenarioNs[size_t(k)].size() == s.steps.size();
    for (const WhatIfRank& r : wi.byRank) {
        if (s.ranks.size() == maxRanks) {
            ++s.moreRanks;
            continue;
        }
        s.ranks.push_back({rankLabel(p, r.rank), r.slowdown});
    }
    return s;
}

std::string whatIfStepText(const WhatIfScene& s, size_t i) {
    if (i >= s.steps.size()) return {};
    std::string t = "step " + std::to_string(s.steps[i]) + ": captured " + formatDuration(s.capturedNs[i]);
    for (int k = 0; k < WhatIfScene::kScenarios; ++k) {
        if (!s.hasScenario[size_t(k)]) continue;
        const int64_t v = s.scenarioNs[size_t(k)][i];
        t += "  \u00B7  " + whatIfScenarioName(k) + " " + formatDuration(v);
        if (v > 0) t += strprintf(" (%.2fx)", double(s.capturedNs[i]) / double(v));
    }
    return t;
}

}  // namespace skew
