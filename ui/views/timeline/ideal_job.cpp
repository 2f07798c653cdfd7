#include "views/timeline/ideal_job.h"

#include <QtConcurrent/QtConcurrent>

#include "util/errors.h"

namespace skewui {

IdealJob::~IdealJob() { cancel(); }

void IdealJob::cancel() {
    if (!watcher_) return;
    cancelled_->store(true);
    watcher_->disconnect(this);
    // the computation holds its session and its flag; its result is dropped when it ends
    connect(watcher_, &QFutureWatcherBase::finished, watcher_, &QObject::deleteLater);
    watcher_->setParent(nullptr);
    watcher_ = nullptr;
}

void IdealJob::setSession(SessionPtr s) {
    cancel();
    s_ = std::move(s);
    schedule_.reset();
}

void IdealJob::set(std::shared_ptr<const skew::IdealSchedule> s) {
    cancel();
    schedule_ = std::move(s);
    emit ready();
}

void IdealJob::request() {
    if (schedule_ || watcher_ || !s_) return;
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    watcher_ = new QFutureWatcher<std::shared_ptr<const skew::IdealSchedule>>(this);
    connect(watcher_, &QFutureWatcherBase::finished, this, [this] {
        auto* w = watcher_;
        watcher_ = nullptr;
        schedule_ = w->result();
        w->deleteLater();
        emit ready();
    });
    watcher_->setFuture(QtConcurrent::run([s = s_, flag = cancelled_]() -> std::shared_ptr<const skew::IdealSchedule> {
        try {
            return std::make_shared<const skew::IdealSchedule>(
                skew::idealSchedule(s->profile, s->analysis, [flag] { return flag->load(); }));
        } catch (const skew::Cancelled&) {
            return nullptr;
        } catch (const std::exception& e) {
            auto none = std::make_shared<skew::IdealSchedule>();
            none->why = e.what();
            return none;
        }
    }));
}

}  // namespace skewui
