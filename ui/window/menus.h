#pragma once
// The window's menus and their keys (File, Navigate, Analysis, Help), the File menu's dialogs that
// pick exports, and Help > Keyboard Shortcuts: every key of the window and the views in one table,
// grouped by where the keys act.

#include <QString>
#include <QStringList>

#include <utility>

class QAction;
class QDialog;
class QMainWindow;
class QMenu;
class QWidget;

namespace skewui {

class ExportActions;

// The actions the window connects (the exports, Quit and Help are connected here).
struct WindowMenus {
    QAction* open;
    QAction* openFolder;  // a folder of summaries (or of exports)
    QAction* compare;
    QAction* reload;
    QMenu* recent;  // File > Open Recent, empty, for RecentFiles to fill
    QAction* next;
    QAction* previous;
    QAction* nextBig;
    QAction* previousBig;
    QAction* zoomIn;
    QAction* zoomOut;
    QAction* fit;
    QAction* lateArriver;
    QAction* settings;
};
WindowMenus buildMenus(QMainWindow* w, ExportActions* exports);

QStringList chooseExports(QWidget* parent);  // File > Open: empty when cancelled
QString chooseFolder(QWidget* parent);       // File > Open Folder: empty when cancelled
// File > Compare: the A (before) exports, then the B (after) ones; empty when either is cancelled
std::pair<QStringList, QStringList> chooseComparison(QWidget* parent);

QString shortcutsHtml();  // the keys as an HTML table
// the Help > Keyboard Shortcuts dialog: the table in a browser named "shortcuts", sized to the
// table's natural width within the screen
QDialog* shortcutsDialog(QWidget* parent);

}  // namespace skewui
