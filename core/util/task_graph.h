#pragma once
// A small scheduler for the loader: tasks with dependencies run on up to N threads; a task becomes
// ready when all its dependencies have finished, and ready tasks run by priority, then in the order
// they were added. Results never depend on the order tasks ran in: each task writes its own slot.
// The first failure (by task order) is rethrown by run(); a cancel stops the graph.
// With SKEWSCOPE_DEBUG set, run() prints each task's name, thread and times to stderr.

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "util/thread_pool.h"

namespace skew {

class TaskGraph {
public:
    using Id = size_t;

    Id add(std::string name, std::function<void()> fn, const std::vector<Id>& deps = {}, int priority = 0);
    size_t size() const { return tasks_.size(); }

    // Runs every task on up to `threads` threads of `pool`. `cancel` is shared with the tasks (they
    // poll it and throw Cancelled); it is set when a task fails or `poll` returns false. `poll` runs
    // on the calling thread about every 30 ms while tasks run; when the pool has no thread (none
    // could be started), the calling thread runs the tasks itself, polling between them. Rethrows
    // the failure of the first task (in the order added) that failed with something other than
    // Cancelled, else Cancelled.
    void run(size_t threads, std::atomic<bool>& cancel, const std::function<bool()>& poll, ThreadPool& pool = ThreadPool::shared());

private:
    struct Task {
        std::string name;
        std::function<void()> fn;
        std::vector<Id> dependents;
        size_t waitingFor = 0;
        int priority = 0;
        std::exception_ptr error;
    };
    struct Run;  // one run's schedule, shared with the pool threads that help
    std::vector<Task> tasks_;
};

}  // namespace skew
