#pragma once
// The timeline's ideal schedule (the what-if's ghost bars, core's analysis/whatif_schedule.h),
// computed off the GUI thread when first asked for and kept for its session; a new session or the
// view's end cancels a computation under way (its result is dropped, never shown on another session).
// Asked for while the session's what-if is still being computed, it waits for it (whatIfLoaded):
// the two replays never take their memory at once, each checked against what there is, and the job
// reads the what-if's outcome (left out for want of memory?) only once the UI thread has put it in.

#include <QObject>

#include <memory>

#include "analysis/whatif_schedule.h"
#include "common/background_job.h"
#include "session.h"

namespace skewui {

class IdealJob : public QObject {
    Q_OBJECT
public:
    explicit IdealJob(QObject* parent = nullptr) : QObject(parent) {}

    void setSession(SessionPtr s);  // drops the schedule, cancels a computation
    void request();                 // starts the computation unless done or under way (or waits)
    void whatIfLoaded();            // the session's what-if is in: a computation waiting for it starts
    void set(std::shared_ptr<const skew::IdealSchedule> s);  // a schedule computed elsewhere (render)
    const skew::IdealSchedule* schedule() const { return schedule_.get(); }
    std::shared_ptr<const skew::IdealSchedule> shared() const { return schedule_; }
    bool running() const { return job_.running() || waiting_; }  // under way, or waiting for the what-if

signals:
    void ready();  // the schedule is there (it may be empty: IdealSchedule::why says why)

private:
    SessionPtr s_;
    std::shared_ptr<const skew::IdealSchedule> schedule_;
    bool waiting_ = false;  // asked for while the what-if was pending
    BackgroundJob<std::shared_ptr<const skew::IdealSchedule>> job_{this};
};

}  // namespace skewui
