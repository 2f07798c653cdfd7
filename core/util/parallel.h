#pragma once
// Work shared by the cores: how many threads the parallel stages use (loading, the snapshot
// read, the analysis), and a parallel loop over independent items.

#include <cstddef>
#include <functional>

namespace skew {

// One thread per hardware thread, or SKEWSCOPE_LOAD_THREADS when set (a positive number).
size_t workerThreads();
// A thread count as the options give it: `threads`, or workerThreads() when it is 0.
inline size_t threadsOr(size_t threads) { return threads ? threads : workerThreads(); }

// f(i) for every i in [0, n), on up to `threads` threads (0: workerThreads(); the calling one among
// them, the others the shared pool's: util/thread_pool.h, none started per call), the items handed
// out in order. Each item must write only its own results, so that the outcome is the same
// whatever the thread count. If items throw, the others still finish and the exception of the
// lowest such i is rethrown. Safe to nest, and to call from several threads at once.
void parallelFor(size_t n, size_t threads, const std::function<void(size_t)>& f);

}  // namespace skew
