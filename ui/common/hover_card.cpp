#include "common/hover_card.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextOption>

#include <algorithm>
#include <cmath>

namespace skewui {

HoverCard::HoverCard(QWidget* view) : QWidget(view) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    QTextOption o = doc_.defaultTextOption();
    o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    doc_.setDefaultTextOption(o);
    doc_.setDocumentMargin(0);
    hide();
}

QRect HoverCard::place(const QPoint& pos, const QSize& size, const QRect& bounds) {
    int x = pos.x() + kDx, y = pos.y() + kDy;
    if (x + size.width() > bounds.right() + 1) x = pos.x() - kDx - size.width();
    if (y + size.height() > bounds.bottom() + 1) y = pos.y() - kDy / 2 - size.height();
    x = std::max(bounds.left(), std::min(x, bounds.right() + 1 - size.width()));
    y = std::max(bounds.top(), std::min(y, bounds.bottom() + 1 - size.height()));
    return QRect(QPoint(x, y), size);
}

void HoverCard::showAt(const QPoint& pos, const QString& html) {
    if (html.isEmpty()) {
        hide();
        return;
    }
    const QRect bounds = parentWidget()->rect();
    if (html != html_ || doc_.defaultFont() != font()) {
        html_ = html;
        doc_.setDefaultFont(font());
        doc_.setHtml(html);
        // at most 60% of the view (and 520 px) wide: longer lines wrap
        const double most = std::max(160.0, std::min(520.0, bounds.width() * 0.6)) - 2 * kPad;
        doc_.setTextWidth(-1);
        doc_.setTextWidth(std::min(most, std::ceil(doc_.idealWidth())));
        resize(int(std::ceil(doc_.textWidth())) + 2 * kPad, int(std::ceil(doc_.size().height())) + 2 * kPad);
    }
    setGeometry(place(pos, size(), bounds));
    raise();
    show();
    update();
}

void HoverCard::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::ToolTipBase));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.translate(kPad, kPad);
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette.setColor(QPalette::Text, palette().color(QPalette::ToolTipText));
    doc_.documentLayout()->draw(&p, ctx);
}

}  // namespace skewui
