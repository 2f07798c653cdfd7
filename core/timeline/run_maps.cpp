#include "timeline/run_maps.h"

#include <algorithm>
#include <cmath>

#include "analysis/stats.h"

namespace skew {

void overviewColumns(const Analysis& a, const PixelMap& m, OverviewColumns& out) {
    out.maxSkew.assign(size_t(std::max(0, m.width)), -1);
    out.big.assign(size_t(std::max(0, m.width)), 0);
    for (const Collective& c : a.collectives) {
        int x = m.column(double(c.maxStart));
        if (x < 0 || x >= m.width) continue;
        out.maxSkew[size_t(x)] = std::max(out.maxSkew[size_t(x)], c.startSkew());
        if (c.big) out.big[size_t(x)] = 1;
    }
}

double logPosition(double v, double lo, double hi) {
    if (v <= lo) return 0;
    if (v >= hi || hi <= lo) return 1;
    return std::log(v / lo) / std::log(hi / lo);
}

double SkewScale::position(int64_t skewNs) const { return logPosition(double(skewNs), double(lo), double(hi)); }

namespace {

SkewScale scaleOf(const std::vector<const Analysis*>& runs) {
    std::vector<int64_t> skews;
    int64_t big = 0;
    for (const Analysis* a : runs) {
        for (const Collective& c : a->collectives)
            if (c.complete) skews.push_back(c.startSkew());
        big = std::max(big, a->options.bigSkewNs);
    }
    SkewScale s;
    s.median = skews.empty() ? 0 : percentileRounded(std::move(skews), 50);
    s.lo = std::max<int64_t>(1000, s.median * kNoiseFactor);
    s.hi = std::max(big, s.lo * 10);
    return s;
}

}  // namespace

SkewScale skewScale(const Analysis& a) { return scaleOf({&a}); }
SkewScale skewScale(const Analysis& a, const Analysis& b) { return scaleOf({&a, &b}); }

std::vector<int64_t> stepStarts(const Analysis& a, int group) {
    std::vector<int64_t> s;
    if (group < 0 || size_t(group) >= a.groups.size()) return s;
    const Group& g = a.groups[size_t(group)];
    s.assign(g.stepCount, INT64_MAX);
    for (uint32_t i = 0; i < g.count; ++i) {
        const Collective& c = a.collectives[g.firstCollective + i];
        if (c.step == 0 || c.step > g.stepCount) continue;
        s[c.step - 1] = std::min(s[c.step - 1], c.minStart - c.offsetInStepNs);
    }
    // a step without collectives (possible with NVTX steps): keep the order, borrow the next start
    for (size_t i = s.size(); i-- > 0;)
        if (s[i] == INT64_MAX) s[i] = i + 1 < s.size() ? s[i + 1] : (i > 0 ? s[i - 1] : 0);
    return s;
}

int stepGroup(const Analysis& a) {
    int best = -1;
    for (size_t g = 0; g < a.groups.size(); ++g)
        if (a.groups[g].stepsSource != StepSource::None && a.groups[g].stepCount > 0 &&
            (best < 0 || a.groups[g].count > a.groups[size_t(best)].count))
            best = int(g);
    return best;
}

namespace {
void fillStepMap(const Profile& p, const Analysis& a, StepMap& m);  // the rows of m.groups, or why there are none
}  // namespace

StepMap buildStepMap(const Profile& p, const Analysis& a, int preferredGroup) {
    StepMap m;
    for (size_t g = 0; g < a.groups.size(); ++g)
        if (a.groups[g].stepsSource == StepSource::Nvtx && a.groups[g].stepCount > 0) m.groups.push_back(int(g));
    if (!m.groups.empty()) {
        m.source = StepSource::Nvtx;
    } else {
        int g = preferredGroup;
        if (g < 0 || size_t(g) >= a.groups.size() || a.groups[size_t(g)].stepsSource == StepSource::None || a.groups[size_t(g)].stepCount == 0)
            g = stepGroup(a);
        if (g >= 0) {
            m.groups.push_back(g);
            m.source = a.groups[size_t(g)].stepsSource;
        }
    }
    fillStepMap(p, a, m);
    return m;
}

StepMap buildGroupStepMap(const Profile& p, const Analysis& a, int group) {
    StepMap m;
    if (group >= 0 && size_t(group) < a.groups.size() && a.groups[size_t(group)].stepsSource != StepSource::None && a.groups[size_t(group)].stepCount > 0) {
        m.groups.push_back(group);
        m.source = a.groups[size_t(group)].stepsSource;
    }
    fillStepMap(p, a, m);
    return m;
}

namespace {

void fillStepMap(const Profile& p, const Analysis& a, StepMap& m) {
    if (m.groups.empty()) {
        uint64_t nvtx = 0;
        for (const auto& pr : p.processes) nvtx += pr.nvtx.size();
        // the user's own pattern said as it is; the default by what it matches (its regex is a line of symbols)
        const bool own = !a.options.stepRegex.empty() && a.options.stepRegex != defaultStepRegex();
        const std::string pattern = own ? "step pattern " + a.options.stepRegex
                                        : "default step pattern (ProfilerStep#N, iteration, iter, step, train_step or sample_N ranges)";
        if (a.groups.empty())
            m.why = "No steps: no NCCL collectives were matched across ranks.";
        else
            m.why = std::string("No steps: ") +
                    (nvtx == 0 ? "the exports have no NVTX ranges"
                               : "no NVTX range matches the " + pattern) +
                    ", and no group's sequence of collective ops repeats (a single op, such as only SendRecv, has no "
                    "period to infer steps from).";
        return;
    }
    for (int g : m.groups) {
        const Group& grp = a.groups[size_t(g)];
        m.steps = std::max(m.steps, grp.stepCount);
        for (uint32_t i = 0; i < grp.count; ++i) {
            const uint32_t ci = grp.firstCollective + i;
            const Collective& c = a.collectives[ci];
            if (c.step == 0) continue;
            m.items.push_back({c.step, c.offsetInStepNs, ci});
            m.steps = std::max(m.steps, c.step);
            m.spanNs = std::max(m.spanNs, c.offsetInStepNs + (c.maxEnd - c.minStart));
        }
    }
    std::stable_sort(m.items.begin(), m.items.end(), [](const StepMap::Item& x, const StepMap::Item& y) {
        return x.step != y.step ? x.step < y.step : x.offsetNs < y.offsetNs;
    });
    m.stepBegin.assign(m.steps + 1, 0);
    size_t j = 0;
    for (uint32_t s = 1; s <= m.steps; ++s) {
        m.stepBegin[s - 1] = uint32_t(j);
        while (j < m.items.size() && m.items[j].step == s) ++j;
    }
    m.stepBegin[m.steps] = uint32_t(m.items.size());
    for (size_t i = 0; i < m.items.size(); ++i) {
        const Collective& c = a.collectives[m.items[i].collective];
        if (!c.big) continue;
        m.big.push_back(uint32_t(i));
        m.maxBigLatenessNs = std::max(m.maxBigLatenessNs, c.startSkew());
    }
}

}  // namespace

int64_t nearestStepItem(const StepMap& m, uint32_t step, double offsetNs, double maxDistNs) {
    if (step < 1 || step > m.steps) return -1;
    auto b = m.items.begin() + m.stepBegin[step - 1], e = m.items.begin() + m.stepBegin[step];
    auto it = std::lower_bound(b, e, offsetNs, [](const StepMap::Item& x, double v) { return double(x.offsetNs) < v; });
    int64_t best = -1;
    double bestD = maxDistNs;
    for (auto c : {it - 1, it}) {
        if (c < b || c >= e) continue;
        double d = std::fabs(double(c->offsetNs) - offsetNs);
        if (d <= bestD) {
            bestD = d;
            best = c - m.items.begin();
        }
    }
    return best;
}

int64_t memberLateness(const Profile& p, const Analysis& a, uint32_t collective, size_t slot) {
    auto m = member(p, a, a.collectives[collective], slot);
    return m ? m->latenessNs : -1;
}

void heatmapCells(const Profile& p, const Analysis& a, int group, double p0, double p1, int width, HeatmapCells& out) {
    const Group& g = a.groups[size_t(group)];
    const size_t w = g.width();
    out.width = std::max(0, width);
    out.lanes = int(w);
    const size_t cells = size_t(out.width) * w;
    out.lateness.assign(cells, -2);
    out.collective.assign(cells, kMissing);
    out.bigLate.assign(cells, 0);
    out.big.assign(size_t(out.width), 0);
    out.maxLateness = 0;
    if (out.width == 0 || g.count == 0 || !(p1 > p0)) return;
    std::vector<const int64_t*> starts(w);
    for (size_t s = 0; s < w; ++s) starts[s] = p.ranks[size_t(g.lanes[s].rank)].lanes[size_t(g.lanes[s].lane)].start.data();
    const double per = (p1 - p0) / double(out.width);
    for (int x = 0; x < out.width; ++x) {
        const double u = p0 + per * x, v = p0 + per * (x + 1);
        int64_t lo = std::max<int64_t>(0, int64_t(std::floor(u)));
        int64_t hi = std::min<int64_t>(int64_t(g.count), int64_t(std::ceil(v)));  // positions [lo, hi)
        if (hi <= lo) continue;
        int64_t* lat = &out.lateness[size_t(x) * w];
        uint32_t* col = &out.collective[size_t(x) * w];
        uint8_t* bl = &out.bigLate[size_t(x) * w];
        for (int64_t pos = lo; pos < hi; ++pos) {
            const uint32_t ci = g.firstCollective + uint32_t(pos);
            const Collective& c = a.collectives[ci];
            const uint32_t* row = &g.cells[size_t(pos) * w];
            if (c.big) {
                out.big[size_t(x)] = 1;
                if (c.lateSlot >= 0) bl[c.lateSlot] = 1;
            }
            for (size_t s = 0; s < w; ++s) {
                int64_t l = row[s] == kMissing ? -1 : starts[s][row[s]] - c.minStart;
                if (l > lat[s] || col[s] == kMissing) {
                    if (l > lat[s]) lat[s] = l;
                    col[s] = ci;
                }
            }
        }
        for (size_t s = 0; s < w; ++s) out.maxLateness = std::max(out.maxLateness, lat[s]);
    }
}

std::vector<int64_t> sortedSkews(const Analysis& a, int group, bool endSkew) {
    std::vector<int64_t> v;
    if (group < 0 || size_t(group) >= a.groups.size()) return v;
    const Group& g = a.groups[size_t(group)];
    v.reserve(g.complete);
    for (uint32_t i = 0; i < g.count; ++i) {
        const Collective& c = a.collectives[g.firstCollective + i];
        if (c.complete) v.push_back(endSkew ? c.endSkew() : c.startSkew());
    }
    std::sort(v.begin(), v.end());
    return v;
}

}  // namespace skew
