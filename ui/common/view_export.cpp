#include "common/view_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <exception>
#include <string_view>

#include "util/atomic_file.h"

namespace skewui {

namespace {

enum class Format { Png, Svg, Pdf, Unknown };

Format formatOf(const QString& path) {
    const QString lower = path.toLower();
    return lower.endsWith(".png") ? Format::Png : lower.endsWith(".svg") ? Format::Svg : lower.endsWith(".pdf") ? Format::Pdf : Format::Unknown;
}

// The resolution a PNG export is drawn at (a QImage's or QPixmap's logical dots per inch, as the
// screen's): the SVG and the PDF are drawn at it too, so that a font of N points takes the same
// pixels in all three (at 72 dpi the SVG's and PDF's text was a quarter smaller: review defect 13)
int pngDpi() { return QImage(1, 1, QImage::Format_ARGB32_Premultiplied).logicalDpiY(); }

void setUpSvg(QSvgGenerator& gen, QBuffer& buf, const QSize& size, const QString& title) {
    gen.setOutputDevice(&buf);
    gen.setResolution(pngDpi());
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setTitle(title);
}

// one page of width x height pixels at the PNG's resolution, no margins. Its painter also takes
// QPainter::LosslessImageRendering: the pictures inside (a heatmap, a widget's pixels) are stored
// without loss, as in the PNG, not as JPEG (Qt's default for a PDF), whose artefacts blur thin bars
// and coloured cells. (It also keeps libjpeg out of the process: under LeakSanitizer, libjpeg's
// thread-local block, loaded with Qt's JPEG plugin, made the leak check's tracer crash at exit in
// about one test run in three.)
void setUpPdf(QPdfWriter& pdf, const QSize& size, const QString& title) {
    pdf.setCreator("Skewscope");
    pdf.setTitle(title);
    const int dpi = pngDpi();
    pdf.setResolution(dpi);
    pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / dpi, QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
}

QString unknownType(const QString& path) {
    return QCoreApplication::translate("export", "unknown image type for %1: use .png, .svg or .pdf").arg(path);
}

// the drawn bytes written atomically, or why not
bool finish(bool drawn, const QString& path, const QByteArray& bytes, QString* error) {
    if (!drawn) {
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

}  // namespace

bool exportPlot(QCustomPlot* plot, const QString& path, int width, int height, QString* error) {
    const QSize size(width, height);
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    bool ok = false;
    switch (formatOf(path)) {
    case Format::Png: {
        QPixmap pm = plot->toPixmap(width, height);
        ok = !pm.isNull() && pm.save(&buf, "PNG");
        break;
    }
    case Format::Svg: {
        QSvgGenerator gen;
        setUpSvg(gen, buf, size, QString());
        QCPPainter painter;
        if (painter.begin(&gen)) {
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
        break;
    }
    case Format::Pdf: {
        QPdfWriter pdf(&buf);
        setUpPdf(pdf, size, QString());
        QCPPainter painter;
        if (painter.begin(&pdf)) {
            painter.setRenderHint(QPainter::LosslessImageRendering);  // see setUpPdf()
            painter.setMode(QCPPainter::pmVectorized);
            plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
        break;
    }
    case Format::Unknown:
        if (error) *error = unknownType(path);
        return false;
    }
    return finish(ok, path, bytes, error);
}

bool exportPainted(const QString& path, int width, int height, const QString& title,
                   const std::function<void(QPainter&, const QSize&)>& paint, QString* error) {
    const QSize size(width, height);
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    bool ok = false;
    switch (formatOf(path)) {
    case Format::Png: {
        QImage img(size, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            paint(p, size);
        }
        ok = img.save(&buf, "PNG");
        break;
    }
    case Format::Svg: {
        QSvgGenerator gen;
        setUpSvg(gen, buf, size, title);
        QPainter p;
        if (p.begin(&gen)) {
            paint(p, size);
            ok = p.end();
        }
        break;
    }
    case Format::Pdf: {
        QPdfWriter pdf(&buf);
        setUpPdf(pdf, size, title);
        QPainter p;
        if (p.begin(&pdf)) {
            p.setRenderHint(QPainter::LosslessImageRendering);  // see setUpPdf()
            paint(p, size);
            ok = p.end();
        }
        break;
    }
    case Format::Unknown:
        if (error) *error = unknownType(path);
        return false;
    }
    return finish(ok, path, bytes, error);
}

}  // namespace skewui
