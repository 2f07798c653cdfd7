#include "util/task_graph.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "util/errors.h"

namespace skew {

TaskGraph::Id TaskGraph::add(std::string name, std::function<void()> fn, const std::vector<Id>& deps, int priority) {
    Id id = tasks_.size();
    tasks_.push_back({std::move(name), std::move(fn), {}, deps.size(), priority, nullptr});
    for (Id d : deps) tasks_[d].dependents.push_back(id);
    return id;
}

void TaskGraph::run(size_t threads, std::atomic<bool>& cancel, const std::function<bool()>& poll) {
    std::mutex m;
    std::condition_variable changed;
    std::vector<Id> ready;  // kept ordered: best (highest priority, then first added) last
    auto better = [&](Id a, Id b) {  // a runs before b
        return tasks_[a].priority != tasks_[b].priority ? tasks_[a].priority > tasks_[b].priority : a < b;
    };
    auto push = [&](Id id) {
        auto pos = std::lower_bound(ready.begin(), ready.end(), id, [&](Id x, Id y) { return better(y, x); });
        ready.insert(pos, id);
    };
    for (Id i = 0; i < tasks_.size(); ++i)
        if (tasks_[i].waitingFor == 0) push(i);
    size_t finished = 0, running = 0;
    const bool trace = std::getenv("SKEWSCOPE_DEBUG") != nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    auto ms = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
    size_t nextWorker = 0;
    auto worker = [&] {
        std::unique_lock<std::mutex> lock(m);
        const size_t self = nextWorker++;
        while (true) {
            changed.wait(lock, [&] { return !ready.empty() || finished + running == tasks_.size() || cancel; });
            if (cancel || ready.empty()) {
                if (cancel || finished + running == tasks_.size()) return;
                continue;
            }
            Id id = ready.back();
            ready.pop_back();
            ++running;
            lock.unlock();
            std::exception_ptr error;
            const double began = trace ? ms() : 0;
            try {
                tasks_[id].fn();
            } catch (...) {
                error = std::current_exception();
                cancel = true;  // the other tasks stop at their next progress check
            }
            if (trace)
                std::fprintf(stderr, "skewscope: debug: task %-24s thread %zu  %8.1f .. %8.1f ms (%.1f ms)\n", tasks_[id].name.c_str(), self,
                             began, ms(), ms() - began);
            lock.lock();
            --running;
            ++finished;
            tasks_[id].error = error;
            if (!error)
                for (Id d : tasks_[id].dependents)
                    if (--tasks_[d].waitingFor == 0) push(d);
            changed.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (size_t i = 0; i < std::max<size_t>(1, threads); ++i) pool.emplace_back(worker);
    {
        std::unique_lock<std::mutex> lock(m);
        auto nextPoll = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
        while (finished < tasks_.size() && !(cancel && running == 0)) {
            changed.wait_until(lock, nextPoll);
            if (std::chrono::steady_clock::now() < nextPoll) continue;
            nextPoll += std::chrono::milliseconds(30);
            lock.unlock();
            bool go = !poll || poll();
            lock.lock();
            if (!go) {
                cancel = true;
                changed.notify_all();
            }
        }
        changed.notify_all();
    }
    for (auto& t : pool) t.join();
    // the first real failure in task order; a cancellation only when nothing else went wrong
    bool cancelled = cancel;
    for (const Task& t : tasks_) {
        if (!t.error) continue;
        try {
            std::rethrow_exception(t.error);
        } catch (const Cancelled&) {
            cancelled = true;
        } catch (...) {
            throw;
        }
    }
    if (cancelled || finished < tasks_.size()) throw Cancelled();
}

}  // namespace skew
