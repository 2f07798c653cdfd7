#include "util/parallel.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "util/thread_pool.h"

namespace skew {

size_t workerThreads() {
    size_t n = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("SKEWSCOPE_LOAD_THREADS"); env && std::atoi(env) > 0) n = size_t(std::atoi(env));
    return n;
}

void parallelFor(size_t n, size_t threads, const std::function<void(size_t)>& f) { ThreadPool::shared().parallelFor(n, threads, f); }

}  // namespace skew
