#pragma once
// Writing a view to PNG, SVG or PDF for the run views (timeline, step map, heatmap): the viewer's
// export and `render --view` both call these, so both files are drawn by the same code. The file is
// written beside the target under a temporary name and renamed (never a half-written image).

#include <QString>

#include <functional>

class QPainter;
class QSize;
class QCustomPlot;

namespace skewui {

// A view painted by a function of (painter, size).
bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error = nullptr);
// A QCustomPlot, laid out and replotted at width x height.
bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, const QString& title, QString* error = nullptr);

}  // namespace skewui
