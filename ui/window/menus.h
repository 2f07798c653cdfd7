#pragma once
// The window's menus and their keys (File, Navigate, Analysis, Help), and Help > Keyboard Shortcuts:
// every key of the window and the views in one table, grouped by where the keys act.

#include <QString>

class QDialog;
class QMenu;
class QWidget;

namespace skewui {

class MainWindow;

// Builds `w`'s menu bar; returns File > Open Recent, empty, for RecentFiles to fill.
QMenu* buildMenus(MainWindow& w);

QString shortcutsHtml();  // the keys as an HTML table
// the Help > Keyboard Shortcuts dialog: the table in a browser named "shortcuts", sized to the
// table's natural width within the screen
QDialog* shortcutsDialog(QWidget* parent);

}  // namespace skewui
