#include "timeline/run_search.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <tuple>

namespace skew {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool allDigits(std::string_view s) {
    return !s.empty() && s.size() <= 10 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// digits as a number; false when s is not all digits or the number does not fit 32 bits
bool number(std::string_view s, uint32_t& out) {
    if (!allDigits(s)) return false;
    uint64_t v = 0;
    for (char c : s) v = v * 10 + uint64_t(c - '0');
    if (v > 0xFFFFFFFFull) return false;
    out = uint32_t(v);
    return true;
}

// the hits in their order, kept to the first `limit` of them as they come (at most twice that held)
struct Collector {
    size_t limit;
    SearchResult& res;
    static auto key(const SearchHit& h) {
        return std::make_tuple(h.start, h.end, int(h.kind), h.rank, h.lane, h.kernel, h.process, h.range, h.collective);
    }
    static bool before(const SearchHit& x, const SearchHit& y) { return key(x) < key(y); }
    void add(const SearchHit& h) {
        res.hits.push_back(h);
        if (res.hits.size() > 2 * limit + 16) keepFirst();
    }
    void keepFirst() {
        if (res.hits.size() <= limit) return;
        std::nth_element(res.hits.begin(), res.hits.begin() + std::ptrdiff_t(limit), res.hits.end(), before);
        res.hits.resize(limit);
        res.truncated = true;
    }
    void finish() {
        keepFirst();
        std::sort(res.hits.begin(), res.hits.end(), before);
    }
};

bool containsNoCase(const std::string& hay, const std::string& lowNeedle) {
    auto it = std::search(hay.begin(), hay.end(), lowNeedle.begin(), lowNeedle.end(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    return it != hay.end();
}

void addCollective(const Analysis& a, const Collective* c, Collector& out) {
    if (!c) return;
    SearchHit h;
    h.kind = SearchHit::Collective;
    h.collective = int(c - a.collectives.data());
    h.start = c->minStart;
    h.end = c->maxEnd;
    out.add(h);
}

void addKernel(const TimelineIndex& ix, int rank, int lane, uint32_t k, Collector& out) {
    const KernelLane& kl = ix.profile().ranks[size_t(rank)].lanes[size_t(lane)];
    SearchHit h;
    h.kind = SearchHit::Kernel;
    h.rank = rank, h.lane = lane, h.kernel = k;
    h.start = kl.start[k];
    h.end = kl.end(k);
    h.collective = int(ix.collectiveOf(rank, lane, k));
    out.add(h);
}

// the kernels whose name (matched[name id]) or correlation id (corr) is wanted, and the NVTX ranges
// whose text is
template <typename Wanted>
void scanKernels(const TimelineIndex& ix, Wanted wanted, Collector& out) {
    const Profile& p = ix.profile();
    for (size_t r = 0; r < p.ranks.size(); ++r)
        for (size_t l = 0; l < p.ranks[r].lanes.size(); ++l) {
            const KernelLane& kl = p.ranks[r].lanes[l];
            for (uint32_t k = 0; k < kl.size(); ++k)
                if (wanted(kl, k)) addKernel(ix, int(r), int(l), k, out);
        }
}

void scanNvtx(const Profile& p, const std::vector<bool>& matched, Collector& out) {
    for (size_t pi = 0; pi < p.processes.size(); ++pi) {
        int rank = -1;
        for (const Rank& r : p.ranks)
            if (r.process == int(pi)) {
                rank = r.id;
                break;
            }
        const NvtxRanges& nv = p.processes[pi].nvtx;
        for (uint32_t i = 0; i < nv.size(); ++i)
            if (matched[nv.text[i]]) {
                SearchHit h;
                h.kind = SearchHit::Nvtx;
                h.process = int(pi), h.range = i, h.rank = rank;
                h.start = nv.start[i];
                h.end = nv.end(i);
                out.add(h);
            }
    }
}

}  // namespace

SearchResult searchRun(const TimelineIndex& ix, std::string_view query, size_t limit) {
    SearchResult res;
    if (!ix.valid()) return res;
    const std::string_view q = trimmed(query);
    if (q.empty()) return res;
    const Profile& p = ix.profile();
    const Analysis& a = ix.analysis();
    Collector hits{limit, res};
    uint32_t n = 0, g = 0;
    const size_t colon = q.find(':');
    if (q.front() == '#' && number(q.substr(1), n)) {
        for (size_t gi = 0; gi < a.groups.size(); ++gi) addCollective(a, a.find(int(gi), n), hits);
    } else if (colon != std::string_view::npos && number(q.substr(0, colon), g) && number(q.substr(colon + 1), n)) {
        if (g < a.groups.size()) addCollective(a, a.find(int(g), n), hits);
    } else if (number(q, n)) {
        scanKernels(ix, [n](const KernelLane& kl, uint32_t k) { return kl.correlationId[k] == n; }, hits);
    } else {
        std::string low(q);
        for (char& c : low) c = char(std::tolower(static_cast<unsigned char>(c)));
        std::vector<bool> matched(p.strings.size(), false);
        bool any = false;
        for (StrId id = 1; id < p.strings.size(); ++id) any |= (matched[id] = containsNoCase(p.strings.str(id), low));
        if (any) {
            scanKernels(ix, [&matched](const KernelLane& kl, uint32_t k) { return bool(matched[kl.name[k]]); }, hits);
            scanNvtx(p, matched, hits);
        }
    }
    hits.finish();
    return res;
}

}  // namespace skew
