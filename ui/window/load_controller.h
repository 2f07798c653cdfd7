#pragma once
// Loading off the UI thread, one capture (File > Open, a reload, a re-analysis) or two compared (File >
// Compare): one load at a time, its progress polled every 100 ms (so the loader never floods the event
// loop) into a progress bar with a Cancel button, for the status bar. A load asked for while another
// runs cancels that one and starts when it has stopped. After a capture is shown, the snapshots of its
// freshly read files are stored in the background (the profile cache, none with SKEWSCOPE_NO_CACHE).
// What a capture's first picture needs beyond the session is prepared by the same worker (the
// table's widest texts and its rows' order), and a capture that is no longer shown is freed by a worker too (its
// memory given back to the system), so that the UI thread only swaps the pictures (issue 24). The
// workers are the controller's own, at a lower priority than the UI thread (on two cores they would
// otherwise take turns with it), and never waited for by the UI thread while the window lives.
// A capture's what-if (core's analysis/whatif.h) and the run views' indexes (the timeline's level of
// detail, the step map: core's buildViewIndexes) are left out of its load, so that its first picture
// does not wait for them: once the window has shown the pictures they are computed in the background
// (on the same workers), the indexes first, and each filled into the session (viewIndexesLoaded,
// whatIfLoaded); a new load or the controller's end cancels them, and a cancelled one is never filled
// in. Comparisons compute both in the load.
// The controller cancels its load and waits for it, the snapshot and the release jobs before it
// goes: their workers read its members.

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/whatif.h"
#include "common/background_job.h"
#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "session.h"

namespace skew {
class ProfileCache;
}

class QProgressBar;
class QPushButton;
class QThreadPool;
class QTimer;

namespace skewui {

// What to load: one capture's files, or with filesB a comparison of capture `files` (A, before)
// with capture `filesB` (B, after); analysed with `options`. A capture's table rows are put in the
// order of column `sortColumn` (-1: none) by the worker.
struct LoadRequest {
    QStringList files, filesB;
    skew::AnalysisOptions options;
    int sortColumn = -1;
    Qt::SortOrder sortOrder = Qt::AscendingOrder;
    bool comparison() const { return !filesB.isEmpty(); }
};

class LoadController : public QObject {
    Q_OBJECT
public:
    explicit LoadController(QObject* parent = nullptr);
    ~LoadController() override;

    // hidden while nothing loads; parentless until the window puts them in its status bar
    QProgressBar* progressBar() const { return progressBar_; }
    QPushButton* cancelButton() const { return cancelButton_; }

    void load(const LoadRequest& r);  // while a load runs: cancels it, and r starts when it has stopped
    void cancel() { cancel_ = true; }
    bool isLoading() const { return loading_; }

    // after `s` is shown: the snapshots of its freshly read files, stored in the background
    void storeSnapshots(SessionPtr s);
    int snapshotJobCount() const { return int(snapshotJobs_.size()); }  // running; a finished one is dropped

    // the table texts the worker measured for `s` (the session loaded last), else null
    const CollectiveModel::WidestTexts* tableTexts(const Session* s) const {
        return texts_ && textsFor_ == s ? texts_.get() : nullptr;
    }
    // the table's order the worker made for `s` (the session loaded last), else null
    std::shared_ptr<const CollectiveFilter::Order> tableOrder(const Session* s) const {
        return textsFor_ == s ? order_ : nullptr;
    }
    // a session or comparison no longer shown: freed by a worker once nothing else holds it, looked
    // at every 100 ms from the next (after the swap's events, so that the worker does not take a core
    // from them; a view or a job may let it go later), then the freed heap is given back to the system
    void release(SessionPtr old) { retire(std::move(old)); }
    void release(CompareSessionPtr old) { retire(std::move(old)); }
    int releaseJobCount() const { return int(releaseJobs_.size() + retired_.size()); }  // not freed yet
    // what was left out of the load of `s` (the session loaded last, shown): its run views' indexes,
    // then its what-if, each computed in the background, then filled into it on this thread
    // (viewIndexesLoaded(s), whatIfLoaded(s)); nothing for another session or one already complete
    void completeSession(SessionPtr s);
    bool whatIfPending(const Session* s) const { return s && s->analysis.whatIf.pending; }
    bool viewIndexesPending(const Session* s) const { return s && s->viewIndexesPending; }
    bool whatIfRunning() const { return whatIfJob_.running(); }
    // tests: called in the what-if's job before it computes, with the job's cancel flag (to hold it
    // there: a slow what-if that still stops when cancelled, as the replay's stages do)
    void setWhatIfHook(std::function<void(const std::atomic<bool>&)> hook) { whatIfHook_ = std::move(hook); }
    // tests: the same in the run views' indexes' job (to keep the Timeline and Step map preparing)
    void setViewIndexesHook(std::function<void(const std::atomic<bool>&)> hook) { viewIndexesHook_ = std::move(hook); }

signals:
    void started(const LoadRequest& r);
    void loaded(SessionPtr s);
    void compared(CompareSessionPtr c);
    void cancelled(const LoadRequest& r);
    void failed(const LoadRequest& r, const QString& error);  // the loader's one line, side named for a comparison
    void snapshotFailed(const QString& error);
    void viewIndexesLoaded(SessionPtr s);  // its run views' indexes are in (completeSession)
    void whatIfLoaded(SessionPtr s);       // its what-if is in (completeSession)

private:
    // what a worker hands back: a session or a comparison, or why there is none
    struct Outcome {
        std::shared_ptr<Session> session;  // its view indexes and what-if are filled in later (completeSession)
        std::shared_ptr<const CollectiveModel::WidestTexts> texts;  // of session
        std::shared_ptr<const CollectiveFilter::Order> order;       // of session's table
        CompareSessionPtr comparison;
        std::string error;
        bool cancelled = false;
    };
    void start(const LoadRequest& r);
    void finish();

    std::unique_ptr<skew::ProfileCache> cache_;
    std::atomic<bool> cancel_{false};
    std::atomic<int> progress_{0};
    bool loading_ = false;
    LoadRequest current_, pending_;  // the load under way; the one asked for while it ran (no files: none)
    QFutureWatcher<Outcome>* watcher_ = nullptr;
    QList<QFutureWatcher<QString>*> snapshotJobs_;
    QList<QFutureWatcher<void>*> releaseJobs_;
    std::shared_ptr<const CollectiveModel::WidestTexts> texts_;
    std::shared_ptr<const CollectiveFilter::Order> order_;
    const Session* textsFor_ = nullptr;  // what texts_ and order_ are for: compared only, never read
    void retire(std::shared_ptr<const void> old);
    void releaseRetired();  // the retired captures held here alone, to a worker
    void releaseLater(std::shared_ptr<const void> old);
    std::vector<std::shared_ptr<const void>> retired_;  // no longer shown, still held elsewhere
    QTimer* retireTimer_ = nullptr;
    QThreadPool* pool_ = nullptr;  // the workers (loads, snapshots, releases)
    // the session loaded last while its view indexes or what-if are missing: the one place it is
    // changed, on this thread
    std::shared_ptr<Session> incomplete_;
    void completeViewIndexes();
    void completeWhatIf();
    BackgroundJob<std::shared_ptr<skew::ViewIndexes>> viewsJob_{this};
    BackgroundJob<std::shared_ptr<skew::WhatIfOutcome>> whatIfJob_{this};
    std::function<void(const std::atomic<bool>&)> whatIfHook_, viewIndexesHook_;
    QPointer<QProgressBar> progressBar_;  // deleted with the status bar they are put in
    QPointer<QPushButton> cancelButton_;
    QTimer* progressTimer_ = nullptr;
};

}  // namespace skewui
