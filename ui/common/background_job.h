#pragma once
// One computation off the GUI thread whose result is wanted only until something newer is asked
// for: start() runs it on Qt's global pool and hands its result to `done` on the owner's thread;
// cancel() (and the destructor) sets its flag and drops it: `done` is never called for it, and it
// is freed when it ends (what it holds, a session, lives until then). The views' jobs (the ideal
// schedule, the CPU row) are made of it.

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrent>

#include <atomic>
#include <memory>

namespace skewui {

template <typename T>
class BackgroundJob {
public:
    explicit BackgroundJob(QObject* owner) : owner_(owner) {}
    ~BackgroundJob() { cancel(); }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    bool running() const { return watcher_ != nullptr; }

    void cancel() {
        if (!watcher_) return;
        cancelled_->store(true);
        watcher_->disconnect(owner_);
        QObject::connect(watcher_, &QFutureWatcherBase::finished, watcher_, &QObject::deleteLater);
        watcher_->setParent(nullptr);
        watcher_ = nullptr;
    }

    // work(const std::atomic<bool>& cancelled) -> T, on `pool` (Qt's global one when null); done(T)
    // on the owner's thread
    template <typename Work, typename Done>
    void start(Work work, Done done, QThreadPool* pool = nullptr) {
        cancel();
        cancelled_ = std::make_shared<std::atomic<bool>>(false);
        watcher_ = new QFutureWatcher<T>(owner_);
        QObject::connect(watcher_, &QFutureWatcherBase::finished, owner_, [this, done] {
            auto* w = watcher_;
            watcher_ = nullptr;
            T result = w->result();
            w->deleteLater();
            done(std::move(result));
        });
        auto run = [work, flag = cancelled_]() -> T { return work(*flag); };
        watcher_->setFuture(pool ? QtConcurrent::run(pool, run) : QtConcurrent::run(run));
    }

private:
    QObject* owner_;
    QFutureWatcher<T>* watcher_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelled_;
};

}  // namespace skewui
