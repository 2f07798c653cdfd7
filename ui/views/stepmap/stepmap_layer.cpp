#include "views/stepmap/stepmap_layer.h"

#include <algorithm>
#include <cmath>

#include "common/palette.h"
#include "common/text.h"
#include "scene/view_texts.h"
#include "views/stepmap/stepmap_view.h"

using namespace skew;

namespace skewui {

using namespace palette;

StepMapLayer::StepMapLayer(StepMapView* v) : QCPLayerable(v, QString("main")), v_(v) {}

// a side of the compare view has its legend in a strip above the plot
QRect StepMapLayer::clipRect() const { return v_->axisRect()->rect().adjusted(0, -kStrip * std::max(1, v_->legendLines_), 0, 0); }

void StepMapLayer::draw(QCPPainter* p) {
    const QRect area = v_->axisRect()->rect();
    legendRect_ = QRectF();
    legendTickKey_ = false;
    legendRanks_ = 0;
    if (!v_->s_) return;
    if (v_->map_.empty()) return drawWhyEmpty(p, area);
    if (area.width() <= 0 || area.height() <= 0) return;
    p->save();
    p->setClipRect(area);
    drawTicks(p, area);
    p->setAntialiasing(true);
    drawBigEvents(p, area);
    drawSelection(p);
    p->setAntialiasing(false);
    p->restore();
    drawLegend(p, area);
}

// above the settings button (placeButton), the longest of core's texts that fits there
void StepMapLayer::drawWhyEmpty(QCPPainter* p, const QRect& area) {
    p->setPen(QColor(70, 70, 70));
    QRect box = area.adjusted(20, 2, -20, 0);
    box.setBottom(std::min(area.bottom(), v_->height() / 2 + 26));
    const std::vector<std::string> texts = stepMapEmptyTexts(v_->map_);
    const QFontMetrics fm(p->font());
    QString text = QString::fromStdString(texts.back());
    for (const std::string& s : texts) {
        const QString t = QString::fromStdString(s);
        if (fm.boundingRect(box, Qt::AlignHCenter | Qt::TextWordWrap, t).height() <= box.height()) {
            text = t;
            break;
        }
    }
    p->drawText(box, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, text);
}

// every collective, merged per pixel by its largest start skew (level 1..255, 0 empty), as one image;
// a faint line between step rows when they are tall enough
void StepMapLayer::drawTicks(QCPPainter* p, const QRect& area) {
    const StepMap& m = v_->map_;
    QCPAxis* x = v_->xAxis;
    QCPAxis* y = v_->yAxis;
    const int W = area.width(), H = area.height();
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
    if (band >= 6) {
        p->setPen(QColor(0, 0, 0, 20));
        for (uint32_t s = 1; s <= m.steps; ++s) {
            double yy = y->coordToPixel(s + 0.5);
            p->drawLine(QPointF(area.left(), yy), QPointF(area.right(), yy));
        }
    }
    p->drawImage(area.topLeft(), img);
}

// big events: markers coloured by late rank, sized by lateness, labelled when there is room
void StepMapLayer::drawBigEvents(QCPPainter* p, const QRect& area) {
    const StepMap& m = v_->map_;
    const Analysis& a = v_->s_->analysis;
    QFont f = p->font();
    f.setPointSizeF(8);
    f.setBold(true);
    p->setFont(f);
    const bool labels = m.big.size() <= 60;
    for (uint32_t bi : m.big) {
        const StepMap::Item& it = m.items[bi];
        const Collective& c = a.collectives[it.collective];
        QPointF cp(v_->xAxis->coordToPixel(double(it.offsetNs) / 1e6), v_->yAxis->coordToPixel(double(it.step)));
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
}

// a ring around the selected collective's tick or marker
void StepMapLayer::drawSelection(QCPPainter* p) {
    const int sel = v_->selected_;
    if (sel < 0 || !v_->s_->analysis.collectives[size_t(sel)].step) return;
    const StepMap& m = v_->map_;
    QPointF cp = v_->collectivePos(sel);
    double r = 4;
    for (uint32_t bi : m.big)
        if (m.items[bi].collective == uint32_t(sel)) r = v_->markerRadius(bi);
    p->setPen(QPen(QColor(0x10, 0x50, 0xa0), 2));
    p->setBrush(Qt::NoBrush);
    p->drawEllipse(cp, r + 4, r + 4);
}

// the legend's parts: the head, the late ranks of the big events with their widths, the ticks' key
StepMapLayer::LegendParts StepMapLayer::legendParts(const QFontMetrics& fm) const {
    const StepMap& m = v_->map_;
    const Analysis& a = v_->s_->analysis;
    LegendParts L;
    for (uint32_t bi : m.big) {
        const Collective& c = a.collectives[m.items[bi].collective];
        if (c.lateSlot < 0) continue;
        int r = a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank;
        if (std::find(L.ranks.begin(), L.ranks.end(), r) == L.ranks.end()) L.ranks.push_back(r);
    }
    std::sort(L.ranks.begin(), L.ranks.end());
    const bool strip = !v_->side_.isEmpty();
    L.head = L.ranks.empty() ? QObject::tr("no big events (start skew > %1)").arg(dur(double(a.options.bigSkewNs)))
             : strip         ? QObject::tr("late rank:")
                             : QObject::tr("big events, by late rank:");
    L.headW = fm.horizontalAdvance(L.head) + 10;
    for (int r : L.ranks) L.rankW.push_back(16 + fm.horizontalAdvance(QString::fromStdString(v_->s_->profile.ranks[size_t(r)].label)) + 8);
    L.lo = QString::fromUtf8("\u2264 ") + dur(double(scale_.lo));
    L.hi = dur(double(scale_.hi));
    L.tick = QObject::tr("ticks: every collective by start skew");
    L.tickW = fm.horizontalAdvance(L.tick) + 8 + 8 + fm.horizontalAdvance(L.lo) + 6 + 40 + 4 + fm.horizontalAdvance(L.hi) + 12;
    return L;
}

int StepMapLayer::legendLines(double width, const QFont& font) const {
    if (!v_->s_ || v_->map_.empty()) return 0;
    if (!v_->side_.isEmpty()) return 1;
    QFont f = font;
    f.setPointSizeF(8);
    const LegendParts L = legendParts(QFontMetrics(f));
    double w = L.headW;
    for (double r : L.rankW) w += r;
    return w + L.tickW <= width - 12 ? 1 : 2;
}

// In a strip above the plot, off the data (inside the plot it covered markers: review defect 9): the
// big events' ranks, then the ticks' key on the same line when it fits, else on a second line when
// the view reserved one (legendLines), else left out (a side of the compare view). Ranks that do not
// fit the line are counted ("+N more"; each marker's tooltip names its rank).
void StepMapLayer::drawLegend(QCPPainter* p, const QRect& area) {
    QFont f = p->font();
    f.setPointSizeF(8);
    f.setBold(false);
    p->setFont(f);
    QFontMetrics fm(f);
    const LegendParts L = legendParts(fm);
    const int lines = std::max(1, v_->legendLines_);
    const double room = area.width() - 12;
    const QString more = QObject::tr("+%1 more");
    double w = L.headW;
    size_t shown = 0;
    for (size_t i = 0; i < L.ranks.size(); ++i) {
        if (w + L.rankW[i] + fm.horizontalAdvance(more.arg(L.ranks.size())) + 8 > room && shown + 1 < L.ranks.size()) break;
        w += L.rankW[i];
        ++shown;
    }
    if (shown < L.ranks.size()) w += fm.horizontalAdvance(more.arg(L.ranks.size() - shown)) + 8;
    const bool sameLine = w + L.tickW <= room, showTick = sameLine || lines > 1;
    const double lineW = sameLine ? w + L.tickW : std::max(w, showTick ? L.tickW : 0.0);
    double x0 = std::max(double(area.left()) + 4, area.right() - lineW - 6);
    const double top = area.top() - kStrip * lines + 1;
    legendRect_ = QRectF(x0 - 4, top - 2, lineW + 4, kStrip * lines - 1);
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(255, 255, 255, 225));
    p->drawRect(legendRect_);
    p->setPen(QColor(50, 50, 50));
    p->drawText(QPointF(x0, top + 11), L.head);
    double x = x0 + L.headW;
    p->setAntialiasing(true);
    for (size_t i = 0; i < shown; ++i) {
        const int r = L.ranks[i];
        p->setPen(Qt::NoPen);
        p->setBrush(rankColor(r));
        p->drawEllipse(QPointF(x + 5, top + 7), 5, 5);
        p->setPen(QColor(50, 50, 50));
        p->drawText(QPointF(x + 13, top + 11), QString::fromStdString(v_->s_->profile.ranks[size_t(r)].label));
        x += L.rankW[i];
    }
    if (shown < L.ranks.size()) {
        const QString m = more.arg(L.ranks.size() - shown);
        p->setPen(QColor(50, 50, 50));
        p->drawText(QPointF(x, top + 11), m);
        x += fm.horizontalAdvance(m) + 8;
    }
    p->setAntialiasing(false);
    legendTickKey_ = showTick;
    legendRanks_ = shown;
    if (!showTick) return;
    double y0 = top;
    if (sameLine) x += 12;
    else x = x0, y0 = top + kStrip;
    p->setPen(QColor(50, 50, 50));
    p->drawText(QPointF(x, y0 + 11), L.tick);
    x += fm.horizontalAdvance(L.tick) + 8;
    paintTypicalKey(*p, x, y0 + 2, 10);
    p->drawText(QPointF(x + 6, y0 + 11), L.lo);
    x += 8 + fm.horizontalAdvance(L.lo) + 4;
    paintSkewRamp(*p, QRectF(x, y0 + 2, 40, 10));
    x += 44;
    p->drawText(QPointF(x, y0 + 11), L.hi);
}

void StepMapLayer::setScale(const skew::SkewScale& scale) {
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

}  // namespace skewui
