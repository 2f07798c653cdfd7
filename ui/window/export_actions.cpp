#include "window/export_actions.h"

#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include "cli/command_line.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_view.h"
#include "report/analysis_report.h"
#include "report/compare_report.h"
#include "util/atomic_file.h"
#include "window/run_view_tabs.h"

using namespace skew;

namespace skewui {

namespace {
void rememberFolder(const QString& path) { QSettings().setValue("export/folder", QFileInfo(path).absolutePath()); }

bool write(const QString& path, std::string_view bytes, QString* error) {
    try {
        writeOutput(path.toStdString(), bytes);
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}
}  // namespace

ExportActions::ExportActions(QWidget* window, RunViewTabs* views, CompareView* compareView, std::function<Shown()> shown)
    : QObject(window), window_(window), views_(views), compareView_(compareView), shown_(std::move(shown)) {}

QString ExportActions::startPath(const QString& fileName) {
    QString dir = QSettings().value("export/folder").toString();
    return dir.isEmpty() || !QFileInfo(dir).isDir() ? fileName : QDir(dir).filePath(fileName);
}

// An export never replaces one of the open exports (same file by device and inode, whatever the
// spelling or link): the command line refuses --output the same way.
bool ExportActions::isOpenInput(const QString& path, QString* error) const {
    const Shown shown = shown_();
    const CompareSessionPtr& c = shown.comparison;
    std::vector<std::string> open;
    for (const SessionPtr& s : {shown.session, c ? c->a : SessionPtr(), c ? c->b : SessionPtr()})
        if (s) open.insert(open.end(), s->files.begin(), s->files.end());
    for (const auto& f : open)
        if (sameFile(path.toStdString(), f)) {
            if (error) *error = tr("%1 is the open export %2; refusing to overwrite an export").arg(path, QString::fromStdString(f));
            return true;
        }
    return false;
}

bool ExportActions::exportView(const QString& path, int w, int h, QString* error) {
    if (isOpenInput(path, error)) return false;
    const Shown shown = shown_();
    if (shown.comparing) {
        bool ok = compareView_->exportTo(path, w, h, error);
        if (ok) rememberFolder(path);
        return ok;
    }
    if (!views_->showsCollective()) {
        if (!shown.session) {
            if (error) *error = tr("no exports are open");
            return false;
        }
        return views_->exportShownRunView(path, w, h, error);
    }
    return exportCollectiveView(shown, path, w, h, error);
}

bool ExportActions::exportCollectiveView(const Shown& shown, const QString& path, int w, int h, QString* error) {
    if (!shown.session || shown.collective < 0) {
        if (error) *error = tr("no collective is shown: open exports and select a collective first");
        return false;
    }
    // the picture of the collective, without the outline of the bar whose details are open
    CollectiveView* view = views_->collective();
    std::vector<int> hl = view->highlightedBars();
    const Bar* b = hl.empty() ? nullptr : &view->scene().bars[size_t(hl.front())];
    int rank = b ? b->rank : -1, lane = b ? b->lane : -1;
    quint32 kernel = b ? b->kernel : 0;
    if (b) view->clearHighlight();
    bool ok = view->exportTo(path, w, h, error);
    if (rank >= 0) view->setHighlight(rank, lane, kernel);
    if (ok) rememberFolder(path);
    return ok;
}

bool ExportActions::exportWindow(const QString& path, QString* error) {
    if (isOpenInput(path, error)) return false;
    QPixmap pm = window_->grab();
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    if (!pm.save(&buf, "PNG")) {
        if (error) *error = tr("cannot encode the window as PNG");
        return false;
    }
    if (!write(path, std::string_view(bytes.constData(), size_t(bytes.size())), error)) return false;
    rememberFolder(path);
    return true;
}

bool ExportActions::exportReport(const QString& path, QString* error) {
    if (isOpenInput(path, error)) return false;
    const Shown shown = shown_();
    if (shown.comparing) {
        bool ok = exportComparisonReport(*shown.comparison, path, error);
        if (ok) rememberFolder(path);
        return ok;
    }
    const SessionPtr& s = shown.session;
    if (!s) {
        if (error) *error = tr("no exports are open");
        return false;
    }
    if (s->analysis.whatIf.pending) {  // computed after the first picture: a report without it would be wrong
        if (error) *error = tr("the what-if is still being computed; save the report once the What-if tab shows it");
        return false;
    }
    std::string out;
    QString l = path.toLower();
    if (l.endsWith(".csv")) out = analysisCsv(s->profile, s->analysis);
    else if (l.endsWith(".json")) out = analysisJson(s->profile, s->analysis);
    else if (l.endsWith(".txt")) out = analysisText(s->profile, s->analysis);
    else out = analysisMarkdown(s->profile, s->analysis);
    if (!write(path, out, error)) return false;
    rememberFolder(path);
    return true;
}

bool ExportActions::exportComparisonReport(const CompareSession& c, const QString& path, QString* error) {
    const Side a = c.sideA(), b = c.sideB();
    const QString l = path.toLower();
    std::string out = l.endsWith(".json")  ? compareJson(a, b, c.comparison)
                      : l.endsWith(".txt") ? compareText(a, b, c.comparison)
                                           : compareMarkdown(a, b, c.comparison);
    return write(path, out, error);
}

QString ExportActions::defaultName(const Shown& shown, const QString& suffix) {
    const SessionPtr& s = shown.session;
    QString stem = s ? QFileInfo(QString::fromStdString(s->files.front())).completeBaseName() : "skewscope";
    if (s && shown.collective >= 0) {
        const Collective& c = s->analysis.collectives[size_t(shown.collective)];
        return QString("%1_G%2_C%3.%4").arg(stem).arg(c.group).arg(c.index).arg(suffix);
    }
    return stem + "." + suffix;
}

QString ExportActions::comparisonName(const Shown& shown, const QString& suffix) {
    const CompareSessionPtr& c = shown.comparison;
    if (!c) return "compare." + suffix;
    return QString("%1_vs_%2_compare.%3")
        .arg(QFileInfo(QString::fromStdString(c->a->files.front())).completeBaseName(),
             QFileInfo(QString::fromStdString(c->b->files.front())).completeBaseName(), suffix);
}

void ExportActions::finished(bool ok, const QString& path, const QString& error) {
    if (!ok) QMessageBox::warning(window_, tr("Export failed"), error);
    else emit saved(path);
}

QString ExportActions::viewDialogTitle(QString* why) const {
    const Shown shown = shown_();
    if (shown.comparing) return tr("Export compare view");
    if (!shown.session) {
        if (why) *why = tr("Nothing to export yet: open exports first (File > Open, Ctrl+O).");
        return {};
    }
    if (views_->showsCollective() && shown.collective < 0) {
        if (why) *why = tr("No collective is shown: select one in the table first.");
        return {};
    }
    return tr("Export view: %1").arg(views_->tabText(views_->currentIndex()));
}

QString ExportActions::viewFileName(const QString& suffix) const {
    const Shown shown = shown_();
    if (shown.comparing) return comparisonName(shown, suffix);
    if (views_->showsCollective() || !shown.session) return defaultName(shown, suffix);
    const QString stem = QFileInfo(QString::fromStdString(shown.session->files.front())).completeBaseName();
    return QString("%1_%2.%3").arg(stem, views_->shownViewName(), suffix);
}

void ExportActions::chooseAndExportView() {
    QString why;
    const QString title = viewDialogTitle(&why);
    if (title.isEmpty()) {
        QMessageBox::information(window_, tr("Export view"), why);
        return;
    }
    QString path = QFileDialog::getSaveFileName(window_, title, startPath(viewFileName("png")),
                                                tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    QString err;
    QWidget* view = shown_().comparing ? static_cast<QWidget*>(compareView_) : views_->collective();
    bool ok = exportView(path, std::max(view->width(), 1600), std::max(view->height(), 900), &err);
    finished(ok, path, err);
}

void ExportActions::chooseAndExportWindow() {
    const Shown shown = shown_();
    if (!shown.comparing && !shown.session) {
        QMessageBox::information(window_, tr("Export window"), tr("Nothing to export yet: open exports first (File > Open, Ctrl+O)."));
        return;
    }
    QString path = QFileDialog::getSaveFileName(window_, tr("Export window"), startPath(defaultName(shown_(), "png").replace(".png", "_window.png")),
                                                tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    QString err;
    bool ok = exportWindow(path, &err);
    finished(ok, path, err);
}

void ExportActions::chooseAndExportReport() {
    const Shown shown = shown_();
    const bool comparing = shown.comparing;
    const SessionPtr& s = shown.session;
    if (!comparing && !s) {
        QMessageBox::information(window_, tr("Export report"), tr("Nothing to export yet: open exports first (File > Open, Ctrl+O)."));
        return;
    }
    QString stem = QFileInfo(QString::fromStdString(s ? s->files.front() : std::string())).completeBaseName();
    QString path = comparing ? QFileDialog::getSaveFileName(window_, tr("Export comparison report"), startPath(comparisonName(shown, "md")),
                                                            tr("Markdown (*.md);;JSON (*.json);;Text (*.txt)"))
                             : QFileDialog::getSaveFileName(window_, tr("Export report"), startPath(stem + "_report.md"),
                                                            tr("Markdown (*.md);;CSV (*.csv);;JSON (*.json);;Text (*.txt)"));
    if (path.isEmpty()) return;
    QString err;
    bool ok = exportReport(path, &err);
    finished(ok, path, err);
}

}  // namespace skewui
