#pragma once
// Tiny profiles built by hand for unit tests of the analysis stages (as hotspot and Qt Creator's
// tracing library test their models): ranks, kernels, launches, NVTX ranges and stream waits, on
// one clock, without any export file.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "model/lane_index.h"
#include "model/loader.h"
#include "model/profile.h"

namespace testutil {

class ProfileBuilder {
public:
    // A rank of its own process (pid 100 + index), device `device`, labelled "dev <device>".
    int rank(int device) {
        skew::Process pr;
        pr.pid = uint32_t(100 + p_.ranks.size());
        pr.globalPid = uint64_t(pr.pid) << 24;
        p_.processes.push_back(std::move(pr));
        skew::Rank r;
        r.id = int(p_.ranks.size());
        r.process = int(p_.processes.size() - 1);
        r.pid = p_.processes.back().pid;
        r.device = device;
        p_.ranks.push_back(std::move(r));
        return p_.ranks.back().id;
    }

    // A kernel of `rank` on `stream`; correlation id `corr` (kNoCorrelation: none).
    ProfileBuilder& kernel(int rank, int stream, int64_t start, int64_t end, const std::string& name,
                           uint32_t corr = skew::kNoCorrelation) {
        lane(rank, stream).push_back(start, end, intern(name), corr);
        return *this;
    }

    // The launch call (eventClass 0/1 row) of correlation id `corr` in `rank`'s process.
    ProfileBuilder& launch(int rank, uint32_t corr, int64_t start, int64_t end, uint32_t tid = 1,
                           const std::string& api = "cuLaunchKernelEx") {
        launches_.resize(p_.processes.size());
        launches_[size_t(p_.ranks[size_t(rank)].process)].push_back(corr, start, end, intern(api), tid);
        return *this;
    }

    ProfileBuilder& nvtx(int rank, int64_t start, int64_t end, const std::string& text, uint32_t tid = 1) {
        p_.processes[size_t(p_.ranks[size_t(rank)].process)].nvtx.push_back(start, end, tid, intern(text));
        return *this;
    }

    ProfileBuilder& wait(int rank, int stream, int64_t start, int64_t end) {
        p_.processes[size_t(p_.ranks[size_t(rank)].process)].waits.push_back(start, end, p_.ranks[size_t(rank)].device, stream);
        return *this;
    }

    // Sorted, indexed and labelled as the loader leaves a profile.
    skew::Profile build() {
        skew::Profile p = std::move(p_);
        skew::InputFile in;
        in.path = "built.sqlite";
        in.hasSessionStart = true;
        p.inputs.push_back(in);
        p.nameOps.assign(p.strings.size(), skew::CollOp::NotNccl);
        for (size_t i = 0; i < p.strings.size(); ++i) p.nameOps[i] = skew::classifyKernelName(p.strings.str(skew::StrId(i)));
        bool any = false;
        for (auto& r : p.ranks) {
            std::sort(r.lanes.begin(), r.lanes.end(), [](const auto& x, const auto& y) { return x.stream < y.stream; });
            for (auto& l : r.lanes) {
                sortLane(l);
                l.ncclKernels = 0;
                for (size_t i = 0; i < l.size(); ++i) l.ncclKernels += p.opOfName(l.name[i]) != skew::CollOp::NotNccl;
                skew::buildLaneIndex(l);
                for (size_t i = 0; i < l.size(); ++i) {
                    if (!any || l.start[i] < p.timeStart) p.timeStart = l.start[i];
                    if (!any || l.end(i) > p.timeEnd) p.timeEnd = l.end(i);
                    any = true;
                }
            }
        }
        // each kernel joined to its launch call, as the loader leaves them
        launches_.resize(p.processes.size());
        for (auto& L : launches_) sortLaunches(L);
        for (auto& r : p.ranks)
            for (auto& l : r.lanes) skew::joinLaunches(launches_[size_t(r.process)], l);
        launches_.clear();
        for (auto& pr : p.processes) {
            pr.nvtx = sortedByStart(pr.nvtx, [](skew::NvtxRanges& to, const skew::NvtxRanges& from, size_t i) {
                to.push_back(from.start[i], from.end(i), from.tid[i], from.text[i]);
            });
            pr.waits = sortedByStart(pr.waits, [](skew::StreamWaits& to, const skew::StreamWaits& from, size_t i) {
                to.push_back(from.start[i], from.end(i), from.device(i), from.stream(i));
            });
            skew::buildIntervalIndex(pr.waits);
        }
        skew::assignRankLabels(p);
        p_ = {};
        return p;
    }

private:
    skew::StrId intern(const std::string& s) { return p_.strings.intern(s); }

    skew::KernelLane& lane(int rank, int stream) {
        auto& lanes = p_.ranks[size_t(rank)].lanes;
        for (auto& l : lanes)
            if (l.stream == stream) return l;
        lanes.emplace_back();
        lanes.back().stream = stream;
        return lanes.back();
    }


    static void sortLane(skew::KernelLane& l) {
        std::vector<size_t> perm(l.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return l.start[a] < l.start[b]; });
        skew::KernelLane sorted;
        sorted.stream = l.stream;
        for (size_t i : perm) sorted.push_back(l.start[i], l.end(i), l.name[i], l.correlationId[i]);
        l = std::move(sorted);
    }

    // rows (NVTX ranges, stream waits) in start order, ties in the order they were added
    template <typename Rows, typename Copy>
    static Rows sortedByStart(const Rows& rows, Copy copy) {
        std::vector<size_t> perm(rows.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return rows.start[a] < rows.start[b]; });
        Rows out;
        for (size_t i : perm) copy(out, rows, i);
        return out;
    }

    static void sortLaunches(skew::Launches& L) {
        std::vector<size_t> perm(L.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return L.correlationId[a] < L.correlationId[b]; });
        skew::Launches sorted;
        for (size_t i : perm) sorted.push_back(L.correlationId[i], L.start(i), L.end[i], L.name[i], L.tid[i]);
        L = std::move(sorted);
    }

    skew::Profile p_;
    std::vector<skew::Launches> launches_;  // per process, joined to the kernels in build()
};

}  // namespace testutil
