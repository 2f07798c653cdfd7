#pragma once
// What an exported SVG or PDF holds, read as a reader of the file would: the SVG parsed as XML (its
// view box, the strings of its text elements, its shapes), the PDF's header and page count, and the
// PDF's text through pdfinfo and pdftotext (poppler-utils, installed by scripts/setup-deps.sh; a
// test fails when they are missing).

#include <QFile>
#include <QRectF>
#include <QStringList>
#include <QXmlStreamReader>

#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace guitest {

struct SvgContent {
    QString error;      // empty when the file is well-formed XML with an <svg> root
    QRectF viewBox;
    QStringList texts;  // each <text> element's string, trimmed, in document order
    int shapes = 0;     // rect, path, polyline, polygon, line, circle and ellipse elements
    // whether a text element starts with `prefix` (rank labels carry a marker after them)
    bool hasTextStartingWith(const QString& prefix) const {
        for (const QString& t : texts)
            if (t.startsWith(prefix)) return true;
        return false;
    }
    bool hasTextContaining(const QString& part) const {
        for (const QString& t : texts)
            if (t.contains(part)) return true;
        return false;
    }
};

inline SvgContent readSvg(const std::string& path) {
    SvgContent out;
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = "cannot open " + f.fileName();
        return out;
    }
    QXmlStreamReader xml(&f);
    bool root = true;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const QString name = xml.name().toString();
        if (root) {
            root = false;
            if (name != "svg") {
                out.error = "the root element is <" + name + ">, not <svg>";
                return out;
            }
            const QStringList box = xml.attributes().value("viewBox").toString().split(' ', Qt::SkipEmptyParts);
            if (box.size() == 4) out.viewBox = QRectF(box[0].toDouble(), box[1].toDouble(), box[2].toDouble(), box[3].toDouble());
        } else if (name == "text") {
            out.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        } else if (QStringList{"rect", "path", "polyline", "polygon", "line", "circle", "ellipse"}.contains(name)) {
            ++out.shapes;
        }
    }
    if (xml.hasError()) out.error = "not well-formed XML: " + xml.errorString();
    if (root) out.error = "no element at all";
    return out;
}

struct PdfContent {
    bool header = false;  // starts with %PDF-
    int pages = 0;        // as pdfinfo counts them
    std::string text;     // pdftotext's text of every page (its lines joined by spaces)
    std::string error;    // why pdfinfo, pdftotext or pdfimages failed
    // each picture's encoding as pdfimages -list names it ("image": lossless, Flate; "jpeg": DCT)
    std::vector<std::string> imageEncodings;
};

inline PdfContent readPdf(const std::string& path) {
    PdfContent out;
    out.header = testutil::slurp(path).rfind("%PDF-", 0) == 0;
    testutil::RunResult info = testutil::runCommand("pdfinfo", {path});
    if (info.exitCode != 0) out.error = "pdfinfo (poppler-utils, scripts/setup-deps.sh) failed: " + info.err;
    const size_t at = info.out.find("Pages:");
    if (at != std::string::npos) out.pages = std::atoi(info.out.c_str() + at + 6);
    testutil::RunResult text = testutil::runCommand("pdftotext", {"-enc", "UTF-8", path, "-"});
    if (text.exitCode != 0) out.error += "pdftotext (poppler-utils, scripts/setup-deps.sh) failed: " + text.err;
    for (char c : text.out) out.text += c == '\n' ? ' ' : c;
    testutil::RunResult images = testutil::runCommand("pdfimages", {"-list", path});
    if (images.exitCode != 0) out.error += "pdfimages (poppler-utils, scripts/setup-deps.sh) failed: " + images.err;
    // page num type width height color comp bpc enc ...: the 9th column, after two header lines
    std::istringstream lines(images.out);
    std::string line;
    for (int i = 0; std::getline(lines, line); ++i) {
        if (i < 2) continue;
        std::istringstream cols(line);
        std::string c;
        for (int k = 0; k < 9 && cols >> c; ++k) {}
        if (!c.empty()) out.imageEncodings.push_back(c);
    }
    return out;
}

}  // namespace guitest
