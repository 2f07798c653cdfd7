#pragma once
// The collective view's own plot layout elements: a line of text that never widens the plot (the
// title, elided in the middle; the why-line, wrapped clause by clause), and the legend below the plot
// that lists only what is drawn, wrapped onto as many lines as the width needs.

#include <qcustomplot.h>

#include <vector>

namespace skewui {

// A line of text that never widens the plot: elided in the middle (title) or wrapped at the
// width of the plot (the why-line), its height following the number of lines.
class TextElement : public QCPLayoutElement {
public:
    TextElement(QCustomPlot* plot, const QFont& font, QColor color, bool wrap);
    void setText(const QString& t) { text_ = t; }
    void setMaxLines(int n) { maxLines_ = n; }
    void setWrap(bool wrap) { wrap_ = wrap; }
    void setWholeFigures(bool on) { wholeFigures_ = on; }  // wrapped: a figure and its unit on one line
    QString text() const { return text_; }
    bool isElided() const { return !wrap_ && shown() != text_; }
    QString shown() const { return lines(mRect.width() > 0 ? mRect.width() : availableWidth()).join('\n'); }

    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override { return {QWIDGETSIZE_MAX, minimumOuterSizeHint().height()}; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* p) const override { p->setAntialiasing(true); }
    void draw(QCPPainter* p) override;

private:
    int availableWidth() const { return mParentPlot->viewport().width() - mMargins.left() - mMargins.right(); }
    QStringList lines(int width) const;

    QString text_;
    QFont font_;
    QColor color_;
    bool wrap_;
    int maxLines_ = 0;  // 0: as many as the text needs
    bool wholeFigures_ = false;
};

// The legend below the plot: only what is drawn, wrapped onto as many lines as the width needs.
class LegendElement : public QCPLayoutElement {
public:
    struct Item {
        QColor c;
        QString t;
        enum Shape { Box, Hatch, Triangle, Outline } shape;
    };
    explicit LegendElement(QCustomPlot* plot);
    void setItems(std::vector<Item> items) { items_ = std::move(items); }
    const std::vector<Item>& items() const { return items_; }

    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override { return {QWIDGETSIZE_MAX, minimumOuterSizeHint().height()}; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* p) const override { p->setAntialiasing(true); }
    void draw(QCPPainter* p) override;

private:
    int lineHeight() const { return QFontMetrics(font_).height() + 2; }
    double itemWidth(const Item& it) const { return 14 + QFontMetrics(font_).horizontalAdvance(it.t) + 14; }
    std::vector<std::vector<size_t>> rows(int width) const;
    void drawItem(QCPPainter* p, const Item& it, double x, int y);

    QFont font_;
    std::vector<Item> items_;
};

}  // namespace skewui
