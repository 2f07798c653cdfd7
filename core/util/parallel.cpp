#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace skew {

size_t workerThreads() {
    size_t n = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("SKEWSCOPE_LOAD_THREADS"); env && std::atoi(env) > 0) n = size_t(std::atoi(env));
    return n;
}

void parallelFor(size_t n, size_t threads, const std::function<void(size_t)>& f) {
    std::atomic<size_t> next{0};
    std::mutex m;
    size_t failedAt = n;
    std::exception_ptr error;
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
            try {
                f(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(m);
                if (i < failedAt) failedAt = i, error = std::current_exception();
            }
        }
    };
    // (a thread costs tens of microseconds: one item, or one thread, runs here)
    threads = std::max<size_t>(1, std::min(threadsOr(threads), n));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace skew
