#include "window/cpu_activity_job.h"

#include <QtConcurrent/QtConcurrent>

namespace skewui {

CpuActivityJob::~CpuActivityJob() { cancel(); }

void CpuActivityJob::cancel() {
    if (!watcher_) return;
    cancelled_->store(true);
    watcher_->disconnect(this);
    // the read holds its session and its flag; its result is dropped when it ends
    connect(watcher_, &QFutureWatcherBase::finished, watcher_, &QObject::deleteLater);
    watcher_->setParent(nullptr);
    watcher_ = nullptr;
}

void CpuActivityJob::request(SessionPtr s, int collective) {
    if (s == s_ && collective == collective_ && last_) {
        emit ready(last_);
        return;
    }
    cancel();
    s_ = std::move(s);
    collective_ = collective;
    last_.reset();
    if (!s_) return;
    const skew::CpuWindow w = skew::cpuWindowFor(s_->profile, s_->analysis, collective);
    if (!w.present) {
        last_ = std::make_shared<const skew::CpuActivity>(skew::cpuActivity(s_->profile, w, nullptr));
        emit ready(last_);
        return;
    }
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    watcher_ = new QFutureWatcher<std::shared_ptr<const skew::CpuActivity>>(this);
    connect(watcher_, &QFutureWatcherBase::finished, this, [this] {
        auto* f = watcher_;
        watcher_ = nullptr;
        last_ = f->result();
        f->deleteLater();
        emit ready(last_);
    });
    watcher_->setFuture(QtConcurrent::run([s = s_, w, flag = cancelled_]() {
        return std::make_shared<const skew::CpuActivity>(skew::readCpuActivity(s->profile, w, flag.get()));
    }));
}

}  // namespace skewui
