#pragma once
// The pixel layout of one collective scene, computed before anything is painted: bar rectangles,
// the thin lanes at their level of detail, the late arriver's CPU launch marker, and every label
// placed where it covers no bar and stays inside the plot (or is left out). The painter draws this
// and nothing else, so tests can check label rectangles against bar rectangles without a widget.

#include <QColor>
#include <QFont>
#include <QPolygonF>
#include <QRectF>
#include <QString>

#include <vector>

#include "scene/collective_scene.h"
#include "scene/lane_lod.h"

namespace skewui {

// Row geometry, in rows (row i is centred on i; the axis is reversed, row 0 at the top).
constexpr double kMainHalf = 0.22;             // NCCL bar half-height
constexpr double kSubY = 0.36, kSubHalf = 0.07;  // thin lane centre and half-height
constexpr double kPredHalf = kSubHalf * 2.2;    // the predecessor's emphasised box
constexpr double kDenseRowPx = 4;                // rows lower than this: whole-pixel bars, no thin lanes but the late and predecessor rows'

// Maps scene coordinates (ns relative to t0, rows) to pixels exactly as QCustomPlot's axes do.
struct AxisMapping {
    QRect plot;                 // the axis rect
    double x0Ns = 0, x1Ns = 1;  // visible time range
    double row0 = 0, row1 = 1;  // row range: row0 at the top edge, row1 at the bottom edge
    double px(double ns) const { return plot.left() + (ns - x0Ns) / (x1Ns - x0Ns) * plot.width(); }
    double py(double row) const { return plot.bottom() - (row1 - row) / (row1 - row0) * plot.height(); }
    double nsAt(double pixelX) const { return x0Ns + (pixelX - plot.left()) / plot.width() * (x1Ns - x0Ns); }
};

enum class LabelKind { Lateness, Late, First, Launch, Predecessor, Missing };

struct PlacedLabel {
    PlacedLabel(LabelKind k, int r, QString t = {}) : kind(k), row(r), text(std::move(t)) {}
    LabelKind kind;
    int row = -1;
    QString text;
    QFont font;
    QColor color;
    QRectF rect;        // text box (text centred in it, with a 2 px margin each side)
    bool shown = false;  // false: no place without covering a bar or leaving the plot
};

struct LaneRect {
    QRectF rect;
    skew::KernelClass cls;  // Gemm, OtherNccl or Other
};

struct LaunchGeometry {
    bool shown = false;
    int row = -1;
    double lineY = 0, lineX0 = 0, lineX1 = 0;  // the dashed launch-to-start line
    QPolygonF marker;                          // triangle at the launch, or an arrow at the plot edge
};

// What is drawn, for the legend (which lists nothing else).
struct DrawnKinds {
    bool wait = false, transfer = false, late = false, lateWait = false;
    bool gemm = false, other = false, otherNccl = false, predecessor = false, launch = false;
};

struct SceneLayout {
    QRect plot;
    std::vector<QRectF> bars;      // per scene bar (same index), unclipped; empty rect when off screen
    std::vector<LaneRect> lanes;   // thin lanes as drawn: one rectangle per run of one class
    std::vector<int> predecessors; // bar indices drawn emphasised on top of the thin lanes
    std::vector<QRectF> predRects;
    LaunchGeometry launch;
    std::vector<PlacedLabel> labels;
    DrawnKinds drawn;

    const PlacedLabel* label(LabelKind k, int row = -1) const;
};

struct LayoutFonts {
    QFont row, late, launch, predecessor;
    explicit LayoutFonts(const QFont& base);
};

// The label beside row `row`'s bar: its kind, and its text (core's rowLabel).
LabelKind rowLabelKind(const skew::CollectiveScene& sc, int row);
QString rowLabelText(const skew::CollectiveScene& sc, int row);

// Widest row label in pixels: the time fit leaves this much room right of the latest end.
double widestRowLabel(const skew::CollectiveScene& sc, const LayoutFonts& fonts);

// Row range [row0, row1] that fits `rows` rows in `heightPx`, with room above the first row for
// the CPU launch marker and its label when the late arriver is the first row, and below the last
// row for the predecessor's box and its label when the late arriver is the last row.
std::pair<double, double> rowRange(int rows, double heightPx, bool launchOnFirstRow, bool predecessorOnLastRow, const LayoutFonts& fonts);
// The plot height in which `rows` rows (at most kReadableRows of them counted) get a pitch of at
// least 2.1 row-label heights: what a row's bar, its thin lane and the labels beside them need
// (below it the labels no longer fit and are left out; a short plot put them on the lanes).
constexpr int kReadableRows = 10;
int readablePlotHeight(int rows, bool launchOnFirstRow, bool predecessorOnLastRow, const LayoutFonts& fonts);
// The rows rowRange needs room for: the launch's on the first row, a predecessor's on the last.
bool launchOnFirstRow(const skew::CollectiveScene& sc);
bool predecessorOnLastRow(const skew::CollectiveScene& sc);

SceneLayout layoutScene(const skew::CollectiveScene& sc, const AxisMapping& m, const LayoutFonts& fonts);

}  // namespace skewui
