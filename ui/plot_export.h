#pragma once
// Saving a QCustomPlot (any view of the viewer, or `render`) as PNG, SVG or PDF: drawn into memory,
// then written with the same atomic writer as the reports, so a full disk or a missing folder
// leaves any old file intact and the error names the reason.

#include <QString>

class QCustomPlot;

namespace skewui {

// The image bytes of `plot` at width x height for the format named by `path`'s suffix
// (.png, .svg, .pdf); false with a reason for another suffix.
bool renderPlot(QCustomPlot* plot, const QString& path, int width, int height, QByteArray* bytes, QString* error);

// renderPlot, then writeOutput. False with the reason ("cannot write x.pdf: No space left on device").
bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, QString* error);

}  // namespace skewui
