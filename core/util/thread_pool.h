#pragma once
// The threads the parallel stages share (the loader's task graph, the snapshot read, the analysis,
// the JSON report): started once, as they are first needed, and kept. A caller lends work to them
// and always does its share itself, so work finishes whatever the pool can give: fewer threads
// when one cannot be created, none when every one is busy (a nested or concurrent caller).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace skew {

class ThreadPool {
public:
    // Starts a thread running the function; throws (std::system_error) when it cannot.
    using StartThread = std::function<std::thread(std::function<void()>)>;

    // `start` empty: std::thread. Threads start when work asks for them (lend()).
    explicit ThreadPool(StartThread start = {});
    ~ThreadPool();  // stops and joins the threads; work lent and not begun is dropped
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // The pool parallelFor() and the task graph use: never destroyed (threads idle at exit).
    static ThreadPool& shared();

    // Runs `helper` up to `count` times, each on a pool thread when one is free; the pool grows to
    // `count` threads when it has fewer, as far as threads can be started. Returns how many runs
    // were queued (0: the pool has no thread). A helper is an extra hand: the caller never waits
    // for one to begin, and one that begins after the work is done must find nothing left to do.
    // A helper must not throw.
    size_t lend(size_t count, const std::function<void()>& helper);

    size_t threads() const;  // threads started so far

    // f(i) for every i in [0, n), on the calling thread and up to `threads` - 1 of this pool's
    // (0: workerThreads()); see parallelFor() in util/parallel.h.
    void parallelFor(size_t n, size_t threads, const std::function<void(size_t)>& f);

private:
    void grow(size_t count);
    void serve();

    StartThread start_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> work_;
    std::vector<std::thread> threads_;
    bool stopping_ = false;
};

}  // namespace skew
