#include "views/collective/plot_elements.h"

#include <QRegularExpression>

namespace skewui {

TextElement::TextElement(QCustomPlot* plot, const QFont& font, QColor color, bool wrap)
    : QCPLayoutElement(plot), font_(font), color_(color), wrap_(wrap) {
    setMargins(QMargins(8, 3, 8, 1));
}

QSize TextElement::minimumOuterSizeHint() const {
    int n = text_.isEmpty() ? 0 : int(lines(availableWidth()).size());
    return {0, n * QFontMetrics(font_).lineSpacing() + (n ? mMargins.top() + mMargins.bottom() : 0)};
}

void TextElement::draw(QCPPainter* p) {
    p->setFont(font_);
    p->setPen(color_);
    QFontMetrics fm(font_);
    int y = mRect.top();
    for (const QString& l : lines(mRect.width())) {
        p->drawText(QRect(mRect.left(), y, mRect.width(), fm.lineSpacing()), Qt::AlignHCenter | Qt::AlignVCenter, l);
        y += fm.lineSpacing();
    }
}

QStringList TextElement::lines(int width) const {
    QFontMetrics fm(font_);
    if (text_.isEmpty() || width <= 0) return {};
    if (!wrap_) return {fm.elidedText(text_, Qt::ElideMiddle, width)};
    // whole clauses ("; ") on a line while they fit; a longer clause breaks at spaces; a word
    // longer than the line is elided in the middle
    // what elidedText leaves whole (horizontalAdvance alone let a line through that it then elided)
    auto fits = [&](const QString& t) { return fm.elidedText(t, Qt::ElideRight, width) == t; };
    QStringList out;
    QString cur;
    for (const QString& clause : text_.split('\n')) {
        if (!cur.isEmpty() && fits(cur + "; " + clause)) {
            cur += "; " + clause;
            continue;
        }
        if (!cur.isEmpty()) out << cur;
        cur.clear();
        QStringList words = clause.split(' ');
        // a title keeps a figure with its unit ("3.23 ms" on one line)
        static const QRegularExpression unit(QStringLiteral("^(ns|us|ms|s)[,;.)]?$"));
        for (int i = int(words.size()) - 1; wholeFigures_ && i > 0; --i)
            if (unit.match(words[i]).hasMatch()) words[i - 1] += ' ' + words.takeAt(i);
        for (const QString& word : words) {
            QString next = cur.isEmpty() ? word : cur + ' ' + word;
            if (fits(next) || cur.isEmpty()) {
                cur = next;
            } else {
                out << fm.elidedText(cur, Qt::ElideMiddle, width);
                cur = word;
            }
        }
    }
    if (!cur.isEmpty()) out << fm.elidedText(cur, Qt::ElideMiddle, width);
    if (maxLines_ > 0 && out.size() > maxLines_) {
        // at most maxLines_ lines: the last one shown ends in an ellipsis when the text goes on
        out[maxLines_ - 1] = fm.elidedText(out[maxLines_ - 1] + "; " + out[maxLines_], Qt::ElideRight, width);
        out = out.mid(0, maxLines_);
    }
    return out;
}

LegendElement::LegendElement(QCustomPlot* plot) : QCPLayoutElement(plot) {
    font_.setPointSizeF(8);
    setMargins(QMargins(8, 2, 8, 4));
}

QSize LegendElement::minimumOuterSizeHint() const {
    int n = int(rows(mParentPlot->viewport().width() - mMargins.left() - mMargins.right()).size());
    return {0, n * lineHeight() + (n ? mMargins.top() + mMargins.bottom() : 0)};
}

void LegendElement::draw(QCPPainter* p) {
    p->setFont(font_);
    int y = mRect.top();
    for (const auto& row : rows(mRect.width())) {
        double w = 0;
        for (size_t i : row) w += itemWidth(items_[i]);
        double x = mRect.left() + (mRect.width() - w) / 2;
        for (size_t i : row) {
            drawItem(p, items_[i], x, y);
            x += itemWidth(items_[i]);
        }
        y += lineHeight();
    }
}

// an item's sign (box, hatched box, triangle or outline) and its text
void LegendElement::drawItem(QCPPainter* p, const Item& it, double x, int y) {
    QFontMetrics fm(font_);
    QRectF box(x, y + (lineHeight() - 10) / 2.0, 10, 10);
    p->setPen(Qt::NoPen);
    if (it.shape == Item::Triangle) {
        p->setBrush(it.c);
        QPolygonF tri;
        tri << box.topLeft() << box.topRight() << QPointF(box.center().x(), box.bottom());
        p->drawPolygon(tri);
    } else if (it.shape == Item::Outline) {
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(it.c, 2));
        p->drawRect(box.adjusted(1, 1, -1, -1));
    } else {
        p->fillRect(box, it.c);
        if (it.shape == Item::Hatch) p->fillRect(box, QBrush(it.c.darker(125), Qt::BDiagPattern));
    }
    p->setPen(QColor(50, 50, 50));
    p->drawText(QRectF(x + 14, y, fm.horizontalAdvance(it.t) + 2, lineHeight()), Qt::AlignLeft | Qt::AlignVCenter, it.t);
}

std::vector<std::vector<size_t>> LegendElement::rows(int width) const {
    std::vector<std::vector<size_t>> out;
    double x = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
        double w = itemWidth(items_[i]);
        if (out.empty() || (x + w > width && !out.back().empty())) out.emplace_back(), x = 0;
        out.back().push_back(i);
        x += w;
    }
    return out;
}

}  // namespace skewui
