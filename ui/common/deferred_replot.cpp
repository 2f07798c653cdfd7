// Replots that wait until they are seen (deferred_replot.h): a helper object per plot, its child,
// that remembers a replot owed and pays it when the plot is shown or a batch ends.
#include "common/deferred_replot.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QPointer>
#include <QTimer>

#include <vector>

namespace skewui {

namespace {

int batchDepth = 0;

class DeferredReplot : public QObject {
public:
    explicit DeferredReplot(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        setObjectName(QStringLiteral("skewscope-deferred-replot"));
        plot->installEventFilter(this);
        // any replot (a resize's, an export's, ours) draws the current state: nothing is owed then
        connect(plot, &QCustomPlot::afterReplot, this, [this] { owed_ = false; });
    }
    static DeferredReplot* of(QCustomPlot* plot) {
        auto* d = plot->findChild<DeferredReplot*>(QStringLiteral("skewscope-deferred-replot"), Qt::FindDirectChildrenOnly);
        return d ? d : new DeferredReplot(plot);
    }
    void request() {
        const bool inShownWindow = plot_->window()->isVisible();
        if (!inShownWindow || (plot_->isVisible() && batchDepth == 0)) {
            plot_->replot();
            return;
        }
        owed_ = true;
        if (batchDepth > 0) batched().push_back(this);
    }
    // after a batch: on screen, replotted in an event of its own; hidden, when shown
    void batchEnded() {
        if (!owed_ || !plot_->isVisible() || queued_) return;
        queued_ = true;
        // a timer, not a posted event: the input and timers that came due during the batch go first
        QTimer::singleShot(1, this, [this] {
            queued_ = false;
            if (owed_ && plot_->isVisible()) plot_->replot();
        });
    }
    static std::vector<QPointer<DeferredReplot>>& batched() {
        static std::vector<QPointer<DeferredReplot>> list;
        return list;
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        // shown: before its first paint (the resize that may come with it replots first); shown by
        // a batch (the window's first capture), after it
        if (o != plot_ || e->type() != QEvent::Show || !owed_) return false;
        if (batchDepth > 0)
            batched().push_back(this);
        else
            plot_->replot();
        return false;
    }

private:
    QCustomPlot* plot_;
    bool owed_ = false, queued_ = false;
};

}  // namespace

void replotWhenShown(QCustomPlot* plot) {
    DeferredReplot::of(plot)->request();
}

ReplotBatch::ReplotBatch() {
    ++batchDepth;
}

ReplotBatch::~ReplotBatch() {
    if (--batchDepth > 0) return;
    auto list = std::move(DeferredReplot::batched());
    DeferredReplot::batched().clear();
    for (const auto& d : list)
        if (d) d->batchEnded();
}

}  // namespace skewui
