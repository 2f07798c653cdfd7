// The timeline's legend band: entries wrapped onto the lines the layout reserved, the keys' hint,
// and the note on rows cut off below.

#include "views/timeline/timeline_legend.h"

#include <QFontMetrics>
#include <QImage>
#include <QObject>
#include <QPainter>

#include <algorithm>

#include "common/palette.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_passes.h"

namespace skewui {

using namespace palette;
using Font = TimelineText::FontKind;
using M = TimelineMetrics;

namespace {

struct Entry {
    QColor c;
    QString t;
    int kind;  // 0 box, 1 hatched box, 2 triangle, 3 outlined box
};

// the most needed first (a view too small for even its lines shows those that fit)
std::vector<Entry> entries(const QString& lateItem, const QString& ideal) {
    std::vector<Entry> out;
    if (!ideal.isEmpty()) out.push_back({kIdeal, ideal, 3});  // asked for: first
    const Entry items[] = {{kTransfer, QObject::tr("NCCL transfer"), 0},  {kWait, QObject::tr("NCCL waiting"), 1},
                           {kGemm, QObject::tr("GEMM"), 0},                {kOther, QObject::tr("other kernel"), 0},
                           {kLate, QObject::tr("big event"), 2},           {kLateSmall, lateItem, 2},
                           {kLaunchNccl, QObject::tr("NCCL launch"), 0},   {kSelect, QObject::tr("selected collective"), 0},
                           {kOtherNccl, QObject::tr("other NCCL"), 0},     {kLaunch, QObject::tr("other launch"), 0}};
    out.insert(out.end(), std::begin(items), std::end(items));
    return out;
}

QString lateLong() { return QObject::tr("late arriver (big only at this zoom)"); }

// swatch (14), text, space after (12)
int entryWidth(const QFontMetrics& fm, const QString& t) { return 14 + fm.horizontalAdvance(t) + 12; }

QString keysHint() {
    return QObject::tr("wheel, W/S zoom \u00B7 drag, A/D pan \u00B7 drag ruler: zoom to range \u00B7 Shift+drag: measure \u00B7 Home: fit \u00B7 F: fit selection \u00B7 I: ideal schedule");
}

void paintSwatch(QPainter& p, const Entry& it, double x, double y) {
    if (it.kind == 2) {
        QPolygonF tri;
        tri << QPointF(x, y) << QPointF(x + 10, y) << QPointF(x + 5, y + 8);
        p.setPen(Qt::NoPen);
        p.setBrush(it.c);
        p.drawPolygon(tri);
    } else if (it.kind == 3) {
        p.setPen(QPen(it.c, 1));
        p.setBrush(QColor(it.c.red(), it.c.green(), it.c.blue(), 70));
        p.drawRect(QRectF(x + 0.5, y + 4.5, 9, 5));
    } else {
        p.fillRect(QRectF(x, y, 10, 10), it.c);
        if (it.kind == 1) p.fillRect(QRectF(x, y, 10, 10), QBrush(kWaitHatch, Qt::BDiagPattern));
    }
}

// the entries as this frame shows them: placed on the legend's lines, none past the note on the last
LegendBoxes placeLegend(const TimelineState& st, std::vector<Entry>* shown) {
    const QString lateItem = thinnedGroups(st).empty() ? QObject::tr("late arriver") : lateLong();
    const std::vector<Entry> all = entries(lateItem, idealLegendText(st));
    const QFontMetrics fm(st.text.font(Font::Small));
    std::vector<int> widths;
    for (const Entry& e : all) widths.push_back(entryWidth(fm, e.t));
    const QRect& r = st.f.legend;
    const int lines = std::max(1, r.height() / M::kLegendH);
    const LegendFlow flow = flowLegend(widths, r.width(), lines);
    LegendBoxes out;
    for (size_t i = 0; i < all.size(); ++i) {
        const QPoint at = flow.at[i];
        if (at.x() < 0) continue;
        const QRectF box(at.x(), r.top() + at.y() * M::kLegendH, widths[i] - 12, M::kLegendH);
        const bool lastLine = at.y() == lines - 1;
        if (box.right() > r.right() - M::kLegendRight + 1 || (lastLine && !st.f.note.isEmpty() && box.right() > st.f.note.left())) continue;
        out.entries.push_back({box, all[i].t});
        if (shown) shown->push_back(all[i]);
    }
    return out;
}

}  // namespace

std::vector<int> timelineLegendWidths(const TimelineText& text, bool ideal) {
    const QFontMetrics fm(text.font(Font::Small));
    std::vector<int> out;
    for (const Entry& e : entries(lateLong(), ideal ? QObject::tr("ideal schedule (zoom in to see it)") : QString())) out.push_back(entryWidth(fm, e.t));
    return out;
}

int timelineRowsNoteWidth(const TimelineText& text, const Session* s) {
    if (!s) return 0;
    size_t longest = 0;
    QString a, b;  // the two longest rank labels
    for (const auto& rk : s->profile.ranks) {
        const QString l = QString::fromStdString(rk.label);
        if (l.size() > a.size()) b = a, a = l;
        else if (l.size() > b.size()) b = l;
        longest += rk.lanes.size() + 2;  // (at most every row: header, lanes, CPU row)
    }
    const QString note = QString::fromUtf8("\u25BC ") + QObject::tr("%1 more rows below (%2)").arg(longest).arg(QObject::tr("%1 to %2").arg(a, b));
    return std::min(360, QFontMetrics(text.font(Font::SmallBold)).horizontalAdvance(note) + 12);
}

QString rowsBelowNote(const TimelineState& st) {
    const int bottom = st.scrollY + st.f.rows.height();  // content y of the first pixel row below the area
    int n = 0, first = -1, last = -1;
    for (const TimelineRow& r : st.rows())
        if (r.y + r.h > bottom) {
            ++n;
            if (first < 0) first = r.rank;
            last = r.rank;
        }
    if (n == 0) return {};
    auto label = [&](int rank) { return QString::fromStdString(st.s.profile.ranks[size_t(rank)].label); };
    const QString ranks = first == last ? label(first) : QObject::tr("%1 to %2").arg(label(first), label(last));
    return n == 1 ? QObject::tr("1 more row below (%1)").arg(ranks) : QObject::tr("%1 more rows below (%2)").arg(n).arg(ranks);
}

LegendBoxes timelineLegendBoxes(const TimelineState& st) {
    LegendBoxes out = placeLegend(st, nullptr);
    const QString note = rowsBelowNote(st);
    if (note.isEmpty() || st.f.note.isEmpty()) return out;
    const QString text = QString::fromUtf8("\u25BC ") + note;
    const QFontMetrics fm(st.text.font(Font::SmallBold));
    const QRectF& n = st.f.note;
    const double w = std::min(n.width(), double(fm.horizontalAdvance(text) + 12));
    out.note = QRectF(n.right() + 1 - w, n.top() + 1, w, n.height() - 2);
    out.noteText = st.text.elided(text, Font::SmallBold, int(w) - 12);
    return out;
}

void paintTimelineLegend(QPainter& p, const TimelineState& st) {
    std::vector<Entry> shown;
    const LegendBoxes boxes = placeLegend(st, &shown);
    const QRect& r = st.f.legend;
    p.fillRect(r, QColor(0xf6, 0xf7, 0xf9));
    p.setFont(st.text.font(Font::Small));
    double lastEnd = M::kLegendLeft, lastTop = r.top();
    for (size_t i = 0; i < shown.size(); ++i) {
        const QRectF& b = boxes.entries[i].first;
        paintSwatch(p, shown[i], b.left(), b.top() + (M::kLegendH - 10) / 2.0);
        p.setPen(QColor(50, 50, 50));
        st.text.draw(p, b.adjusted(14, 0, 0, 0), shown[i].t, Font::Small, Qt::AlignLeft | Qt::AlignVCenter);
        lastEnd = b.right() + 12, lastTop = b.top();
    }
    // the keys' hint on the last line, right of its entries when it fits (and left of the note)
    const double lastLine = r.top() + (std::max(1, r.height() / M::kLegendH) - 1) * M::kLegendH;
    if (lastTop != lastLine) lastEnd = M::kLegendLeft, lastTop = lastLine;
    const QFontMetrics fm(st.text.font(Font::Small));
    const double end = st.f.note.isEmpty() ? r.right() : st.f.note.left();
    if (lastEnd + fm.horizontalAdvance(keysHint()) + 16 < end) {
        p.setPen(QColor(110, 110, 110));
        st.text.draw(p, QRectF(lastEnd, lastTop, end - lastEnd - 8, M::kLegendH), keysHint(), Font::Small, Qt::AlignRight | Qt::AlignVCenter);
    }
}

void paintTimelineRowsNote(QPainter& p, const TimelineState& st) {
    const LegendBoxes b = timelineLegendBoxes(st);
    if (b.note.isEmpty()) return;
    p.fillRect(b.note, Qt::white);
    p.setPen(QColor(200, 204, 210));
    p.setBrush(Qt::NoBrush);
    p.drawRect(b.note.adjusted(0, 0, -1, -1));
    p.setPen(QColor(0x10, 0x30, 0x60));
    st.text.draw(p, b.note.adjusted(6, 0, -6, 0), b.noteText, Font::SmallBold, Qt::AlignLeft | Qt::AlignVCenter);
}

}  // namespace skewui
