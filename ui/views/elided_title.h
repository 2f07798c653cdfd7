#pragma once
// A plot's title elided at its end to its rectangle (its full text is the view's tooltip), never
// wider than the plot: the heatmap's and the step map's (a centred title wider than the view was cut
// at both ends: review defect 8).

#include <qcustomplot.h>

namespace skewui {

class ElidedTitle : public QCPTextElement {
public:
    using QCPTextElement::QCPTextElement;
    QString shown() const { return QFontMetrics(mFont).elidedText(mText, Qt::ElideRight, mRect.width()); }
    QRect textRect() const {
        const int w = QFontMetrics(mFont).horizontalAdvance(shown());
        return QRect(mRect.left() + (mRect.width() - w) / 2, mRect.top(), w, mRect.height());
    }
    QSize minimumOuterSizeHint() const override { return {0, QCPTextElement::minimumOuterSizeHint().height()}; }

protected:
    void draw(QCPPainter* p) override {
        p->setFont(mFont);
        p->setPen(QPen(mTextColor));
        p->drawText(mRect, Qt::AlignCenter, shown());
    }
};

}  // namespace skewui
