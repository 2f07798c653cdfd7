#include "views/timeline/ideal_job.h"

#include <utility>

#include "util/errors.h"

namespace skewui {

void IdealJob::setSession(SessionPtr s) {
    job_.cancel();
    waiting_ = false;
    s_ = std::move(s);
    schedule_.reset();
}

void IdealJob::set(std::shared_ptr<const skew::IdealSchedule> s) {
    job_.cancel();
    waiting_ = false;
    schedule_ = std::move(s);
    emit ready();
}

void IdealJob::whatIfLoaded() {
    if (std::exchange(waiting_, false)) request();
}

void IdealJob::request() {
    if (schedule_ || job_.running() || !s_) return;
    // (read on the UI thread, where the what-if is put in)
    waiting_ = s_->analysis.whatIf.pending;
    if (waiting_) return;
    job_.start(
        [s = s_](const std::atomic<bool>& cancelled) -> std::shared_ptr<const skew::IdealSchedule> {
            try {
                return std::make_shared<const skew::IdealSchedule>(
                    skew::idealSchedule(s->profile, s->analysis, [&cancelled] { return cancelled.load(); }));
            } catch (const skew::Cancelled&) {
                return nullptr;
            } catch (const std::exception& e) {
                auto none = std::make_shared<skew::IdealSchedule>();
                none->why = e.what();
                return none;
            }
        },
        [this](std::shared_ptr<const skew::IdealSchedule> schedule) {
            schedule_ = std::move(schedule);
            emit ready();
        });
}

}  // namespace skewui
