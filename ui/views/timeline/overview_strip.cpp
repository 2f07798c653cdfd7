#include "views/timeline/overview_strip.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "report/info_report.h"
#include "common/palette.h"
#include "common/text.h"

namespace skewui {

using namespace palette;

void OverviewStrip::setSession(SessionPtr s) {
    s_ = std::move(s);
    cachedWidth_ = -1;
    base_ = QImage();
    steps_.clear();
    scale_ = {};
    if (!s_ || !s_->timeline.valid()) {
        t0_ = 0, t1_ = 1;
        return;
    }
    t0_ = double(s_->timeline.start());
    t1_ = std::max(t0_ + 1, double(s_->timeline.end()));
    scale_ = s_->skewScale;
    steps_ = skew::stepStarts(s_->analysis, skew::stepGroup(s_->analysis));
}

skew::PixelMap OverviewStrip::map(const QRect& r) const { return skew::PixelMap::fit(t0_, t1_, std::max(1, r.width())); }

double OverviewStrip::timeAt(const QRect& r, double x) const { return t0_ + (x - r.left()) * (t1_ - t0_) / std::max(1, r.width()); }

double OverviewStrip::xOf(const QRect& r, double t) const { return r.left() + (t - t0_) / (t1_ - t0_) * std::max(1, r.width()); }

QRectF OverviewStrip::handle(const QRect& r, double v0, double v1) const {
    double a = xOf(r, v0), b = xOf(r, v1);
    if (b - a < 6) {
        double m = (a + b) / 2;
        a = m - 3, b = m + 3;
    }
    return QRectF(a, r.top() + 1, b - a, r.height() - 2);
}

void OverviewStrip::ensureColumns(const QRect& r) const {
    if (cachedWidth_ == r.width() || !s_) return;
    skew::overviewColumns(s_->analysis, map(r), cols_);
    cachedWidth_ = r.width();
}

void OverviewStrip::paintBase(QPainter& p, const QRect& r, const QFont& font) const {
    p.fillRect(r, QColor(0xf6, 0xf7, 0xf9));
    ensureColumns(r);
    const int h = r.height() - 4;
    // by start skew: grey-blue at or below the median, orange up to the big threshold (taller as
    // well); big events full height, red, with a line back to their first arrival
    for (int x = 0; x < r.width(); ++x) {
        int64_t sk = cols_.maxSkew[size_t(x)];
        if (sk < 0) continue;
        const bool isBig = cols_.big[size_t(x)];
        const double t = scale_.position(sk);
        int th = isBig ? h : std::max(3, int(h * (0.2 + 0.55 * t)));
        p.fillRect(QRect(r.left() + x, r.bottom() - 1 - th, 1, th), isBig ? kLate : skewTickColor(t));
    }
    for (uint32_t ci : s_->timeline.bigCollectives()) {
        const skew::Collective& c = s_->analysis.collectives[ci];
        const double a = xOf(r, double(c.minStart)), b = xOf(r, double(c.maxStart));
        if (b - a >= 2) p.fillRect(QRectF(a, r.bottom() - 3, b - a, 2), kLate);
    }
    // step boundaries, while steps are a few pixels apart
    QFont f = font;
    f.setPointSizeF(7);
    p.setFont(f);
    const double perStep = steps_.empty() ? 0 : r.width() / double(steps_.size());
    if (perStep >= 3) {
        double lastLabel = -1e9;
        for (size_t i = 0; i < steps_.size(); ++i) {
            double x = xOf(r, double(steps_[i]));
            p.fillRect(QRectF(std::floor(x), r.top(), 1, r.height()), QColor(90, 90, 90, 150));
            if (x - lastLabel > 40 && x + 20 < r.right()) {
                p.setPen(QColor(90, 90, 90));
                p.drawText(QPointF(x + 2, r.top() + 9), QString::number(i + 1));
                lastLabel = x;
            }
        }
    }
}

void OverviewStrip::paint(QPainter& p, const QRect& r, double v0, double v1, int selected) const {
    p.save();
    p.setClipRect(r);
    if (!s_) {
        p.fillRect(r, QColor(0xf6, 0xf7, 0xf9));
        p.restore();
        return;
    }
    // the run never changes: its picture is drawn once per size, the handle on top each frame
    if (base_.size() != r.size()) {
        base_ = QImage(r.size(), QImage::Format_ARGB32_Premultiplied);
        QPainter bp(&base_);
        paintBase(bp, QRect(QPoint(0, 0), r.size()), p.font());
    }
    p.drawImage(r.topLeft(), base_);
    // the selected collective
    if (selected >= 0 && size_t(selected) < s_->analysis.collectives.size()) {
        double x = xOf(r, double(s_->analysis.collectives[size_t(selected)].maxStart));  // where its tick is
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x10, 0x50, 0xa0));
        QPolygonF tri;
        tri << QPointF(x - 4, r.top()) << QPointF(x + 4, r.top()) << QPointF(x, r.top() + 6);
        p.drawPolygon(tri);
    }
    // the visible range: the rest dimmed, the handle outlined
    QRectF hd = handle(r, v0, v1);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(40, 50, 70, 45));
    p.drawRect(QRectF(r.left(), r.top(), hd.left() - r.left(), r.height()));
    p.drawRect(QRectF(hd.right(), r.top(), r.right() + 1 - hd.right(), r.height()));
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0x10, 0x50, 0xa0), 1.5));
    p.drawRect(hd);
    p.restore();
}

QString OverviewStrip::tooltip(const QRect& r, double x) const {
    if (!s_) return {};
    ensureColumns(r);
    int c = int(x) - r.left();
    QString t = QObject::tr("%1 s").arg(timeAt(r, x) / 1e9, 0, 'f', 4);
    // the largest start skew near the cursor (a few pixels either side)
    int64_t best = -1;
    bool big = false;
    for (int i = std::max(0, c - 2); i <= std::min(r.width() - 1, c + 2); ++i)
        if (cols_.maxSkew[size_t(i)] > best) best = cols_.maxSkew[size_t(i)], big = cols_.big[size_t(i)];
    if (best >= 0)
        t += QObject::tr("\nlargest start skew here: %1%2").arg(dur(double(best)), big ? QObject::tr(" (big)") : QString());
    for (size_t i = 0; i < steps_.size(); ++i) {
        double a = double(steps_[i]), b = i + 1 < steps_.size() ? double(steps_[i + 1]) : t1_;
        double tt = timeAt(r, x);
        if (tt >= a && tt < b) t += QObject::tr("\nstep %1").arg(i + 1);
    }
    return t + QObject::tr("\nticks: each collective at its late arriver's start (where the markers below are); "
                           "big ones red, with a line back to their first arrival\nclick or drag to move the view");
}

namespace {

QFont keyFont(const QFont& font) {
    QFont f = font;
    f.setPointSizeF(std::max(6.5, font.pointSizeF() - 1.5));
    return f;
}

}  // namespace

int OverviewStrip::keyWidth(const QFont& font, double rampW) const {
    if (!s_) return 0;
    const QFontMetrics fm(keyFont(font));
    const QString lo = QString::fromUtf8("\u2264") + dur(double(scale_.lo)), hi = dur(double(scale_.hi));
    return int(std::ceil(6 + fm.horizontalAdvance(lo) + 4 + rampW + 2 + fm.horizontalAdvance(hi) + 4 + 4));
}

// the end values under the swatches, at their two ends: what a narrow band needs
int OverviewStrip::keyWidthStacked(const QFont& font) const {
    if (!s_) return 0;
    const QFontMetrics fm(keyFont(font));
    return fm.horizontalAdvance(QString::fromUtf8("\u2264") + dur(double(scale_.lo))) + 8 + fm.horizontalAdvance(dur(double(scale_.hi)));
}

bool OverviewStrip::keyShowsValues(const QRectF& r, const QFont& font) const {
    return s_ && (keyWidth(font, kMinRampW) <= r.width() || keyWidthStacked(font) <= r.width());
}

void OverviewStrip::paintKey(QPainter& p, const QRectF& r, const QFont& font) const {
    if (!s_) return;
    const QFont f = keyFont(font);
    p.setFont(f);
    const QFontMetrics fm(f);
    const QString lo = QString::fromUtf8("\u2264") + dur(double(scale_.lo)), hi = dur(double(scale_.hi));
    // the end values beside the ramp when they fit (the ramp narrowed down to kMinRampW for them),
    // else under it (at 1024x700 they were left out, review defect 8), else the colours alone (the
    // tooltip names them)
    const bool text = keyWidth(font, kMinRampW) <= r.width();
    if (!text && keyWidthStacked(font) <= r.width()) {
        const double y = r.top() + 1;
        double x = r.left();
        paintTypicalKey(p, x, y, 6);
        paintSkewRamp(p, QRectF(x + 6, y, r.width() - 12, 6));
        p.fillRect(QRectF(r.right() - 4, y, 4, 6), kLate);
        p.setPen(QColor(60, 60, 60));
        const QRectF under(r.left(), y + 6, r.width(), r.bottom() - y - 6);
        p.drawText(under, Qt::AlignLeft | Qt::AlignVCenter, lo);
        p.drawText(under, Qt::AlignRight | Qt::AlignVCenter, hi);
        return;
    }
    const double y = r.top() + (r.height() - 8) / 2;
    const double barW = text ? std::clamp(r.width() - keyWidth(font, 0), kMinRampW, kRampW) : kRampW;
    double x = r.left();
    paintTypicalKey(p, x, y, 8);
    x += 6;
    p.setPen(QColor(60, 60, 60));
    if (text) {
        p.drawText(QRectF(x, r.top(), fm.horizontalAdvance(lo) + 2, r.height()), Qt::AlignLeft | Qt::AlignVCenter, lo);
        x += fm.horizontalAdvance(lo) + 4;
    }
    paintSkewRamp(p, QRectF(x, y, barW, 8));
    x += barW + 2;
    if (text) {
        p.drawText(QRectF(x, r.top(), fm.horizontalAdvance(hi) + 2, r.height()), Qt::AlignLeft | Qt::AlignVCenter, hi);
        x += fm.horizontalAdvance(hi) + 4;
    }
    p.fillRect(QRectF(x, y, 4, 8), kLate);
}

QString OverviewStrip::keyTooltip() const {
    return QObject::tr("Overview ticks by start skew: grey-blue within noise (up to 3x the run's median, %1), orange on a log scale up "
                       "to the big threshold (%2), red: big events")
        .arg(dur(double(scale_.lo)), dur(double(scale_.hi)));
}

}  // namespace skewui
