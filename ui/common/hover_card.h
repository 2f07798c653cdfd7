#pragma once
// The hover card of a view: the rich text a tooltip would show, as a child of the view, placed by
// the pointer (below right) and flipped left at the view's right edge and up at its bottom edge, so
// that it is never cut by the window or the screen (a QToolTip is placed on the screen, and was cut
// at the window's edge: review defect 7). Long kernel names wrap anywhere when they must. Transparent
// for the mouse: the view keeps its hover.

#include <QTextDocument>
#include <QWidget>

namespace skewui {

class HoverCard : public QWidget {
    Q_OBJECT
public:
    explicit HoverCard(QWidget* view);
    // shows `html` by `pos` (view coordinates); hides the card when `html` is empty
    void showAt(const QPoint& pos, const QString& html);
    const QString& text() const { return html_; }

    // where a card of `size` goes for the pointer at `pos` inside `bounds`: below right of the
    // pointer, left of it when it would pass the right edge, above it past the bottom edge, and
    // inside `bounds` whenever it fits there
    static QRect place(const QPoint& pos, const QSize& size, const QRect& bounds);
    static constexpr int kDx = 12, kDy = 18;  // the card's offset from the pointer
    static constexpr int kPad = 5;            // between the frame and the text

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString html_;
    QTextDocument doc_;
};

}  // namespace skewui
