#pragma once
// File > Export: the view shown (the collective view without its highlight, a run view, or the
// compare view) as PNG, SVG or PDF; the whole window as PNG; the findings report (or the comparison's)
// as Markdown, CSV, JSON or text. Their file dialogs start in the last export folder with a name
// from the exports and the collective shown; no export ever replaces one of the open exports.

#include <QObject>
#include <QString>

namespace skewui {

class MainWindow;

class ExportActions : public QObject {
    Q_OBJECT
public:
    explicit ExportActions(MainWindow* window);

    bool exportView(const QString& path, int w, int h, QString* error);
    bool exportWindow(const QString& path, QString* error);
    bool exportReport(const QString& path, QString* error);
    // True (with the message) when `path` is one of the open exports: no export may replace it.
    bool isOpenInput(const QString& path, QString* error) const;
    static QString startPath(const QString& fileName);  // `fileName` in the last export folder

    // the menu's actions: a file dialog, then the export (a failure is said in a message box)
    void chooseAndExportView();
    void chooseAndExportWindow();
    void chooseAndExportReport();

signals:
    void saved(const QString& path);  // by one of the menu's actions

private:
    bool exportCollectiveView(const QString& path, int w, int h, QString* error);
    bool exportComparisonReport(const QString& path, QString* error);
    QString defaultName(const QString& suffix) const;         // "demo_G0_C102.png"
    QString comparisonName(const QString& suffix) const;      // "before_vs_after_compare.png"
    void finished(bool ok, const QString& path, const QString& error);  // message box or saved()

    MainWindow* w_;
};

}  // namespace skewui
