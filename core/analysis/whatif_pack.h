#pragma once
// What-if, the graph packed for the sweep (docs/analysis.md, What-if): the replay graph's
// per-kernel inputs copied into one record per kernel in sweep order (ReplayGraph::sweep), the
// members' source slots and steps beside the other member arrays, and the cross-stream sources'
// slots renumbered in sweep order and reused once read for the last time. Replays read only these,
// so every sweep streams its input from first to last instead of jumping between ranks.

#include "analysis/whatif_graph.h"

namespace skew {

// Fills g.sweep, g.memberSource, g.memberStep and g.packedSlots from the lane-order arrays and
// g.order (records copied on `threads` threads). Slots are reused only when the order is complete (g.ordered): in a cyclic graph's order
// a kernel may read its source before the source ends, and then reads the never-written slot.
void packForSweep(ReplayGraph& g, size_t threads);

}  // namespace skew
