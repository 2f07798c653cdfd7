#include "analysis/whatif_medians.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

#include "util/parallel.h"

namespace skew {
namespace {

// The lower median (the lower of the two middle values for an even count), reordering `v`.
int64_t lowerMedian(std::vector<int64_t>& v) {
    auto mid = v.begin() + std::ptrdiff_t((v.size() - 1) / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// Ranks joined by groups (union-find): the rank that represents each rank's set.
std::vector<int> rankSets(const Profile& p, const Analysis& a) {
    std::vector<int> parent(p.ranks.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
        while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
        return x;
    };
    for (const Group& g : a.groups)
        for (const GroupSlot& s : g.lanes) parent[size_t(find(s.rank))] = find(g.lanes[0].rank);
    for (size_t r = 0; r < parent.size(); ++r) parent[r] = find(int(r));
    return parent;
}

// One lane's stepped non-NCCL kernels (lane-order ids) ordered by step, and where each step begins.
struct StepSlices {
    std::vector<uint32_t> ids;
    std::vector<uint32_t> begin;  // per step (+1)
};

StepSlices slices(const Profile& p, const ReplayLane& l, const std::vector<uint32_t>& step, uint32_t steps) {
    const KernelLane& kl = p.ranks[size_t(l.rank)].lanes[size_t(l.lane)];
    StepSlices s;
    s.begin.assign(size_t(steps) + 2, 0);
    auto counted = [&](uint32_t i) { return step[l.base + (i - l.lo)] != 0 && p.opOfName(kl.name[i]) == CollOp::NotNccl; };
    for (uint32_t i = l.lo; i < l.hi; ++i)
        if (counted(i)) ++s.begin[step[l.base + (i - l.lo)] + 1];
    for (size_t x = 1; x < s.begin.size(); ++x) s.begin[x] += s.begin[x - 1];
    s.ids.resize(s.begin.back());
    std::vector<uint32_t> fill(s.begin.begin(), s.begin.end() - 1);
    for (uint32_t i = l.lo; i < l.hi; ++i)
        if (counted(i)) s.ids[fill[step[l.base + (i - l.lo)]]++] = l.base + (i - l.lo);
    return s;
}

// The medians of one step of one stream role over the lanes of a rank set.
class RoleStep {
public:
    // `out` holds the captured durations; each kernel's median is written once all of its
    // counterparts' durations were read, so the captured ones are read from it.
    RoleStep(const std::vector<StrId>& name, std::vector<int64_t>& out, size_t names)
        : name_(name), dur_(out), out_(out), local_(names, kMissing) {}

    void run(const std::vector<const uint32_t*>& first, const std::vector<size_t>& size) {
        if (sameSequence(first, size)) {
            for (size_t j = 0; j < size[0]; ++j) {
                vals_.clear();
                for (const uint32_t* f : first) vals_.push_back(dur_[f[j]]);
                const int64_t m = lowerMedian(vals_);
                for (const uint32_t* f : first) out_[f[j]] = m;
            }
            return;
        }
        // by (name, place among the step's kernels of that name): each rank's kernels counted into
        // runs per name (names numbered in the order this step meets them), then the j-th of a name
        // on every rank together
        const size_t R = first.size();
        std::vector<StrId>& names = touched_;
        names.clear();
        for (size_t r = 0; r < R; ++r)
            for (size_t j = 0; j < size[r]; ++j) {
                uint32_t& x = local_[name_[first[r][j]]];
                if (x == kMissing) x = uint32_t(names.size()), names.push_back(name_[first[r][j]]);
            }
        const size_t L = names.size();
        begin_.assign(R * L + 1, 0);
        for (size_t r = 0; r < R; ++r)
            for (size_t j = 0; j < size[r]; ++j) ++begin_[r * L + local_[name_[first[r][j]]] + 1];
        for (size_t x = 1; x < begin_.size(); ++x) begin_[x] += begin_[x - 1];
        byName_.resize(begin_.back());
        fill_.assign(begin_.begin(), begin_.end() - 1);
        for (size_t r = 0; r < R; ++r)
            for (size_t j = 0; j < size[r]; ++j) byName_[fill_[r * L + local_[name_[first[r][j]]]]++] = first[r][j];
        for (size_t x = 0; x < L; ++x) {
            size_t most = 0;
            for (size_t r = 0; r < R; ++r) most = std::max<size_t>(most, begin_[r * L + x + 1] - begin_[r * L + x]);
            for (size_t j = 0; j < most; ++j) {
                vals_.clear();
                for (size_t r = 0; r < R; ++r)
                    if (begin_[r * L + x] + j < begin_[r * L + x + 1]) vals_.push_back(dur_[byName_[begin_[r * L + x] + j]]);
                const int64_t m = lowerMedian(vals_);
                for (size_t r = 0; r < R; ++r)
                    if (begin_[r * L + x] + j < begin_[r * L + x + 1]) out_[byName_[begin_[r * L + x] + j]] = m;
            }
        }
        for (StrId nm : names) local_[nm] = kMissing;
    }

private:
    bool sameSequence(const std::vector<const uint32_t*>& first, const std::vector<size_t>& size) const {
        for (size_t r = 1; r < first.size(); ++r) {
            if (size[r] != size[0]) return false;
            for (size_t j = 0; j < size[0]; ++j)
                if (name_[first[r][j]] != name_[first[0][j]]) return false;
        }
        return true;
    }

    const std::vector<StrId>& name_;
    const std::vector<int64_t>& dur_;
    std::vector<int64_t>& out_;
    std::vector<int64_t> vals_;
    std::vector<uint32_t> local_;   // per name: its number in this step, kMissing when not met
    std::vector<StrId> touched_;    // the step's names in that order
    std::vector<uint32_t> begin_, fill_, byName_;
};

}  // namespace

std::vector<int64_t> medianDurations(const Profile& p, const Analysis& a, const ReplayKernels& k, const std::vector<uint32_t>& step,
                                     uint32_t steps) {
    std::vector<int64_t> out(k.count);
    std::vector<StrId> name(k.count);
    parallelFor(k.lanes.size(), a.options.threads, [&](size_t x) {  // lanes in parallel, each its own kernels
        const ReplayLane& l = k.lanes[x];
        const KernelLane& kl = p.ranks[size_t(l.rank)].lanes[size_t(l.lane)];
        for (uint32_t i = l.lo; i < l.hi; ++i) out[l.base + (i - l.lo)] = kl.duration[i], name[l.base + (i - l.lo)] = StrId(kl.name[i]);
    });
    if (!steps) return out;
    // (rank set, role) -> lanes
    std::map<std::pair<int, int64_t>, std::vector<size_t>> roles;
    std::map<std::pair<int, int>, int> groupOfLane;
    for (const Group& g : a.groups)
        for (const GroupSlot& s : g.lanes) groupOfLane.emplace(std::make_pair(s.rank, s.lane), g.id);
    const std::vector<int> sets = rankSets(p, a);
    for (size_t r = 0; r < p.ranks.size(); ++r) {
        int64_t plain = 0;
        for (size_t l = k.firstLane[r]; l < k.firstLane[r + 1]; ++l) {
            auto it = groupOfLane.find({int(r), k.lanes[l].lane});
            const int64_t role = it != groupOfLane.end() ? it->second : (int64_t(1) << 32) + plain++;
            roles[{sets[r], role}].push_back(l);
        }
    }
    // a role's steps in chunks on the threads: each (role, step) reads and writes only its own
    // kernels, so the medians are the same whatever the thread count
    // (a chunk's scratch kept from role to role: it holds an entry per string)
    const size_t threads = threadsOr(a.options.threads), chunks = std::min<size_t>(steps, 2 * threads);
    std::vector<std::optional<RoleStep>> scratch(chunks);
    for (const auto& [key, lanes] : roles) {
        if (lanes.size() < 2) continue;
        std::vector<StepSlices> sl(lanes.size());
        parallelFor(lanes.size(), threads, [&](size_t x) { sl[x] = slices(p, k.lanes[lanes[x]], step, steps); });
        parallelFor(chunks, threads, [&](size_t c) {
            if (!scratch[c]) scratch[c].emplace(name, out, p.strings.size());
            RoleStep& medians = *scratch[c];
            std::vector<const uint32_t*> first;
            std::vector<size_t> size;
            for (uint32_t s = uint32_t(1 + c * steps / chunks); s < uint32_t(1 + (c + 1) * steps / chunks); ++s) {
                first.clear(), size.clear();
                for (const StepSlices& x : sl) {
                    if (x.begin[s + 1] == x.begin[s]) continue;
                    first.push_back(x.ids.data() + x.begin[s]);
                    size.push_back(x.begin[s + 1] - x.begin[s]);
                }
                if (first.size() >= 2) medians.run(first, size);
            }
        });
    }
    return out;
}

}  // namespace skew
