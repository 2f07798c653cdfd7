#include "view_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include <cstdio>

namespace skewui {

namespace {

enum class Kind { Png, Svg, Pdf, Unknown };

Kind kindOf(const QString& path) {
    QString l = path.toLower();
    if (l.endsWith(".png")) return Kind::Png;
    if (l.endsWith(".svg")) return Kind::Svg;
    if (l.endsWith(".pdf")) return Kind::Pdf;
    return Kind::Unknown;
}

// temp file beside the target, then rename; a device or pipe is copied into instead
bool writeVia(const QString& path, const std::function<bool(const QString&)>& write, QString* error) {
    if (kindOf(path) == Kind::Unknown) {
        if (error) *error = QCoreApplication::translate("export", "unknown image type for %1: use .png, .svg or .pdf").arg(path);
        return false;
    }
    QFileInfo fi(path);
    QString tmp = fi.dir().filePath("." + fi.fileName() + ".tmp" + QString::number(QCoreApplication::applicationPid()) + "." + fi.suffix());
    bool ok = write(tmp);
    if (ok) {
        QFileInfo target(path);
        if (target.exists() && !target.isFile()) {
            QFile in(tmp), out(path);
            ok = in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly) && out.write(in.readAll()) >= 0;
            QFile::remove(tmp);
        } else {
            ok = std::rename(tmp.toLocal8Bit().constData(), path.toLocal8Bit().constData()) == 0;
        }
    }
    if (!ok) {
        QFile::remove(tmp);
        if (error && error->isEmpty()) *error = QCoreApplication::translate("export", "cannot write %1").arg(path);
    }
    return ok;
}

}  // namespace

bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error) {
    const QSize size(width, height);
    return writeVia(path, [&](const QString& tmp) {
        switch (kindOf(path)) {
        case Kind::Png: {
            QImage img(size, QImage::Format_ARGB32_Premultiplied);
            img.fill(Qt::white);
            {
                QPainter p(&img);
                paint(p, size);
            }
            return img.save(tmp, "PNG");
        }
        case Kind::Svg: {
            QSvgGenerator gen;
            gen.setFileName(tmp);
            gen.setSize(size);
            gen.setViewBox(QRect(QPoint(0, 0), size));
            gen.setTitle(title);
            QPainter p;
            if (!p.begin(&gen)) return false;
            paint(p, size);
            return p.end();
        }
        case Kind::Pdf: {
            QPdfWriter pdf(tmp);
            pdf.setTitle(title);
            pdf.setResolution(72);
            pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            QPainter p;
            if (!p.begin(&pdf)) return false;
            paint(p, size);
            return p.end();
        }
        default: return false;
        }
    }, error);
}

bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, const QString& title, QString* error) {
    return writeVia(path, [&](const QString& tmp) {
        switch (kindOf(path)) {
        case Kind::Png: return plot->savePng(tmp, width, height);
        case Kind::Pdf: return plot->savePdf(tmp, width, height);
        case Kind::Svg: {
            QSvgGenerator gen;
            gen.setFileName(tmp);
            gen.setSize(QSize(width, height));
            gen.setViewBox(QRect(0, 0, width, height));
            gen.setTitle(title);
            QCPPainter painter;
            if (!painter.begin(&gen)) return false;
            plot->toPainter(&painter, width, height);
            painter.end();
            return true;
        }
        default: return false;
        }
    }, error);
}

}  // namespace skewui
