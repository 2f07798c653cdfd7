// The shared threads (util/thread_pool.h) and what runs on them: parallelFor (results whatever
// the thread count, the lowest failing item's exception, nested and concurrent loops), the
// loader's TaskGraph (the first failure in task order, a cancel), and both when threads cannot
// be started (an injected thread factory that fails).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "util/errors.h"
#include "util/parallel.h"
#include "util/task_graph.h"
#include "util/thread_pool.h"

namespace {

// A factory that starts `allowed` threads, then fails as the system does when it is out of them.
skew::ThreadPool::StartThread failingAfter(size_t allowed) {
    auto started = std::make_shared<std::atomic<size_t>>(0);
    return [started, allowed](std::function<void()> f) {
        if (started->fetch_add(1) >= allowed) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
        return std::thread(std::move(f));
    };
}

std::vector<uint64_t> squares(skew::ThreadPool& pool, size_t n, size_t threads) {
    std::vector<uint64_t> out(n, 0);
    pool.parallelFor(n, threads, [&](size_t i) { out[i] = uint64_t(i) * i + 1; });
    return out;
}

TEST(ParallelFor, SameResultsWithOneTwoAndManyThreads) {
    std::vector<uint64_t> want(5000);
    for (size_t i = 0; i < want.size(); ++i) want[i] = uint64_t(i) * i + 1;
    skew::ThreadPool pool;
    for (size_t threads : {1, 2, 3, 8, 32}) EXPECT_EQ(squares(pool, want.size(), threads), want) << threads << " threads";
    std::vector<uint64_t> shared(want.size());
    skew::parallelFor(shared.size(), 0, [&](size_t i) { shared[i] = uint64_t(i) * i + 1; });
    EXPECT_EQ(shared, want);
}

TEST(ParallelFor, StartsNoThreadPerCall) {
    skew::ThreadPool pool;
    for (int round = 0; round < 200; ++round) squares(pool, 64, 4);
    EXPECT_EQ(pool.threads(), 3u);  // the calling thread and three of the pool's, kept
}

TEST(ParallelFor, RethrowsTheLowestFailingItemAfterTheOthersFinish) {
    skew::ThreadPool pool;
    for (size_t threads : {1, 2, 8}) {
        SCOPED_TRACE(threads);
        std::atomic<size_t> ran{0};
        try {
            pool.parallelFor(1000, threads, [&](size_t i) {
                ++ran;
                if (i == 700 || i == 41 || i == 999) throw std::runtime_error("item " + std::to_string(i));
            });
            FAIL() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "item 41");
        }
        EXPECT_EQ(ran.load(), 1000u);
    }
}

TEST(ParallelFor, NestedLoopsAndLoopsFromTwoThreadsFinish) {
    skew::ThreadPool pool;
    auto job = [&](uint64_t seed) {
        std::vector<uint64_t> sums(40, 0);
        pool.parallelFor(sums.size(), 4, [&](size_t i) {
            std::vector<uint64_t> inner(100, 0);
            pool.parallelFor(inner.size(), 4, [&](size_t k) { inner[k] = seed * i + k; });
            sums[i] = std::accumulate(inner.begin(), inner.end(), uint64_t(0));
        });
        return sums;
    };
    std::vector<uint64_t> a, b;
    std::thread t1([&] { a = job(3); });
    std::thread t2([&] { b = job(5); });
    t1.join();
    t2.join();
    ASSERT_EQ(a.size(), 40u);
    ASSERT_EQ(b.size(), 40u);
    for (size_t i = 0; i < 40; ++i) {
        EXPECT_EQ(a[i], 100 * 3 * i + 4950);
        EXPECT_EQ(b[i], 100 * 5 * i + 4950);
    }
}

TEST(ThreadPool, FewerThreadsWhenTheyCannotBeStarted) {
    for (size_t allowed : {0, 1, 2}) {
        SCOPED_TRACE(allowed);
        skew::ThreadPool pool(failingAfter(allowed));
        std::mutex m;
        std::set<std::thread::id> ids;
        std::vector<uint64_t> out(2000, 0);
        pool.parallelFor(out.size(), 8, [&](size_t i) {
            out[i] = i + 1;
            std::lock_guard<std::mutex> lock(m);
            ids.insert(std::this_thread::get_id());
        });
        for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], i + 1);
        EXPECT_EQ(pool.threads(), allowed);
        EXPECT_LE(ids.size(), allowed + 1);
        if (allowed == 0) {
            EXPECT_EQ(*ids.begin(), std::this_thread::get_id());  // the caller alone
        }
    }
}

// ---- the task graph -------------------------------------------------------------------------

TEST(TaskGraph, RethrowsTheFirstFailureInTaskOrderNotTheFirstInTime) {
    skew::ThreadPool pool;
    for (size_t threads : {1, 2, 4}) {
        SCOPED_TRACE(threads);
        skew::TaskGraph g;
        g.add("late failure", [] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            throw std::runtime_error("task 0");
        });
        g.add("early failure", [] { throw std::runtime_error("task 1"); });
        g.add("cancelled", [] { throw skew::Cancelled(); });
        std::atomic<bool> cancel{false};
        try {
            g.run(threads, cancel, {}, pool);
            FAIL() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "task 0");
        }
        EXPECT_TRUE(cancel);
    }
}

TEST(TaskGraph, ACancelStopsTheTasksAndThrowsCancelled) {
    skew::ThreadPool pool;
    skew::TaskGraph g;
    std::atomic<bool> cancel{false};
    std::atomic<int> started{0};
    // tasks that poll the flag as the readers do (ReadProgress::add), each for up to 10 s
    for (int i = 0; i < 6; ++i)
        g.add("reader " + std::to_string(i), [&] {
            ++started;
            for (int k = 0; k < 10000 && !cancel; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (cancel) throw skew::Cancelled();
        });
    int polls = 0;
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(g.run(2, cancel, [&] { return ++polls < 2; }, pool), skew::Cancelled);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_EQ(polls, 2);
    EXPECT_LE(started.load(), 2);  // at most the two running when the cancel came; no other began
}

TEST(TaskGraph, DependenciesRunFirstOnTheCallingThreadWhenNoThreadStarts) {
    for (size_t allowed : {0, 1}) {
        SCOPED_TRACE(allowed);
        skew::ThreadPool pool(failingAfter(allowed));
        skew::TaskGraph g;
        std::vector<int> v(5, 0);
        std::mutex m;
        std::set<std::thread::id> ids;
        auto note = [&] {
            std::lock_guard<std::mutex> lock(m);
            ids.insert(std::this_thread::get_id());
        };
        auto a = g.add("a", [&] { note(), v[0] = 1; });
        auto b = g.add("b", [&] { note(), v[1] = v[0] + 1; }, {a});
        auto c = g.add("c", [&] { note(), v[2] = v[0] + 10; }, {a});
        auto d = g.add("d", [&] { note(), v[3] = v[1] + v[2]; }, {b, c});
        g.add("e", [&] { note(), v[4] = v[3] * 2; }, {d});
        std::atomic<bool> cancel{false};
        int polls = 0;
        g.run(4, cancel, [&] { return ++polls > 0; }, pool);
        EXPECT_EQ(v, (std::vector<int>{1, 2, 11, 13, 26}));
        EXPECT_FALSE(cancel);
        if (allowed == 0) {
            ASSERT_EQ(ids.size(), 1u);
            EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
        }
    }
}

}  // namespace
