// The timeline's input: mouse (pan, the ruler's zoom, the measure, the overview, clicks that select
// or collapse), the wheel (rows or zoom, the user's preference) and the keys, as Nsight Systems.
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "common/hover_card.h"
#include "views/plot_keys.h"
#include "views/timeline/timeline_view.h"

using namespace skew;

namespace skewui {

using M = TimelineMetrics;

// ---- input -----------------------------------------------------------------------------------

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    card_->hide();
    if (e->button() != Qt::LeftButton || !s_) return;
    const TimelineFrame f = layout_.frame(size());
    const QPointF pos = e->position();
    pressPos_ = pos;
    pressT0_ = zoom_.start();
    pressT1_ = zoom_.end();
    pressScroll_ = layout_.scroll();
    moved_ = false;
    if (f.overview.contains(pos.toPoint())) {
        drag_ = Drag::Overview;
        QRectF hd = strip_.handle(f.overview, zoom_.start(), zoom_.end());
        double t = strip_.timeAt(f.overview, pos.x());
        if (!hd.contains(pos)) {
            double span = zoom_.end() - zoom_.start();
            setRange(t - span / 2, t + span / 2);
        }
        grabOffset_ = t - zoom_.start();
    } else if (f.ruler.contains(pos.toPoint())) {
        drag_ = Drag::Ruler;
        setMeasure(timeAtX(pos.x()), timeAtX(pos.x()));
    } else if (pos.x() < f.gutter) {
        drag_ = Drag::Header;
    } else if (f.rows.contains(pos.toPoint())) {
        drag_ = (e->modifiers() & Qt::ShiftModifier) ? Drag::Measure : Drag::Pan;
        if (drag_ == Drag::Measure) setMeasure(timeAtX(pos.x()), timeAtX(pos.x()));
        else setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    const QPointF pos = e->position();
    const TimelineFrame f = layout_.frame(size());
    if (drag_ == Drag::None) {
        hoverX_ = f.rows.contains(QPoint(int(pos.x()), f.rows.top())) ? pos.x() : -1;
        update();
        card_->showAt(pos.toPoint(), tooltipAt(pos));
        return;
    }
    if ((pos - pressPos_).manhattanLength() >= 3) moved_ = true;
    switch (drag_) {
    case Drag::Pan: {
        double dt = (pos.x() - pressPos_.x()) * (pressT1_ - pressT0_) / std::max(1, f.rows.width());
        setRange(pressT0_ - dt, pressT1_ - dt);
        int y = layout_.clampScroll(pressScroll_ - int(pos.y() - pressPos_.y()), f);
        if (y != layout_.scroll()) {
            layout_.setScroll(y);
            updateScrollBar();
            update();
        }
        break;
    }
    case Drag::Overview: {
        double t = strip_.timeAt(f.overview, pos.x());
        double span = zoom_.end() - zoom_.start();
        setRange(t - grabOffset_, t - grabOffset_ + span);
        break;
    }
    case Drag::Ruler:
    case Drag::Measure: setMeasure(timeAtX(pressPos_.x()), timeAtX(std::clamp(pos.x(), double(f.rows.left()), double(f.rows.right() + 1)))); break;
    default: break;
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    endDrag(e->position());
}

// a click (no drag) selects what is under it, or collapses a rank; a drag on the ruler zooms to it
void TimelineView::endDrag(const QPointF& pos) {
    const Drag d = drag_;
    drag_ = Drag::None;
    unsetCursor();
    const double ma = zoom_.measureStart(), mb = zoom_.measureEnd();
    if (d == Drag::Ruler) {
        if (moved_ && mb - ma > 0) setRange(ma, mb);  // zoom to the range, which stays marked
        else setMeasure(NAN, NAN);
        return;
    }
    if (d == Drag::Measure) {
        if (!moved_) setMeasure(NAN, NAN);
        return;
    }
    if (moved_) return;
    Hit h = hitTest(pos);
    if (d == Drag::Header) {
        if (h.kind == Hit::Header) toggleRank(h.rank);
        return;
    }
    if (d != Drag::Pan) return;
    if (h.kind == Hit::Kernel || h.kind == Hit::Marker) {
        if (h.collective >= 0) {
            selected_ = h.collective;
            update();
            emit collectiveClicked(h.collective);
        }
        emit kernelClicked(h.rank, h.lane, quint32(h.index));
    } else if (h.kind == Hit::Header) {
        toggleRank(h.rank);
    }
}

// As Nsight Systems: the wheel scrolls the rows, Ctrl+wheel zooms at the cursor, Shift+wheel pans;
// with the preference (setWheelZooms) as before: the wheel (and Ctrl+wheel) zooms, Shift+wheel
// scrolls the rows. A horizontal wheel or touchpad pans in both.
void TimelineView::wheelEvent(QWheelEvent* e) {
    card_->hide();  // what it described moves away
    if (!s_) return;
    const QPoint d = e->angleDelta();
    const TimelineFrame f = layout_.frame(size());
    const bool ctrl = e->modifiers() & Qt::ControlModifier, shift = e->modifiers() & Qt::ShiftModifier;
    const double notches = (std::abs(d.x()) > std::abs(d.y()) ? d.x() : d.y()) / 120.0;
    const bool rows = wheelZooms_ ? shift : !ctrl && !shift;
    if (rows) {
        scrollRows(int(std::lround(-notches * 3 * M::kLaneH)));
    } else if (std::abs(d.x()) > std::abs(d.y()) || (!wheelZooms_ && shift)) {
        panBy(-notches * 0.1);  // horizontal wheel or touchpad, or Shift+wheel: pan
    } else if (d.y() != 0) {
        double x = f.overview.contains(e->position().toPoint()) ? f.rows.center().x() : e->position().x();
        zoomAt(std::pow(0.8, d.y() / 120.0), std::clamp(x, double(f.rows.left()), double(f.rows.right())));
    }
    e->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    const QRect ra = rowsArea();
    switch (e->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAtPointer(kKeyZoomIn); return;
    case Qt::Key_S:
    case Qt::Key_Minus: zoomAtPointer(kKeyZoomOut); return;
    case Qt::Key_A:
    case Qt::Key_Left: panBy(-0.15); return;
    case Qt::Key_D:
    case Qt::Key_Right: panBy(0.15); return;
    case Qt::Key_Up: scrollRows(-M::kLaneH * 2); return;
    case Qt::Key_Down: scrollRows(M::kLaneH * 2); return;
    case Qt::Key_PageUp: scrollRows(-ra.height() * 9 / 10); return;
    case Qt::Key_PageDown: scrollRows(ra.height() * 9 / 10); return;
    case Qt::Key_0:
    case Qt::Key_Home: fit(); return;
    case Qt::Key_F: fitCollective(); return;
    case Qt::Key_Z:
        if (zoom_.hasMeasure() && zoom_.measureEnd() > zoom_.measureStart()) setRange(zoom_.measureStart(), zoom_.measureEnd());
        return;
    case Qt::Key_Escape: setMeasure(NAN, NAN); return;
    case Qt::Key_I: setShowIdeal(!showIdeal_); return;
    default: QWidget::keyPressEvent(e);
    }
}

void TimelineView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) {
        legendImg_ = QImage();
        gutterKey_ = {};
        text_.setFont(font());
        layoutRows();
    }
    QWidget::changeEvent(e);
}

void TimelineView::leaveEvent(QEvent*) {
    hoverX_ = -1;
    card_->hide();
    update();
}

void TimelineView::enterEvent(QEnterEvent*) {
    // keys act where the mouse is, as in Perfetto; only take focus inside an active window
    if (window()->isActiveWindow()) setFocus();
}

}  // namespace skewui
