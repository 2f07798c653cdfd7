#include "model/profile.h"

#include <algorithm>

#include "model/lane_index.h"

namespace skew {

StringTable::StringTable(const StringTable& o) : strings_(o.strings_) {
    index_.reserve(strings_.size());
    for (size_t i = 0; i < strings_.size(); ++i) index_.emplace(strings_[i], StrId(i));
}

StringTable& StringTable::operator=(const StringTable& o) {
    if (this != &o) *this = StringTable(o);
    return *this;
}

StrId StringTable::intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    StrId id = static_cast<StrId>(strings_.size());
    strings_.emplace_back(s);
    index_.emplace(strings_.back(), id);
    return id;
}

// The bytes of the elements held. Columns are reserved by estimate while loading (file_reader.cpp):
// room reserved and never written is address space, not memory, so it is not counted.
template <typename V>
static size_t cap(const V& v) {
    return v.size() * sizeof(typename V::value_type);
}

size_t KernelLane::bytes() const {
    return cap(start) + duration.bytes() + name.bytes() + cap(correlationId) + launchLead.bytes() + launchDuration.bytes() +
           launchApi.bytes() + launchTid.bytes() + cap(blockMaxEnd);
}

void joinLaunches(const Launches& rows, KernelLane& lane, std::vector<bool>* used) {
    const size_t n = lane.size();
    lane.launchLead.clear(), lane.launchDuration.clear(), lane.launchApi.clear(), lane.launchTid.clear();
    lane.launchLead.reserve(n), lane.launchDuration.reserve(n), lane.launchApi.reserve(n), lane.launchTid.reserve(n);
    const auto& ids = rows.correlationId;
    size_t i = 0;
    for (size_t k = 0; k < n; ++k) {
        const uint32_t corr = lane.correlationId[k];
        // a stream's kernels were launched in order: their ids grow, a few other streams' launches
        // apart, so the search gallops on from the last answer; lower_bound(corr) is
        // upper_bound(corr - 1) for whole numbers
        i = corr == 0 ? 0 : gallopUpper(ids, i, corr - 1);
        if (corr != kNoCorrelation && i < ids.size() && ids[i] == corr) {
            lane.launchLead.push_back(lane.start[k] - rows.end[i]);
            lane.launchDuration.push_back(rows.duration[i]);
            lane.launchApi.push_back(rows.name[i]);
            lane.launchTid.push_back(rows.tid[i]);
            if (used) (*used)[i] = true;
        } else {
            lane.launchLead.push_back(0);
            lane.launchDuration.push_back(0);
            lane.launchApi.push_back(kNoString);
            lane.launchTid.push_back(0);
        }
    }
}

void shiftTimes(KernelLane& lane, int64_t off) {
    for (auto* v : {&lane.start, &lane.blockMaxEnd})
        for (auto& t : *v) t += off;
}

void shiftTimes(Process& pr, int64_t off) {
    for (auto* v : {&pr.nvtx.start, &pr.waits.start, &pr.waits.blockMaxEnd})
        for (auto& t : *v) t += off;
}

bool InputFile::hasTable(const std::string& t) const { return std::binary_search(tables.begin(), tables.end(), t); }

int64_t InputFile::rowsOf(const std::string& t) const {
    auto it = featureRows.find(t);
    return it == featureRows.end() ? 0 : it->second;
}

uint64_t Rank::kernelCount() const {
    uint64_t n = 0;
    for (const auto& l : lanes) n += l.size();
    return n;
}

uint64_t Rank::ncclKernelCount() const {
    uint64_t n = 0;
    for (const auto& l : lanes) n += l.ncclKernels;
    return n;
}

uint64_t Profile::kernelCount() const {
    uint64_t n = 0;
    for (const auto& r : ranks) n += r.kernelCount();
    return n;
}

uint64_t Profile::launchCount() const {
    uint64_t n = 0;
    for (const auto& r : ranks)
        for (const auto& l : r.lanes)
            for (size_t k = 0; k < l.size(); ++k) n += l.hasLaunch(k);
    return n;
}

size_t Profile::residentBytes() const {
    size_t b = 0;
    for (const auto& r : ranks)
        for (const auto& l : r.lanes) b += l.bytes();
    return b;
}

}  // namespace skew
