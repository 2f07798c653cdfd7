#include "window/load_controller.h"

#include <cstdio>

#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>

#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "cache/profile_cache.h"
#include "cache/summary_file.h"
#include "nsys/export_reader.h"
#include "util/release_memory.h"
#include "util/stage_clock.h"

namespace skewui {

namespace {
std::vector<std::string> paths(const QStringList& files) {
    std::vector<std::string> out;
    for (const auto& f : files) out.push_back(f.toStdString());
    return out;
}

// The calling worker at a lower priority than the UI thread, once: on two cores a load's threads,
// a snapshot and a release take a core from the UI thread as it swaps the pictures (issue 24). On
// Linux the nice value is the thread's own, and the threads it starts (the loader's helpers) inherit it.
void yieldToUiThread() {
    thread_local bool lowered = false;
    if (lowered) return;
    lowered = true;
#ifdef __linux__
    ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 10);
#else
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}
}  // namespace

LoadController::LoadController(QObject* parent) : QObject(parent) {
    pool_ = new QThreadPool(this);
    retireTimer_ = new QTimer(this);
    retireTimer_->setInterval(100);
    connect(retireTimer_, &QTimer::timeout, this, &LoadController::releaseRetired);
    if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_CACHE")) {
        cache_ = std::make_unique<skew::ProfileCache>();
        // said once, on the terminal the viewer was started from; a folder that is not ours: no cache
        for (const auto& w : cache_->warnings()) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
        if (!cache_->refused().empty()) {
            std::fprintf(stderr, "skewscope: warning: %s\n", cache_->refused().c_str());
            cache_.reset();
        }
    }
    progressBar_ = new QProgressBar;
    progressBar_->setRange(0, 100);
    progressBar_->setMaximumWidth(240);
    progressBar_->hide();
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->hide();
    connect(cancelButton_, &QPushButton::clicked, this, &LoadController::cancel);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(100);  // progress is polled, so the loader never floods the event loop
    connect(progressTimer_, &QTimer::timeout, this, [this] { progressBar_->setValue(progress_.load()); });
    watcher_ = new QFutureWatcher<Outcome>(this);
    connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &LoadController::finish);
}

LoadController::~LoadController() {
    cancel_ = true;
    viewsJob_.cancel();
    whatIfJob_.cancel();  // before the pool's end waits for its workers: the replay stops at its next stage
    watcher_->waitForFinished();
    for (auto* job : snapshotJobs_) job->waitForFinished();  // a snapshot is never left half written
    for (auto* job : releaseJobs_) job->waitForFinished();
    // in the window's status bar they are its; left out of one, they are ours
    if (progressBar_ && !progressBar_->parent()) delete progressBar_;
    if (cancelButton_ && !cancelButton_->parent()) delete cancelButton_;
}

void LoadController::load(const LoadRequest& r) {
    if (loading_) {
        cancel_ = true;
        pending_ = r;
        return;
    }
    start(r);
}

void LoadController::start(const LoadRequest& r) {
    // the load has the cores; a load that ends without a capture resumes them (finish)
    viewsJob_.cancel();
    whatIfJob_.cancel();
    loading_ = true;
    current_ = r;
    cancel_ = false;
    progress_ = 0;
    progressBar_->setValue(0);
    progressBar_->show();
    cancelButton_->show();
    progressTimer_->start();
    emit started(r);
    const auto progress = [this](double f) {
        progress_ = int(f * 100);
        return !cancel_.load();
    };
    skew::AnalysisOptions options = r.options;
    options.whatIf = r.comparison();  // one capture: after its first picture (completeSession), as its views' indexes
    watcher_->setFuture(QtConcurrent::run(pool_, [this, a = paths(r.files), b = paths(r.filesB), options, progress,
                                                  column = r.sortColumn, order = r.sortOrder]() -> Outcome {
        yieldToUiThread();
        Outcome o;
        try {
            if (b.empty()) {
                // the table's texts measured beside the views' indexes (both before the first picture)
                const auto texts = [&o](const Session& s) {
                    skew::StageClock clock("viewer");
                    o.texts = std::make_shared<const CollectiveModel::WidestTexts>(CollectiveModel::widestTexts(s));
                    clock.done("table texts");
                };
                o.session = skew::loadSession(a, options, progress, cache_.get(), &skew::summaryFiles(), texts, true);
                skew::StageClock clock("viewer");
                o.order = std::make_shared<const CollectiveFilter::Order>(
                    CollectiveFilter::Order{column, order, CollectiveFilter::sortedRows(o.session->analysis, column, order)});
                clock.done("table order");
            } else o.comparison = skew::loadComparison(a, b, options, progress, cache_.get(), &skew::summaryFiles());
        } catch (const skew::Cancelled&) {
            o.cancelled = true;
        } catch (const std::exception& e) {
            o.error = e.what();
        }
        return o;
    }));
}

void LoadController::finish() {
    loading_ = false;
    progressTimer_->stop();
    progressBar_->hide();
    cancelButton_->hide();
    const Outcome o = watcher_->result();
    if (!pending_.files.isEmpty()) {
        start(std::exchange(pending_, LoadRequest{}));
        return;
    }
    if (o.cancelled || !o.error.empty()) completeSession(incomplete_);  // the capture shown stays: its jobs go on
    else incomplete_.reset();
    if (o.cancelled) emit cancelled(current_);
    else if (!o.error.empty()) emit failed(current_, QString::fromStdString(o.error));
    else if (current_.comparison()) emit compared(o.comparison);
    else {
        texts_ = o.texts;
        order_ = o.order;
        textsFor_ = o.session.get();
        incomplete_ = o.session->analysis.whatIf.pending || o.session->viewIndexesPending ? o.session : nullptr;
        emit loaded(o.session);
    }
}

void LoadController::completeSession(SessionPtr s) {
    // while a load runs it has the cores: finish() resumes them when that load brings no capture
    if (!s || s.get() != incomplete_.get() || viewsJob_.running() || whatIfJob_.running() || loading_) return;
    if (incomplete_->viewIndexesPending) completeViewIndexes();  // then the what-if
    else if (incomplete_->analysis.whatIf.pending) completeWhatIf();
    else incomplete_.reset();
}

void LoadController::completeViewIndexes() {
    // the job holds the session (read only) until it ends; moved in on this thread, where the views read them
    SessionPtr s = incomplete_;
    viewsJob_.start(
        [s, hook = viewIndexesHook_](const std::atomic<bool>& cancelled) -> std::shared_ptr<skew::ViewIndexes> {
            yieldToUiThread();
            if (hook) hook(cancelled);
            try {
                return std::make_shared<skew::ViewIndexes>(skew::buildViewIndexes(*s));
            } catch (const std::exception& e) {  // the run views stay without them, never a crash
                std::fprintf(stderr, "skewscope: the run views' indexes were not built: %s\n", e.what());
                return nullptr;
            }
        },
        [this](std::shared_ptr<skew::ViewIndexes> v) {
            if (!incomplete_) return;
            std::shared_ptr<Session> s = incomplete_;
            if (!v) {
                if (s->analysis.whatIf.pending) completeWhatIf();
                return;
            }
            skew::fillViewIndexes(*s, std::move(*v));
            emit viewIndexesLoaded(s);
            completeSession(s);  // the what-if next
        },
        pool_);
}

void LoadController::completeWhatIf() {
    SessionPtr s = incomplete_;
    // the job holds the session (read only) until it ends; `stop` is its cancel flag
    whatIfJob_.start(
        [s, hook = whatIfHook_](const std::atomic<bool>& cancelled) -> std::shared_ptr<skew::WhatIfOutcome> {
            yieldToUiThread();
            if (hook) hook(cancelled);
            std::shared_ptr<skew::WhatIfOutcome> o;
            try {
                o = std::make_shared<skew::WhatIfOutcome>(
                    skew::computeWhatIf(s->profile, s->analysis, [&cancelled] { return cancelled.load(); }));
            } catch (const skew::Cancelled&) {
            } catch (const std::exception& e) {  // said among the capture's warnings, never a crash
                o = std::make_shared<skew::WhatIfOutcome>();
                o->whatIf.notComputed = e.what();  // the What-if tab says it too
                o->warnings.push_back("what-if: not computed: " + o->whatIf.notComputed);
            }
            skew::releaseFreedMemory();  // the replay graph's hundreds of megabytes go back to the system
            return o;
        },
        [this](std::shared_ptr<skew::WhatIfOutcome> w) {
            if (!w || !incomplete_) return;
            std::shared_ptr<Session> s = std::exchange(incomplete_, nullptr);
            // on the UI thread, as the views read it; no job reads the what-if or the warnings
            skew::fillWhatIf(s->analysis, std::move(*w));
            emit whatIfLoaded(s);
        },
        pool_);  // the controller's workers, below the UI thread (Qt's global pool paints)
}

void LoadController::storeSnapshots(SessionPtr s) {
    if (!cache_ || !skew::hasFreshFiles(s->profile)) return;
    // in the background, after the profile is shown: the session is immutable and kept alive here
    skew::ProfileCache* cache = cache_.get();
    auto* job = new QFutureWatcher<QString>(this);
    snapshotJobs_.push_back(job);
    connect(job, &QFutureWatcher<QString>::finished, this, [this, job] {
        snapshotJobs_.removeOne(job);  // held only while it runs
        if (QString error = job->result(); !error.isEmpty()) emit snapshotFailed(error);
        job->deleteLater();
    });
    job->setFuture(QtConcurrent::run(pool_, [s, cache]() -> QString {
        yieldToUiThread();
        return QString::fromStdString(skew::storeFreshSnapshots(cache, s->profile));
    }));
}

void LoadController::retire(std::shared_ptr<const void> old) {
    if (!old) return;
    retired_.push_back(std::move(old));
    if (!retireTimer_->isActive()) retireTimer_->start();  // after the swap's events: the new picture first
}

// A capture that a view or a job still holds (the search until the swap's last event, a CPU row
// being read) would be freed where that one lets it go, maybe on the UI thread: it waits here
// until this is its last reference, and goes to a worker then.
void LoadController::releaseRetired() {
    for (auto it = retired_.begin(); it != retired_.end();) {
        if (it->use_count() > 1) {
            ++it;
            continue;
        }
        releaseLater(std::move(*it));
        it = retired_.erase(it);
    }
    if (retired_.empty()) retireTimer_->stop();
    else if (!retireTimer_->isActive()) retireTimer_->start();
}

void LoadController::releaseLater(std::shared_ptr<const void> old) {
    auto* job = new QFutureWatcher<void>(this);
    releaseJobs_.push_back(job);
    connect(job, &QFutureWatcher<void>::finished, this, [this, job] {
        releaseJobs_.removeOne(job);
        job->deleteLater();
    });
    // the UI thread keeps no reference: the capture's hundreds of megabytes are freed here, and the
    // heap's free blocks (the old capture's and the load's temporaries) go back to the system
    job->setFuture(QtConcurrent::run(pool_, [old = std::move(old)]() mutable {
        yieldToUiThread();
        old.reset();
        skew::releaseFreedMemory();
    }));
}

}  // namespace skewui
