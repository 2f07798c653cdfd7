#pragma once
// The run timeline: one row per (rank, stream) for every kernel, grouped by rank with the NCCL
// streams first, a CPU launch row per rank, ranks collapsible; the overview strip and the time ruler
// above. Each pixel column of a row shows the share of time each class of work took inside it
// (from core's TimelineIndex: never a colour that did not run there); late arrivers and big events
// are markers on top at any zoom; the selected collective is a band across its ranks.
//
// The widget wires input to parts that know no widget, as Qt Creator's tracing library does: the
// zoom state (timeline_zoom.h), the row layout and frame areas (timeline_layout.h), the body raster
// (timeline_raster.h), the render passes around and over it (timeline_passes.h), the markers
// (timeline_markers.h) and the hit test with its hover texts (timeline_hits.h). The same paintTo()
// draws the screen and every export (PNG/SVG/PDF), so `render --view timeline` equals the viewer's.
//
// Why a QWidget painter and not QCustomPlot here: the frame is one image of merged pixel columns
// plus a few overlays, with a label gutter, a ruler that carries a selected range and an overview
// band; QCustomPlot's axes and interactions would all be overridden.
//
// Navigation as in Nsight Systems and Perfetto: the wheel scrolls the rows and Ctrl+wheel zooms at the
// cursor (or, a preference, the wheel zooms), drag pans,
// W/S zoom and A/D pan, drag on the ruler zooms to that range, Shift+drag measures a range,
// Home/0 fits the run, F fits the selected collective, Z zooms to the measured range, Esc clears it.
// I shows the what-if's ideal schedule as ghost bars (computed off the GUI thread when first shown).

#include <QImage>
#include <QWidget>

#include <cmath>
#include <optional>
#include <vector>

#include "session.h"
#include "views/run_view.h"
#include "views/timeline/ideal_job.h"
#include "views/timeline/overview_strip.h"
#include "views/timeline/timeline_hits.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_legend.h"
#include "views/timeline/timeline_passes.h"
#include "views/timeline/timeline_text.h"
#include "views/timeline/timeline_zoom.h"

class QScrollBar;

namespace skewui {
class HoverCard;
}

namespace skewui {

class TimelineView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setSession(SessionPtr s) override;  // fits the whole run; one without its view indexes: preparing
    bool preparing() const override { return preparing_ != nullptr; }
    void viewIndexesLoaded() override;
    void showPendingRequest() override;  // a showHighlight or fitCollective asked while preparing
    SessionPtr session() const { return s_; }
    void setSelectedCollective(int c) override;  // the band; the view pans to it when it is off screen
    int selectedCollective() const override { return selected_; }

    // visible time range, aligned ns
    void setRange(double t0, double t1);
    double rangeStart() const { return zoom_.start(); }
    double rangeEnd() const { return zoom_.end(); }
    void fit() override;
    void fitCollective();                   // F
    void zoomAt(double factor, double x);   // x in widget pixels; factor < 1 zooms in
    void zoomAtPointer(double factor);      // the keys' zoom: at the mouse over the rows, else the centre
    void panBy(double fraction);            // of the visible span
    void setMeasure(double a, double b);    // the selected range on the ruler (NaN clears)
    double measureStart() const { return zoom_.measureStart(); }
    double measureEnd() const { return zoom_.measureEnd(); }
    void setRankCollapsed(int rank, bool collapsed);
    bool rankCollapsed(int rank) const { return layout_.collapsed(rank); }
    void scrollRows(int pixels);
    // Show in Timeline and the search: the view on [h.start - margin x span, h.end + margin x span)
    // (span: h's, at least 1 us), h marked, its row scrolled into view; clearHighlight unmarks
    void showHighlight(const TimelineHighlight& h, double margin);
    void clearHighlight();
    const TimelineHighlight& highlight() const { return highlight_; }
    // the wheel: false (the default) as Nsight Systems, the wheel scrolls the rows and Ctrl+wheel
    // zooms; true (a preference) the wheel zooms and Shift+wheel scrolls the rows
    void setWheelZooms(bool zooms) { wheelZooms_ = zooms; }
    bool wheelZooms() const { return wheelZooms_; }
    const TimelineZoom& zoom() const { return zoom_; }
    const TimelineLayout& layout() const { return layout_; }

    using Row = TimelineRow;  // content coordinates (before scrolling)
    const std::vector<Row>& rows() const { return layout_.rows(); }
    int rowOf(int rank, int lane) const { return layout_.rowOf(rank, lane); }  // the Lane row, or the rank's header when collapsed; -1
    int cpuRowOf(int rank) const { return layout_.cpuRowOf(rank); }
    QRect rowsArea() const;                // where the rows are drawn, widget coordinates
    QRect rulerArea() const;
    QRect overviewArea() const;
    QRect rowRect(int row) const;          // widget coordinates (may be off screen)
    int rowAt(int y) const;                // row index under a widget y, -1
    double timeAtX(double x) const;        // widget x -> ns
    double xAtTime(double t) const;        // ns -> widget x (column left edge)
    skew::PixelMap pixelMap() const;       // the rows area's columns for the visible range

    using Hit = TimelineHit;
    Hit hitTest(const QPointF& p) const;
    QString tooltipAt(const QPointF& p) const;
    const HoverCard* hoverCard() const { return card_; }  // the hover text, by the pointer inside the view
    RulerBoxes rulerBoxes() const;  // the ruler's measure and hover boxes and tick labels, as painted
    // groups whose ordinary late arrivers are not drawn at this zoom (too many collectives in view)
    std::vector<int> thinnedGroups() const;
    std::vector<QRectF> markerLabelRects() const;  // the big markers' labels, widget coordinates
    // "9 more rows below (dev 5 to dev 7)" when rows are cut off at the bottom, else empty
    QString rowsBelowNote() const;
    LegendBoxes legendBoxes() const;
    LaunchLines launchLines() const;  // the lines to the CPU launches as drawn, and the kernel names' boxes
    bool overviewKeyShowsValues() const;  // the overview's colour key (left of the strip) shows its end values  // the legend's entries and the note on rows below, as painted

    void paintTo(QPainter& p, const QSize& size, bool screen = false);
    QImage render(const QSize& size);      // a frame, as exported (tests and benchmark)
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) override;
    void invalidate() { bodyKey_ = {}; }   // drop the cached frame body, as a new range does (benchmark)

    // The what-if's ideal schedule as ghost bars (I): computed for the session when first shown
    void setShowIdeal(bool on);
    bool showIdeal() const { return showIdeal_; }
    void setIdealSchedule(std::shared_ptr<const skew::IdealSchedule> s);  // computed elsewhere (render); shows it
    const skew::IdealSchedule* idealSchedule() const;                     // null until computed
    void whatIfLoaded();  // the session's what-if is in: an ideal schedule waiting for it is computed
    bool idealComputing() const { return ideal_->running(); }

    // RunView: the zoom keys zoom at the pointer; --range sets the visible range
    QWidget* widget() override { return this; }
    void zoomBy(double factor) override { zoomAtPointer(factor); }
    bool setTimeRange(double t0, double t1) override {
        setRange(t0, t1);
        return true;
    }
    bool timeRange(double& t0, double& t1, double& run0, double& run1) const override {
        t0 = zoom_.start(), t1 = zoom_.end(), run0 = zoom_.runStart(), run1 = zoom_.runEnd();
        return true;
    }
    // over a reload: the visible range (x) and the rows' scroll (y0)
    RunViewRange viewRange() const override { return RunViewRange{true, zoom_.start(), zoom_.end(), double(layout_.scroll()), 0}; }
    void restoreViewRange(const RunViewRange& kept) override;
    QString tabTitle() const override { return tr("Timeline"); }
    QString tabToolTip() const override { return tr("Every rank and stream over the whole run"); }
    QString viewName() const override { return QStringLiteral("timeline"); }

signals:
    void collectiveClicked(int collective);
    void kernelClicked(int rank, int lane, quint32 kernel);
    void rangeChanged(double t0, double t1);
    void showIdealChanged(bool shown);

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
    // what the cached images were drawn for
    struct CacheKey {
        double t0 = NAN, t1 = NAN;
        int scroll = -1, w = -1, h = -1, layout = -1;
        qreal dpr = 0;
        int selected = -1;
        bool operator==(const CacheKey& o) const {
            return t0 == o.t0 && t1 == o.t1 && scroll == o.scroll && w == o.w && h == o.h && layout == o.layout && dpr == o.dpr &&
                   selected == o.selected;
        }
    };

    TimelineState state() const;  // the widget's own frame, as the mouse sees it
    void layoutRows();
    void updateScrollBar();
    void rangeUpdated();  // repaint and say so
    void paintGutter(QPainter& p, const TimelineState& st, qreal dpr, bool screen);
    void paintBody(QPainter& p, const TimelineState& st, qreal dpr, bool screen);
    void paintLegend(QPainter& p, const TimelineState& st, qreal dpr, bool screen);
    void toggleRank(int rank) { setRankCollapsed(rank, !rankCollapsed(rank)); }
    void endDrag(const QPointF& pos);

    SessionPtr s_;
    SessionPtr preparing_;  // shown once its view indexes are in (s_ is null meanwhile)
    OverviewStrip strip_;
    TimelineZoom zoom_;
    TimelineLayout layout_;
    mutable TimelineText text_;
    int selected_ = -1;
    int layoutVersion_ = 0;
    QScrollBar* vbar_ = nullptr;

    // the cached parts of the screen frame
    CacheKey bodyKey_, gutterKey_;
    QImage body_, gutterImg_, legendImg_;
    bool legendThinned_ = false;  // what legendImg_ was drawn for
    QString legendIdeal_;
    QRect legendNote_;

    IdealJob* ideal_ = nullptr;
    bool showIdeal_ = false;
    const skew::IdealSchedule* shownIdeal() const { return showIdeal_ ? ideal_->schedule() : nullptr; }
    bool idealPending() const { return showIdeal_ && ideal_->running(); }

    // mouse
    enum class Drag { None, Pan, Ruler, Measure, Overview, Header } drag_ = Drag::None;
    QPointF pressPos_;
    double pressT0_ = 0, pressT1_ = 0, grabOffset_ = 0;
    int pressScroll_ = 0;
    bool moved_ = false;
    double hoverX_ = -1;
    HoverCard* card_ = nullptr;
    bool wheelZooms_ = false;
    TimelineHighlight highlight_;
    // asked while preparing (s_ null): a highlight with its margin, or (fit) the selected collective
    struct PendingShow {
        bool fit = false;
        TimelineHighlight highlight;
        double margin = 0;
    };
    std::optional<PendingShow> pending_;
};

}  // namespace skewui
