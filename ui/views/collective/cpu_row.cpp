#include "views/collective/cpu_row.h"

#include <QFontMetrics>
#include <QObject>

#include <algorithm>

#include "report/format.h"

namespace skewui {

QColor cpuKindColor(skew::CpuKind k) {
    switch (k) {
    case skew::CpuKind::Nvtx: return QColor(0x8f, 0xbc, 0x8f);
    case skew::CpuKind::CudaApi: return QColor(0x5e, 0x81, 0xac);
    case skew::CpuKind::OsRuntime: return QColor(0xa0, 0x52, 0x2d);
    case skew::CpuKind::Sample: return QColor(0x30, 0x30, 0x30);
    }
    return Qt::gray;
}

namespace {

constexpr double kHalf = 0.34;  // the row's half-height in rows; four bands of kHalf / 2 each

// the band of a kind, top to bottom: NVTX, CUDA API, OS runtime, samples
int bandOf(skew::CpuKind k) {
    switch (k) {
    case skew::CpuKind::Nvtx: return 0;
    case skew::CpuKind::CudaApi: return 1;
    case skew::CpuKind::OsRuntime: return 2;
    case skew::CpuKind::Sample: return 3;
    }
    return 3;
}

}  // namespace

CpuRowLayout layoutCpuRow(const skew::CpuWindow& w, const skew::CpuActivity* a, int64_t t0, const AxisMapping& m, double row) {
    CpuRowLayout L;
    if (!w.present) return L;
    L.shown = true;
    const double top = m.py(row - kHalf), bottom = m.py(row + kHalf);
    L.band = QRectF(QPointF(m.plot.left(), top), QPointF(m.plot.right(), bottom));
    const double x0 = std::max<double>(m.plot.left(), m.px(double(w.fromNs - t0)));
    const double x1 = std::min<double>(m.plot.right(), m.px(double(w.toNs - t0)));
    if (x1 > x0) L.window = QRectF(QPointF(x0, top), QPointF(x1, bottom));
    if (!a) {
        L.status = QObject::tr("reading what thread %1 did from %2…").arg(w.tid).arg(QString::fromStdString(w.exportPath));
        return L;
    }
    const double bandH = (bottom - top) / 4;
    for (const skew::CpuItem& i : a->items) {
        const int b = bandOf(i.kind);
        double l = m.px(double(i.start - t0)), r = m.px(double(i.end - t0));
        if (i.kind == skew::CpuKind::Sample) l -= 1, r += 1;  // a tick
        else r = std::max(r, l + 1);
        if (r < m.plot.left() || l > m.plot.right()) continue;
        l = std::max<double>(l, m.plot.left()), r = std::min<double>(r, m.plot.right());
        L.items.push_back({QRectF(l, top + b * bandH + 1, r - l, bandH - 2), i.kind, QString::fromStdString(i.name), i.end - i.start});
        L.drawn[size_t(i.kind)] = true;
    }
    if (a->items.empty()) L.status = QObject::tr("nothing recorded on thread %1 in this time").arg(w.tid);
    if (!a->exportRead && !a->notes.empty()) L.status = QString::fromStdString(a->notes.front());
    return L;
}

void paintCpuRow(QPainter* p, const CpuRowLayout& L, const QFont& font) {
    if (!L.shown) return;
    p->save();
    p->setPen(Qt::NoPen);
    p->fillRect(L.window, QColor(106, 27, 154, 22));  // the window, in the launch's purple, faint
    // names inside the bars in a font that fits their band (none in a band under 8 px: the hover has them)
    const double bandH = L.band.height() / 4 - 2;
    QFont f = font;
    f.setPixelSize(std::max(7, std::min(QFontMetrics(font).height() - 3, int(bandH))));
    p->setFont(f);
    const QFontMetrics fm(f);
    for (const CpuRowItem& i : L.items) p->fillRect(i.rect, cpuKindColor(i.kind));
    // a name where its bar has room and nothing overlaps it (nested NVTX ranges, calls inside
    // ranges of one band): the items of a kind are consecutive and in start order
    for (size_t n = 0; n < L.items.size(); ++n) {
        const CpuRowItem& i = L.items[n];
        if (i.kind == skew::CpuKind::Sample || i.rect.width() < 30 || bandH < 8) continue;
        const bool prevOverlaps = n > 0 && L.items[n - 1].kind == i.kind && L.items[n - 1].rect.right() > i.rect.left() + 0.5;
        const bool nextOverlaps = n + 1 < L.items.size() && L.items[n + 1].kind == i.kind && L.items[n + 1].rect.left() < i.rect.right() - 0.5;
        if (prevOverlaps || nextOverlaps) continue;
        const QString t = fm.elidedText(i.name, Qt::ElideRight, int(i.rect.width()) - 4);
        if (t.size() < 3) continue;
        p->setPen(cpuKindColor(i.kind).lightness() > 140 ? Qt::black : Qt::white);
        p->drawText(i.rect.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, t);
    }
    p->setPen(Qt::NoPen);
    if (!L.status.isEmpty()) {
        p->setPen(QColor(90, 90, 90));
        const QRectF r = L.window.isValid() ? L.window : L.band;
        p->drawText(r.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(L.status, Qt::ElideMiddle, int(r.width()) - 8));
    }
    p->restore();
}

QString cpuRowToolTip(const CpuRowLayout& L, const QPointF& pos) {
    // the last drawn on top: samples over spans
    for (auto it = L.items.rbegin(); it != L.items.rend(); ++it) {
        if (!it->rect.adjusted(-2, 0, 2, 0).contains(pos)) continue;
        const QString kind = QString::fromLatin1(skew::cpuKindLabel(it->kind));
        if (it->kind == skew::CpuKind::Sample) return QObject::tr("%1: %2").arg(kind, it->name);
        return QObject::tr("%1: %2, %3").arg(kind, it->name, QString::fromStdString(skew::formatDuration(it->ns)));
    }
    if (L.band.contains(pos) && !L.status.isEmpty()) return L.status;
    return {};
}

}  // namespace skewui
