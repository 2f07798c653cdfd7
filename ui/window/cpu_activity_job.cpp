#include "window/cpu_activity_job.h"

namespace skewui {

void CpuActivityJob::request(SessionPtr s, int collective) {
    if (s == s_ && collective == collective_ && last_) {
        emit ready(last_);
        return;
    }
    job_.cancel();
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
    job_.start(
        [s = s_, w](const std::atomic<bool>& cancelled) {
            return std::make_shared<const skew::CpuActivity>(skew::readCpuActivity(s->profile, w, &cancelled));
        },
        [this](std::shared_ptr<const skew::CpuActivity> a) {
            last_ = std::move(a);
            emit ready(last_);
        });
}

}  // namespace skewui
