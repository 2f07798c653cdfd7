#pragma once
// The answers of a group (analysis/answers.h) and the capture advice as sentences that carry their
// numbers: the "Answers" and "Next capture" sections of the text and Markdown reports, and the
// viewer's answers panel (with links to the collectives they name).

#include <functional>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace skew {

// Wraps the mention of a collective (e.g. "#41 dev 5 +47.06 ms") into a link; identity by default.
using CollectiveLink = std::function<std::string(const std::string& text, const Collective& c)>;

struct AnswerSentences {
    std::string who;      // 1. who arrived late
    std::string same;     // 2. the same rank or rotating
    std::string where;    // 2. where big events fall in the step and whether they rotate (may be empty)
    std::string cpuGpu;   // 3. CPU or GPU
    std::string caveats;  // where the evidence is thin (may be empty)
};

AnswerSentences answerSentences(const Profile& p, const Analysis& a, const Group& g, const CollectiveLink& link = {});

// A rank's label; "?" for none (-1). The one every report names ranks by.
const std::string& rankLabel(const Profile& p, int rank);

// "p = 0.43", "p = 2.1e-09", "p < 1e-300"
std::string formatP(double p);

}  // namespace skew
