#pragma once
// The CPU row's data (core's scene/cpu_activity.h) for the selected collective: its window is
// known at once, the late arriver's thread's calls and samples are read from its export off the
// GUI thread (a scan of seconds on a big export). A new request or session cancels a read under way;
// its result is dropped, never shown for another collective. The last result is kept, so that
// selecting the same collective again does not read again.

#include <QObject>

#include <memory>

#include "common/background_job.h"
#include "scene/cpu_activity.h"
#include "session.h"

namespace skewui {

class CpuActivityJob : public QObject {
    Q_OBJECT
public:
    explicit CpuActivityJob(QObject* parent = nullptr) : QObject(parent) {}

    // the activity of `collective` of `s`: ready() now when it has no window or is the last one
    // read, later when the export must be read
    void request(SessionPtr s, int collective);
    void cancel() { job_.cancel(); }
    bool running() const { return job_.running(); }
    std::shared_ptr<const skew::CpuActivity> last() const { return last_; }

signals:
    void ready(std::shared_ptr<const skew::CpuActivity> activity);

private:
    SessionPtr s_;
    int collective_ = -1;
    std::shared_ptr<const skew::CpuActivity> last_;
    BackgroundJob<std::shared_ptr<const skew::CpuActivity>> job_{this};
};

}  // namespace skewui
