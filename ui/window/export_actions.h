#pragma once
// File > Export: the view shown (the collective view without its highlight, a run view, or the
// compare view) as PNG, SVG or PDF; the whole window as PNG; the findings report (or the comparison's)
// as Markdown, CSV, JSON or text. Their file dialogs start in the last export folder with a name
// from the exports and the collective shown; no export ever replaces one of the open exports.

#include <QObject>
#include <QString>

#include <functional>

#include "session.h"

namespace skewui {

class CompareView;
class RunViewTabs;

class ExportActions : public QObject {
    Q_OBJECT
public:
    // what the window shows, asked at each export
    struct Shown {
        SessionPtr session;
        CompareSessionPtr comparison;
        bool comparing = false;  // the compare view is shown
        int collective = -1;     // the selected collective of `session`
    };
    // exports `window` (its picture; the dialogs' parent), the view tab shown in `views` or `compareView`
    ExportActions(QWidget* window, RunViewTabs* views, CompareView* compareView, std::function<Shown()> shown);

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
    // File > Export View's dialog: its title and file name for the tab shown ("Export view: Heatmap",
    // "demo_heatmap.png"; the collective view: "demo_G0_C102.png"); empty title: nothing to export,
    // and `why` says so
    QString viewDialogTitle(QString* why = nullptr) const;
    QString viewFileName(const QString& suffix) const;

signals:
    void saved(const QString& path);  // by one of the menu's actions

private:
    bool exportCollectiveView(const Shown& shown, const QString& path, int w, int h, QString* error);
    static bool exportComparisonReport(const skew::CompareSession& c, const QString& path, QString* error);
    static QString defaultName(const Shown& shown, const QString& suffix);     // "demo_G0_C102.png"
    static QString comparisonName(const Shown& shown, const QString& suffix);  // "before_vs_after_compare.png"
    void finished(bool ok, const QString& path, const QString& error);  // message box or saved()

    QWidget* window_;
    RunViewTabs* views_;
    CompareView* compareView_;
    std::function<Shown()> shown_;
};

}  // namespace skewui
