#include "util/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>

#include "util/parallel.h"

namespace skew {

ThreadPool::ThreadPool(StartThread start) : start_(std::move(start)) {
    if (!start_) start_ = [](std::function<void()> f) { return std::thread(std::move(f)); };
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        work_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

ThreadPool& ThreadPool::shared() {
    // never destroyed: a static's destructor would join threads while other statics go away
    static ThreadPool* pool = new ThreadPool();
    return *pool;
}

size_t ThreadPool::threads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return threads_.size();
}

// (mutex_ held) Starts threads until there are `count`, as far as the system lets it: a thread
// that cannot be started leaves the work to those there are, and to the callers.
void ThreadPool::grow(size_t count) {
    while (threads_.size() < count && !stopping_) {
        std::thread t;
        try {
            t = start_([this] { serve(); });
        } catch (...) {
            return;
        }
        if (!t.joinable()) return;
        threads_.push_back(std::move(t));
    }
}

size_t ThreadPool::lend(size_t count, const std::function<void()>& helper) {
    size_t queued = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        grow(count);
        // no more helpers than threads: a helper queued behind its own kind would find nothing to do
        queued = std::min(count, threads_.size());
        for (size_t i = 0; i < queued; ++i) work_.push_back(helper);
    }
    if (queued) wake_.notify_all();
    return queued;
}

void ThreadPool::serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || !work_.empty(); });
        if (stopping_) return;
        std::function<void()> helper = std::move(work_.front());
        work_.pop_front();
        lock.unlock();
        helper();  // (helpers catch what their work throws)
        lock.lock();
    }
}

namespace {

// One parallelFor: items handed out in order by one counter to the caller and its helpers. A
// helper that begins once every item is taken touches nothing but the counter, so the loop's
// function may be gone by then (the loop itself is shared, and lives as long as its last helper).
struct Loop {
    Loop(size_t count, const std::function<void(size_t)>& fn) : n(count), f(&fn), failedAt(count) {}

    void work() {
        size_t ran = 0;
        for (size_t i; (i = next.fetch_add(1)) < n; ++ran) {
            try {
                (*f)(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (i < failedAt) failedAt = i, error = std::current_exception();
            }
        }
        if (ran == 0) return;
        std::lock_guard<std::mutex> lock(mutex);
        done += ran;
        if (done == n) finished.notify_all();
    }
    // Until every item has run (those the helpers took too).
    void wait() {
        std::unique_lock<std::mutex> lock(mutex);
        finished.wait(lock, [&] { return done == n; });
    }

    const size_t n;
    const std::function<void(size_t)>* f;
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable finished;
    size_t done = 0;
    size_t failedAt;  // the lowest item that threw, and what it threw
    std::exception_ptr error;
};

}  // namespace

void ThreadPool::parallelFor(size_t n, size_t threads, const std::function<void(size_t)>& f) {
    // (one item, or one thread: it all runs here)
    threads = std::max<size_t>(1, std::min(threadsOr(threads), n));
    auto loop = std::make_shared<Loop>(n, f);
    if (threads > 1) lend(threads - 1, [loop] { loop->work(); });
    loop->work();
    loop->wait();
    if (loop->error) std::rethrow_exception(loop->error);
}

}  // namespace skew
