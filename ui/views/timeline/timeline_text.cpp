#include "views/timeline/timeline_text.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "report/format.h"

namespace skewui {

void TimelineText::setFont(const QFont& base) {
    base_ = base;
    for (auto& c : cache_) c.clear();
    names_.clear();
}

QFont TimelineText::font(FontKind k) const {
    QFont f = base_;
    if (k == Small || k == SmallBold) f.setPointSizeF(std::max(6.5, f.pointSizeF() - 1.5));
    if (k == Bold || k == SmallBold) f.setBold(true);
    return f;
}

void TimelineText::draw(QPainter& p, const QRectF& r, const QString& s, FontKind k, Qt::Alignment a) {
    auto& cache = cache_[k];
    if (cache.size() > 4000) cache.clear();
    auto it = cache.find(s);
    if (it == cache.end()) {
        QStaticText st(s);
        st.setTextFormat(Qt::PlainText);
        st.setPerformanceHint(QStaticText::AggressiveCaching);
        st.prepare(QTransform(), font(k));
        it = cache.insert(s, st);
    }
    const QSizeF sz = it->size();
    double x = r.left();
    if (a & Qt::AlignRight) x = r.right() - sz.width();
    else if (a & Qt::AlignHCenter) x = r.center().x() - sz.width() / 2;
    double y = r.top();
    if (a & Qt::AlignVCenter) y = r.center().y() - sz.height() / 2;
    else if (a & Qt::AlignBottom) y = r.bottom() - sz.height();
    p.setFont(font(k));
    p.drawStaticText(QPointF(x, y), *it);
}

QString TimelineText::elided(const QString& s, FontKind k, int width) const {
    const QFontMetrics fm(font(k));
    if (fm.horizontalAdvance(s) <= width) return s;
    return fm.elidedText(s, Qt::ElideRight, width);
}

QString TimelineText::elidedName(const skew::StringTable& strings, skew::StrId name, int width) {
    const int bucket = std::clamp(width / 8, 0, 255);  // widths in steps of 8 px
    const quint64 key = (quint64(name) << 8) | quint64(bucket);
    auto it = names_.find(key);
    if (it != names_.end()) return *it;
    if (names_.size() > 20000) names_.clear();
    QString full = QString::fromStdString(skew::kernelBaseName(strings.str(name)));
    return *names_.insert(key, QFontMetrics(font(Small)).elidedText(full, Qt::ElideRight, bucket * 8));
}

QString tickLabel(double ns, double stepNs) {
    int dec = std::clamp(int(std::ceil(-std::log10(stepNs / 1e9) - 1e-9)), 0, 9);
    QString s = QString::number(ns / 1e9, 'f', dec);
    int dot = s.indexOf('.');
    if (dot >= 0 && dec > 3) {
        QString frac = s.mid(dot + 1), grouped;
        for (int i = 0; i < frac.size(); ++i) {
            if (i && i % 3 == 0) grouped += QChar(0x2009);
            grouped += frac[i];
        }
        s = s.left(dot + 1) + grouped;
    }
    return s + " s";
}

}  // namespace skewui
