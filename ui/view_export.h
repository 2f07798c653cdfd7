#pragma once
// Saving a view that paints itself with QPainter (the timeline) as PNG, SVG or PDF: drawn into
// memory by the same paint function as the screen, then written with the atomic writer, like
// plot_export does for the QCustomPlot views. The viewer's export and `render --view` both call it.

#include <QString>

#include <functional>

class QPainter;
class QSize;

namespace skewui {

bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error = nullptr);

}  // namespace skewui
