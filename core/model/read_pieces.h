#pragma once
// What one task of the loader reads a row-id range of a table into (a piece), before the range is
// merged into the file's part in row order; the pools that keep used pieces' memory for the next
// ranges; and the small cache that finds a row's lane or process.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "model/profile.h"

namespace skew::reader {

constexpr uint32_t kInlineText = 0x80000000u;  // NVTX text id of a range's own (inline) string list

struct LaneKey {
    uint64_t globalPid;
    int32_t device, stream;
    bool operator==(const LaneKey& o) const { return globalPid == o.globalPid && device == o.device && stream == o.stream; }
};
struct LaneKeyHash {
    size_t operator()(const LaneKey& k) const {
        return std::hash<uint64_t>()(k.globalPid * 1000003u ^ (uint64_t(uint32_t(k.device)) << 32) ^ uint32_t(k.stream));
    }
};

struct Range {
    int64_t lo, hi;  // rowid in [lo, hi)
};

// Rows a range's columns are reserved for: the range's row-id span, capped (a file with a wild
// row id must not reserve gigabytes; beyond the cap the columns grow as usual).
inline size_t expectedRows(const Range& r) { return size_t(std::clamp<int64_t>(r.hi - r.lo, 0, int64_t(1) << 21)); }

// One range's kernels in row order, each with its lane (an index into `keys`, the range's lanes
// in order of first appearance). One record per row (one append, one write), reserved once: no
// growth while reading.
struct KernelPiece {
#pragma pack(push, 4)
    struct Row {
        int64_t start, end;
        uint32_t lane;
        StrId name;
        uint32_t correlationId;
    };
#pragma pack(pop)
    static_assert(sizeof(Row) == 28);
    std::vector<LaneKey> keys;
    std::vector<Row> rows;
    uint64_t skipped = 0, badCorrelation = 0;
    // Empty again, its memory kept for the next range.
    void clear() {
        keys.clear(), rows.clear();
        skipped = badCorrelation = 0;
    }
};

// One range's launch rows in row order, each with its process (an index into `pids`).
struct RuntimePiece {
    struct Row {
        int64_t start, end;
        uint32_t proc, correlationId, tid;
        StrId name;
    };
    std::vector<uint64_t> pids;
    std::vector<Row> rows;
    uint64_t skipped = 0;
    void clear() {
        pids.clear(), rows.clear();
        skipped = 0;
    }
};

struct NvtxPiece {
    std::vector<uint64_t> pids;
    std::vector<NvtxRanges> ranges;  // text: part string id, or kInlineText | index into `inlineTexts`
    std::vector<std::string> inlineTexts;
    uint64_t skipped = 0, ranges_ = 0;
};

struct SyncPiece {
    std::vector<uint64_t> pids;
    std::vector<StreamWaits> waits;
    uint64_t skipped = 0;
};

// Pieces whose ranges were merged, kept for the next ranges to read into: their columns are
// already paged in (a fresh 16 MB column costs milliseconds of page faults, and the allocator
// hands freed big blocks back to the system). A few are enough: readers take one each.
template <class Piece>
class PiecePool {
public:
    // `slot` (an empty piece) gets a used one's memory, if any is free.
    void take(Piece& slot) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) return;
        slot = std::move(free_.back());
        free_.pop_back();
    }
    // `piece` emptied; its memory kept when the pool is not full.
    void give(Piece& piece) {
        piece.clear();
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.size() < kKept) free_.push_back(std::move(piece));
        piece = Piece();
    }
    void release() {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<Piece>().swap(free_);
    }

private:
    static constexpr size_t kKept = 4;
    std::mutex mutex_;
    std::vector<Piece> free_;
};

// A key's index through a small direct-mapped cache (2^kBits slots) in front of a slower lookup:
// rows in start order (as nsys writes every table) change lane, or process, almost every row,
// among a few recent ones. The kernel reader finds lanes with it, the others processes.
template <class Key, unsigned kBits>
class RecentIndex {
public:
    // The index of `key` (whose hash is `hash`): the cached one, else lookup(key), then cached.
    template <class Lookup>
    uint32_t find(const Key& key, uint64_t hash, Lookup&& lookup) {
        Slot& s = slots_[hash * 0x9E3779B97F4A7C15ull >> (64 - kBits)];
        if (s.index == kNone || !(s.key == key)) s = {key, lookup(key)};
        return s.index;
    }

private:
    static constexpr uint32_t kNone = ~0u;
    struct Slot {
        Key key{};
        uint32_t index = kNone;
    };
    std::array<Slot, size_t(1) << kBits> slots_{};
};

// The index of a process in `pids` (appended when new): a handful of processes per file.
class ProcessSlots {
public:
    explicit ProcessSlots(std::vector<uint64_t>& pids) : pids_(pids) {}
    // (index, whether the process is new)
    std::pair<uint32_t, bool> find(uint64_t gpid) {
        bool fresh = false;
        const uint32_t index = recent_.find(gpid, gpid >> 24, [&](uint64_t g) {
            const auto it = std::find(pids_.begin(), pids_.end(), g);
            const uint32_t i = uint32_t(it - pids_.begin());
            fresh = it == pids_.end();
            if (fresh) pids_.push_back(g);
            return i;
        });
        return {index, fresh};
    }

private:
    std::vector<uint64_t>& pids_;
    RecentIndex<uint64_t, 4> recent_;
};

// The rows of process `gpid`, a new empty list for a new process.
template <typename Rows>
Rows& rowsOf(ProcessSlots& slots, std::vector<Rows>& rows, uint64_t gpid) {
    auto [index, fresh] = slots.find(gpid);
    if (fresh) rows.emplace_back();
    return rows[index];
}

}  // namespace skew::reader
