#include "session/warnings.h"

namespace skew {

std::vector<std::string> sessionWarnings(const Session& s) {
    const Profile& p = s.profile;
    const Analysis& a = s.analysis;
    std::vector<std::string> out(p.warnings.begin(), p.warnings.end());
    out.insert(out.end(), a.warnings.begin(), a.warnings.end());
    for (const auto& g : a.groups)
        if (g.validation.status != ValidationStatus::Ok)
            out.push_back("group " + std::to_string(g.id) + " matching " + validationStatusName(g.validation.status) + ": " + std::to_string(g.complete) + " of " +
                          std::to_string(g.count) + " collectives complete" +
                          (g.validation.messages.empty() ? std::string() : " - " + g.validation.messages[0]));
    for (const auto& u : a.unmatched)
        out.push_back(p.ranks[size_t(u.rank)].label + " stream " + std::to_string(p.ranks[size_t(u.rank)].lanes[size_t(u.lane)].stream) +
                      ": " + u.reason);
    return out;
}

std::vector<std::string> comparisonWarnings(const CompareSession& c) {
    std::vector<std::string> out;
    for (auto [side, s] : {std::pair{"A: ", c.a.get()}, std::pair{"B: ", c.b.get()}}) {
        for (const auto& w : s->profile.warnings) out.push_back(side + w);
        for (const auto& w : s->analysis.warnings) out.push_back(side + w);
    }
    return out;
}

}  // namespace skew
