#include "timeline_view.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>

#include "report/info_report.h"
#include "rank_labels.h"
#include "run_palette.h"
#include "timeline_raster.h"
#include "view_export.h"

using namespace skew;

namespace skewui {

using namespace palette;

namespace {

constexpr int kOverviewH = 38, kRulerH = 26, kLegendH = 20, kGap = 4;
constexpr int kHeaderH = 20, kLaneH = 18, kMaxLaneH = 36, kCpuH = 12, kRankGap = 4;
constexpr int kScrollW = 12;
constexpr double kMinSpanNs = 50;

QString dur(double ns) { return QString::fromStdString(formatDuration(int64_t(std::llround(ns)))); }

// "1.234 567 s": seconds with as many decimals as the tick step needs, grouped by three
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

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(360, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    vbar_ = new QScrollBar(Qt::Vertical, this);
    vbar_->hide();
    connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) {
        if (v != scrollY_) {
            scrollY_ = v;
            update();
        }
    });
}

void TimelineView::setSession(SessionPtr s) {
    s_ = std::move(s);
    nameCache_.clear();  // keyed by string ids of the previous profile
    strip_.setSession(s_);
    selected_ = -1;
    measureA_ = measureB_ = NAN;
    scrollY_ = 0;
    collapsed_.clear();
    if (s_) {
        const size_t n = s_->profile.ranks.size();
        collapsed_.assign(n, n > 16);  // many ranks: start with one summary row each
    }
    layoutRows();
    fit();
}

int TimelineView::areaHeight(const QSize& size) { return size.height() - kLegendH - (kGap + kOverviewH + kGap + kRulerH); }

// Rows for a rows area `areaH` pixels tall: the lanes share what the headers and CPU rows leave,
// 18 to 36 px each, so a few ranks fill the view and many scroll.
std::vector<TimelineView::Row> TimelineView::layoutFor(int areaH, int& contentH) const {
    std::vector<Row> rows;
    int y = 0;
    if (s_ && s_->timeline.valid()) {
        const Profile& p = s_->profile;
        int lanes = 0, fixed = 0;
        for (size_t r = 0; r < p.ranks.size(); ++r) {
            fixed += kHeaderH + kRankGap + (collapsed_[r] ? 0 : kCpuH);
            if (!collapsed_[r]) lanes += int(p.ranks[r].lanes.size());
        }
        const int laneH = lanes ? std::clamp((areaH - fixed) / lanes, kLaneH, kMaxLaneH) : kLaneH;
        for (size_t r = 0; r < p.ranks.size(); ++r) {
            rows.push_back({Row::Header, int(r), -1, y, kHeaderH});
            y += kHeaderH;
            if (!collapsed_[r]) {
                for (int l : s_->timeline.laneOrder(int(r))) {
                    rows.push_back({Row::Lane, int(r), l, y, laneH});
                    y += laneH;
                }
                rows.push_back({Row::Cpu, int(r), -1, y, kCpuH});
                y += kCpuH;
            }
            y += kRankGap;
        }
    }
    contentH = y;
    return rows;
}

void TimelineView::layoutRows() {
    layoutH_ = areaHeight(size());
    rows_ = layoutFor(layoutH_, contentH_);
    labels_ = s_ ? RankLabelElider::of(s_->profile) : RankLabelElider();
    ++layoutVersion_;
    // the label gutter fits the longest rank label and a stream label
    QFontMetrics fm(font());
    int labels = fm.horizontalAdvance("stream 0000 \u00B7 NCCL \u00B7 000000") + 16;
    if (s_)
        for (const auto& r : s_->profile.ranks) labels = std::max(labels, QFontMetrics(font()).horizontalAdvance(QString::fromStdString(r.label)) + 90);
    gutter_ = std::clamp(labels, 150, 300);  // the width the labels want; frame() narrows it in small views
    updateScrollBar();
    update();
}

int TimelineView::rowOf(int rank, int lane) const {
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        if (r.rank != rank) continue;
        if (r.kind == Row::Lane && r.lane == lane) return int(i);
        if (r.kind == Row::Header && rankCollapsed(rank)) return int(i);
    }
    return -1;
}

int TimelineView::cpuRowOf(int rank) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].rank == rank && rows_[i].kind == Row::Cpu) return int(i);
    return -1;
}

TimelineView::Frame TimelineView::frame(const QSize& size) const {
    Frame f;
    f.size = size;
    f.gutter = std::clamp(size.width() / 4, 110, gutter_);  // a narrow view keeps most of its width for the rows
    const int top = kGap + kOverviewH + kGap;
    const int rowsTop = top + kRulerH;
    const int rowsBottom = size.height() - kLegendH;
    f.scroll = contentH_ > rowsBottom - rowsTop;
    const int right = size.width() - (f.scroll ? kScrollW : 0) - 6;
    f.overview = QRect(QPoint(f.gutter, kGap), QPoint(right, kGap + kOverviewH - 1));
    f.ruler = QRect(QPoint(f.gutter, top), QPoint(right, rowsTop - 1));
    f.rows = QRect(QPoint(f.gutter, rowsTop), QPoint(right, rowsBottom - 1));
    f.legend = QRect(QPoint(0, rowsBottom), QPoint(size.width() - 1, size.height() - 1));
    return f;
}

QRect TimelineView::rowsArea() const { return frame(size()).rows; }
QRect TimelineView::rulerArea() const { return frame(size()).ruler; }
QRect TimelineView::overviewArea() const { return frame(size()).overview; }

QRect TimelineView::rowRect(int i) const {
    QRect a = rowsArea();
    const Row& r = rows_[size_t(i)];
    return QRect(a.left(), a.top() + r.y - scrollY_, a.width(), r.h);
}

int TimelineView::rowAt(int y) const {
    QRect a = rowsArea();
    int cy = y - a.top() + scrollY_;
    if (y < a.top() || y > a.bottom()) return -1;
    // rows are sorted by y: binary search
    auto it = std::upper_bound(rows_.begin(), rows_.end(), cy, [](int v, const Row& r) { return v < r.y; });
    if (it == rows_.begin()) return -1;
    --it;
    if (cy >= it->y + it->h) return -1;  // the gap between ranks
    return int(it - rows_.begin());
}

PixelMap TimelineView::pixelMap() const { return PixelMap::fit(t0_, t1_, rowsArea().width()); }

double TimelineView::timeAtX(double x) const {
    QRect a = rowsArea();
    return t0_ + (x - a.left()) * (t1_ - t0_) / std::max(1, a.width());
}

double TimelineView::xAtTime(double t) const {
    QRect a = rowsArea();
    return a.left() + (t - t0_) / (t1_ - t0_) * std::max(1, a.width());
}

// ---- navigation ------------------------------------------------------------------------------

double TimelineView::spanLimit() const { return std::max(1e6, (strip_.end() - strip_.start()) * 1.25); }

void TimelineView::setRange(double t0, double t1) {
    if (!(t1 > t0)) return;
    double span = std::clamp(t1 - t0, kMinSpanNs, spanLimit());
    double mid = (t0 + t1) / 2;
    // keep the view on the run: at most half a view past either end
    const double lo = strip_.start() - span / 2, hi = strip_.end() + span / 2;
    if (span >= hi - lo) mid = (strip_.start() + strip_.end()) / 2;
    else mid = std::clamp(mid, lo + span / 2, hi - span / 2);
    t0 = mid - span / 2;
    t1 = mid + span / 2;
    if (t0 == t0_ && t1 == t1_) return;
    t0_ = t0;
    t1_ = t1;
    update();
    emit rangeChanged(t0_, t1_);
}

void TimelineView::fit() {
    t0_ = strip_.start();
    t1_ = std::max(strip_.start() + kMinSpanNs, strip_.end());
    update();
    emit rangeChanged(t0_, t1_);
}

void TimelineView::fitCollective() {
    if (!s_ || selected_ < 0) return;
    const Collective& c = s_->analysis.collectives[size_t(selected_)];
    double span = std::max<double>(double(c.maxEnd - c.minStart), 1000);
    setRange(double(c.minStart) - span * 0.25, double(c.maxEnd) + span * 0.25);
}

void TimelineView::zoomAt(double factor, double x) {
    double t = timeAtX(x);
    double span = std::clamp((t1_ - t0_) * factor, kMinSpanNs, spanLimit());
    double f = (t - t0_) / (t1_ - t0_);
    setRange(t - f * span, t - f * span + span);
}

void TimelineView::panBy(double fraction) {
    double d = (t1_ - t0_) * fraction;
    setRange(t0_ + d, t1_ + d);
}

void TimelineView::setMeasure(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) {
        measureA_ = measureB_ = NAN;
    } else {
        measureA_ = std::min(a, b);
        measureB_ = std::max(a, b);
    }
    update();
}

void TimelineView::setRankCollapsed(int rank, bool c) {
    if (size_t(rank) >= collapsed_.size() || collapsed_[size_t(rank)] == c) return;
    collapsed_[size_t(rank)] = c;
    layoutRows();
}

int TimelineView::clampScroll(int y, const Frame& f) const { return std::clamp(y, 0, std::max(0, contentH_ - f.rows.height())); }

void TimelineView::scrollRows(int pixels) {
    int y = clampScroll(scrollY_ + pixels, frame(size()));
    if (y == scrollY_) return;
    scrollY_ = y;
    updateScrollBar();
    update();
}

void TimelineView::updateScrollBar() {
    Frame f = frame(size());
    scrollY_ = clampScroll(scrollY_, f);
    vbar_->setVisible(f.scroll);
    if (!f.scroll) return;
    vbar_->setGeometry(width() - kScrollW, f.rows.top(), kScrollW, f.rows.height());
    QSignalBlocker b(vbar_);
    vbar_->setRange(0, std::max(0, contentH_ - f.rows.height()));
    vbar_->setPageStep(f.rows.height());
    vbar_->setSingleStep(kLaneH);
    vbar_->setValue(scrollY_);
}

void TimelineView::setSelectedCollective(int c) {
    if (!s_ || c < 0 || size_t(c) >= s_->analysis.collectives.size()) c = -1;
    selected_ = c;
    if (c >= 0) {
        const Collective& col = s_->analysis.collectives[size_t(c)];
        // off screen: bring it to the middle, keeping the zoom unless it is too narrow to hold it
        if (double(col.maxEnd) < t0_ || double(col.minStart) > t1_ || double(col.maxEnd - col.minStart) > t1_ - t0_) {
            double span = std::max(t1_ - t0_, double(col.maxEnd - col.minStart) * 1.5);
            double mid = (double(col.minStart) + double(col.maxEnd)) / 2;
            setRange(mid - span / 2, mid + span / 2);
        }
    }
    update();
}

int TimelineView::laneOfSlot(int collective, int slot, int& rank) const {
    const Collective& c = s_->analysis.collectives[size_t(collective)];
    const GroupSlot& gl = s_->analysis.groups[size_t(c.group)].lanes[size_t(slot)];
    rank = gl.rank;
    return gl.lane;
}

// ---- painting --------------------------------------------------------------------------------

QFont TimelineView::fontOf(FontKind k) const {
    QFont f = font();
    if (k == Small || k == SmallBold) f.setPointSizeF(std::max(6.5, f.pointSizeF() - 1.5));
    if (k == Bold || k == SmallBold) f.setBold(true);
    return f;
}

void TimelineView::drawText(QPainter& p, const QRectF& r, const QString& s, FontKind k, Qt::Alignment a) const {
    auto& cache = textCache_[k];
    if (cache.size() > 4000) cache.clear();
    auto it = cache.find(s);
    if (it == cache.end()) {
        QStaticText st(s);
        st.setTextFormat(Qt::PlainText);
        st.setPerformanceHint(QStaticText::AggressiveCaching);
        st.prepare(QTransform(), fontOf(k));
        it = cache.insert(s, st);
    }
    const QSizeF sz = it->size();
    double x = r.left();
    if (a & Qt::AlignRight) x = r.right() - sz.width();
    else if (a & Qt::AlignHCenter) x = r.center().x() - sz.width() / 2;
    double y = r.top();
    if (a & Qt::AlignVCenter) y = r.center().y() - sz.height() / 2;
    else if (a & Qt::AlignBottom) y = r.bottom() - sz.height();
    p.setFont(fontOf(k));
    p.drawStaticText(QPointF(x, y), *it);
}

QString TimelineView::elided(const QString& s, FontKind k, int width) const {
    const QFontMetrics fm(fontOf(k));
    if (fm.horizontalAdvance(s) <= width) return s;
    return fm.elidedText(s, Qt::ElideRight, width);
}

QString TimelineView::elidedName(StrId name, int width) const {
    const int bucket = std::clamp(width / 8, 0, 255);  // widths in steps of 8 px
    const quint64 key = (quint64(name) << 8) | quint64(bucket);
    auto it = nameCache_.find(key);
    if (it != nameCache_.end()) return *it;
    if (nameCache_.size() > 20000) nameCache_.clear();
    QString full = shortKernelName(s_->profile.strings.str(name));
    return *nameCache_.insert(key, QFontMetrics(fontOf(Small)).elidedText(full, Qt::ElideRight, bucket * 8));
}


void TimelineView::buildBody(const Frame& f, qreal dpr, QImage& img) const {
    RasterFrame rf;
    rf.session = s_.get();
    rf.rows = &rows_;
    rf.collapsed = [this](int rank) { return rankCollapsed(rank); };
    rf.t0 = t0_;
    rf.t1 = t1_;
    rf.scrollY = scrollY_;
    rf.width = f.rows.width();
    rf.height = f.rows.height();
    rf.dpr = dpr;
    rf.selected = selected_;
    paintTimelineBody(rf, img);
}

void TimelineView::paintBackgrounds(QPainter& p, const Frame& f) const {
    // the gutter's part of the rank blocks (the rows' part is in the body image)
    p.save();
    p.setClipRect(QRect(0, f.rows.top(), f.gutter, f.rows.height()));
    p.fillRect(QRect(0, f.rows.top(), f.gutter, f.rows.height()), Qt::white);
    int rankIdx = -1, blockTop = 0;
    for (size_t i = 0; i <= rows_.size(); ++i) {
        // rank blocks: alternating background across the gutter and the rows
        if (i == rows_.size() || rows_[i].kind == Row::Header) {
            if (rankIdx >= 0) {
                int bottom = rows_[i - 1].y + rows_[i - 1].h;
                QRect b(0, f.rows.top() + blockTop - scrollY_, f.rows.right() + 1, bottom - blockTop);
                p.fillRect(b, rankIdx % 2 ? QColor(0xf4, 0xf6, 0xf9) : QColor(0xfb, 0xfc, 0xfd));
            }
            if (i == rows_.size()) break;
            rankIdx = rows_[i].rank;
            blockTop = rows_[i].y;
            const int y = f.rows.top() + rows_[i].y - scrollY_;  // a line above each rank
            p.fillRect(QRect(0, y, f.rows.right() + 1, 1), QColor(200, 204, 210));
        }
    }
    p.restore();
}

void TimelineView::paintGutter(QPainter& p, const Frame& f) const {
    p.save();
    QRect clip(0, f.rows.top(), f.size.width(), f.rows.height());
    p.setClipRect(clip);
    QFont base = font();
    QFont small = base;
    small.setPointSizeF(std::max(6.5, base.pointSizeF() - 1.5));
    QFont bold = base;
    bold.setBold(true);
    const Profile& prof = s_->profile;
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        const int y = f.rows.top() + r.y - scrollY_;
        if (y + r.h < f.rows.top() || y > f.rows.bottom()) continue;
        const Rank& rank = prof.ranks[size_t(r.rank)];
        QRect lr(8, y, f.gutter - 12, r.h);
        if (r.kind == Row::Header) {
            p.setPen(QColor(30, 30, 30));
            QString arrow = rankCollapsed(r.rank) ? QString::fromUtf8("\u25B8 ") : QString::fromUtf8("\u25BE ");
            const QString label = arrow + QString::fromStdString(rank.label);  // (its width decides the stats' room)
            const QFontMetrics bm(fontOf(Bold));
            drawText(p, lr, arrow + labels_.elide(QString::fromStdString(rank.label), bm, lr.width() - bm.horizontalAdvance(arrow)), Bold,
                     Qt::AlignLeft | Qt::AlignVCenter);
            p.setPen(QColor(100, 100, 100));
            QString stats = QObject::tr("%1 str \u00B7 %2").arg(rank.lanes.size()).arg(QLocale().toString(qulonglong(rank.kernelCount())));
            if (QFontMetrics(bold).horizontalAdvance(label) + QFontMetrics(small).horizontalAdvance(stats) + 12 < lr.width())
                drawText(p, lr, stats, Small, Qt::AlignRight | Qt::AlignVCenter);
        } else if (r.kind == Row::Lane) {
            const KernelLane& kl = rank.lanes[size_t(r.lane)];
            p.setPen(QColor(50, 50, 50));
            QString text = kl.ncclKernels ? QObject::tr("stream %1 \u00B7 NCCL \u00B7 %2").arg(kl.stream).arg(QLocale().toString(qulonglong(kl.size())))
                                          : QObject::tr("stream %1 \u00B7 %2").arg(kl.stream).arg(QLocale().toString(qulonglong(kl.size())));
            drawText(p, lr.adjusted(12, 0, 0, 0), elided(text, Small, lr.width() - 12), Small, Qt::AlignLeft | Qt::AlignVCenter);
        } else {
            p.setPen(kLaunchNccl.darker(110));
            drawText(p, lr.adjusted(12, 0, 0, 0), elided(QObject::tr("CPU launches (pid %1)").arg(prof.processes[size_t(rank.process)].pid), Small, lr.width() - 12),
                     Small, Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    p.restore();
}

void TimelineView::paintRuler(QPainter& p, const Frame& f, bool screen) const {
    const QRect& r = f.ruler;
    p.fillRect(QRect(QPoint(0, r.top()), QPoint(f.size.width() - 1, r.bottom())), QColor(0xee, 0xf1, 0xf5));
    const double span = t1_ - t0_;
    const double nsPerPx = span / std::max(1, r.width());
    const double step = niceStep(nsPerPx * 75);
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1));
    p.setFont(small);
    QFontMetrics fm(small);
    auto xOf = [&](double t) { return r.left() + (t - t0_) / nsPerPx; };
    // grid into the rows (light), ticks and labels on the ruler
    p.setPen(QColor(120, 120, 120));
    double lastLabelEnd = -1e9;
    for (double t = std::ceil(t0_ / (step / 5)) * (step / 5); t <= t1_; t += step / 5) {
        double x = xOf(t);
        bool major = std::fabs(std::remainder(t, step)) < step * 1e-6;
        p.drawLine(QPointF(x, r.bottom() - (major ? 8 : 4)), QPointF(x, r.bottom()));
        if (major) {
            QString s = tickLabel(t, step);
            double w = fm.horizontalAdvance(s);
            const double lx = x + 3 + w < r.right() ? x + 3 : x - 3 - w;  // near the right edge: left of its tick
            if (lx > r.left() && lx > lastLabelEnd + 6) {
                drawText(p, QRectF(lx, r.top() + 3, w + 2, fm.height()), s, Small, Qt::AlignLeft | Qt::AlignTop);
                lastLabelEnd = lx + w;
            }
        }
    }
    p.setPen(QColor(180, 184, 190));
    p.drawLine(QPoint(r.left(), r.bottom()), QPoint(r.right(), r.bottom()));
    // the visible span, left of the ruler
    p.setPen(QColor(60, 60, 60));
    drawText(p, QRect(8, r.top(), f.gutter - 14, r.height()), QObject::tr("%1 visible").arg(dur(span)), Small, Qt::AlignLeft | Qt::AlignVCenter);
    const int half = f.overview.height() / 2;
    drawText(p, QRect(8, f.overview.top(), f.gutter - 14, half), QObject::tr("run: %1").arg(dur(strip_.end() - strip_.start())), Small,
             Qt::AlignLeft | Qt::AlignVCenter);
    strip_.paintKey(p, keyRect(f), font());
    // the measured range and its length
    if (!std::isnan(measureA_)) {
        double a = std::max(double(r.left()), xOf(measureA_)), b = std::min(double(r.right()), xOf(measureB_));
        if (b >= a) {
            p.fillRect(QRectF(a, r.top(), std::max(1.0, b - a), r.height()), QColor(0x10, 0x60, 0xc0, 60));
            QString len = QString::fromUtf8("\u2194 ") + dur(measureB_ - measureA_);
            QFont bf = small;
            bf.setBold(true);
            p.setFont(bf);
            QFontMetrics bm(bf);
            double w = bm.horizontalAdvance(len) + 8;
            double cx = std::clamp((a + b) / 2 - w / 2, double(r.left()), double(r.right()) - w);
            QRectF box(cx, r.top() + 2, w, bm.height() + 2);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 255, 255, 230));
            p.drawRoundedRect(box, 3, 3);
            p.setPen(QColor(0x10, 0x40, 0x90));
            p.drawText(box, Qt::AlignCenter, len);
        }
    }
    if (screen && hoverX_ >= r.left() && hoverX_ <= r.right()) {
        QString t = tickLabel(timeAtX(hoverX_), nsPerPx);
        p.setFont(small);
        double w = fm.horizontalAdvance(t) + 6;
        QRectF box(std::min(hoverX_ + 2, r.right() - w), r.bottom() - fm.height() - 1, w, fm.height());
        p.fillRect(box, QColor(40, 40, 40));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, t);
    }
}

// Groups whose ordinary late arrivers are left out at this zoom: more collectives in view than a
// tenth of the rows' pixels (their markers would merge into a solid band); big events stay.
std::vector<int> TimelineView::thinnedGroups(const Frame& f) const {
    std::vector<int> out;
    if (!s_ || !s_->timeline.valid()) return out;
    for (size_t gi = 0; gi < s_->analysis.groups.size(); ++gi) {
        auto [lo, hi] = s_->timeline.collectivesIn(int(gi), t0_, t1_);
        if (hi - lo > uint32_t(f.rows.width() / 10)) out.push_back(int(gi));
    }
    return out;
}

std::vector<int> TimelineView::thinnedGroups() const { return thinnedGroups(frame(size())); }

std::vector<TimelineView::Marker> TimelineView::markers(const Frame& f) const {
    std::vector<Marker> out;
    if (!s_) return out;
    const TimelineIndex& ix = s_->timeline;
    const Analysis& a = s_->analysis;
    const QRect& ra = f.rows;
    const double nsPerPx = (t1_ - t0_) / std::max(1, ra.width());
    auto add = [&](uint32_t ci, bool big) {
        const Collective& c = a.collectives[ci];
        if (c.lateSlot < 0 || c.startSkew() <= 0) return;
        int rank;
        int lane = laneOfSlot(int(ci), c.lateSlot, rank);
        int row = rowOf(rank, lane);
        if (row < 0) return;
        double x = ra.left() + (double(c.maxStart) - t0_) / nsPerPx;
        double top = double(ra.top() + rows_[size_t(row)].y - scrollY_);
        if (x < ra.left() - 8 || x > ra.right() + 8 || top + 8 < ra.top() || top > ra.bottom()) return;
        double hw = big ? 6 : 3.5;
        out.push_back({QRectF(x - hw - 1, top - 1, 2 * hw + 2, hw * 1.3 + 3), int(ci), row, x, big});
    };
    const std::vector<int> thinned = thinnedGroups(f);
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        if (std::find(thinned.begin(), thinned.end(), int(gi)) != thinned.end()) continue;  // too dense: big events only
        auto [lo, hi] = ix.collectivesIn(int(gi), t0_, t1_);
        for (uint32_t i = lo; i < hi; ++i) {
            uint32_t ci = ix.collectivesByStart(int(gi))[i];
            if (!a.collectives[ci].big) add(ci, false);
        }
    }
    for (uint32_t ci : ix.bigCollectives()) add(ci, true);  // big events at any zoom
    std::stable_sort(out.begin(), out.end(), [](const Marker& x, const Marker& y) { return x.r.left() < y.r.left(); });
    return out;
}

// The big markers' start-skew labels: beside the marker on the side that covers fewer other
// markers (right when equal, left when the right has no room); one per row within 60 px.
std::vector<TimelineView::MarkerLabel> TimelineView::markerLabels(const Frame& f, const std::vector<Marker>& mks) const {
    std::vector<MarkerLabel> out;
    const QRect& ra = f.rows;
    const QFontMetrics fm(fontOf(SmallBold));
    double lastLabel = -1e9;
    int lastLabelRow = -1;
    for (const Marker& mk : mks) {
        if (!mk.big || (mk.row == lastLabelRow && mk.x - lastLabel < 60)) continue;
        const QString text = "+" + dur(double(s_->analysis.collectives[size_t(mk.collective)].startSkew()));
        const double top = mk.r.top() + 1, w = fm.horizontalAdvance(text) + 6;
        const QRectF right(mk.x + 7, top - 1, w, 13), left(mk.x - 7 - w, top - 1, w, 13);
        auto covered = [&](const QRectF& box) {
            int n = 0;
            auto it = std::lower_bound(mks.begin(), mks.end(), box.left() - 20, [](const Marker& m, double x) { return m.r.left() < x; });
            for (; it != mks.end() && it->r.left() <= box.right(); ++it)
                if (it->collective != mk.collective && it->r.intersects(box)) ++n;
            return n;
        };
        QRectF box = right;
        if (right.right() > ra.right() || (left.left() >= ra.left() && covered(left) < covered(right))) box = left;
        out.push_back({box, text, mk.collective});
        lastLabel = mk.x;
        lastLabelRow = mk.row;
    }
    return out;
}

std::vector<QRectF> TimelineView::markerLabelRects() const {
    std::vector<QRectF> out;
    if (!s_) return out;
    const Frame f = frame(size());
    for (const MarkerLabel& l : markerLabels(f, markers(f))) out.push_back(l.box);
    return out;
}

// What is drawn over the body image: kernel names, the selected collective's outline, the lines to
// the CPU launches, late-arriver markers, the measured range and the hover line; clipped to the rows.
void TimelineView::paintOverlays(QPainter& p, const Frame& f, bool screen) {
    if (!s_) return;
    p.save();
    p.setClipRect(f.rows);
    paintKernelNames(p, f);
    paintSelection(p, f);
    paintLaunchLines(p, f);
    paintMarkers(p, f);
    paintMeasure(p, f, screen);
    paintRowsNote(p, f);
    p.restore();
}

QString TimelineView::rowsBelowNote() const { return rowsBelowNote(frame(size())); }

QString TimelineView::rowsBelowNote(const Frame& f) const {
    if (!s_) return {};
    const int bottom = scrollY_ + f.rows.height();  // content y of the first pixel row below the area
    int n = 0, first = -1, last = -1;
    for (const Row& r : rows_)
        if (r.y + r.h > bottom) {
            ++n;
            if (first < 0) first = r.rank;
            last = r.rank;
        }
    if (n == 0) return {};
    auto label = [&](int rank) { return QString::fromStdString(s_->profile.ranks[size_t(rank)].label); };
    const QString ranks = first == last ? label(first) : tr("%1 to %2").arg(label(first), label(last));
    return n == 1 ? tr("1 more row below (%1)").arg(ranks) : tr("%1 more rows below (%2)").arg(n).arg(ranks);
}

// rows cut off at the bottom (a small view or export) are named in the bottom right corner
void TimelineView::paintRowsNote(QPainter& p, const Frame& f) const {
    const QString note = rowsBelowNote(f);
    if (note.isEmpty()) return;
    const QString text = QString::fromUtf8("\u25BC ") + note;
    const QFontMetrics fm(fontOf(SmallBold));
    const QRect& ra = f.rows;
    const double w = std::min(double(ra.width()), double(fm.horizontalAdvance(text) + 12)), h = fm.height() + 4;
    const QRectF box(ra.right() + 1 - w, ra.bottom() + 1 - h, w, h);
    p.fillRect(box, QColor(255, 255, 255, 235));
    p.setPen(QColor(200, 204, 210));
    p.drawLine(box.topLeft(), box.topRight());
    p.drawLine(box.topLeft(), box.bottomLeft());
    p.setPen(QColor(0x10, 0x30, 0x60));
    drawText(p, box.adjusted(6, 0, -6, 0), elided(text, SmallBold, int(w) - 12), SmallBold, Qt::AlignLeft | Qt::AlignVCenter);
}

QRectF TimelineView::keyRect(const Frame& f) const {
    const int half = f.overview.height() / 2;
    return QRectF(8, f.overview.top() + half, f.gutter - 14, f.overview.height() - half);
}

double TimelineView::xIn(const QRect& ra, double t) const { return ra.left() + (t - t0_) / ((t1_ - t0_) / std::max(1, ra.width())); }

double TimelineView::rowTopIn(const QRect& ra, int row) const { return double(ra.top() + rows_[size_t(row)].y - scrollY_); }

void TimelineView::paintKernelNames(QPainter& p, const Frame& f) const {
    const TimelineIndex& ix = s_->timeline;
    const Profile& prof = s_->profile;
    const QRect& ra = f.rows;
    const double nsPerPx = (t1_ - t0_) / std::max(1, ra.width());
    auto X = [&](double t) { return xIn(ra, t); };
    auto timeAt = [&](double x) { return t0_ + (x - ra.left()) * nsPerPx; };
    auto rowTop = [&](int i) { return rowTopIn(ra, i); };
    // once kernels are wide enough (their outlines are in the body)
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        if (r.kind != Row::Lane) continue;
        double top = rowTop(int(i));
        if (top + r.h < ra.top() || top > ra.bottom()) continue;
        auto [first, last] = ix.kernelsIn(r.rank, r.lane, t0_, t1_);
        if (last - first > uint32_t(ra.width() / 4)) continue;
        const KernelLane& kl = prof.ranks[size_t(r.rank)].lanes[size_t(r.lane)];
        for (uint32_t k = first; k < last; ++k) {
            double xa = X(double(kl.start[k])), xb = X(double(kl.end(k)));
            if (xb - xa < 4) continue;
            if (xb - xa >= 44) {
                QRectF box(xa, top + 2, xb - xa, r.h - 3);
                QRectF tr = box.intersected(QRectF(ra)).adjusted(3, 0, -2, 0);
                // dark text on the light classes; a member's name starts on its waiting part if it waited
                Work w = ix.kernelWork(r.rank, r.lane, k);
                if (w == Work::NcclTransfer && timeAt(tr.left()) < double(kl.start[k] + ix.waitNs(r.rank, r.lane, k))) w = Work::NcclWait;
                p.setPen(w == Work::Other || w == Work::NcclWait ? QColor(30, 30, 30) : QColor(255, 255, 255));
                QString name = elidedName(kl.name[k], int(tr.width()));
                if (!name.isEmpty()) drawText(p, tr, name, Small, Qt::AlignLeft | Qt::AlignVCenter);
            }
        }
    }
}

// the selected collective: a band over its ranks, members outlined
void TimelineView::paintSelection(QPainter& p, const Frame& f) const {
    if (selected_ < 0) return;
    const Analysis& a = s_->analysis;
    const Profile& prof = s_->profile;
    const QRect& ra = f.rows;
    auto X = [&](double t) { return xIn(ra, t); };
    auto rowTop = [&](int i) { return rowTopIn(ra, i); };
    const Collective& c = a.collectives[size_t(selected_)];
    const Group& g = a.groups[size_t(c.group)];
    double xa = X(double(c.minStart)), xb = X(double(c.maxEnd));
    if (xb - xa < 3) {
        double m = (xa + xb) / 2;
        xa = m - 1.5, xb = m + 1.5;
    }
    for (size_t s = 0; s < g.width(); ++s) {
        int rank = g.lanes[s].rank;
        // the rank's block: its header to its CPU row
        double top = 1e9, bottom = -1e9;
        for (size_t i = 0; i < rows_.size(); ++i)
            if (rows_[i].rank == rank) top = std::min(top, rowTop(int(i))), bottom = std::max(bottom, rowTop(int(i)) + rows_[i].h);
        // (its tint is in the body image, behind the kernels)
        p.setPen(QPen(kSelect.darker(120), 1));
        p.drawLine(QPointF(xa, top), QPointF(xa, bottom));
        p.drawLine(QPointF(xb, top), QPointF(xb, bottom));
        uint32_t k = a.slotKernel(c, s);
        int row = rowOf(rank, g.lanes[s].lane);
        if (k == kMissing || row < 0) continue;
        const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(g.lanes[s].lane)];
        double ka = X(double(kl.start[k])), kb = std::max(ka + 2, X(double(kl.end(k))));
        bool late = int(s) == c.lateSlot;
        p.setPen(QPen(late ? kLate : QColor(0x10, 0x30, 0x60), late ? 2 : 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(ka, rowTop(row) + 1, kb - ka, rows_[size_t(row)].h - 2));
    }
}

// lines from NCCL kernels to their CPU launches, when few collectives are in view (and for the
// selection): aliased and opaque, drawn in one call (blended antialiased lines cost milliseconds)
void TimelineView::paintLaunchLines(QPainter& p, const Frame& f) const {
    const TimelineIndex& ix = s_->timeline;
    const Analysis& a = s_->analysis;
    const Profile& prof = s_->profile;
    const QRect& ra = f.rows;
    auto X = [&](double t) { return xIn(ra, t); };
    auto rowTop = [&](int i) { return rowTopIn(ra, i); };
    std::vector<QLineF> lines;
    uint32_t inView = 0;
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        auto [lo, hi] = ix.collectivesIn(int(gi), t0_, t1_);
        inView += hi - lo;
    }
    for (size_t gi = 0; gi < a.groups.size(); ++gi) {
        const Group& g = a.groups[gi];
        auto [lo, hi] = ix.collectivesIn(int(gi), t0_, t1_);
        const bool zoomed = inView <= 40;
        for (size_t s = 0; s < g.width(); ++s) {
            const int rank = g.lanes[s].rank, lane = g.lanes[s].lane;
            const int row = rowOf(rank, lane), cpu = cpuRowOf(rank);
            if (row < 0 || cpu < 0 || rankCollapsed(rank)) continue;
            const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(lane)];
            auto line = [&](uint32_t k) {
                if (!kl.hasLaunch(k)) return;
                QPointF from(X(double(kl.launchEnd(k))), rowTop(cpu) + 1), to(X(double(kl.start[k])), rowTop(row) + rows_[size_t(row)].h - 1);
                if (from.x() < ra.left() - 1 && to.x() < ra.left() - 1) return;
                lines.emplace_back(from, to);
            };
            if (zoomed) {
                for (uint32_t i = lo; i < hi; ++i) {
                    const Collective& c = a.collectives[ix.collectivesByStart(int(gi))[i]];
                    uint32_t k = a.slotKernel(c, s);
                    if (k != kMissing) line(k);
                }
            } else if (selected_ >= 0 && a.collectives[size_t(selected_)].group == int(gi)) {
                uint32_t k = a.slotKernel(a.collectives[size_t(selected_)], s);
                if (k != kMissing) line(k);
            }
        }
    }

    p.setPen(QPen(QColor(0xa5, 0x7d, 0xc6), 1));
    p.drawLines(lines.data(), int(lines.size()));
}

// late arrivers: every one when collectives are far enough apart, big events always; the labels
// after every marker, so that no marker is painted over a label
void TimelineView::paintMarkers(QPainter& p, const Frame& f) const {
    p.setRenderHint(QPainter::Antialiasing, true);
    const std::vector<Marker> mks = markers(f);
    for (const Marker& mk : mks) {
        QPolygonF tri;
        const double hw = mk.big ? 6 : 3.5, top = mk.r.top() + 1;
        tri << QPointF(mk.x - hw, top) << QPointF(mk.x + hw, top) << QPointF(mk.x, top + hw * 1.3);
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(mk.big ? kLate : kLateSmall);
        p.drawPolygon(tri);
    }
    for (const MarkerLabel& l : markerLabels(f, mks)) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 225));
        p.drawRoundedRect(l.box, 2, 2);
        p.setPen(kLate.darker(130));
        drawText(p, l.box, l.text, SmallBold, Qt::AlignHCenter | Qt::AlignVCenter);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

// the measured range (over the rows while it is narrower than the view; the ruler always shows it)
// and the hover line
void TimelineView::paintMeasure(QPainter& p, const Frame& f, bool screen) const {
    const QRect& ra = f.rows;
    auto X = [&](double t) { return xIn(ra, t); };
    if (!std::isnan(measureA_) && X(measureB_) - X(measureA_) < 0.9 * ra.width()) {
        double xa = X(measureA_), xb = X(measureB_);
        p.fillRect(QRectF(xa, ra.top(), std::max(1.0, xb - xa), ra.height()), QColor(0x10, 0x60, 0xc0, 28));
        p.setPen(QPen(QColor(0x10, 0x60, 0xc0), 1, Qt::DashLine));
        p.drawLine(QPointF(xa, ra.top()), QPointF(xa, ra.bottom()));
        p.drawLine(QPointF(xb, ra.top()), QPointF(xb, ra.bottom()));
    }
    if (screen && hoverX_ >= ra.left() && hoverX_ <= ra.right()) {
        p.setPen(QPen(QColor(40, 40, 40, 120), 1));
        p.drawLine(QPointF(hoverX_, ra.top()), QPointF(hoverX_, ra.bottom()));
    }
}

void TimelineView::paintLegend(QPainter& p, const Frame& f) const {
    struct Item {
        QColor c;
        QString t;
        int kind;  // 0 box, 1 hatched box, 2 triangle
    };
    // the most needed first: a narrow view shows those that fit; when the ordinary late arrivers
    // are thinned out at this zoom, their entry says so
    const QString lateItem = thinnedGroups(f).empty() ? QObject::tr("late arriver") : QObject::tr("late arriver (big only at this zoom)");
    const Item items[] = {{kTransfer, QObject::tr("NCCL transfer"), 0},  {kWait, QObject::tr("NCCL waiting"), 1},
                          {kGemm, QObject::tr("GEMM"), 0},                {kOther, QObject::tr("other kernel"), 0},
                          {kLate, QObject::tr("big event"), 2},           {kLateSmall, lateItem, 2},
                          {kLaunchNccl, QObject::tr("NCCL launch"), 0},   {kSelect, QObject::tr("selected collective"), 0},
                          {kOtherNccl, QObject::tr("other NCCL"), 0},     {kLaunch, QObject::tr("launch"), 0}};
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() - 1.5));
    p.setFont(small);
    QFontMetrics fm(small);
    const QRect& r = f.legend;
    p.fillRect(r, QColor(0xf6, 0xf7, 0xf9));
    double x = 8, y = r.top() + (r.height() - 10) / 2.0;
    for (const Item& it : items) {
        if (x + 14 + fm.horizontalAdvance(it.t) > r.right() - 4) break;
        if (it.kind == 2) {
            QPolygonF tri;
            tri << QPointF(x, y) << QPointF(x + 10, y) << QPointF(x + 5, y + 8);
            p.setPen(Qt::NoPen);
            p.setBrush(it.c);
            p.drawPolygon(tri);
        } else {
            p.fillRect(QRectF(x, y, 10, 10), it.c);
            if (it.kind == 1) p.fillRect(QRectF(x, y, 10, 10), QBrush(kWaitHatch, Qt::BDiagPattern));
        }
        p.setPen(QColor(50, 50, 50));
        drawText(p, QRectF(x + 14, r.top(), fm.horizontalAdvance(it.t) + 4, r.height()), it.t, Small, Qt::AlignLeft | Qt::AlignVCenter);
        x += 14 + fm.horizontalAdvance(it.t) + 12;
    }
    QString keys = QObject::tr("wheel, W/S zoom \u00B7 drag, A/D pan \u00B7 drag ruler: zoom to range \u00B7 Shift+drag: measure \u00B7 Home: fit \u00B7 F: fit selection");
    if (x + fm.horizontalAdvance(keys) + 16 < r.right()) {
        p.setPen(QColor(110, 110, 110));
        drawText(p, QRectF(x, r.top(), r.right() - x - 8, r.height()), keys, Small, Qt::AlignRight | Qt::AlignVCenter);
    }
}

void TimelineView::paintTo(QPainter& p, const QSize& size, bool screen) {
    // another size than the widget's (an export): lay the rows out for it while painting
    struct Relayout {
        TimelineView* v;
        std::vector<Row> rows;
        int contentH, version;
        bool on;
        Relayout(TimelineView* view, int areaH) : v(view), contentH(view->contentH_), version(view->layoutVersion_), on(areaH != view->layoutH_) {
            if (!on) return;
            rows.swap(v->rows_);
            v->rows_ = v->layoutFor(areaH, v->contentH_);
            v->layoutVersion_ = -1;
        }
        ~Relayout() {
            if (!on) return;
            v->rows_.swap(rows);
            v->contentH_ = contentH;
            v->layoutVersion_ = version;
        }
    } relayout(this, areaHeight(size));
    Frame f = frame(size);
    if (!s_ || !s_->timeline.valid() || rows_.empty()) {
        p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        p.setPen(Qt::darkGray);
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, s_ ? tr("No kernels in these exports") : tr("Open exports to see the run"));
        return;
    }
    const int savedScroll = scrollY_;
    scrollY_ = clampScroll(scrollY_, f);
    // white around the parts that paint their own background (the rows are an opaque image)
    p.fillRect(QRect(0, 0, size.width(), f.rows.top()), Qt::white);
    p.fillRect(QRect(f.rows.right() + 1, f.rows.top(), size.width() - f.rows.right() - 1, f.rows.height()), Qt::white);
    strip_.paint(p, f.overview, t0_, t1_, selected_);
    paintBackgrounds(p, f);
    const qreal dpr = screen ? devicePixelRatioF() : 1.0;
    if (screen) {
        // the labels change only with the layout and the scroll: cached on screen
        const BodyKey key{0, 0, scrollY_, f.gutter, f.rows.height(), layoutVersion_, dpr};
        if (!(key == gutterKey_)) {
            gutterImg_ = QImage(QSize(int(f.gutter * dpr), int(f.size.height() * dpr)), QImage::Format_ARGB32_Premultiplied);
            gutterImg_.setDevicePixelRatio(dpr);
            gutterImg_.fill(Qt::transparent);
            QPainter gp(&gutterImg_);
            gp.setRenderHints(p.renderHints());
            paintGutter(gp, f);
            gutterKey_ = key;
        }
        p.drawImage(QPoint(0, 0), gutterImg_);
    } else {
        paintGutter(p, f);
    }
    paintRuler(p, f, screen);
    BodyKey key{t0_, t1_, scrollY_, f.rows.width(), f.rows.height(), layoutVersion_, dpr, selected_};
    p.setCompositionMode(QPainter::CompositionMode_Source);  // the body is opaque: a copy, not a blend
    if (screen) {
        if (!(key == bodyKey_)) {
            buildBody(f, dpr, body_);
            bodyKey_ = key;
        }
        p.drawImage(f.rows.topLeft(), body_);
    } else {
        QImage body;
        buildBody(f, dpr, body);
        p.drawImage(f.rows.topLeft(), body);
    }
    p.setCompositionMode(QPainter::CompositionMode_SourceOver);
    paintOverlays(p, f, screen);
    if (screen) {
        // the legend changes with the width, and with the thinning of the markers
        const bool thinned = !thinnedGroups(f).empty();
        if (legendImg_.size() != QSize(int(size.width() * dpr), int(f.legend.height() * dpr)) || thinned != legendThinned_) {
            legendThinned_ = thinned;
            legendImg_ = QImage(QSize(int(size.width() * dpr), int(f.legend.height() * dpr)), QImage::Format_ARGB32_Premultiplied);
            legendImg_.setDevicePixelRatio(dpr);
            QPainter lp(&legendImg_);
            lp.translate(0, -f.legend.top());
            paintLegend(lp, f);
        }
        p.drawImage(f.legend.topLeft(), legendImg_);
    } else {
        paintLegend(p, f);
    }
    scrollY_ = savedScroll;
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
    if (areaHeight(size()) != layoutH_) layoutRows();
    else updateScrollBar();
}

// ---- hit testing and tooltips ----------------------------------------------------------------

TimelineView::Hit TimelineView::hitTest(const QPointF& pos) const {
    Hit h;
    if (!s_) return h;
    Frame f = frame(size());
    if (pos.x() < f.gutter && pos.y() >= f.rows.top() && pos.y() <= f.rows.bottom()) {
        int i = rowAt(int(pos.y()));
        if (i >= 0 && rows_[size_t(i)].kind == Row::Header) {
            h.kind = Hit::Header;
            h.rank = rows_[size_t(i)].rank;
        }
        return h;
    }
    if (!f.rows.contains(pos.toPoint())) return h;
    // markers first (they sit on top); sorted by x
    const std::vector<Marker> mks = markers(f);
    auto it = std::lower_bound(mks.begin(), mks.end(), pos.x() - 20, [](const Marker& m, double x) { return m.r.left() < x; });
    for (; it != mks.end() && it->r.left() <= pos.x(); ++it)
        if (it->r.contains(pos)) {
            h.kind = Hit::Marker;
            h.collective = it->collective;
            const Collective& c = s_->analysis.collectives[size_t(it->collective)];
            h.lane = laneOfSlot(it->collective, c.lateSlot, h.rank);
            h.index = s_->analysis.slotKernel(c, size_t(c.lateSlot));
            return h;
        }
    int i = rowAt(int(pos.y()));
    if (i < 0) return h;
    const Row& r = rows_[size_t(i)];
    const double t = timeAtX(pos.x());
    const double slack = 2.0 * (t1_ - t0_) / std::max(1, f.rows.width());
    const TimelineIndex& ix = s_->timeline;
    if (r.kind == Row::Lane) {
        int64_t k = ix.kernelAt(r.rank, r.lane, t, slack);
        if (k >= 0) {
            h.kind = Hit::Kernel;
            h.rank = r.rank;
            h.lane = r.lane;
            h.index = k;
            h.collective = int(ix.collectiveOf(r.rank, r.lane, uint32_t(k)));
        }
    } else if (r.kind == Row::Cpu) {
        const Rank& rank = s_->profile.ranks[size_t(r.rank)];
        double best = slack;
        ix.forEachLaunch(r.rank, t - slack, t + slack, [&](int lane, uint32_t k) {
            const KernelLane& kl = rank.lanes[size_t(lane)];
            double s = double(kl.launchStart(k)), e = double(kl.launchEnd(k));
            double d = t < s ? s - t : t > e ? t - e : 0;
            if (d <= best) {
                best = d;
                h.kind = Hit::Launch;
                h.rank = r.rank;
                h.lane = lane;
                h.index = k;
            }
        });
    } else if (r.kind == Row::Header) {
        h.kind = Hit::Header;
        h.rank = r.rank;
    }
    return h;
}

QString TimelineView::kernelTip(int rank, int lane, int64_t k) const {
    const Profile& prof = s_->profile;
    const TimelineIndex& ix = s_->timeline;
    const KernelLane& kl = prof.ranks[size_t(rank)].lanes[size_t(lane)];
    QString name = QString::fromStdString(prof.strings.str(kl.name[size_t(k)]));
    if (name.size() > 160) name = name.left(157) + "...";
    const QString shortName = shortKernelName(prof.strings.str(kl.name[size_t(k)]));
    QString t = QString("<b>%1</b>%2<br>%3 \u00B7 stream %4<br>start %5 \u00B7 duration %6")
                    .arg(shortName.toHtmlEscaped(), name == shortName ? QString() : "<br>" + name.toHtmlEscaped(),
                         QString::fromStdString(prof.ranks[size_t(rank)].label))
                    .arg(kl.stream)
                    .arg(tickLabel(double(kl.start[size_t(k)]), 1))
                    .arg(dur(double(kl.end(size_t(k)) - kl.start[size_t(k)])));
    int64_t ci = ix.collectiveOf(rank, lane, uint32_t(k));
    if (ci >= 0) {
        const Collective& c = s_->analysis.collectives[size_t(ci)];
        t += QString("<br>collective group %1 #%2 %3 \u00B7 start skew %4").arg(c.group).arg(c.index).arg(opName(c.op)).arg(dur(double(c.startSkew())));
        if (auto m = memberOfKernel(prof, s_->analysis, c, rank, lane, uint32_t(k)))
            t += QString("<br>lateness %1 \u00B7 waited %2%3")
                     .arg(m->latenessNs == 0 ? tr("0 (first)") : "+" + dur(double(m->latenessNs)))
                     .arg(dur(double(ix.waitNs(rank, lane, uint32_t(k)))))
                     .arg(int(m->slot) == c.lateSlot ? tr(" \u00B7 <b>late arriver</b>") : QString());
    }
    return t;
}

QString TimelineView::tooltipAt(const QPointF& pos) const {
    if (!s_ || !s_->timeline.valid()) return {};
    Frame f = frame(size());
    if (f.overview.contains(pos.toPoint())) return strip_.tooltip(f.overview, pos.x());
    if (keyRect(f).contains(pos)) return strip_.keyTooltip();
    if (f.ruler.contains(pos.toPoint())) {
        QString t = tickLabel(timeAtX(pos.x()), (t1_ - t0_) / std::max(1, f.rows.width()));
        if (!std::isnan(measureA_)) t += tr("\nmeasured: %1").arg(dur(measureB_ - measureA_));
        return t + tr("\ndrag to zoom to a range");
    }
    Hit h = hitTest(pos);
    const Analysis& a = s_->analysis;
    if (h.kind == Hit::Marker) {
        const Collective& c = a.collectives[size_t(h.collective)];
        return tr("<b>late arriver %1</b> +%2<br>group %3 #%4 %5 \u00B7 cause %6%7")
            .arg(QString::fromStdString(s_->profile.ranks[size_t(h.rank)].label), dur(double(c.startSkew())))
            .arg(c.group)
            .arg(c.index)
            .arg(opName(c.op), causeLabel(c.cause), c.big ? tr(" \u00B7 <b>big event</b>") : QString());
    }
    if (h.kind == Hit::Header && pos.x() < f.gutter) return tr("click to %1 %2").arg(rankCollapsed(h.rank) ? tr("expand") : tr("collapse"),
                                                                                      QString::fromStdString(s_->profile.ranks[size_t(h.rank)].label));
    int i = rowAt(int(pos.y()));
    if (i < 0 || pos.x() < f.rows.left()) return {};
    const Row& r = rows_[size_t(i)];
    // what the pixel column under the cursor merges
    const double npp = (t1_ - t0_) / std::max(1, f.rows.width());
    const int col = int(std::floor((pos.x() - f.rows.left())));
    const double ca = t0_ + col * npp, cb = ca + npp;
    QString merged;
    if (r.kind == Row::Lane || (r.kind == Row::Header && rankCollapsed(r.rank))) {
        ColumnSum cs;
        if (r.kind == Row::Lane) {
            cs = s_->timeline.range(r.rank, r.lane, ca, cb);
        } else {
            for (int l : s_->timeline.laneOrder(r.rank)) {
                ColumnSum one = s_->timeline.range(r.rank, l, ca, cb);
                for (int w = 0; w < kWorkKinds; ++w) cs.ns[w] += one.ns[w];
                cs.kernels += one.kernels;
            }
        }
        if (cs.kernels > 1) {
            static const char* names[] = {"NCCL transfer", "NCCL waiting", "GEMM", "other NCCL", "other"};
            QStringList parts;
            for (Work w : kStackOrder)
                if (cs.ns[int(w)] > 0) parts << QString("%1 %2%").arg(names[int(w)]).arg(100.0 * cs.ns[int(w)] / npp, 0, 'f', 0);
            merged = tr("<i>%1 kernels in this pixel (%2): %3</i>").arg(cs.kernels).arg(dur(npp), parts.join(", "));
        }
    }
    if (h.kind == Hit::Kernel) return kernelTip(h.rank, h.lane, h.index) + (merged.isEmpty() ? QString() : "<br>" + merged);
    if (h.kind == Hit::Launch) {
        const KernelLane& kl = s_->profile.ranks[size_t(h.rank)].lanes[size_t(h.lane)];
        const uint32_t k = uint32_t(h.index);
        bool nccl = s_->timeline.ncclLaunch(h.rank, h.lane, k);
        return tr("<b>%1</b>%2<br>thread %3 \u00B7 start %4 \u00B7 %5<br>correlation id %6")
            .arg(QString::fromStdString(s_->profile.strings.str(kl.launchApi[k])), nccl ? tr(" (NCCL kernel launch)") : QString())
            .arg(kl.launchTid[k])
            .arg(tickLabel(double(kl.launchStart(k)), 1), dur(double(kl.launchDuration[k])))
            .arg(kl.correlationId[k]);
    }
    return merged;
}

// ---- input -----------------------------------------------------------------------------------

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    QToolTip::hideText();
    if (e->button() != Qt::LeftButton || !s_) return;
    Frame f = frame(size());
    const QPointF pos = e->position();
    pressPos_ = pos;
    pressT0_ = t0_;
    pressT1_ = t1_;
    pressScroll_ = scrollY_;
    moved_ = false;
    if (f.overview.contains(pos.toPoint())) {
        drag_ = Drag::Overview;
        QRectF hd = strip_.handle(f.overview, t0_, t1_);
        double t = strip_.timeAt(f.overview, pos.x());
        if (!hd.contains(pos)) {
            double span = t1_ - t0_;
            setRange(t - span / 2, t + span / 2);
        }
        grabOffset_ = t - t0_;
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
    Frame f = frame(size());
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
        int y = clampScroll(pressScroll_ - int(pos.y() - pressPos_.y()), f);
        if (y != scrollY_) {
            scrollY_ = y;
            updateScrollBar();
            update();
        }
        break;
    }
    case Drag::Overview: {
        double t = strip_.timeAt(f.overview, pos.x());
        double span = t1_ - t0_;
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
    const Drag d = drag_;
    drag_ = Drag::None;
    unsetCursor();
    const QPointF pos = e->position();
    if (d == Drag::Ruler) {
        if (moved_ && measureB_ - measureA_ > 0) setRange(measureA_, measureB_);  // zoom to the range, which stays marked
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
        if (h.kind == Hit::Header) setRankCollapsed(h.rank, !rankCollapsed(h.rank));
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
        setRankCollapsed(h.rank, !rankCollapsed(h.rank));
    }
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    if (!s_) return;
    const QPoint d = e->angleDelta();
    Frame f = frame(size());
    if (e->modifiers() & Qt::ShiftModifier) {
        scrollRows(-d.y() / 120 * 3 * kLaneH - d.x() / 120 * 3 * kLaneH);
    } else if (std::abs(d.x()) > std::abs(d.y())) {
        panBy(-d.x() / 120.0 * 0.1);  // horizontal wheel or touchpad: pan
    } else if (d.y() != 0) {
        double x = f.overview.contains(e->position().toPoint()) ? f.rows.center().x() : e->position().x();
        zoomAt(std::pow(0.8, d.y() / 120.0), std::clamp(x, double(f.rows.left()), double(f.rows.right())));
    }
    e->accept();
}

void TimelineView::zoomAtPointer(double factor) {
    const QRect ra = rowsArea();
    zoomAt(factor, hoverX_ >= ra.left() && hoverX_ <= ra.right() ? hoverX_ : ra.center().x());
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
    case Qt::Key_Up: scrollRows(-kLaneH * 2); return;
    case Qt::Key_Down: scrollRows(kLaneH * 2); return;
    case Qt::Key_PageUp: scrollRows(-ra.height() * 9 / 10); return;
    case Qt::Key_PageDown: scrollRows(ra.height() * 9 / 10); return;
    case Qt::Key_0:
    case Qt::Key_Home: fit(); return;
    case Qt::Key_F: fitCollective(); return;
    case Qt::Key_Z:
        if (!std::isnan(measureA_) && measureB_ > measureA_) setRange(measureA_, measureB_);
        return;
    case Qt::Key_Escape: setMeasure(NAN, NAN); return;
    default: QWidget::keyPressEvent(e);
    }
}

void TimelineView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) {
        legendImg_ = QImage();
        gutterKey_ = {};
        for (auto& c : textCache_) c.clear();
        nameCache_.clear();
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
