#include "view_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <exception>
#include <string_view>

#include "util/atomic_file.h"

namespace skewui {

bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error) {
    const QSize size(width, height);
    const QString lower = path.toLower();
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    bool ok = false;
    if (lower.endsWith(".png")) {
        QImage img(size, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            paint(p, size);
        }
        ok = img.save(&buf, "PNG");
    } else if (lower.endsWith(".svg")) {
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(size);
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(title);
        QPainter p;
        if (p.begin(&gen)) {
            paint(p, size);
            ok = p.end();
        }
    } else if (lower.endsWith(".pdf")) {
        // one page of width x height points, no margins: one point per pixel
        QPdfWriter pdf(&buf);
        pdf.setCreator("Skewscope");
        pdf.setTitle(title);
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (p.begin(&pdf)) {
            paint(p, size);
            ok = p.end();
        }
    } else {
        if (error) *error = QCoreApplication::translate("export", "unknown image type for %1: use .png, .svg or .pdf").arg(path);
        return false;
    }
    if (!ok) {
        if (error) *error = QCoreApplication::translate("export", "cannot draw the view as %1").arg(QFileInfo(path).suffix().toUpper());
        return false;
    }
    try {
        skew::writeOutput(path.toStdString(), std::string_view(bytes.constData(), size_t(bytes.size())));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

}  // namespace skewui
