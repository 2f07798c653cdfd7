#include "views/collective/collective_view.h"
#include "views/rank_ticker.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "common/deferred_replot.h"
#include "common/view_export.h"
#include "views/collective/plot_elements.h"
#include "views/plot_keys.h"
#include "common/rank_labels.h"
#include "common/palette.h"
#include "scene/view_texts.h"

namespace skewui {

using skew::KernelClass;
using namespace palette;

namespace {

QColor barColor(const Bar& b) {
    switch (b.kind) {
    case KernelClass::NcclWait: return b.late ? kLateWait : kWait;
    case KernelClass::NcclTransfer: return b.late ? kLate : kTransfer;
    default: return classColor(b.kind);
    }
}

}  // namespace

class BarsLayer : public QCPLayerable {
public:
    explicit BarsLayer(CollectiveView* v) : QCPLayerable(v, QString("main")), view_(v) {}

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(false); }
    QRect clipRect() const override { return view_->axisRect()->rect(); }

    void draw(QCPPainter* p) override {
        const CollectiveScene& sc = view_->scene_;
        const SceneLayout& L = view_->layout_;
        const QRect area = view_->axisRect()->rect();
        if (sc.collective < 0) {
            p->setPen(Qt::darkGray);
            p->drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                        view_->emptyText_.isEmpty() ? QString::fromStdString(skew::noCollectiveSelectedText()) : view_->emptyText_);
            return;
        }
        if (L.bars.size() != sc.bars.size()) return;  // no room for a plot (the texts took the height): nothing laid out
        p->setPen(Qt::NoPen);
        // thin lanes, one class per pixel column (lane_lod.h)
        for (const LaneRect& r : L.lanes) p->fillRect(r.rect, classColor(r.cls));
        // a highlighted thin-lane kernel is drawn at its own extent over the merged lane
        for (int i : view_->highlight_) {
            const Bar& b = sc.bars[size_t(i)];
            if (!b.sub) continue;
            p->fillRect(L.bars[size_t(i)], barColor(b));
        }
        // the predecessor on top, emphasised
        for (const QRectF& r : L.predRects) {
            p->setPen(QPen(kPredecessor.darker(130), 1.5));
            p->setBrush(kPredecessor);
            p->drawRect(r);
        }
        // main bars, the late arriver's last: on rows a pixel high (1,000 ranks) its neighbours'
        // bars would cover it
        p->setPen(Qt::NoPen);
        for (bool late : {false, true})
            for (size_t i = 0; i < sc.bars.size() && !sc.bars[i].sub; ++i) {
                const Bar& b = sc.bars[i];
                if (b.late != late) continue;
                const QRectF& r = L.bars[i];
                p->fillRect(r, barColor(b));
                if (b.kind == KernelClass::NcclWait) p->fillRect(r, QBrush(barColor(b).darker(125), Qt::BDiagPattern));
            }
        // the bar whose details are shown
        for (int i : view_->highlight_) {
            QRectF r = L.bars[size_t(i)];
            if (r.isNull()) continue;  // a kernel of a thin lane not drawn (dense rows)
            p->setPen(QPen(kDetailsOutline, 2));
            p->setBrush(Qt::NoBrush);
            p->drawRect(r.adjusted(-2, -2, 2, 2));
        }
        // the late arriver's CPU launch
        const LaunchGeometry& g = L.launch;
        if (g.shown) {
            p->setPen(QPen(kLaunchNccl, 1.5, Qt::DashLine));
            p->drawLine(QPointF(g.lineX0, g.lineY), QPointF(g.lineX1, g.lineY));
            p->setPen(Qt::NoPen);
            p->setBrush(kLaunchNccl);
            p->drawPolygon(g.marker);
        }
        paintCpuRow(p, view_->cpuLayout_, view_->font());
        // labels, each where the layout found room
        for (const PlacedLabel& l : L.labels) {
            if (!l.shown) continue;
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(255, 255, 255, 215));
            p->drawRect(l.rect);
            p->setFont(l.font);
            p->setPen(l.color);
            p->drawText(l.rect, Qt::AlignCenter, l.text);
        }
    }

private:
    CollectiveView* view_;
};

CollectiveView::CollectiveView(QWidget* parent) : QCustomPlot(parent), fonts_(font()) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, floorHeight_);  // explicit: the plot layout's own hint grows with its texts
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    // little air above the plot: the why-line is right above it, and the first row keeps its own
    // room for the launch label (rowRange)
    axisRect()->setMinimumMargins(QMargins(15, 4, 15, 15));
    xAxis->setLabel(tr("time since the first rank's NCCL kernel start (ms)"));
    yAxis->setRangeReversed(true);
    rowTicker_.reset(new RankTicker(yAxis));  // thinned when the rows are lower than a label (1,000 ranks)
    yAxis->setTicker(rowTicker_);
    yAxis->setSubTicks(false);
    yAxis->grid()->setVisible(false);
    plotLayout()->insertRow(0);
    title_ = new TextElement(this, QFont(font().family(), 11, QFont::Bold), Qt::black, false);
    plotLayout()->addElement(0, 0, title_);
    plotLayout()->insertRow(1);
    subtitle_ = new TextElement(this, QFont(font().family(), 9), QColor(70, 70, 70), true);
    plotLayout()->addElement(1, 0, subtitle_);
    legend_ = new LegendElement(this);
    plotLayout()->addElement(3, 0, legend_);
    bars_ = new BarsLayer(this);
    setMouseTracking(true);
    connect(this, &QCustomPlot::mousePress, this, &CollectiveView::onMousePress);
    // a zoom or pan by the user ends the fit: the range no longer follows the size
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!settingRange_) fitted_ = false;
    });
    setScene({});
}

CollectiveView::~CollectiveView() = default;

void CollectiveView::setScene(CollectiveScene scene) {
    scene_ = std::move(scene);
    layout_ = {};
    cpuWindow_ = {};
    cpuActivity_.reset();
    cpuLayout_ = {};
    highlight_.clear();
    tickWidth_ = -1;
    title_->setText(QString::fromStdString(scene_.title));
    // the why-line can be long: one line per clause, wrapped to the width when drawn
    subtitle_->setText(QString::fromStdString(scene_.subtitle).replace("; ", "\n"));
    // no collective: the message alone, not an empty time axis
    xAxis->setVisible(!scene_.rows.empty());
    yAxis->setVisible(!scene_.rows.empty());
    resetZoom();
}

void CollectiveView::setCpuWindow(const skew::CpuWindow& w) {
    cpuWindow_ = scene_.collective >= 0 && w.collective == scene_.collective ? w : skew::CpuWindow{};
    cpuActivity_.reset();
    cpuLayout_ = {};
    tickWidth_ = -1;
    if (cpuWindow_.present) scene_.fitX0 = std::min(scene_.fitX0, double(cpuWindow_.fromNs - scene_.t0));
    if (fitted_) resetZoom();
    else replotWhenShown(this);
}

void CollectiveView::setCpuActivity(std::shared_ptr<const skew::CpuActivity> a) {
    if (!a || !cpuWindow_.present || a->window.collective != cpuWindow_.collective) return;
    cpuActivity_ = std::move(a);
    replotWhenShown(this);
}

void CollectiveView::setEmptyText(const QString& text) {
    emptyText_ = text;
    replotWhenShown(this);
}

void CollectiveView::setTitleWraps(int maxLines) {
    title_->setWrap(maxLines > 0);
    title_->setWholeFigures(maxLines > 0);
    title_->setMaxLines(maxLines);
    replotWhenShown(this);
}

void CollectiveView::setSubtitleMaxLines(int n) {
    subtitle_->setMaxLines(n);
    replotWhenShown(this);
}

QString CollectiveView::subtitleShown() const { return subtitle_->shown(); }

QString CollectiveView::titleText() const { return title_->text(); }
QString CollectiveView::titleShown() const { return title_->shown(); }
QRect CollectiveView::titleRect() const { return title_->outerRect(); }

void CollectiveView::updateRowTicks() {
    // long rank labels (several files open) are elided so the plot keeps its width, keeping the
    // part that tells the files apart
    const RankLabelElider elider = RankLabelElider::withStart(QString::fromStdString(scene_.labelStart));
    int maxW = std::max(80, viewport().width() / 4);
    if (tickWidth_ == maxW) return;
    tickWidth_ = maxW;
    rowTicker_->clear();
    rowTicker_->setAlwaysLabelled(-1);
    QFontMetrics fm(yAxis->tickLabelFont());
    for (size_t i = 0; i < scene_.rows.size(); ++i) {
        const skew::SceneRow& r = scene_.rows[i];
        if (r.late) rowTicker_->setAlwaysLabelled(int(i));  // among 1,000 thinned labels too
        QString arrow = r.late ? QString::fromUtf8("  \u25B6") : QString();
        rowTicker_->addTick(double(i), elider.elide(QString::fromStdString(r.label), fm, maxW - fm.horizontalAdvance(arrow)) + arrow);
        if (cpuWindow_.present && r.rank == cpuWindow_.rank)
            rowTicker_->addTick(double(scene_.rows.size()), elider.elide(tr("CPU of %1").arg(QString::fromStdString(r.label)), fm, maxW));
    }
}

void CollectiveView::setXRange(double lo, double hi) {
    settingRange_ = true;
    xAxis->setRange(lo, hi);
    settingRange_ = false;
}

void CollectiveView::updateLayout() {
    updateRowTicks();
    // the time axis' label on two lines when one is wider than the view (it was cut at the right in
    // the compare view's narrow panes: review defect 13)
    // the time axis' label in fewer words when it is wider than the view (it was cut at the right in
    // the compare view's narrow panes: review defect 13), on two lines when even those do not fit
    const QFontMetrics lfm(xAxis->labelFont());
    QString label = tr("time since the first rank's NCCL kernel start (ms)");
    for (const QString& shorter : {tr("time since the first NCCL kernel start (ms)"), tr("time since the first NCCL start (ms)"),
                                   tr("time since the first NCCL\nkernel start (ms)")})
        if (lfm.horizontalAdvance(label) > viewport().width() - 70) label = shorter;
    xAxis->setLabel(label);
    QCustomPlot::updateLayout();
    if (scene_.collective < 0) {
        legend_->setItems({});
        layout_ = {};
        return;
    }
    auto mapping = [&] {
        AxisMapping m;
        m.plot = axisRect()->rect();
        m.x0Ns = xAxis->range().lower * 1e6;
        m.x1Ns = xAxis->range().upper * 1e6;
        m.row0 = yAxis->range().lower;
        m.row1 = yAxis->range().upper;
        return m;
    };
    // the fit: the whole collective, with room right of the latest end for the row labels
    int w = axisRect()->width();
    if (fitted_ && w > 40) {
        double lo = scene_.fitX0, hi = std::max(scene_.endX, lo + 1);
        double margin = std::min(widestRowLabel(scene_, fonts_) + 14, 0.45 * w);
        setXRange(lo / 1e6, (lo + (hi - lo) * w / std::max(1.0, w - margin)) / 1e6);
    }
    // the legend lists what is drawn at this range; its height may change the plot's
    SceneLayout pre = layoutScene(scene_, mapping(), fonts_);
    std::vector<LegendElement::Item> items;
    const DrawnKinds& d = pre.drawn;
    if (d.wait) items.push_back({kWait, tr("waiting in NCCL"), LegendElement::Item::Hatch});
    if (d.transfer) items.push_back({kTransfer, tr("transfer"), LegendElement::Item::Box});
    if (d.late || d.lateWait) items.push_back({kLate, tr("late arriver"), LegendElement::Item::Box});
    if (d.gemm) items.push_back({kGemm, tr("GEMM"), LegendElement::Item::Box});
    if (d.otherNccl) items.push_back({kOtherNccl, tr("other NCCL kernel"), LegendElement::Item::Box});
    if (d.other) items.push_back({kOther, tr("other kernel"), LegendElement::Item::Box});
    if (d.predecessor) items.push_back({kPredecessor, tr("predecessor"), LegendElement::Item::Box});
    if (d.launch) items.push_back({kLaunchNccl, tr("CPU launch"), LegendElement::Item::Triangle});
    if (!highlight_.empty()) items.push_back({kDetailsOutline, tr("shown in Details"), LegendElement::Item::Outline});
    const CpuRowLayout cpuPre = layoutCpuRow(cpuWindow_, cpuActivity_.get(), scene_.t0, mapping(), double(scene_.rows.size()));
    for (skew::CpuKind k : {skew::CpuKind::Nvtx, skew::CpuKind::CudaApi, skew::CpuKind::OsRuntime, skew::CpuKind::Sample})
        if (cpuPre.drawn[size_t(k)]) items.push_back({cpuKindColor(k), QString::fromLatin1(skew::cpuKindLabel(k)), LegendElement::Item::Box});
    legend_->setItems(std::move(items));
    QCustomPlot::updateLayout();
    // rows: room above the first row for the launch when the late arriver is the first row, below
    // the last row for its predecessor when it is the last row
    auto [r0, r1] = rowRange(int(scene_.rows.size()) + (cpuWindow_.present ? 1 : 0), axisRect()->height(), launchOnFirstRow(scene_), predecessorOnLastRow(scene_), fonts_);
    if (std::abs(yAxis->range().lower - r0) > 1e-9 || std::abs(yAxis->range().upper - r1) > 1e-9) {
        yAxis->setRange(r0, r1);
        QCustomPlot::updateLayout();
    }
    layout_ = layoutScene(scene_, mapping(), fonts_);
    cpuLayout_ = layoutCpuRow(cpuWindow_, cpuActivity_.get(), scene_.t0, mapping(), double(scene_.rows.size()));
    // on screen (not an export at another size): the view's least height keeps the rows readable
    if (readableRows_ && viewport() == rect()) {
        const int rows = int(scene_.rows.size()) + (cpuWindow_.present ? 1 : 0);
        const int plotH = readablePlotHeight(rows, launchOnFirstRow(scene_), predecessorOnLastRow(scene_), fonts_);
        const int least = std::max(floorHeight_, viewport().height() - axisRect()->height() + plotH);
        if (least != minimumHeight()) setMinimumHeight(least);
    }
    emit laidOut();
}

void CollectiveView::setFloorHeight(int h, bool readableRows) {
    floorHeight_ = h;
    readableRows_ = readableRows;
    setMinimumHeight(std::max(h, minimumHeight()));
}

QStringList CollectiveView::legendEntries() const {
    QStringList out;
    for (const auto& it : legend_->items()) out << it.t;
    return out;
}

void CollectiveView::resetZoom() {
    fitted_ = true;
    setXRange(scene_.fitX0 / 1e6, scene_.fitX1 / 1e6);
    replotWhenShown(this);
}

void CollectiveView::zoomBy(double factor) {
    fitted_ = false;
    xAxis->scaleRange(factor, xAxis->range().center());
    replotWhenShown(this);
}

void CollectiveView::panBy(double fraction) {
    fitted_ = false;
    xAxis->moveRange(xAxis->range().size() * fraction);
    replotWhenShown(this);
}

void CollectiveView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_W:  // W/S zoom, A/D pan, as in the run views and Nsight Systems
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(kKeyZoomIn); return;
    case Qt::Key_S:
    case Qt::Key_Minus: zoomBy(kKeyZoomOut); return;
    case Qt::Key_A:
    case Qt::Key_Left: panBy(-0.15); return;
    case Qt::Key_D:
    case Qt::Key_Right: panBy(0.15); return;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); return;
    default: QCustomPlot::keyPressEvent(e);
    }
}

QPointF CollectiveView::barCenter(int i) const {
    if (size_t(i) < layout_.bars.size()) return layout_.bars[size_t(i)].center();
    const Bar& b = scene_.bars[size_t(i)];
    double yv = b.sub ? b.row + kSubY : double(b.row);
    return {xAxis->coordToPixel((b.x0 + b.x1) / 2e6), yAxis->coordToPixel(yv)};
}

int CollectiveView::barAt(const QPointF& pos) const {
    if (!axisRect()->rect().contains(pos.toPoint())) return -1;
    double yv = yAxis->pixelToCoord(pos.y());
    int row = int(std::lround(yv));
    if (row < 0 || row >= int(scene_.rows.size())) return -1;
    double off = yv - row;
    bool sub;
    if (std::fabs(off) <= kMainHalf + 0.03) sub = false;
    else if (std::fabs(off - kSubY) <= kSubHalf * 2.5) sub = true;
    else return -1;
    double ns = xAxis->pixelToCoord(pos.x()) * 1e6;
    double slack = 3.0 * xAxis->range().size() * 1e6 / std::max(1, axisRect()->width());
    return scene_.hitTest(ns, row, sub, slack);
}

void CollectiveView::setHighlight(int rank, int lane, quint32 kernel) {
    highlight_.clear();
    for (size_t i = 0; i < scene_.bars.size(); ++i) {
        const Bar& b = scene_.bars[i];
        if (b.rank == rank && b.lane == lane && b.kernel == kernel) highlight_.push_back(int(i));
    }
    replotWhenShown(this);
}

void CollectiveView::clearHighlight() {
    highlight_.clear();
    replotWhenShown(this);
}

QString CollectiveView::toolTipAt(const QPointF& pos) const {
    QPoint pt = pos.toPoint();
    if (title_->outerRect().contains(pt) && title_->isElided()) return title_->text();
    for (const PlacedLabel& l : layout_.labels)
        if (l.shown && l.rect.contains(pos)) return l.text;
    int i = barAt(pos);
    if (i >= 0 && tooltip_) return tooltip_(scene_.bars[size_t(i)]);
    return cpuRowToolTip(cpuLayout_, pos);
}

bool CollectiveView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        QString t = toolTipAt(he->pos());
        if (t.isEmpty()) {
            QToolTip::hideText();
            e->ignore();
        } else {
            QToolTip::showText(he->globalPos(), t, this);
        }
        return true;
    }
    return QCustomPlot::event(e);
}

void CollectiveView::onMousePress(QMouseEvent* e) {
    int i = barAt(e->position());
    if (i < 0) return;
    const Bar& b = scene_.bars[size_t(i)];
    emit barClicked(b.rank, b.lane, b.kernel);
}

bool CollectiveView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(this, path, width, height, error);
}

}  // namespace skewui
