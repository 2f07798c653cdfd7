#include "scene/rank_labels.h"

namespace skew {

namespace {

bool separator(char c) { return c == '_' || c == '-' || c == '/' || c == '.' || c == ' ' || c == ':'; }

// characters of UTF-8 text (continuation bytes do not count), as the viewer counts them
size_t characters(const std::string& s, size_t bytes) {
    size_t n = 0;
    for (size_t i = 0; i < bytes && i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
    return n;
}

}  // namespace

std::vector<std::string> rankLabels(const Profile& p) {
    std::vector<std::string> out;
    out.reserve(p.ranks.size());
    for (const auto& r : p.ranks) out.push_back(r.label);
    return out;
}

std::string commonLabelStart(const std::vector<std::string>& labels) {
    if (labels.size() < 2) return {};
    const std::string& first = labels.front();
    size_t n = first.size();
    for (const std::string& l : labels) {
        size_t i = 0;
        while (i < n && i < l.size() && l[i] == first[i]) ++i;
        n = i;
    }
    // back to just after a separator (ASCII: never inside a UTF-8 sequence), leaving every label
    // something of its own
    size_t cut = 0;
    for (size_t i = 0; i < n; ++i)
        if (separator(first[i])) cut = i + 1;
    for (const std::string& l : labels)
        if (l.size() <= cut) cut = 0;
    return characters(first, cut) >= 6 ? first.substr(0, cut) : std::string();
}

}  // namespace skew
