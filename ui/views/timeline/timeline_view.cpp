#include "views/timeline/timeline_view.h"

#include "common/hover_card.h"

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
#include "views/timeline/timeline_legend.h"
#include "views/timeline/timeline_markers.h"
#include "views/timeline/timeline_passes.h"
#include "views/timeline/timeline_raster.h"

using namespace skew;

namespace skewui {

using M = TimelineMetrics;

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    card_ = new HoverCard(this);
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
    preparing_ = s && s->viewIndexesPending ? std::move(s) : nullptr;
    s_ = std::move(s);  // null while preparing
    text_.clearNames();  // keyed by string ids of the previous profile
    strip_.setSession(s_);
    selected_ = -1;
    highlight_ = {};
    pending_.reset();
    zoom_.setMeasure(NAN, NAN);
    zoom_.setRun(strip_.start(), strip_.end());
    layout_.setSession(s_.get());
    ideal_->setSession(s_);
    if (showIdeal_) ideal_->request();
    layoutRows();
    fit();
}

void TimelineView::viewIndexesLoaded() {
    if (!preparing_ || preparing_->viewIndexesPending) return;
    std::optional<PendingShow> pending = std::move(pending_);  // (a new session drops a pending request)
    setSession(std::move(preparing_));
    pending_ = std::move(pending);
}

void TimelineView::showPendingRequest() {
    if (!s_ || !pending_) return;
    const PendingShow p = *pending_;
    pending_.reset();
    if (p.fit) fitCollective();
    else showHighlight(p.highlight, p.margin);
}

void TimelineView::whatIfLoaded() { ideal_->whatIfLoaded(); }

void TimelineView::setShowIdeal(bool on) {
    if (on == showIdeal_) return;
    showIdeal_ = on;
    if (on) ideal_->request();
    layoutRows();  // the legend's entries change
    emit showIdealChanged(on);
}

void TimelineView::setIdealSchedule(std::shared_ptr<const skew::IdealSchedule> s) {
    ideal_->set(std::move(s));
    setShowIdeal(true);
}

const skew::IdealSchedule* TimelineView::idealSchedule() const { return ideal_->schedule(); }

TimelineState TimelineView::state() const {
    const TimelineFrame f = layout_.frame(size());
    return TimelineState{*s_, layout_, zoom_, strip_, text_, f, layout_.scroll(), selected_, hoverX_, highlight_, shownIdeal(), idealPending()};
}

void TimelineView::layoutRows() {
    layout_.setLegend(timelineLegendWidths(text_, showIdeal_), timelineRowsNoteWidth(text_, s_.get()));
    layout_.layout(layout_.areaHeight(size()));
    ++layoutVersion_;
    // the label gutter fits the longest rank label and a stream label
    QFontMetrics fm(font());
    int labels = fm.horizontalAdvance("stream 0000 \u00B7 NCCL \u00B7 000000") + 16;
    if (s_)
        for (const auto& r : s_->profile.ranks) labels = std::max(labels, QFontMetrics(font()).horizontalAdvance(QString::fromStdString(r.label)) + 90);
    // and the overview's colour key with its end values (left of the strip), its ramp 20 px
    if (s_) labels = std::max(labels, strip_.keyWidth(text_.font(TimelineText::Base), 20) + 14);
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
    if (preparing_) pending_ = PendingShow{true, {}, 0.0};
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

void TimelineView::showHighlight(const TimelineHighlight& h, double margin) {
    if (preparing_ && h.valid()) pending_ = PendingShow{false, h, margin};
    if (!s_ || !h.valid()) return;
    highlight_ = h;
    const double span = std::max(h.end - h.start, 1000.0);
    setRange(h.start - margin * span, h.end + margin * span);
    // its row in view: a third of the way down when it is not
    const int row = h.rank < 0 ? -1 : h.lane >= 0 ? rowOf(h.rank, h.lane) : cpuRowOf(h.rank);
    if (row >= 0) {
        const QRect ra = rowsArea(), rr = rowRect(row);
        if (rr.top() < ra.top() || rr.bottom() > ra.bottom()) scrollRows(rr.top() - (ra.top() + ra.height() / 3));
    }
    update();
}

void TimelineView::clearHighlight() {
    highlight_ = {};
    pending_.reset();
    update();
}

// the range kept over a reload, where it still overlaps the run (else the fit stays); the rows' scroll
void TimelineView::restoreViewRange(const RunViewRange& kept) {
    if (!kept.valid || !s_) return;
    if (kept.x1 > kept.x0 && kept.x1 > zoom_.runStart() && kept.x0 < zoom_.runEnd()) setRange(kept.x0, kept.x1);
    scrollRows(int(kept.y0) - layout_.scroll());
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

RulerBoxes TimelineView::rulerBoxes() const { return s_ ? timelineRulerBoxes(state()) : RulerBoxes{}; }

std::vector<int> TimelineView::thinnedGroups() const { return s_ ? skewui::thinnedGroups(state()) : std::vector<int>{}; }

std::vector<QRectF> TimelineView::markerLabelRects() const {
    std::vector<QRectF> out;
    if (!s_) return out;
    const TimelineState st = state();
    for (const TimelineMarkerLabel& l : markerLabels(st, timelineMarkers(st))) out.push_back(l.box);
    return out;
}

QString TimelineView::rowsBelowNote() const { return s_ ? skewui::rowsBelowNote(state()) : QString(); }

LaunchLines TimelineView::launchLines() const { return s_ ? timelineLaunchLines(state()) : LaunchLines{}; }

bool TimelineView::overviewKeyShowsValues() const { return s_ && strip_.keyShowsValues(keyRect(layout_.frame(size())), text_.font(TimelineText::Base)); }

LegendBoxes TimelineView::legendBoxes() const { return s_ ? timelineLegendBoxes(state()) : LegendBoxes{}; }

// ---- painting --------------------------------------------------------------------------------

void TimelineView::paintTo(QPainter& p, const QSize& size, bool screen) {
    // another size than the widget's (an export): the rows laid out for it
    TimelineLayout sized;
    const TimelineLayout* layout = &layout_;
    if (layout_.areaHeight(size) != layout_.areaHeight()) {
        sized = layout_;
        sized.layout(layout_.areaHeight(size));
        layout = &sized;
    }
    const TimelineFrame f = layout->frame(size);
    if (!s_ || !s_->timeline.valid() || layout->rows().empty()) {
        p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        p.setPen(Qt::darkGray);
        const std::string text = preparing_ ? preparingViewText("timeline") : timelineEmptyText(s_ != nullptr);
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, QString::fromStdString(text));
        return;
    }
    const TimelineState st{*s_, *layout, zoom_, strip_, text_, f, layout->clampScroll(layout->scroll(), f), selected_, screen ? hoverX_ : -1,
                           highlight_, shownIdeal(), idealPending()};
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
    paintTimelineRowsNote(p, st);
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
    if (legendImg_.size() != size || thinned != legendThinned_ || ideal != legendIdeal_ || f.note != legendNote_) {
        legendThinned_ = thinned;
        legendNote_ = f.note;
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
    if (layout_.areaHeight(size()) != layout_.areaHeight()) layoutRows();
    else updateScrollBar();
}

}  // namespace skewui
