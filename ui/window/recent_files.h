#pragma once
// File > Open Recent: the last ten captures and comparisons that opened (QSettings "recent", one
// entry per line: each file absolute, a comparison as A's files, a line "--vs", then B's files).
// One that no longer opens leaves the menu.

#include <QObject>
#include <QStringList>

class QMenu;

namespace skewui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent);  // fills `menu`

    void add(const QStringList& files);  // first in the menu
    void addComparison(const QStringList& filesA, const QStringList& filesB);
    void remove(const QStringList& files);
    void removeComparison(const QStringList& filesA, const QStringList& filesB);
    QMenu* menu() const { return menu_; }

signals:
    void openRequested(const QStringList& files);
    void compareRequested(const QStringList& filesA, const QStringList& filesB);

private:
    void addEntry(const QStringList& lines);
    void removeEntry(const QStringList& lines);
    void updateMenu();

    QMenu* menu_;
};

}  // namespace skewui
