#include "plot_export.h"

#include <QBuffer>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <exception>
#include <string_view>

#include "util/atomic_file.h"

namespace skewui {

bool renderPlot(QCustomPlot* plot, const QString& path, int width, int height, QByteArray* bytes, QString* error) {
    const QString lower = path.toLower();
    QBuffer buf(bytes);
    buf.open(QIODevice::WriteOnly);
    bool ok = false;
    if (lower.endsWith(".png")) {
        QPixmap pm = plot->toPixmap(width, height);
        ok = !pm.isNull() && pm.save(&buf, "PNG");
    } else if (lower.endsWith(".svg")) {
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(QSize(width, height));
        gen.setViewBox(QRect(0, 0, width, height));
        QCPPainter painter;
        if (painter.begin(&gen)) {
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else if (lower.endsWith(".pdf")) {
        // one page of width x height points, no margins: one point per plot pixel
        QPdfWriter pdf(&buf);
        pdf.setCreator("Skewscope");
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        if (painter.begin(&pdf)) {
            painter.setMode(QCPPainter::pmVectorized);
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        if (error) *error = QObject::tr("unknown image type for %1: use .png, .svg or .pdf").arg(path);
        return false;
    }
    if (!ok && error) *error = QObject::tr("cannot draw the view as %1").arg(QFileInfo(path).suffix().toUpper());
    return ok;
}

bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, QString* error) {
    QByteArray bytes;
    if (!renderPlot(plot, path, width, height, &bytes, error)) return false;
    try {
        skew::writeOutput(path.toStdString(), std::string_view(bytes.constData(), size_t(bytes.size())));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

}  // namespace skewui
