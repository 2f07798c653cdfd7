// Exporting the compare view: a copy laid out at the export's size with this view's pair,
// selection, zoom and moved splitters, painted as vectors in SVG and PDF.

#include <QCoreApplication>
#include <QLayout>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <qcustomplot.h>

#include <memory>

#include "common/view_export.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_delta_model.h"
#include "views/compare/compare_view.h"
#include "views/stepmap/stepmap_view.h"

namespace skewui {

void CompareView::copyStateTo(CompareView& o, const QSize& size) const {
    o.setComparison(c_, std::max(pair_, 0));
    const int sel = fromB_ ? selB_ : selA_;
    if (sel >= 0) o.selectCollective(fromB_, sel);
    o.resize(size);
    o.setAttribute(Qt::WA_DontShowOnScreen);
    o.show();
    QCoreApplication::sendPostedEvents();
    o.layout()->activate();
    if (splittersMoved_) {
        // the user's proportions, scaled to the export's size
        for (auto [mine, theirs] : {std::pair{outer_, o.outer_}, std::pair{top_, o.top_}, std::pair{bottom_, o.bottom_},
                                    std::pair{maps_, o.maps_}, std::pair{colls_, o.colls_}}) {
            QList<int> s = mine->sizes();
            int total = 0, their = 0;
            for (int x : s) total += x;
            for (int x : theirs->sizes()) their += x;
            if (total <= 0) continue;
            for (int& x : s) x = int(qint64(x) * their / total);
            theirs->setSizes(s);
        }
        o.splittersMoved_ = true;
    }
    if (mapsZoomed_) {
        o.syncing_ = true;
        o.mapA_->xAxis->setRange(mapA_->xAxis->range());
        o.mapB_->xAxis->setRange(mapB_->xAxis->range());
        o.syncing_ = false;
        o.mapsZoomed_ = true;
    }
    for (auto [mine, theirs] : {std::pair{collA_, o.collA_}, std::pair{collB_, o.collB_}})
        if (!mine->isFitted()) theirs->xAxis->setRange(mine->xAxis->range());
    QCoreApplication::sendPostedEvents();
    for (QCustomPlot* plot : o.findChildren<QCustomPlot*>()) plot->replot();
    // the views' spans may have shown the scale note: lay out again with it
    QCoreApplication::sendPostedEvents();
    o.layout()->activate();
    for (QCustomPlot* plot : o.findChildren<QCustomPlot*>()) plot->replot();
}

// A picture has no use for controls: the step maps' "Set the step pattern..." buttons are left out
// (their maps still say why they are empty), and the delta table shows the rows that fit without a
// scroll bar, and none cut at the bottom (review defect 13).
void CompareView::leaveOutControls() {
    for (StepMapView* m : {mapA_, mapB_}) m->settingsButton()->hide();
    deltaTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    deltaTable_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // whole rows only: the first row the viewport cuts and those after it are left out
    bool cut = false;
    for (int r = 0; r < deltaModel_->rowCount(); ++r) {
        cut = cut || deltaTable_->rowViewportPosition(r) + deltaTable_->rowHeight(r) > deltaTable_->viewport()->height();
        deltaTable_->setRowHidden(r, cut);
    }
}

namespace {

// While the copy is rendered, each plot paints itself with QCustomPlot::toPainter, through the
// painter's redirection into the export, instead of blitting its pixel buffer: its axes, bars,
// curves and labels stay vectors in SVG and PDF (a PNG is the same either way).
class PlotsAsVectors : public QObject {
public:
    explicit PlotsAsVectors(QWidget& root) {
        for (QCustomPlot* plot : root.findChildren<QCustomPlot*>()) plot->installEventFilter(this);
    }
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() != QEvent::Paint) return false;
        auto* plot = static_cast<QCustomPlot*>(o);
        QCPPainter painter(plot);
        plot->toPainter(&painter, plot->width(), plot->height());
        return true;
    }
};

}  // namespace

bool CompareView::exportTo(const QString& path, int width, int height, QString* error) const {
    CompareView copy;
    copyStateTo(copy, QSize(width, height));
    copy.leaveOutControls();
    const bool vector = !path.endsWith(".png", Qt::CaseInsensitive);
    std::unique_ptr<PlotsAsVectors> vectors = vector ? std::make_unique<PlotsAsVectors>(copy) : nullptr;
    return exportPainted(path, width, height, tr("Skewscope comparison"), [&](QPainter& p, const QSize&) { copy.render(&p); }, error);
}

}  // namespace skewui
