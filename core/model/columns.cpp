#include "model/columns.h"

namespace skew {

void CodedIds::clear() {
    codes_.clear(), dict_.clear(), values_.clear(), lookup_.clear();
    cache_.fill(Slot{});
    wide_ = false;
}

uint16_t CodedIds::slowCodeOf(uint32_t v, Slot& s) {
    if (lookup_.size() != dict_.size()) {  // after a transform or an assign
        lookup_.clear();
        for (size_t c = 0; c < dict_.size(); ++c) lookup_.emplace(dict_[c], uint16_t(c));
    }
    auto it = lookup_.find(v);
    uint16_t c;
    if (it != lookup_.end()) {
        c = it->second;
    } else {
        if (dict_.size() >= kMaxCodes) {
            widen();
            return 0;
        }
        c = uint16_t(dict_.size());
        dict_.push_back(v);
        lookup_.emplace(v, c);
    }
    s = {v, c, true};
    return c;
}

void CodedIds::widen() {
    values_.reserve(codes_.capacity() > codes_.size() ? codes_.capacity() : codes_.size() + 1);
    for (uint16_t c : codes_) values_.push_back(dict_[c]);
    std::vector<uint16_t>().swap(codes_);
    std::vector<uint32_t>().swap(dict_);
    lookup_.clear();
    cache_.fill(Slot{});
    wide_ = true;
}

bool CodedIds::assign(std::vector<uint32_t>&& dict, std::vector<uint16_t>&& codes) {
    for (uint16_t c : codes)
        if (c >= dict.size()) return false;
    clear();
    dict_ = std::move(dict);
    codes_ = std::move(codes);
    return true;
}

void CodedIds::assign(std::vector<uint32_t>&& values) {
    clear();
    values_ = std::move(values);
    wide_ = true;
}

}  // namespace skew
