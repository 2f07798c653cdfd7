#include "window/recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace skewui {

namespace {
const int kMaxRecent = 10;

// One line per file, absolute; a comparison is A's files, a line "--vs", then B's files.
QString entryOf(const QStringList& lines) {
    QStringList abs;
    for (const auto& f : lines) abs << (f == "--vs" ? f : QFileInfo(f).absoluteFilePath());
    return abs.join('\n');
}

QStringList comparisonLines(const QStringList& filesA, const QStringList& filesB) { return filesA + QStringList{"--vs"} + filesB; }
}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { updateMenu(); }

void RecentFiles::add(const QStringList& files) { addEntry(files); }
void RecentFiles::addComparison(const QStringList& filesA, const QStringList& filesB) { addEntry(comparisonLines(filesA, filesB)); }
void RecentFiles::remove(const QStringList& files) { removeEntry(files); }
void RecentFiles::removeComparison(const QStringList& filesA, const QStringList& filesB) { removeEntry(comparisonLines(filesA, filesB)); }

void RecentFiles::addEntry(const QStringList& lines) {
    QString entry = entryOf(lines);
    QSettings st;
    QStringList recent = st.value("recent").toStringList();
    // already the first (a reload): nothing to write (the settings file is written and synced to
    // disk on the UI thread)
    if (!recent.isEmpty() && recent.front() == entry) return;
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) recent.removeLast();
    st.setValue("recent", recent);
    updateMenu();
}

void RecentFiles::removeEntry(const QStringList& lines) {
    QSettings st;
    QStringList recent = st.value("recent").toStringList();
    if (recent.removeAll(entryOf(lines)) == 0) return;
    st.setValue("recent", recent);
    updateMenu();
}

void RecentFiles::updateMenu() {
    menu_->clear();
    QStringList recent = QSettings().value("recent").toStringList();
    auto name = [](const QStringList& files) {
        return QFileInfo(files.front()).fileName() + (files.size() > 1 ? tr(" (+%1 more)").arg(files.size() - 1) : QString());
    };
    for (const QString& entry : recent) {
        QStringList files = entry.split('\n');
        const qsizetype vs = files.indexOf("--vs");
        if (vs > 0 && vs + 1 < files.size()) {
            const QStringList a = files.mid(0, vs), b = files.mid(vs + 1);
            menu_->addAction(tr("%1 vs %2").arg(name(a), name(b)), this, [this, a, b] { emit compareRequested(a, b); })
                ->setToolTip(tr("compare %1 with %2").arg(a.join(", "), b.join(", ")));
        } else if (vs < 0) {
            menu_->addAction(name(files), this, [this, files] { emit openRequested(files); })->setToolTip(files.join(", "));
        }
    }
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace skewui
