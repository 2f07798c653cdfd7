#pragma once
// The run timeline: one row per (rank, stream) for every kernel, grouped by rank with the NCCL
// streams first, a CPU launch row per rank, ranks collapsible; the overview strip and the time ruler
// above. Each pixel column of a row shows the share of time each class of work took inside it
// (from core's TimelineIndex: never a colour that did not run there); late arrivers and big events
// are markers on top at any zoom; the selected collective is a band across its ranks.
//
// Why a QWidget painter and not QCustomPlot here: the frame is one image of merged pixel columns
// plus a few overlays, with a label gutter, a ruler that carries a selected range and an overview
// band; QCustomPlot's axes and interactions would all be overridden. The same paintTo() draws the
// screen and every export (PNG/SVG/PDF), so `render --view timeline` equals the viewer's export.
//
// Navigation as in Nsight Systems and Perfetto: wheel or Ctrl+wheel zooms at the cursor, drag pans,
// W/S zoom and A/D pan, drag on the ruler zooms to that range, Shift+drag measures a range,
// Home/0 fits the run, F fits the selected collective, Z zooms to the measured range, Esc clears it.

#include <QHash>
#include <QImage>
#include <QStaticText>
#include <QWidget>

#include <cmath>
#include <vector>

#include "views/timeline/overview_strip.h"
#include "common/rank_labels.h"
#include "session.h"
#include "views/run_view.h"
#include "views/timeline/timeline_raster.h"

class QScrollBar;

namespace skewui {

class TimelineView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setSession(SessionPtr s) override;  // fits the whole run
    SessionPtr session() const { return s_; }
    void setSelectedCollective(int c) override;  // the band; the view pans to it when it is off screen
    int selectedCollective() const override { return selected_; }

    // visible time range, aligned ns
    void setRange(double t0, double t1);
    double rangeStart() const { return t0_; }
    double rangeEnd() const { return t1_; }
    void fit() override;
    void fitCollective();                   // F
    void zoomAt(double factor, double x);   // x in widget pixels; factor < 1 zooms in
    void zoomAtPointer(double factor);      // the keys' zoom: at the mouse over the rows, else the centre
    void panBy(double fraction);            // of the visible span
    void setMeasure(double a, double b);    // the selected range on the ruler (NaN clears)
    double measureStart() const { return measureA_; }
    double measureEnd() const { return measureB_; }
    void setRankCollapsed(int rank, bool collapsed);
    bool rankCollapsed(int rank) const { return size_t(rank) < collapsed_.size() && collapsed_[size_t(rank)]; }
    void scrollRows(int pixels);

    using Row = TimelineRow;  // content coordinates (before scrolling)
    const std::vector<Row>& rows() const { return rows_; }
    int rowOf(int rank, int lane) const;   // the Lane row, or the rank's header when collapsed; -1
    int cpuRowOf(int rank) const;
    QRect rowsArea() const;                // where the rows are drawn, widget coordinates
    QRect rulerArea() const;
    QRect overviewArea() const;
    QRect rowRect(int row) const;          // widget coordinates (may be off screen)
    int rowAt(int y) const;                // row index under a widget y, -1
    double timeAtX(double x) const;        // widget x -> ns
    double xAtTime(double t) const;        // ns -> widget x (column left edge)
    skew::PixelMap pixelMap() const;       // the rows area's columns for the visible range

    struct Hit {
        enum Kind { None, Kernel, Launch, Marker, Header } kind = None;
        int rank = -1, lane = -1;
        int64_t index = -1;   // the kernel in lane (rank, lane); a launch hit: the kernel it launched
        int collective = -1;  // the kernel's collective, or the marker's
    };
    Hit hitTest(const QPointF& p) const;
    QString tooltipAt(const QPointF& p) const;
    // groups whose ordinary late arrivers are not drawn at this zoom (too many collectives in view)
    std::vector<int> thinnedGroups() const;
    std::vector<QRectF> markerLabelRects() const;  // the big markers' labels, widget coordinates
    // "9 more rows below (dev 5 to dev 7)" when rows are cut off at the bottom, else empty
    QString rowsBelowNote() const;

    void paintTo(QPainter& p, const QSize& size, bool screen = false);
    QImage render(const QSize& size);      // a frame, as exported (tests and benchmark)
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) override;

    // RunView: the zoom keys zoom at the pointer; --range sets the visible range
    QWidget* widget() override { return this; }
    void zoomBy(double factor) override { zoomAtPointer(factor); }
    bool setTimeRange(double t0, double t1) override {
        setRange(t0, t1);
        return true;
    }
    QString tabTitle() const override { return tr("Timeline"); }
    QString tabToolTip() const override { return tr("Every rank and stream over the whole run"); }
    QString viewName() const override { return QStringLiteral("timeline"); }
    void invalidate() { bodyKey_ = {}; }   // drop the cached frame body, as a new range does (benchmark)

signals:
    void collectiveClicked(int collective);
    void kernelClicked(int rank, int lane, quint32 kernel);
    void rangeChanged(double t0, double t1);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void changeEvent(QEvent* e) override;
    void enterEvent(QEnterEvent* e) override;

private:
    struct Frame {
        QSize size;
        int gutter = 0;
        bool scroll = false;
        QRect overview, ruler, rows, legend;
    };
    struct Marker {
        QRectF r;  // where it can be clicked
        int collective;
        int row;
        double x;  // the late arriver's start
        bool big;
    };
    struct MarkerLabel {
        QRectF box;
        QString text;
        int collective;
    };
    struct BodyKey {
        double t0 = NAN, t1 = NAN;
        int scroll = -1, w = -1, h = -1, layout = -1;
        qreal dpr = 0;
        int selected = -1;
        bool operator==(const BodyKey& o) const {
            return t0 == o.t0 && t1 == o.t1 && scroll == o.scroll && w == o.w && h == o.h && layout == o.layout && dpr == o.dpr &&
                   selected == o.selected;
        }
    };

    Frame frame(const QSize& size) const;
    void layoutRows();
    std::vector<Row> layoutFor(int areaH, int& contentH) const;
    static int areaHeight(const QSize& size);
    void updateScrollBar();
    int clampScroll(int y, const Frame& f) const;
    void buildBody(const Frame& f, qreal dpr, QImage& into) const;  // the rows' pixels, opaque (timeline_raster.cpp)
    void paintBackgrounds(QPainter& p, const Frame& f) const;
    void paintGutter(QPainter& p, const Frame& f) const;
    void paintRuler(QPainter& p, const Frame& f, bool screen) const;
    void paintOverlays(QPainter& p, const Frame& f, bool screen);
    void paintKernelNames(QPainter& p, const Frame& f) const;
    void paintSelection(QPainter& p, const Frame& f) const;
    void paintLaunchLines(QPainter& p, const Frame& f) const;
    void paintMarkers(QPainter& p, const Frame& f) const;
    void paintMeasure(QPainter& p, const Frame& f, bool screen) const;
    double xIn(const QRect& rows, double t) const;      // ns -> x in the rows area `rows`
    double rowTopIn(const QRect& rows, int row) const;  // top of row `row` there, after scrolling
    void paintLegend(QPainter& p, const Frame& f) const;
    std::vector<Marker> markers(const Frame& f) const;  // late arrivers to draw, by x
    std::vector<MarkerLabel> markerLabels(const Frame& f, const std::vector<Marker>& mks) const;
    std::vector<int> thinnedGroups(const Frame& f) const;
    QString rowsBelowNote(const Frame& f) const;
    void paintRowsNote(QPainter& p, const Frame& f) const;
    QRectF keyRect(const Frame& f) const;  // the overview ticks' colour key, left of the strip
    double spanLimit() const;
    int laneOfSlot(int collective, int slot, int& rank) const;
    QString kernelTip(int rank, int lane, int64_t k) const;
    // text from a cache of laid-out strings: frames repeat the same labels and kernel names, and
    // shaping them anew every frame would cost more than the level of detail itself
    enum FontKind { Base, Small, Bold, SmallBold, FontKinds };
    QFont fontOf(FontKind k) const;
    void drawText(QPainter& p, const QRectF& r, const QString& s, FontKind k, Qt::Alignment a) const;
    QString elidedName(skew::StrId name, int width) const;
    QString elided(const QString& s, FontKind k, int width) const;

    SessionPtr s_;
    OverviewStrip strip_;
    double t0_ = 0, t1_ = 1;
    int scrollY_ = 0;
    int selected_ = -1;
    double measureA_ = NAN, measureB_ = NAN;
    std::vector<bool> collapsed_;
    std::vector<Row> rows_;
    int contentH_ = 0;
    int gutter_ = 150;  // label column width, set by layoutRows
    RankLabelElider labels_;  // the rank labels elided keeping what tells the files apart
    int layoutH_ = -1;  // the rows area height rows_ was laid out for
    int layoutVersion_ = 0;
    QScrollBar* vbar_ = nullptr;

    mutable QHash<QString, QStaticText> textCache_[FontKinds];
    mutable QHash<quint64, QString> nameCache_;

    // the cached body of the screen frame
    BodyKey bodyKey_;
    QImage body_;
    BodyKey gutterKey_;
    QImage gutterImg_;
    QImage legendImg_;
    bool legendThinned_ = false;  // what legendImg_ was drawn for

    // mouse
    enum class Drag { None, Pan, Ruler, Measure, Overview, Header } drag_ = Drag::None;
    QPointF pressPos_;
    double pressT0_ = 0, pressT1_ = 0, grabOffset_ = 0;
    int pressScroll_ = 0;
    bool moved_ = false;
    double hoverX_ = -1;
};

}  // namespace skewui
