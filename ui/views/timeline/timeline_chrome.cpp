// The passes around the timeline's rows: the gutter (rank blocks, labels) and the ruler (the legend is
// timeline_legend's).

#include <QObject>
#include <QLocale>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <iterator>
#include <vector>
#include <cmath>

#include "common/palette.h"
#include "common/rank_labels.h"
#include "common/text.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_passes.h"
#include "views/timeline/timeline_raster.h"

using namespace skew;

namespace skewui {

using namespace palette;
using Font = TimelineText::FontKind;

void paintTimelineBackgrounds(QPainter& p, const TimelineState& st) {
    // the gutter's part of the rank blocks (the rows' part is in the body image)
    const TimelineFrame& f = st.f;
    const std::vector<TimelineRow>& rows = st.rows();
    p.save();
    p.setClipRect(QRect(0, f.rows.top(), f.gutter, f.rows.height()));
    p.fillRect(QRect(0, f.rows.top(), f.gutter, f.rows.height()), Qt::white);
    int rankIdx = -1, blockTop = 0;
    for (size_t i = 0; i <= rows.size(); ++i) {
        // rank blocks: alternating background across the gutter and the rows
        if (i == rows.size() || rows[i].kind == TimelineRow::Header) {
            if (rankIdx >= 0) {
                int bottom = rows[i - 1].y + rows[i - 1].h;
                QRect b(0, f.rows.top() + blockTop - st.scrollY, f.rows.right() + 1, bottom - blockTop);
                p.fillRect(b, rankIdx % 2 ? QColor(0xf4, 0xf6, 0xf9) : QColor(0xfb, 0xfc, 0xfd));
            }
            if (i == rows.size()) break;
            rankIdx = rows[i].rank;
            blockTop = rows[i].y;
            const int y = f.rows.top() + rows[i].y - st.scrollY;  // a line above each rank
            p.fillRect(QRect(0, y, f.rows.right() + 1, 1), QColor(200, 204, 210));
        }
    }
    p.restore();
}

namespace {

// a rank's header: its label (elided keeping what tells the files apart), its streams and kernels
void paintHeaderLabel(QPainter& p, const TimelineState& st, const RankLabelElider& labels, const TimelineRow& r, const QRect& lr) {
    const Rank& rank = st.s.profile.ranks[size_t(r.rank)];
    const QFont base = st.text.font(Font::Base);
    QFont small = base;
    small.setPointSizeF(std::max(6.5, base.pointSizeF() - 1.5));
    QFont bold = base;
    bold.setBold(true);
    p.setPen(QColor(30, 30, 30));
    QString arrow = st.collapsed(r.rank) ? QString::fromUtf8("\u25B8 ") : QString::fromUtf8("\u25BE ");
    const QString label = arrow + QString::fromStdString(rank.label);  // (its width decides the stats' room)
    const QFontMetrics bm(st.text.font(Font::Bold));
    st.text.draw(p, lr, arrow + labels.elide(QString::fromStdString(rank.label), bm, lr.width() - bm.horizontalAdvance(arrow)), Font::Bold,
                 Qt::AlignLeft | Qt::AlignVCenter);
    p.setPen(QColor(100, 100, 100));
    // in words, as much as fits beside the label: "3 streams · 980 kernels", else "3 streams"
    const uint64_t n = rank.kernelCount();
    const QString streams = QString("%1 %2").arg(rank.lanes.size()).arg(rank.lanes.size() == 1 ? QObject::tr("stream") : QObject::tr("streams"));
    const QString kernels = QString("%1 %2").arg(QLocale().toString(qulonglong(n)), n == 1 ? QObject::tr("kernel") : QObject::tr("kernels"));
    for (const QString& stats : {streams + QString::fromUtf8(" \u00B7 ") + kernels, streams})
        if (QFontMetrics(bold).horizontalAdvance(label) + QFontMetrics(small).horizontalAdvance(stats) + 12 < lr.width()) {
            st.text.draw(p, lr, stats, Font::Small, Qt::AlignRight | Qt::AlignVCenter);
            break;
        }
}

}  // namespace

void paintTimelineGutter(QPainter& p, const TimelineState& st) {
    const TimelineFrame& f = st.f;
    p.save();
    QRect clip(0, f.rows.top(), f.size.width(), f.rows.height());
    p.setClipRect(clip);
    const Profile& prof = st.s.profile;
    const RankLabelElider labels = RankLabelElider::of(prof);
    for (const TimelineRow& r : st.rows()) {
        const int y = f.rows.top() + r.y - st.scrollY;
        if (y + r.h < f.rows.top() || y > f.rows.bottom()) continue;
        const Rank& rank = prof.ranks[size_t(r.rank)];
        QRect lr(8, y, f.gutter - 12, r.h);
        if (r.kind == TimelineRow::Header) {
            paintHeaderLabel(p, st, labels, r, lr);
        } else if (r.kind == TimelineRow::Lane) {
            const KernelLane& kl = rank.lanes[size_t(r.lane)];
            p.setPen(QColor(50, 50, 50));
            QString text = kl.ncclKernels ? QObject::tr("stream %1 \u00B7 NCCL \u00B7 %2").arg(kl.stream).arg(QLocale().toString(qulonglong(kl.size())))
                                          : QObject::tr("stream %1 \u00B7 %2").arg(kl.stream).arg(QLocale().toString(qulonglong(kl.size())));
            st.text.draw(p, lr.adjusted(12, 0, 0, 0), st.text.elided(text, Font::Small, lr.width() - 12), Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
        } else {
            p.setPen(kLaunchNccl.darker(110));
            st.text.draw(p, lr.adjusted(12, 0, 0, 0),
                         st.text.elided(QObject::tr("CPU launches (pid %1)").arg(prof.processes[size_t(rank.process)].pid), Font::Small, lr.width() - 12),
                         Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    p.restore();
}

namespace {

// the ruler's font: the base one a point smaller
QFont rulerFont(const TimelineState& st) {
    QFont small = st.text.font(Font::Base);
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1));
    return small;
}

// the measured range's length box and the time under the mouse on the ruler (empty when not shown);
// the tick labels under them are left out (they overlapped: review defect 15)
QRectF measureBox(const TimelineState& st, const QFont& small, QString* text = nullptr) {
    if (!st.zoom.hasMeasure()) return {};
    const QRect& r = st.f.ruler;
    const double nsPerPx = (st.t1() - st.t0()) / std::max(1, r.width());
    auto xOf = [&](double t) { return r.left() + (t - st.t0()) / nsPerPx; };
    const double ma = st.zoom.measureStart(), mb = st.zoom.measureEnd();
    double a = std::max(double(r.left()), xOf(ma)), b = std::min(double(r.right()), xOf(mb));
    if (b < a) return {};
    const QString len = QString::fromUtf8("\u2194 ") + dur(mb - ma);
    if (text) *text = len;
    QFont bf = small;
    bf.setBold(true);
    QFontMetrics bm(bf);
    double w = bm.horizontalAdvance(len) + 8;
    double cx = std::clamp((a + b) / 2 - w / 2, double(r.left()), double(r.right()) - w);
    return QRectF(cx, r.top() + 2, w, bm.height() + 2);
}

QRectF hoverBox(const TimelineState& st, const QFontMetrics& fm, QString* text = nullptr) {
    const QRect& r = st.f.ruler;
    if (!(st.hoverX >= r.left() && st.hoverX <= r.right())) return {};
    const double nsPerPx = (st.t1() - st.t0()) / std::max(1, r.width());
    const QString t = tickLabel(st.timeAtX(st.hoverX), nsPerPx);
    if (text) *text = t;
    double w = fm.horizontalAdvance(t) + 6;
    return QRectF(std::min(st.hoverX + 2, r.right() - w), r.bottom() - fm.height() - 1, w, fm.height());
}

// the ruler's time ticks and their labels (not under the measure's or the hover's box)
void paintTicks(QPainter& p, const TimelineState& st, const QFontMetrics& fm, std::vector<std::pair<QRectF, QString>>* labels) {
    const QRect& r = st.f.ruler;
    const double t0 = st.t0(), t1 = st.t1();
    const double nsPerPx = (t1 - t0) / std::max(1, r.width());
    const double step = niceStep(nsPerPx * 75);
    auto xOf = [&](double t) { return r.left() + (t - t0) / nsPerPx; };
    const QRectF reserved[] = {measureBox(st, rulerFont(st)), hoverBox(st, fm)};
    p.setPen(QColor(120, 120, 120));
    double lastLabelEnd = -1e9;
    for (double t = std::ceil(t0 / (step / 5)) * (step / 5); t <= t1; t += step / 5) {
        double x = xOf(t);
        bool major = std::fabs(std::remainder(t, step)) < step * 1e-6;
        p.drawLine(QPointF(x, r.bottom() - (major ? 8 : 4)), QPointF(x, r.bottom()));
        if (major) {
            QString s = tickLabel(t, step);
            double w = fm.horizontalAdvance(s);
            const double lx = x + 3 + w < r.right() ? x + 3 : x - 3 - w;  // near the right edge: left of its tick
            const QRectF box(lx, r.top() + 3, w + 2, fm.height());
            bool free = true;
            for (const QRectF& b : reserved) free = free && !(b.isValid() && b.intersects(box));
            if (lx > r.left() && lx > lastLabelEnd + 6 && free) {
                if (labels) labels->push_back({box, s});
                else st.text.draw(p, box, s, Font::Small, Qt::AlignLeft | Qt::AlignTop);
                lastLabelEnd = lx + w;
            }
        }
    }
}

// the measured range on the ruler, with its length
void paintRulerMeasure(QPainter& p, const TimelineState& st, const QFont& small) {
    const QRect& r = st.f.ruler;
    const double nsPerPx = (st.t1() - st.t0()) / std::max(1, r.width());
    auto xOf = [&](double t) { return r.left() + (t - st.t0()) / nsPerPx; };
    const double ma = st.zoom.measureStart(), mb = st.zoom.measureEnd();
    double a = std::max(double(r.left()), xOf(ma)), b = std::min(double(r.right()), xOf(mb));
    if (b < a) return;
    p.fillRect(QRectF(a, r.top(), std::max(1.0, b - a), r.height()), QColor(0x10, 0x60, 0xc0, 60));
    QString len;
    const QRectF box = measureBox(st, small, &len);
    QFont bf = small;
    bf.setBold(true);
    p.setFont(bf);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(QColor(0x10, 0x40, 0x90));
    p.drawText(box, Qt::AlignCenter, len);
}

}  // namespace

void paintTimelineRuler(QPainter& p, const TimelineState& st) {
    const TimelineFrame& f = st.f;
    const QRect& r = f.ruler;
    p.fillRect(QRect(QPoint(0, r.top()), QPoint(f.size.width() - 1, r.bottom())), QColor(0xee, 0xf1, 0xf5));
    const double span = st.t1() - st.t0();
    const QFont small = rulerFont(st);
    p.setFont(small);
    QFontMetrics fm(small);
    // grid into the rows (light), ticks and labels on the ruler
    paintTicks(p, st, fm, nullptr);
    p.setPen(QColor(180, 184, 190));
    p.drawLine(QPoint(r.left(), r.bottom()), QPoint(r.right(), r.bottom()));
    // the visible span, left of the ruler
    p.setPen(QColor(60, 60, 60));
    st.text.draw(p, QRect(8, r.top(), f.gutter - 14, r.height()), QObject::tr("%1 visible").arg(dur(span)), Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
    const int half = f.overview.height() / 2;
    st.text.draw(p, QRect(8, f.overview.top(), f.gutter - 14, half), QObject::tr("run: %1").arg(dur(st.strip.end() - st.strip.start())), Font::Small,
                 Qt::AlignLeft | Qt::AlignVCenter);
    st.strip.paintKey(p, keyRect(f), st.text.font(Font::Base));
    if (st.zoom.hasMeasure()) paintRulerMeasure(p, st, small);
    // the time under the mouse
    QString t;
    const QRectF box = hoverBox(st, fm, &t);
    if (box.isValid()) {
        p.setFont(small);
        p.fillRect(box, QColor(40, 40, 40));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, t);
    }
}

RulerBoxes timelineRulerBoxes(const TimelineState& st) {
    RulerBoxes out;
    const QFont small = rulerFont(st);
    const QFontMetrics fm(small);
    out.measure = measureBox(st, small);
    out.hover = hoverBox(st, fm);
    QImage none(1, 1, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&none);
    paintTicks(p, st, fm, &out.tickLabels);
    return out;
}

}  // namespace skewui
