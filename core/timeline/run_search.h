#pragma once
// The viewer's search (Ctrl+F) over one run: what a query names, as hits in time order. A query is
//   "#12"   the 12th collective of every group (the table's "#" column),
//   "3:12"  the 12th collective of group 3 (the "Group" and "#" columns),
//   "4711"  (digits only) the kernels whose correlation id is 4711, on any rank,
//   other   the kernels whose name, and the NVTX ranges whose text, hold it (ASCII case ignored).
// Surrounding spaces are ignored; an empty query names nothing. The widgets (ui/window) only show
// the hits and step through them.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "timeline/timeline_index.h"

namespace skew {

struct SearchHit {
    enum Kind { Collective, Kernel, Nvtx };
    Kind kind = Kernel;
    int64_t start = 0, end = 0;  // aligned ns: the collective's first start to last end, the kernel's, the range's
    int collective = -1;         // index into Analysis::collectives: a Collective hit, or the collective a kernel is a member of
    int rank = -1, lane = -1;    // a Kernel hit's lane (index into Rank::lanes); an Nvtx hit's rank: the first of its process
    uint32_t kernel = 0;         // index in the lane
    int process = -1;            // an Nvtx hit's process (index into Profile::processes)
    uint32_t range = 0;          // and its range (index into Process::nvtx)
};

struct SearchResult {
    std::vector<SearchHit> hits;  // by start, then end, kind, rank, lane, kernel / range
    bool truncated = false;       // more than the limit matched: the first `limit` in time order
};

SearchResult searchRun(const TimelineIndex& ix, std::string_view query, size_t limit = 100000);

}  // namespace skew
