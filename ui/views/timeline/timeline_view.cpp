#include "views/timeline/timeline_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "common/view_export.h"
#include "scene/view_texts.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_passes.h"
#include "views/timeline/timeline_raster.h"

using namespace skew;

namespace skewui {

using M = TimelineMetrics;

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(360, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    text_.setFont(font());
    vbar_ = new QScrollBar(Qt::Vertical, this);
    vbar_->hide();
    connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) {
        if (v != layout_.scroll()) {
            layout_.setScroll(v);
            update();
        }
    });
    ideal_ = new IdealJob(this);
    connect(ideal_, &IdealJob::ready, this, [this] { update(); });
}

void TimelineView::setSession(SessionPtr s) {
    s_ = std::move(s);
    text_.clearNames();  // keyed by string ids of the previous profile
    strip_.setSession(s_);
    selected_ = -1;
    zoom_.setMeasure(NAN, NAN);
    zoom_.setRun(strip_.start(), strip_.end());
    layout_.setSession(s_.get());
    ideal_->setSession(s_);
    if (showIdeal_) ideal_->request();
    layoutRows();
    fit();
}

void TimelineView::setShowIdeal(bool on) {
    if (on == showIdeal_) return;
    showIdeal_ = on;
    if (on) ideal_->request();
    update();
    emit showIdealChanged(on);
}

void TimelineView::setIdealSchedule(std::shared_ptr<const skew::IdealSchedule> s) {
    ideal_->set(std::move(s));
    setShowIdeal(true);
}

const skew::IdealSchedule* TimelineView::idealSchedule() const { return ideal_->schedule(); }

TimelineState TimelineView::state() const {
    const TimelineFrame f = layout_.frame(size());
    return TimelineState{*s_, layout_, zoom_, strip_, text_, f, layout_.scroll(), selected_, hoverX_, shownIdeal(), idealPending()};
}

void TimelineView::layoutRows() {
    layout_.layout(TimelineLayout::areaHeight(size()));
    ++layoutVersion_;
    // the label gutter fits the longest rank label and a stream label
    QFontMetrics fm(font());
    int labels = fm.horizontalAdvance("stream 0000 \u00B7 NCCL \u00B7 000000") + 16;
    if (s_)
        for (const auto& r : s_->profile.ranks) labels = std::max(labels, QFontMetrics(font()).horizontalAdvance(QString::fromStdString(r.label)) + 90);
    layout_.setGutterWanted(std::clamp(labels, 150, 300));  // the width the labels want; the frame narrows it in small views
    updateScrollBar();
    update();
}

QRect TimelineView::rowsArea() const { return layout_.frame(size()).rows; }
QRect TimelineView::rulerArea() const { return layout_.frame(size()).ruler; }
QRect TimelineView::overviewArea() const { return layout_.frame(size()).overview; }

QRect TimelineView::rowRect(int i) const {
    QRect a = rowsArea();
    const Row& r = rows()[size_t(i)];
    return QRect(a.left(), a.top() + r.y - layout_.scroll(), a.width(), r.h);
}

int TimelineView::rowAt(int y) const {
    QRect a = rowsArea();
    if (y < a.top() || y > a.bottom()) return -1;
    return layout_.rowAtContentY(y - a.top() + layout_.scroll());
}

PixelMap TimelineView::pixelMap() const { return PixelMap::fit(zoom_.start(), zoom_.end(), rowsArea().width()); }

double TimelineView::timeAtX(double x) const {
    QRect a = rowsArea();
    return zoom_.start() + (x - a.left()) * (zoom_.end() - zoom_.start()) / std::max(1, a.width());
}

double TimelineView::xAtTime(double t) const {
    QRect a = rowsArea();
    return a.left() + (t - zoom_.start()) / (zoom_.end() - zoom_.start()) * std::max(1, a.width());
}

// ---- navigation ------------------------------------------------------------------------------

void TimelineView::rangeUpdated() {
    update();
    emit rangeChanged(zoom_.start(), zoom_.end());
}

void TimelineView::setRange(double t0, double t1) {
    if (zoom_.setRange(t0, t1)) rangeUpdated();
}

void TimelineView::fit() {
    zoom_.fit();
    rangeUpdated();
}

void TimelineView::fitCollective() {
    if (!s_ || selected_ < 0) return;
    if (zoom_.fitCollective(s_->analysis.collectives[size_t(selected_)])) rangeUpdated();
}

void TimelineView::zoomAt(double factor, double x) {
    if (zoom_.zoomAt(factor, timeAtX(x))) rangeUpdated();
}

void TimelineView::zoomAtPointer(double factor) {
    const QRect ra = rowsArea();
    zoomAt(factor, hoverX_ >= ra.left() && hoverX_ <= ra.right() ? hoverX_ : ra.center().x());
}

void TimelineView::panBy(double fraction) {
    if (zoom_.panBy(fraction)) rangeUpdated();
}

void TimelineView::setMeasure(double a, double b) {
    zoom_.setMeasure(a, b);
    update();
}

void TimelineView::setRankCollapsed(int rank, bool c) {
    if (layout_.setCollapsed(rank, c)) layoutRows();
}

void TimelineView::scrollRows(int pixels) {
    int y = layout_.clampScroll(layout_.scroll() + pixels, layout_.frame(size()));
    if (y == layout_.scroll()) return;
    layout_.setScroll(y);
    updateScrollBar();
    update();
}

void TimelineView::updateScrollBar() {
    const TimelineFrame f = layout_.frame(size());
    layout_.setScroll(layout_.clampScroll(layout_.scroll(), f));
    vbar_->setVisible(f.scroll);
    if (!f.scroll) return;
    vbar_->setGeometry(width() - M::kScrollW, f.rows.top(), M::kScrollW, f.rows.height());
    QSignalBlocker b(vbar_);
    vbar_->setRange(0, std::max(0, layout_.contentHeight() - f.rows.height()));
    vbar_->setPageStep(f.rows.height());
    vbar_->setSingleStep(M::kLaneH);
    vbar_->setValue(layout_.scroll());
}

void TimelineView::setSelectedCollective(int c) {
    if (!s_ || c < 0 || size_t(c) >= s_->analysis.collectives.size()) c = -1;
    selected_ = c;
    // off screen: bring it to the middle, keeping the zoom unless it is too narrow to hold it
    if (c >= 0 && zoom_.bringIntoView(s_->analysis.collectives[size_t(c)])) rangeUpdated();
    update();
}

// ---- what is under the mouse -----------------------------------------------------------------

TimelineView::Hit TimelineView::hitTest(const QPointF& pos) const { return s_ ? timelineHitTest(state(), pos) : Hit{}; }

QString TimelineView::tooltipAt(const QPointF& pos) const { return s_ ? timelineToolTip(state(), pos) : QString(); }

std::vector<int> TimelineView::thinnedGroups() const { return s_ ? skewui::thinnedGroups(state()) : std::vector<int>{}; }

std::vector<QRectF> TimelineView::markerLabelRects() const {
    std::vector<QRectF> out;
    if (!s_) return out;
    const TimelineState st = state();
    for (const TimelineMarkerLabel& l : markerLabels(st, timelineMarkers(st))) out.push_back(l.box);
    return out;
}

QString TimelineView::rowsBelowNote() const { return s_ ? skewui::rowsBelowNote(state()) : QString(); }

// ---- painting --------------------------------------------------------------------------------

void TimelineView::paintTo(QPainter& p, const QSize& size, bool screen) {
    // another size than the widget's (an export): the rows laid out for it
    TimelineLayout sized;
    const TimelineLayout* layout = &layout_;
    if (TimelineLayout::areaHeight(size) != layout_.areaHeight()) {
        sized = layout_;
        sized.layout(TimelineLayout::areaHeight(size));
        layout = &sized;
    }
    const TimelineFrame f = layout->frame(size);
    if (!s_ || !s_->timeline.valid() || layout->rows().empty()) {
        p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        p.setPen(Qt::darkGray);
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, QString::fromStdString(timelineEmptyText(s_ != nullptr)));
        return;
    }
    const TimelineState st{*s_, *layout, zoom_, strip_, text_, f, layout->clampScroll(layout->scroll(), f), selected_, screen ? hoverX_ : -1,
                           shownIdeal(), idealPending()};
    // white around the parts that paint their own background (the rows are an opaque image)
    p.fillRect(QRect(0, 0, size.width(), f.rows.top()), Qt::white);
    p.fillRect(QRect(f.rows.right() + 1, f.rows.top(), size.width() - f.rows.right() - 1, f.rows.height()), Qt::white);
    strip_.paint(p, f.overview, zoom_.start(), zoom_.end(), selected_);
    paintTimelineBackgrounds(p, st);
    const qreal dpr = screen ? devicePixelRatioF() : 1.0;
    paintGutter(p, st, dpr, screen);
    paintTimelineRuler(p, st);
    paintBody(p, st, dpr, screen);
    paintTimelineOverlays(p, st);
    paintLegend(p, st, dpr, screen);
}

// the labels change only with the layout and the scroll: cached on screen
void TimelineView::paintGutter(QPainter& p, const TimelineState& st, qreal dpr, bool screen) {
    if (!screen) return paintTimelineGutter(p, st);
    const TimelineFrame& f = st.f;
    const CacheKey key{0, 0, st.scrollY, f.gutter, f.rows.height(), layoutVersion_, dpr};
    if (!(key == gutterKey_)) {
        gutterImg_ = QImage(QSize(int(f.gutter * dpr), int(f.size.height() * dpr)), QImage::Format_ARGB32_Premultiplied);
        gutterImg_.setDevicePixelRatio(dpr);
        gutterImg_.fill(Qt::transparent);
        QPainter gp(&gutterImg_);
        gp.setRenderHints(p.renderHints());
        paintTimelineGutter(gp, st);
        gutterKey_ = key;
    }
    p.drawImage(QPoint(0, 0), gutterImg_);
}

// the rows' pixels (timeline_raster.h): cached on screen until the range, scroll, layout or selection change
void TimelineView::paintBody(QPainter& p, const TimelineState& st, qreal dpr, bool screen) {
    RasterFrame rf;
    rf.session = s_.get();
    rf.rows = &st.rows();
    rf.collapsed = [&st](int rank) { return st.collapsed(rank); };
    rf.t0 = st.t0();
    rf.t1 = st.t1();
    rf.scrollY = st.scrollY;
    rf.width = st.f.rows.width();
    rf.height = st.f.rows.height();
    rf.dpr = dpr;
    rf.selected = selected_;
    const CacheKey key{st.t0(), st.t1(), st.scrollY, st.f.rows.width(), st.f.rows.height(), layoutVersion_, dpr, selected_};
    p.setCompositionMode(QPainter::CompositionMode_Source);  // the body is opaque: a copy, not a blend
    if (screen) {
        if (!(key == bodyKey_)) {
            paintTimelineBody(rf, body_);
            bodyKey_ = key;
        }
        p.drawImage(st.f.rows.topLeft(), body_);
    } else {
        QImage body;
        paintTimelineBody(rf, body);
        p.drawImage(st.f.rows.topLeft(), body);
    }
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
}

// the legend changes with the width, and with the thinning of the markers: cached on screen
void TimelineView::paintLegend(QPainter& p, const TimelineState& st, qreal dpr, bool screen) {
    if (!screen) return paintTimelineLegend(p, st);
    const TimelineFrame& f = st.f;
    const bool thinned = !skewui::thinnedGroups(st).empty();
    const QString ideal = idealLegendText(st);
    const QSize size(int(f.size.width() * dpr), int(f.legend.height() * dpr));
    if (legendImg_.size() != size || thinned != legendThinned_ || ideal != legendIdeal_) {
        legendThinned_ = thinned;
        legendIdeal_ = ideal;
        legendImg_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
        legendImg_.setDevicePixelRatio(dpr);
        QPainter lp(&legendImg_);
        lp.translate(0, -f.legend.top());
        paintTimelineLegend(lp, st);
    }
    p.drawImage(f.legend.topLeft(), legendImg_);
}

QImage TimelineView::render(const QSize& size) {
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    paintTo(p, size, false);
    return img;
}

bool TimelineView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPainted(path, width, height, tr("Skewscope timeline"), [this](QPainter& p, const QSize& s) { paintTo(p, s, false); }, error);
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p, size(), true);
}

void TimelineView::resizeEvent(QResizeEvent*) {
    if (TimelineLayout::areaHeight(size()) != layout_.areaHeight()) layoutRows();
    else updateScrollBar();
}

// ---- input -----------------------------------------------------------------------------------

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    QToolTip::hideText();
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
        QString tip = tooltipAt(pos);
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), tip, this);
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

void TimelineView::wheelEvent(QWheelEvent* e) {
    if (!s_) return;
    const QPoint d = e->angleDelta();
    const TimelineFrame f = layout_.frame(size());
    if (e->modifiers() & Qt::ShiftModifier) {
        scrollRows(-d.y() / 120 * 3 * M::kLaneH - d.x() / 120 * 3 * M::kLaneH);
    } else if (std::abs(d.x()) > std::abs(d.y())) {
        panBy(-d.x() / 120.0 * 0.1);  // horizontal wheel or touchpad: pan
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
    case Qt::Key_Equal: zoomAtPointer(0.8); return;
    case Qt::Key_S:
    case Qt::Key_Minus: zoomAtPointer(1.25); return;
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
    update();
}

void TimelineView::enterEvent(QEnterEvent*) {
    // keys act where the mouse is, as in Perfetto; only take focus inside an active window
    if (window()->isActiveWindow()) setFocus();
}

}  // namespace skewui
