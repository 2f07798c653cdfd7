#pragma once
// `skewscope analyze` outputs: JSON (the spec's contract), a text and a Markdown findings page
// (answers first, each group's opening with its verdict line, then the next-capture advice, then the numbers), and CSV with one row per collective and rank. The
// viewer's findings panel shows the same Markdown, with links to the collectives.

#include <functional>
#include <string>
#include <string_view>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace skew {

class JsonWriter;

std::string analysisJson(const Profile& p, const Analysis& a);
// The same text, handed to `sink` in pieces of about 1 MB as it is written (the command line
// streams it into its output: a big capture's report is never held whole).
void writeAnalysisJson(const Profile& p, const Analysis& a, const std::function<void(std::string_view)>& sink,
                       size_t chunk = size_t(1) << 20);
// The same for an analysis whose what-if is pending (AnalysisOptions::whatIf false): once the
// sections before the what-if are written, `finishWhatIf` is called and must fill it in
// (fillWhatIf, analysis/whatif.h), so that it can be computed while the collectives are written.
void writeAnalysisJson(const Profile& p, const Analysis& a, const std::function<void(std::string_view)>& sink,
                       const std::function<void()>& finishWhatIf, size_t chunk = size_t(1) << 20);
std::string analysisText(const Profile& p, const Analysis& a);
struct MarkdownOptions {
    bool links = false;  // collectives named in the page link to skewscope://collective/G/K (the viewer)
};
std::string analysisMarkdown(const Profile& p, const Analysis& a, const MarkdownOptions& options = {});
std::string analysisCsv(const Profile& p, const Analysis& a);

// {"p50": .., "p90": .., "max": ..} under `key`: the analysis's and the comparison's percentiles.
void percentilesJson(JsonWriter& w, const char* key, const Percentiles& q);

// The link the viewer's findings use for collective K (1-based) of group G.
std::string collectiveLink(const Collective& c);

// Short human descriptions shared with the viewer.
std::string collectiveTitle(const Profile& p, const Analysis& a, const Collective& c);
// The title without the group, index and step ("AllGather, dev 5 late by 55.21 ms"), where they are
// said beside it (the compare view's side lines).
std::string collectiveShortTitle(const Profile& p, const Analysis& a, const Collective& c);
std::string whyText(const Profile& p, const Analysis& a, const Collective& c);
// "queued behind GEMM X on its own stream 7 (started 1.5 us after it)" or "started 1.5 us after X
// on stream 21"; `pl` is the predecessor's lane.
std::string predecessorText(const Profile& p, const Collective& c, const KernelLane& pl);

}  // namespace skew
