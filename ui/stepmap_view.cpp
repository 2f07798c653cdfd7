#include "stepmap_view.h"

#include <QPushButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "report/info_report.h"
#include "run_palette.h"
#include "plot_export.h"

using namespace skew;

namespace skewui {

using namespace palette;

namespace {
QString dur(double ns) { return QString::fromStdString(formatDuration(int64_t(std::llround(ns)))); }
}  // namespace

class StepMapLayer : public QCPLayerable {
public:
    static constexpr int kStrip = 20;  // height of the legend strip above a compare side's plot

    explicit StepMapLayer(StepMapView* v) : QCPLayerable(v, QString("main")), v_(v) {}

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override { painter->setAntialiasing(false); }
    // a side of the compare view has its legend in a strip above the plot
    QRect clipRect() const override { return v_->axisRect()->rect().adjusted(0, v_->side_.isEmpty() ? 0 : -kStrip, 0, 0); }

    void draw(QCPPainter* p) override {
        const StepMap& m = v_->map_;
        const QRect area = v_->axisRect()->rect();
        if (!v_->s_) return;
        if (m.empty()) {
            p->setPen(QColor(70, 70, 70));
            // above the settings button (placeButton), the longest of these texts that fits there
            QRect box = area.adjusted(20, 2, -20, 0);
            box.setBottom(std::min(area.bottom(), v_->height() / 2 + 26));
            const QString why = QString::fromStdString(m.why);
            const QString texts[] = {why + QObject::tr("\n\nSet the step NVTX pattern in Analysis > Settings (analyze --step-regex)."), why,
                                     QObject::tr("No steps: no NVTX range matches the step pattern.")};
            const QFontMetrics fm(p->font());
            QString text = texts[2];
            for (const QString& t : texts)
                if (fm.boundingRect(box, Qt::AlignHCenter | Qt::TextWordWrap, t).height() <= box.height()) {
                    text = t;
                    break;
                }
            p->drawText(box, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, text);
            return;
        }
        const Analysis& a = v_->s_->analysis;
        p->save();
        p->setClipRect(area);
        QCPAxis* x = v_->xAxis;
        QCPAxis* y = v_->yAxis;
        const int W = area.width(), H = area.height();
        if (W <= 0 || H <= 0) return;
        // ticks: every collective, merged per pixel by its largest start skew (level 1..255, 0 empty)
        std::vector<uint8_t> best(size_t(W) * size_t(H), 0);
        const double band = std::fabs(y->coordToPixel(1) - y->coordToPixel(0));
        const int tickH = std::max(1, int(std::min(band * 0.55, 14.0)));
        const double stepLo = std::min(y->range().lower, y->range().upper) - 0.5, stepHi = std::max(y->range().lower, y->range().upper) + 0.5;
        const double x0 = x->coordToPixel(0), xPerNs = (x->coordToPixel(1) - x0) / 1e6;
        for (uint32_t s = uint32_t(std::max(1.0, std::floor(stepLo))); s <= m.steps && s <= stepHi; ++s) {
            const int yc = int(std::lround(y->coordToPixel(double(s)))) - area.top();
            const int y0 = std::max(0, yc - tickH / 2), y1 = std::min(H, yc - tickH / 2 + tickH);
            if (y1 <= 0 || y0 >= H) continue;
            for (uint32_t i = m.stepBegin[s - 1]; i < m.stepBegin[s]; ++i) {
                const int px = int(std::floor(x0 + xPerNs * double(m.items[i].offsetNs))) - area.left();
                if (px < 0 || px >= W) continue;
                const uint8_t v = levels_[i];
                for (int yy = y0; yy < y1; ++yy) {
                    uint8_t& b = best[size_t(yy) * size_t(W) + size_t(px)];
                    b = std::max(b, v);
                }
            }
        }
        uint32_t lut[256];
        lut[0] = 0;
        lut[1] = kTypicalTick.rgb();
        for (int i = 2; i < 256; ++i) lut[i] = skewRampColor((i - 2) / 253.0).rgb();
        QImage img(W, H, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        uint32_t* bits = reinterpret_cast<uint32_t*>(img.bits());
        const size_t bpl = size_t(img.bytesPerLine() / 4);
        for (int yy = 0; yy < H; ++yy) {
            const uint8_t* b = &best[size_t(yy) * size_t(W)];
            uint32_t* line = bits + size_t(yy) * bpl;
            for (int xx = 0; xx < W; ++xx)
                if (b[xx]) line[xx] = lut[b[xx]];
        }
        // step rows: a faint line between them when they are tall enough
        if (band >= 6) {
            p->setPen(QColor(0, 0, 0, 20));
            for (uint32_t s = 1; s <= m.steps; ++s) {
                double yy = y->coordToPixel(s + 0.5);
                p->drawLine(QPointF(area.left(), yy), QPointF(area.right(), yy));
            }
        }
        p->drawImage(area.topLeft(), img);
        // big events: markers coloured by late rank, sized by lateness, labelled when there is room
        p->setAntialiasing(true);
        QFont f = p->font();
        f.setPointSizeF(8);
        f.setBold(true);
        p->setFont(f);
        const bool labels = m.big.size() <= 60;
        for (uint32_t bi : m.big) {
            const StepMap::Item& it = m.items[bi];
            const Collective& c = a.collectives[it.collective];
            QPointF cp(x->coordToPixel(double(it.offsetNs) / 1e6), y->coordToPixel(double(it.step)));
            if (!area.adjusted(-20, -20, 20, 20).contains(cp.toPoint())) continue;
            const double r = v_->markerRadius(bi);
            const int rank = c.lateSlot >= 0 ? a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank : 0;
            p->setPen(QPen(Qt::white, 1.5));
            p->setBrush(rankColor(rank));
            p->drawEllipse(cp, r, r);
            if (labels) {
                QString t = "+" + dur(double(c.startSkew()));
                p->setPen(QColor(40, 40, 40));
                p->drawText(QPointF(cp.x() + r + 3, cp.y() + 4), t);
            }
        }
        // the selected collective
        if (v_->selected_ >= 0) {
            const Collective& c = a.collectives[size_t(v_->selected_)];
            if (c.step) {
                QPointF cp = v_->collectivePos(v_->selected_);
                double r = 4;
                for (uint32_t bi : m.big)
                    if (m.items[bi].collective == uint32_t(v_->selected_)) r = v_->markerRadius(bi);
                p->setPen(QPen(QColor(0x10, 0x50, 0xa0), 2));
                p->setBrush(Qt::NoBrush);
                p->drawEllipse(cp, r + 4, r + 4);
            }
        }
        p->setAntialiasing(false);
        p->restore();
        drawLegend(p, area);
    }

private:
    void drawLegend(QCPPainter* p, const QRect& area) {
        const StepMap& m = v_->map_;
        const Analysis& a = v_->s_->analysis;
        std::vector<int> ranks;
        for (uint32_t bi : m.big) {
            const Collective& c = a.collectives[m.items[bi].collective];
            if (c.lateSlot < 0) continue;
            int r = a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank;
            if (std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
        }
        std::sort(ranks.begin(), ranks.end());
        QFont f = p->font();
        f.setPointSizeF(8);
        f.setBold(false);
        p->setFont(f);
        QFontMetrics fm(f);
        const bool strip = !v_->side_.isEmpty();
        QString head = ranks.empty() ? QObject::tr("no big events (start skew > %1)").arg(dur(double(a.options.bigSkewNs)))
                                     : strip ? QObject::tr("late rank:") : QObject::tr("big events, by late rank:");
        double w = fm.horizontalAdvance(head) + 10;
        // in the strip, the ranks that fit, then "+N" for the rest (each marker's tooltip names its rank)
        const QString more = QObject::tr("+%1 more");
        size_t shown = 0;
        for (int r : ranks) {
            double add = 16 + fm.horizontalAdvance(QString::fromStdString(v_->s_->profile.ranks[size_t(r)].label)) + 8;
            if (strip && w + add + fm.horizontalAdvance(more.arg(ranks.size())) + 8 > area.width() - 12 && shown + 1 < ranks.size()) break;
            w += add;
            ++shown;
        }
        if (shown < ranks.size()) w += fm.horizontalAdvance(more.arg(ranks.size() - shown)) + 8;
        // the ticks' colour key: typical (at or below the run's median start skew), a log ramp, the big threshold
        const QString lo = QString::fromUtf8("\u2264 ") + dur(double(scale_.lo)), hi = dur(double(scale_.hi));
        QString tick = QObject::tr("ticks: every collective by start skew");
        const double keyW = 8 + fm.horizontalAdvance(lo) + 6 + 40 + 4 + fm.horizontalAdvance(hi);
        // in the strip above the plot, the ticks' key goes first when there is no room for it
        const bool showTick = !strip || w + fm.horizontalAdvance(tick) + keyW + 24 <= area.width() - 12;
        if (showTick) w += fm.horizontalAdvance(tick) + keyW + 24;
        double x0 = std::max(double(area.left()) + 4, area.right() - w - 6), y0 = strip ? area.top() - kStrip + 1 : area.top() + 6;
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 255, 255, 225));
        p->drawRect(QRectF(x0 - 4, y0 - 2, w + 4, 18));
        p->setPen(QColor(50, 50, 50));
        p->drawText(QPointF(x0, y0 + 11), head);
        double x = x0 + fm.horizontalAdvance(head) + 10;
        p->setAntialiasing(true);
        for (size_t i = 0; i < shown; ++i) {
            const int r = ranks[i];
            p->setPen(Qt::NoPen);
            p->setBrush(rankColor(r));
            p->drawEllipse(QPointF(x + 5, y0 + 7), 5, 5);
            p->setPen(QColor(50, 50, 50));
            QString l = QString::fromStdString(v_->s_->profile.ranks[size_t(r)].label);
            p->drawText(QPointF(x + 13, y0 + 11), l);
            x += 16 + fm.horizontalAdvance(l) + 8;
        }
        if (shown < ranks.size()) {
            const QString m = more.arg(ranks.size() - shown);
            p->setPen(QColor(50, 50, 50));
            p->drawText(QPointF(x, y0 + 11), m);
            x += fm.horizontalAdvance(m) + 8;
        }
        p->setAntialiasing(false);
        if (!showTick) return;
        x += 12;
        p->setPen(QColor(50, 50, 50));
        p->drawText(QPointF(x, y0 + 11), tick);
        x += fm.horizontalAdvance(tick) + 8;
        p->fillRect(QRectF(x, y0 + 2, 4, 10), kTypicalTick);
        p->drawText(QPointF(x + 6, y0 + 11), lo);
        x += 8 + fm.horizontalAdvance(lo) + 4;
        for (int i = 0; i < 40; ++i) p->fillRect(QRectF(x + i, y0 + 2, 1, 10), skewTickColor((i + 1) / 40.0));
        x += 44;
        p->drawText(QPointF(x, y0 + 11), hi);
    }

public:
    // the scale and each item's level on it (1: typical, 2..255 the ramp, above the median however
    // little), set once per map: a frame then reads one byte per tick
    void setScale(const skew::SkewScale& scale) {
        scale_ = scale;
        const StepMap& m = v_->map_;
        levels_.resize(m.items.size());
        if (!v_->s_) return;
        const Analysis& a = v_->s_->analysis;
        for (size_t i = 0; i < m.items.size(); ++i) {
            const double t = scale_.position(a.collectives[m.items[i].collective].startSkew());
            levels_[i] = uint8_t(t <= 0 ? 1 : 2 + std::lround(t * 253.0));
        }
    }
    skew::SkewScale scale_;
    std::vector<uint8_t> levels_;

private:
    StepMapView* v_;
};

StepMapView::StepMapView(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 200);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    xAxis->setLabel(tr("offset in step (ms)"));
    yAxis->setLabel(tr("step"));
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setSubTicks(false);
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(1.0);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // whole steps, thinned out when there are many
    yAxis->setTicker(steps);
    xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 25)));
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    layer_ = new StepMapLayer(this);
    settings_ = new QPushButton(tr("Set the step pattern..."), this);
    settings_->hide();
    connect(settings_, &QPushButton::clicked, this, &StepMapView::settingsRequested);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { pressPos_ = e->position(); });
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons()) return;
        QString t = tooltipAt(e->position());
        if (t.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), t, this);
    });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if ((e->position() - pressPos_).manhattanLength() > 3 || e->button() != Qt::LeftButton) return;
        int c = collectiveAt(e->position());
        if (c < 0) return;
        setSelectedCollective(c);
        emit collectiveClicked(c);
    });
    setSession(nullptr);
}

StepMapView::~StepMapView() = default;

void StepMapView::setSession(SessionPtr s) {
    s_ = std::move(s);
    selected_ = -1;
    onlyGroup_ = -1;
    side_.clear();
    axisRect()->setMinimumMargins(QMargins(0, 0, 16, 0));  // room on the right: the last tick label
    rebuild(-1);
}

void StepMapView::setGroupSession(SessionPtr s, int group, const QString& side) {
    s_ = std::move(s);
    selected_ = -1;
    onlyGroup_ = std::max(0, group);
    side_ = side;
    axisRect()->setMinimumMargins(QMargins(0, StepMapLayer::kStrip, 16, 0));
    rebuild(-1);
}

void StepMapView::rebuild(int preferredGroup) {
    map_ = !s_ ? StepMap{} : !side_.isEmpty() ? buildGroupStepMap(s_->profile, s_->analysis, onlyGroup_)
                                              : buildStepMap(s_->profile, s_->analysis, preferredGroup);
    layer_->setScale(s_ ? s_->skewScale : SkewScale{});
    QString title;
    if (!side_.isEmpty()) {
        // a side of the compare view: short, the group is the pair's
        title = map_.empty() ? tr("%1: no steps").arg(side_)
                             : tr("%1  \u00B7  %2 %3 steps  \u00B7  %4 big events")
                                   .arg(side_)
                                   .arg(map_.steps)
                                   .arg(map_.source == skew::StepSource::Nvtx ? tr("NVTX") : tr("inferred"))
                                   .arg(map_.big.size());
    } else if (!s_) title = tr("Step map");
    else if (map_.empty()) title = tr("Step map: no steps");
    else {
        QString src = map_.source == skew::StepSource::Nvtx ? tr("NVTX step ranges") : tr("steps inferred from the op sequence of group %1").arg(map_.groups[0]);
        QStringList gs;
        for (int g : map_.groups) gs << QString::number(g);
        title = tr("Step map  \u00B7  %1 steps (%2)  \u00B7  %3 collectives of group %4  \u00B7  %5 big events (start skew > %6)")
                    .arg(map_.steps)
                    .arg(src)
                    .arg(map_.items.size())
                    .arg(gs.join(", "))
                    .arg(map_.big.size())
                    .arg(dur(double(s_->analysis.options.bigSkewNs)));
    }
    title_->setText(title);
    settings_->setVisible(s_ && map_.empty());
    xAxis->setVisible(!map_.empty());
    yAxis->setVisible(!map_.empty());
    placeButton();
    resetZoom();
}

void StepMapView::resetZoom() {
    double span = std::max(1.0, double(std::max(map_.spanNs, fitSpanNs_)) / 1e6);
    xAxis->setRange(-span * 0.02, span * 1.06);
    yAxis->setRange(0.4, std::max(1.0, double(map_.steps)) + 0.6);
    replot();
}

void StepMapView::setSelectedCollective(int c) {
    selected_ = (s_ && c >= 0 && size_t(c) < s_->analysis.collectives.size()) ? c : -1;
    // inferred steps number each group apart: show the selected collective's group when it has steps
    if (selected_ >= 0 && map_.source == skew::StepSource::Inferred && side_.isEmpty()) {
        const int g = s_->analysis.collectives[size_t(selected_)].group;
        if (g != map_.groups[0] && s_->analysis.groups[size_t(g)].stepsSource == skew::StepSource::Inferred) rebuild(g);
    }
    replot();
}

double StepMapView::markerRadius(uint32_t item) const {
    const Collective& c = s_->analysis.collectives[map_.items[item].collective];
    double f = map_.maxBigLatenessNs > 0 ? std::sqrt(double(c.startSkew()) / double(map_.maxBigLatenessNs)) : 1;
    return 5 + 8 * f;
}

QPointF StepMapView::collectivePos(int collective) const {
    if (!s_ || collective < 0) return {-1, -1};
    const Collective& c = s_->analysis.collectives[size_t(collective)];
    return {xAxis->coordToPixel(double(c.offsetInStepNs) / 1e6), yAxis->coordToPixel(double(c.step))};
}

int StepMapView::collectiveAt(const QPointF& pos) const {
    if (!s_ || map_.empty() || !axisRect()->rect().contains(pos.toPoint())) return -1;
    // big markers first (they are drawn on top), nearest within its radius
    int best = -1;
    double bestD = 1e9;
    for (uint32_t bi : map_.big) {
        const auto& it = map_.items[bi];
        QPointF cp(xAxis->coordToPixel(double(it.offsetNs) / 1e6), yAxis->coordToPixel(double(it.step)));
        double d = std::hypot(cp.x() - pos.x(), cp.y() - pos.y());
        if (d <= markerRadius(bi) + 2 && d < bestD) bestD = d, best = int(it.collective);
    }
    if (best >= 0) return best;
    // else the nearest tick on the step row under the cursor, within 4 px
    double step = std::round(yAxis->pixelToCoord(pos.y()));
    if (std::fabs(yAxis->coordToPixel(step) - pos.y()) > std::max(6.0, std::fabs(yAxis->coordToPixel(1) - yAxis->coordToPixel(0)) / 2)) return -1;
    double off = xAxis->pixelToCoord(pos.x()) * 1e6;
    double slack = 4 * xAxis->range().size() * 1e6 / std::max(1, axisRect()->width());
    int64_t i = nearestStepItem(map_, uint32_t(std::max(0.0, step)), off, slack);
    return i < 0 ? -1 : int(map_.items[size_t(i)].collective);
}

QString StepMapView::tooltipAt(const QPointF& pos) const {
    int ci = collectiveAt(pos);
    if (ci < 0) return {};
    const Analysis& a = s_->analysis;
    const Collective& c = a.collectives[size_t(ci)];
    QString late = c.lateSlot >= 0 ? QString::fromStdString(s_->profile.ranks[size_t(a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank)].label)
                                   : QString();
    return tr("<b>group %1 #%2 %3</b>%4<br>step %5, offset %6<br>start skew %7 \u00B7 late arriver %8 \u00B7 cause %9")
        .arg(c.group)
        .arg(c.index)
        .arg(opName(c.op), c.big ? tr(" \u00B7 <b>big event</b>") : QString())
        .arg(c.step)
        .arg(dur(double(c.offsetInStepNs)), dur(double(c.startSkew())), late, causeLabel(c.cause));
}

void StepMapView::zoomBy(double factor) {
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
        if (axisRect()->rangeZoom().testFlag(o))
            for (QCPAxis* ax : axisRect()->rangeZoomAxes(o)) ax->scaleRange(factor, ax->range().center());
    replot();
}

void StepMapView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(0.8); return;
    case Qt::Key_Minus: zoomBy(1.25); return;
    case Qt::Key_0:
    case Qt::Key_Home: resetZoom(); return;
    default: QCustomPlot::keyPressEvent(e);
    }
}

void StepMapView::resizeEvent(QResizeEvent* e) {
    QCustomPlot::resizeEvent(e);
    placeButton();
}

void StepMapView::placeButton() {
    QSize hint = settings_->sizeHint();
    settings_->setGeometry((width() - hint.width()) / 2, height() / 2 + 30, hint.width(), hint.height());
}

bool StepMapView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(this, path, width, height, error);
}

}  // namespace skewui
