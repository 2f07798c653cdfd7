#include "model/profile.h"

#include <algorithm>

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

size_t KernelLane::bytes() const { return cap(start) + duration.bytes() + name.bytes() + cap(correlationId) + cap(blockMaxEnd); }

int64_t Launches::find(uint32_t corr) const {
    auto it = std::lower_bound(correlationId.begin(), correlationId.end(), corr);
    if (it == correlationId.end() || *it != corr) return -1;
    return it - correlationId.begin();
}

size_t Launches::bytes() const { return cap(correlationId) + cap(end) + duration.bytes() + name.bytes() + tid.bytes(); }

void shiftTimes(KernelLane& lane, int64_t off) {
    for (auto* v : {&lane.start, &lane.blockMaxEnd})
        for (auto& t : *v) t += off;
}

void shiftTimes(Process& pr, int64_t off) {
    for (auto* v : {&pr.launches.end, &pr.nvtx.start, &pr.nvtx.end, &pr.waits.start, &pr.waits.end})
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
    for (const auto& p : processes) n += p.launches.size();
    return n;
}

size_t Profile::residentBytes() const {
    size_t b = 0;
    for (const auto& r : ranks)
        for (const auto& l : r.lanes) b += l.bytes();
    for (const auto& p : processes) b += p.launches.bytes();
    return b;
}

}  // namespace skew
