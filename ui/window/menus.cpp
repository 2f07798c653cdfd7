#include "window/menus.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>
#include <memory>

#include "window/export_actions.h"

namespace skewui {

namespace {
const char* const kExports = "Nsight Systems exports and summaries (*.sqlite *.nsys-rep *.skewsum);;All files (*)";
QString tr(const char* s) { return QObject::tr(s); }
}  // namespace

QStringList chooseExports(QWidget* parent) {
    return QFileDialog::getOpenFileNames(parent, tr("Open Nsight Systems exports"), QString(), tr(kExports));
}

QString chooseFolder(QWidget* parent) {
    return QFileDialog::getExistingDirectory(parent, tr("Open a folder of summaries (*.skewsum)"));
}

std::pair<QStringList, QStringList> chooseComparison(QWidget* parent) {
    QStringList a = QFileDialog::getOpenFileNames(parent, tr("Compare: the A (before) capture's exports"), QString(), tr(kExports));
    if (a.isEmpty()) return {};
    QStringList b = QFileDialog::getOpenFileNames(parent, tr("Compare: the B (after) capture's exports"), QFileInfo(a.front()).absolutePath(),
                                                  tr(kExports));
    if (b.isEmpty()) return {};
    return {a, b};
}

WindowMenus buildMenus(QMainWindow* w, ExportActions* exports) {
    WindowMenus m;
    auto add = [](QMenu* menu, const QString& text, const QKeySequence& key) {
        QAction* a = menu->addAction(text);
        a->setShortcut(key);
        return a;
    };
    QMenu* file = w->menuBar()->addMenu(tr("&File"));
    m.open = add(file, tr("&Open..."), QKeySequence::Open);
    m.openFolder = add(file, tr("Open &Folder..."), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    m.openFolder->setToolTip(tr("Open every summary (*.skewsum) in a folder: a job summarised rank by rank (skewscope summarize)"));
    m.recent = file->addMenu(tr("Open &Recent"));
    m.compare = add(file, tr("&Compare..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m.compare->setToolTip(tr("Compare two captures: pick the A (before) exports, then the B (after) exports"));
    m.reload = add(file, tr("Re&load"), QKeySequence::Refresh);
    file->addSeparator();
    QAction* ev = file->addAction(tr("&Export View (PNG, SVG, PDF)..."), exports, &ExportActions::chooseAndExportView);
    ev->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* ew = file->addAction(tr("Export &Window as PNG..."), exports, &ExportActions::chooseAndExportWindow);
    ew->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* er = file->addAction(tr("Export &Report (Markdown, CSV, JSON)..."), exports, &ExportActions::chooseAndExportReport);
    er->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    file->addSeparator();
    file->addAction(tr("&Quit"), w, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu* nav = w->menuBar()->addMenu(tr("&Navigate"));
    // in compare mode they act on the compare view (the collective of the side selected from)
    m.next = add(nav, tr("&Next Collective"), QKeySequence(Qt::Key_N));
    m.previous = add(nav, tr("&Previous Collective"), QKeySequence(Qt::Key_P));
    m.nextBig = add(nav, tr("Next &Big Late Arriver"), QKeySequence(Qt::Key_B));
    m.previousBig = add(nav, tr("Previous Bi&g Late Arriver"), QKeySequence(Qt::SHIFT | Qt::Key_B));
    nav->addSeparator();
    // both key sets work (the plain keys also in the view itself): the menu shows both. They act on
    // the view tab shown: the single keys are window shortcuts, so a run view never sees them itself
    auto twoKeys = [&](const QString& text, QList<QKeySequence> keys) {
        QStringList shown;
        for (const auto& k : keys) shown << k.toString(QKeySequence::NativeText);
        QAction* a = nav->addAction(text + "\t" + shown.mid(0, 2).join(", "));
        a->setShortcuts(keys);
        return a;
    };
    m.zoomIn = twoKeys(tr("Zoom &In"), {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal),
                                       QKeySequence(Qt::Key_Equal)});
    m.zoomOut = twoKeys(tr("Zoom &Out"), {QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence(Qt::Key_Minus)});
    m.fit = twoKeys(tr("&Fit View"), {QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::Key_0), QKeySequence(Qt::Key_Home)});
    m.fit->setToolTip(tr("The collective, the whole run (timeline), every step (step map) or every collective (heatmap)"));
    m.lateArriver = add(nav, tr("Show &Late Arriver Details"), QKeySequence(Qt::Key_L));

    QMenu* analysis = w->menuBar()->addMenu(tr("&Analysis"));
    m.settings = add(analysis, tr("&Settings..."), QKeySequence(Qt::CTRL | Qt::Key_Comma));

    QMenu* help = w->menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), w, [w] {
        std::unique_ptr<QDialog> d(shortcutsDialog(w));
        d->exec();
    });
    help->addAction(tr("&About Skewscope"), w, [w] {
        QMessageBox::about(w, tr("About Skewscope"), tr("Skewscope %1\nWho arrived late to each NCCL collective, and why.").arg(SKEWSCOPE_VERSION));
    });
    return m;
}

QString shortcutsHtml() {
    // grouped by where the keys act, so the key column holds only keys and each description fits
    // on one line beside it
    struct Row {
        const char* keys;
        const char* what;  // nullptr: a section heading
    };
    const Row rows[] = {
        {"In the window", nullptr},
        {"Ctrl+O", "open exports"},
        {"Ctrl+Alt+O", "open a folder of summaries (skewscope summarize)"},
        {"Ctrl+Shift+O", "compare two captures (A before, B after)"},
        {"F5", "reload, keeping the selection, the filters and the zoom"},
        {"Ctrl+,", "analysis settings"},
        {"N / P, B / Shift+B", "next / previous collective, big late arriver in the table"},
        {"L", "details of the late arriver"},
        {"Ctrl+1 .. Ctrl+5", "the Collective, Timeline, Step map, Heatmap, What-if tab"},
        {"+ / -  (Ctrl++ / Ctrl+-)", "zoom the view shown in / out"},
        {"0, Home  (Ctrl+0)", "fit the view shown: the collective, the whole run, every step"},
        {"Ctrl+F, Enter / F3", "find a kernel, correlation id, #12, 3:12, NVTX; Shift: back"},
        {"Ctrl+T, Alt+Left", "show in the timeline (Details' kernel or the collective), back"},
        {"Ctrl+C", "copy the selected table rows (tab-separated)"},
        {"Ctrl+E, Ctrl+Shift+E / R", "export the view shown, the window (PNG), the report"},
        {"Comparing two captures", nullptr},
        {"N / P, B / Shift+B", "step through the pair's group on the side selected"},
        {"Collective view, Step map, Heatmap, What-if", nullptr},
        {"W / S, wheel", "zoom in / out (the wheel at the cursor)"},
        {"A / D, Left / Right, drag", "pan"},
        {"Timeline", nullptr},
        {"Ctrl+wheel, W / S", "zoom in / out at the cursor"},
        {"wheel, Up / Down", "scroll the rows (Settings: the wheel zooms instead)"},
        {"drag, A / D, Shift+wheel", "pan (drag also scrolls the rows)"},
        {"drag on the ruler", "zoom to that range (marked with its length)"},
        {"Shift+drag, Z, Esc", "measure a range, zoom to it, clear it"},
        {"F, I", "fit the selected collective; show the ideal schedule (what-if)"},
    };
    QString html = "<table cellspacing=\"0\" cellpadding=\"3\">";
    for (const Row& r : rows) {
        if (!r.what) {
            html += QString("<tr><td colspan=\"2\" style=\"padding-top: 8px; color: #10305f;\"><b>%1</b></td></tr>")
                        .arg(QObject::tr(r.keys).toHtmlEscaped());
            continue;
        }
        html += QString("<tr><td style=\"padding-right: 18px; white-space: nowrap;\"><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString(r.keys).toHtmlEscaped(), QObject::tr(r.what).toHtmlEscaped());
    }
    return html + "</table>";
}

QDialog* shortcutsDialog(QWidget* parent) {
    auto* d = new QDialog(parent);
    d->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    auto* layout = new QVBoxLayout(d);
    auto* text = new QTextBrowser;
    text->setObjectName("shortcuts");
    text->setFrameShape(QFrame::NoFrame);
    text->setHtml(shortcutsHtml());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
    layout->addWidget(text);
    layout->addWidget(buttons);
    // as wide and high as the table at its natural width (nothing wraps), within the screen
    QTextDocument* doc = text->document();
    doc->setTextWidth(-1);
    const QSize natural(int(std::ceil(doc->idealWidth())) + 2 * text->frameWidth(), int(std::ceil(doc->size().height())) + 2 * text->frameWidth());
    const QMargins m = layout->contentsMargins();
    QSize want(natural.width() + m.left() + m.right() + text->verticalScrollBar()->sizeHint().width(),
               natural.height() + m.top() + m.bottom() + layout->spacing() + buttons->sizeHint().height());
    QScreen* screen = parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen();
    if (screen) want = want.boundedTo(screen->availableGeometry().size() * 0.9);
    d->resize(want);
    return d;
}

}  // namespace skewui
