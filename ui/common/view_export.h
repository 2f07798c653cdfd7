#pragma once
// Saving a view as PNG, SVG or PDF, by the file's suffix: a QCustomPlot view (collective, step map,
// heatmap) through QCustomPlot's own rendering, a view that paints itself with QPainter (timeline,
// compare) through its paint function. Drawn into memory, then written with the same atomic writer
// as the reports, so a full disk or a missing folder leaves any old file intact and the error names
// the reason. The viewer's export and `render --view` both call these.

#include <QString>

#include <functional>

class QCustomPlot;
class QPainter;
class QSize;

namespace skewui {

// `plot` at width x height; false with the reason ("unknown image type for x.bmp: ...", "cannot
// write x.pdf: No space left on device").
bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, QString* error = nullptr);

// What `paint` draws into a width x height canvas; `title` is the SVG's and the PDF's.
bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error = nullptr);

}  // namespace skewui
