#pragma once
// Compact columns of the model (profile.h), so that a kernel and its launch cost as few bytes as
// they can: durations and offsets in 32 bits where they fit, and ids of few distinct values (the
// kernel names, launch APIs and launching threads of one stream) as 16-bit codes into a small
// dictionary.
// Each column falls back to full-width values, for the whole column, the first time a value does
// not fit (a duration of 4.3 s or more; a 65,536th distinct id): nothing is lost, and the common
// case costs 4 or 2 bytes an element. Reads are one branch that is always taken the same way.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace skew {

// 64-bit integers kept in the 32-bit type `Narrow` while every value fits: Durations (non-negative
// ns, up to 4.29 s) and Offsets (signed ns, within +-2.1 s).
template <typename Narrow>
class CompactInts {
public:
    static constexpr int64_t kNarrowMin = int64_t(std::numeric_limits<Narrow>::min());
    static constexpr int64_t kNarrowMax = int64_t(std::numeric_limits<Narrow>::max());

    int64_t operator[](size_t i) const { return wide_ ? wideValues_[i] : int64_t(narrow_[i]); }
    size_t size() const { return wide_ ? wideValues_.size() : narrow_.size(); }
    bool empty() const { return size() == 0; }
    bool wide() const { return wide_; }

    void push_back(int64_t d) {
        if (!wide_ && (d > kNarrowMax || d < kNarrowMin)) widen();
        if (wide_) wideValues_.push_back(d);
        else narrow_.push_back(Narrow(d));
    }
    void set(size_t i, int64_t d) {
        if (!wide_ && (d > kNarrowMax || d < kNarrowMin)) widen();
        if (wide_) wideValues_[i] = d;
        else narrow_[i] = Narrow(d);
    }
    void reserve(size_t n) { wide_ ? wideValues_.reserve(n) : narrow_.reserve(n); }
    size_t capacity() const { return wide_ ? wideValues_.capacity() : narrow_.capacity(); }
    void resize(size_t n) { wide_ ? wideValues_.resize(n) : narrow_.resize(n); }
    void clear() { narrow_.clear(), wideValues_.clear(), wide_ = false; }
    void shrink_to_fit() { wide_ ? wideValues_.shrink_to_fit() : narrow_.shrink_to_fit(); }
    size_t bytes() const { return wide_ ? wideValues_.size() * 8 : narrow_.size() * sizeof(Narrow); }
    const void* address(size_t i) const { return wide_ ? static_cast<const void*>(wideValues_.data() + i) : narrow_.data() + i; }  // to prefetch

    // The storage in use (std::vector<Narrow> or std::vector<int64_t>), for moves and
    // permutations of whole elements.
    template <typename F>
    void visit(F&& f) {
        if (wide_) f(wideValues_);
        else f(narrow_);
    }

    // For the profile cache: the stored form as it is.
    const std::vector<Narrow>& narrowValues() const { return narrow_; }
    const std::vector<int64_t>& wideValuesOnly() const { return wideValues_; }
    void assign(std::vector<Narrow>&& narrow) { clear(), narrow_ = std::move(narrow); }
    void assign(std::vector<int64_t>&& wide) { clear(), wideValues_ = std::move(wide), wide_ = true; }

private:
    void widen() {
        wideValues_.reserve(narrow_.capacity() > narrow_.size() ? narrow_.capacity() : narrow_.size() + 1);
        wideValues_.assign(narrow_.begin(), narrow_.end());
        std::vector<Narrow>().swap(narrow_);
        wide_ = true;
    }
    bool wide_ = false;
    std::vector<Narrow> narrow_;
    std::vector<int64_t> wideValues_;
};

using Durations = CompactInts<uint32_t>;  // non-negative ns
using Offsets = CompactInts<int32_t>;     // signed ns

// 32-bit ids stored as 16-bit codes into a dictionary of the distinct ids (in order of first use).
class CodedIds {
public:
    static constexpr size_t kMaxCodes = 65535;

    uint32_t operator[](size_t i) const { return wide_ ? values_[i] : dict_[codes_[i]]; }
    size_t size() const { return wide_ ? values_.size() : codes_.size(); }
    bool empty() const { return size() == 0; }
    bool wide() const { return wide_; }

    void push_back(uint32_t v) {
        if (!wide_) {
            const uint16_t c = codeOf(v);
            if (!wide_) {
                codes_.push_back(c);
                return;
            }
        }
        values_.push_back(v);
    }
    void reserve(size_t n) { wide_ ? values_.reserve(n) : codes_.reserve(n); }
    size_t capacity() const { return wide_ ? values_.capacity() : codes_.capacity(); }
    void resize(size_t n) { wide_ ? values_.resize(n) : codes_.resize(n); }  // only to shrink
    void clear();
    void shrink_to_fit() { wide_ ? values_.shrink_to_fit() : codes_.shrink_to_fit(); }
    size_t bytes() const { return wide_ ? values_.size() * 4 : codes_.size() * 2 + dict_.size() * 4; }
    const void* address(size_t i) const { return wide_ ? static_cast<const void*>(values_.data() + i) : codes_.data() + i; }  // to prefetch

    // Rewrites every id through f (string ids of a file's table to the profile's): the
    // dictionary's entries when coded, each value when wide.
    template <typename F>
    void transform(F&& f) {
        for (auto& v : wide_ ? values_ : dict_) v = f(v);
        lookup_.clear();
        cache_.fill(Slot{});
    }

    // The storage in use (codes or values), for moves and permutations of whole elements.
    template <typename F>
    void visit(F&& f) {
        if (wide_) f(values_);
        else f(codes_);
    }

    // For the profile cache.
    const std::vector<uint32_t>& dictionary() const { return dict_; }
    const std::vector<uint16_t>& codes() const { return codes_; }
    const std::vector<uint32_t>& wideValues() const { return values_; }
    // false when a code has no dictionary entry (a damaged snapshot)
    bool assign(std::vector<uint32_t>&& dict, std::vector<uint16_t>&& codes);
    void assign(std::vector<uint32_t>&& values);

private:
    struct Slot {
        uint32_t value = 0;
        uint16_t code = 0;
        bool used = false;
    };
    uint16_t codeOf(uint32_t v) {
        Slot& s = cache_[(v * 2654435761u) >> 26];  // 64 slots: most pushes repeat a recent id
        if (s.used && s.value == v) return s.code;
        return slowCodeOf(v, s);
    }
    uint16_t slowCodeOf(uint32_t v, Slot& s);
    void widen();

    bool wide_ = false;
    std::vector<uint16_t> codes_;
    std::vector<uint32_t> dict_;
    std::vector<uint32_t> values_;
    std::unordered_map<uint32_t, uint16_t> lookup_;  // dict_ inverted, built when first needed
    std::array<Slot, 64> cache_{};
};

}  // namespace skew
