#include "views/timeline/ideal_job.h"

#include "util/errors.h"

namespace skewui {

void IdealJob::setSession(SessionPtr s) {
    job_.cancel();
    s_ = std::move(s);
    schedule_.reset();
}

void IdealJob::set(std::shared_ptr<const skew::IdealSchedule> s) {
    job_.cancel();
    schedule_ = std::move(s);
    emit ready();
}

void IdealJob::request() {
    if (schedule_ || job_.running() || !s_) return;
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
