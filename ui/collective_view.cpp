#include "collective_view.h"


#include <algorithm>
#include <cmath>

#include "plot_export.h"
#include "report/info_report.h"

namespace skewui {

namespace {
const QColor kTransfer(0x2f, 0x6f, 0xb5);
const QColor kWait(0x9c, 0xbf, 0xe3);
const QColor kLate(0xd6, 0x3c, 0x2f);
const QColor kLateWait(0xf0, 0xa8, 0x9f);
const QColor kOther(0xb4, 0xb4, 0xb4);
const QColor kGemm(0x6b, 0x8e, 0x23);
const QColor kOtherNccl(0x7a, 0x9c, 0xc6);
const QColor kPred(0xff, 0x8c, 0x00);
const QColor kLaunch(0x6a, 0x1b, 0x9a);

constexpr double kMainHalf = 0.22;  // bar half-height in rows
constexpr double kSubY = 0.36, kSubHalf = 0.07;

QColor barColor(const Bar& b) {
    switch (b.kind) {
    case BarKind::NcclWait: return b.late ? kLateWait : kWait;
    case BarKind::NcclTransfer: return b.late ? kLate : kTransfer;
    case BarKind::Gemm: return kGemm;
    case BarKind::OtherNccl: return kOtherNccl;
    default: return kOther;
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
        QCPAxis* x = view_->xAxis;
        QCPAxis* y = view_->yAxis;
        const QRect area = view_->axisRect()->rect();
        auto px = [&](double ns) { return x->coordToPixel(ns / 1e6); };
        auto py = [&](double row) { return y->coordToPixel(row); };
        if (sc.collective < 0) {
            p->setPen(Qt::darkGray);
            p->drawText(area, Qt::AlignCenter, QObject::tr("No collective selected"));
            return;
        }
        p->setPen(Qt::NoPen);
        // thin lanes: merge bars that fall into the same pixel column, keeping the most important colour
        struct Run {
            double x0, x1;
            int row;
            int rank;
            QColor c;
        };
        std::vector<const Bar*> preds;
        Run run{0, -1, -1, 0, QColor()};
        auto flush = [&] {
            if (run.x1 < run.x0) return;
            double top = py(run.row + kSubY - kSubHalf), bottom = py(run.row + kSubY + kSubHalf);
            p->fillRect(QRectF(run.x0, top, std::max(1.0, run.x1 - run.x0), bottom - top), run.c);
        };
        auto rankOf = [](const Bar& b) { return b.kind == BarKind::Gemm ? 2 : b.kind == BarKind::OtherNccl ? 1 : 0; };
        int runRank = 0;
        for (const Bar& b : sc.bars) {
            if (!b.sub) continue;
            if (b.predecessor) preds.push_back(&b);
            double a = px(b.x0), e = px(b.x1);
            if (e < area.left() || a > area.right()) continue;
            if (b.row == run.row && a <= run.x1 + 1.0) {
                run.x1 = std::max(run.x1, e);
                if (rankOf(b) > runRank) runRank = rankOf(b), run.c = barColor(b);
                continue;
            }
            flush();
            run = {a, e, b.row, 0, barColor(b)};
            runRank = rankOf(b);
        }
        flush();
        for (const Bar* b : preds) {
            double a = px(b->x0), e = px(b->x1);
            double top = py(b->row + kSubY - kSubHalf * 2.2), bottom = py(b->row + kSubY + kSubHalf * 2.2);
            p->setPen(QPen(kPred.darker(130), 1.5));
            p->setBrush(kPred);
            p->drawRect(QRectF(a, top, std::max(2.0, e - a), bottom - top));
            p->setPen(kPred.darker(160));
            QFont f = p->font();
            f.setPointSizeF(8);
            p->setFont(f);
            p->drawText(QPointF(std::max(a, double(area.left()) + 2), bottom + 11), QObject::tr("predecessor (%1)").arg(
                b->kind == BarKind::Gemm ? QObject::tr("GEMM") : QObject::tr("kernel")));
        }
        // main bars
        for (const Bar& b : sc.bars) {
            if (b.sub) break;  // main-row bars come first in the draw list
            double a = px(b.x0), e = px(b.x1);
            double top = py(b.row - kMainHalf), bottom = py(b.row + kMainHalf);
            QRectF r(a, top, std::max(1.5, e - a), bottom - top);
            if (b.kind == BarKind::NcclWait) {
                p->setPen(Qt::NoPen);
                p->fillRect(r, barColor(b));
                p->fillRect(r, QBrush(barColor(b).darker(125), Qt::BDiagPattern));
            } else {
                p->fillRect(r, barColor(b));
            }
        }
        // row annotations
        QFont f = p->font();
        f.setPointSizeF(9);
        p->setFont(f);
        for (size_t i = 0; i < sc.rows.size(); ++i) {
            const Row& row = sc.rows[i];
            if (row.missing) {
                p->setPen(Qt::darkGray);
                p->drawText(QPointF(area.left() + 6, py(double(i)) + 4), QObject::tr("no kernel here: partial collective"));
                continue;
            }
            // label at the end of the transfer bar
            double endX = -1e9;
            for (const Bar& b : sc.bars) {
                if (b.sub) break;  // main-row bars come first in the draw list
                if (b.row == int(i)) endX = std::max(endX, px(b.x1));
            }
            QString text;
            if (row.late) text = QObject::tr("late arriver: +%1").arg(QString::fromStdString(skew::formatDuration(row.latenessNs)));
            else if (row.early) text = QObject::tr("first, waited %1").arg(QString::fromStdString(skew::formatDuration(lateness(sc))));
            else text = QString("+%1").arg(QString::fromStdString(skew::formatDuration(row.latenessNs)));
            QFont bf = f;
            bf.setBold(row.late);
            p->setFont(bf);
            // right of the bar, on its row: ends line up, so the labels form a column
            QFontMetrics fm(bf);
            double tx = std::min(endX + 6, double(area.right()) - fm.horizontalAdvance(text) - 4);
            tx = std::max(tx, double(area.left()) + 4);
            double ty = py(double(i)) + fm.ascent() / 2.0 - 1;
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(255, 255, 255, 215));
            p->drawRect(QRectF(tx - 2, ty - fm.ascent(), fm.horizontalAdvance(text) + 4, fm.height()));
            p->setPen(row.late ? kLate.darker(120) : QColor(60, 60, 60));
            p->drawText(QPointF(tx, ty), text);
            p->setFont(f);
        }
        // the late arriver's CPU launch
        const LaunchMarker& L = sc.launch;
        if (L.present) {
            double yRow = py(L.row - kMainHalf - 0.12);
            double ax = px(L.apiEnd), kx = px(L.kernelStart);
            QPen pen(kLaunch, 1.5, Qt::DashLine);
            p->setPen(pen);
            double lx = std::clamp(ax, double(area.left()), double(area.right()));
            p->drawLine(QPointF(lx, yRow), QPointF(kx, yRow));
            p->setPen(Qt::NoPen);
            p->setBrush(kLaunch);
            if (ax >= area.left() && ax <= area.right()) {
                QPolygonF tri;
                tri << QPointF(ax - 5, yRow - 8) << QPointF(ax + 5, yRow - 8) << QPointF(ax, yRow);
                p->drawPolygon(tri);
            } else {
                // off screen: an arrow at the edge pointing towards it
                double ex = ax < area.left() ? area.left() + 1 : area.right() - 1;
                double dir = ax < area.left() ? 1 : -1;
                QPolygonF tri;
                tri << QPointF(ex, yRow) << QPointF(ex + dir * 9, yRow - 5) << QPointF(ex + dir * 9, yRow + 5);
                p->drawPolygon(tri);
            }
            QString label = QString::fromStdString(L.label);
            if (ax < area.left()) label = QObject::tr("CPU launch %1 before the view  |  %2").arg(
                QString::fromStdString(skew::formatDuration(int64_t(x->pixelToCoord(area.left()) * 1e6 - L.apiEnd))), label);
            else label = QObject::tr("CPU launch  |  %1").arg(label);
            p->setPen(kLaunch.darker(120));
            QFont lf = f;
            lf.setPointSizeF(8.5);
            p->setFont(lf);
            double lw = QFontMetrics(lf).horizontalAdvance(label);
            // right of the marker when it fits, else left of it, never over the plot's edge
            double tx = std::min(lx, kx) + 4;
            if (tx + lw > area.right() - 4) tx = std::min(lx, kx) - lw - 12;
            tx = std::clamp(tx, double(area.left()) + 12, double(area.right()) - lw - 4);
            QFontMetrics lfm(lf);
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(255, 255, 255, 215));
            p->drawRect(QRectF(tx - 2, yRow - 10 - lfm.ascent(), lw + 4, lfm.height()));
            p->setPen(kLaunch.darker(120));
            p->drawText(QPointF(tx, yRow - 10), label);
        }
        drawLegend(p, area);
    }

private:
    static int64_t lateness(const CollectiveScene& sc) {
        int64_t m = 0;
        for (const auto& r : sc.rows) m = std::max(m, r.latenessNs);
        return m;
    }

    void drawLegend(QCPPainter* p, const QRect& area) {
        struct Item {
            QColor c;
            QString t;
            bool hatch;
        };
        const Item items[] = {{kWait, QObject::tr("waiting in NCCL"), true}, {kTransfer, QObject::tr("transfer"), false},
                              {kLate, QObject::tr("late arriver"), false},   {kGemm, QObject::tr("GEMM"), false},
                              {kOther, QObject::tr("other kernel"), false},  {kPred, QObject::tr("predecessor"), false},
                              {kLaunch, QObject::tr("CPU launch"), false}};
        QFont f = p->font();
        f.setPointSizeF(8);
        p->setFont(f);
        QFontMetrics fm(f);
        double w = 0;
        for (const auto& it : items) w += 14 + fm.horizontalAdvance(it.t) + 12;
        double x = area.right() - w - 4, y = area.bottom() - 16;
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 255, 255, 220));
        p->drawRect(QRectF(x - 4, y - 3, w + 4, 16));
        for (const auto& it : items) {
            QRectF box(x, y, 10, 10);
            p->fillRect(box, it.c);
            if (it.hatch) p->fillRect(box, QBrush(it.c.darker(125), Qt::BDiagPattern));
            p->setPen(QColor(50, 50, 50));
            p->drawText(QPointF(x + 14, y + 9), it.t);
            x += 14 + fm.horizontalAdvance(it.t) + 12;
        }
    }

    CollectiveView* view_;
};

CollectiveView::CollectiveView(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 280);  // explicit: the plot layout's own hint grows with its title texts
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    xAxis->setLabel(tr("time since the first rank's NCCL kernel start (ms)"));
    yAxis->setRangeReversed(true);
    rowTicker_.reset(new QCPAxisTickerText);
    yAxis->setTicker(rowTicker_);
    yAxis->setSubTicks(false);
    yAxis->grid()->setVisible(false);
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), QFont(font().family(), 11, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    plotLayout()->insertRow(1);
    subtitle_ = new QCPTextElement(this, QString(), QFont(font().family(), 9));
    subtitle_->setTextColor(QColor(70, 70, 70));
    plotLayout()->addElement(1, 0, subtitle_);
    bars_ = new BarsLayer(this);
    connect(this, &QCustomPlot::mousePress, this, &CollectiveView::onMousePress);
    setScene({});
}

CollectiveView::~CollectiveView() = default;

void CollectiveView::setScene(CollectiveScene scene) {
    scene_ = std::move(scene);
    rowTicker_->clear();
    for (size_t i = 0; i < scene_.rows.size(); ++i) {
        const Row& r = scene_.rows[i];
        rowTicker_->addTick(double(i), QString::fromStdString(r.label) + (r.late ? QString::fromUtf8("  \u25B6") : QString()));
    }
    // room above the first row for the launch label, below the last for the legend
    yAxis->setRange(-0.75, std::max<double>(1.0, double(scene_.rows.size())) + 0.2);
    title_->setText(QString::fromStdString(scene_.title));
    // the why-line can be long: break it at its clauses so it never widens the plot
    QStringList lines;
    for (const QString& part : QString::fromStdString(scene_.subtitle).split("; ")) {
        if (!lines.isEmpty() && lines.back().size() + part.size() + 2 <= 110) lines.back() += "; " + part;
        else lines << part;
    }
    subtitle_->setText(lines.join("\n"));
    resetZoom();
}

void CollectiveView::resetZoom() {
    xAxis->setRange(scene_.fitX0 / 1e6, scene_.fitX1 / 1e6);
    replot();
}

void CollectiveView::zoomBy(double factor) {
    xAxis->scaleRange(factor, xAxis->range().center());
    replot();
}

void CollectiveView::panBy(double fraction) {
    xAxis->moveRange(xAxis->range().size() * fraction);
    replot();
}

void CollectiveView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(0.8); return;
    case Qt::Key_Minus: zoomBy(1.25); return;
    case Qt::Key_Left: panBy(-0.15); return;
    case Qt::Key_Right: panBy(0.15); return;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); return;
    default: QCustomPlot::keyPressEvent(e);
    }
}

QPointF CollectiveView::barCenter(int i) const {
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
