#include "util/task_graph.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "util/errors.h"

namespace skew {

TaskGraph::Id TaskGraph::add(std::string name, std::function<void()> fn, const std::vector<Id>& deps, int priority) {
    Id id = tasks_.size();
    tasks_.push_back({std::move(name), std::move(fn), {}, deps.size(), priority, nullptr});
    for (Id d : deps) tasks_[d].dependents.push_back(id);
    return id;
}

// The schedule of one run, shared by the calling thread and the pool threads that help. A helper
// may begin after run() has returned (the pool had no thread free until then): it then finds
// `over` set and returns without touching the tasks or the cancel flag, which may be gone.
struct TaskGraph::Run {
    Run(std::vector<Task>& t, std::atomic<bool>& c)
        : tasks(t), cancel(c), count(t.size()), trace(std::getenv("SKEWSCOPE_DEBUG") != nullptr), t0(std::chrono::steady_clock::now()) {}

    bool better(Id a, Id b) const {  // a runs before b
        return tasks[a].priority != tasks[b].priority ? tasks[a].priority > tasks[b].priority : a < b;
    }
    void push(Id id) {
        auto pos = std::lower_bound(ready.begin(), ready.end(), id, [&](Id x, Id y) { return better(y, x); });
        ready.insert(pos, id);
    }
    double ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }

    // (lock held) Runs the best ready task with the lock released; its dependents become ready.
    void runOne(std::unique_lock<std::mutex>& lock, size_t self) {
        const Id id = ready.back();
        ready.pop_back();
        ++running;
        lock.unlock();
        std::exception_ptr error;
        const double began = trace ? ms() : 0;
        try {
            tasks[id].fn();
        } catch (...) {
            error = std::current_exception();
            cancel = true;  // the other tasks stop at their next progress check
        }
        if (trace)
            std::fprintf(stderr, "skewscope: debug: task %-24s thread %zu  %8.1f .. %8.1f ms (%.1f ms)\n", tasks[id].name.c_str(), self,
                         began, ms(), ms() - began);
        lock.lock();
        --running;
        ++finished;
        tasks[id].error = error;
        if (!error)
            for (Id d : tasks[id].dependents)
                if (--tasks[d].waitingFor == 0) push(d);
        changed.notify_all();
    }

    // A pool thread's share: ready tasks, until every task has begun or the graph is cancelled.
    void help() {
        std::unique_lock<std::mutex> lock(mutex);
        if (over) return;
        const size_t self = helpers++;
        while (true) {
            changed.wait(lock, [&] { return over || !ready.empty() || finished + running == count || cancel; });
            if (over || cancel || finished + running == count) return;
            runOne(lock, self);
        }
    }

    std::vector<Task>& tasks;   // touched only while !over
    std::atomic<bool>& cancel;  // likewise
    const size_t count;
    const bool trace;
    const std::chrono::steady_clock::time_point t0;
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<Id> ready;  // kept ordered: best (highest priority, then first added) last
    size_t finished = 0, running = 0, helpers = 0;
    bool over = false;
};

void TaskGraph::run(size_t threads, std::atomic<bool>& cancel, const std::function<bool()>& poll, ThreadPool& pool) {
    auto r = std::make_shared<Run>(tasks_, cancel);
    for (Id i = 0; i < tasks_.size(); ++i)
        if (tasks_[i].waitingFor == 0) r->push(i);
    const size_t helpers = std::max<size_t>(1, threads);
    // without a thread of the pool (none could be started) this thread runs the tasks, polling
    // between them
    const bool alone = pool.lend(helpers, [r] { r->help(); }) == 0;
    size_t finished = 0;
    {
        using Clock = std::chrono::steady_clock;
        constexpr auto kPollEvery = std::chrono::milliseconds(30);
        std::unique_lock<std::mutex> lock(r->mutex);
        auto nextPoll = Clock::now() + kPollEvery;
        while (r->finished < tasks_.size() && !(cancel && r->running == 0)) {
            if (alone && !r->ready.empty() && !cancel) r->runOne(lock, helpers);
            else r->changed.wait_until(lock, nextPoll);
            const auto now = Clock::now();
            if (now < nextPoll) continue;
            nextPoll += kPollEvery;
            if (nextPoll < now) nextPoll = now + kPollEvery;  // (after a long task of this thread's)
            lock.unlock();
            bool go = !poll || poll();
            lock.lock();
            if (!go) {
                cancel = true;
                r->changed.notify_all();
            }
        }
        r->over = true;
        r->changed.notify_all();
        finished = r->finished;
    }
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
