#pragma once
// The main window, wiring: it builds the rooms of ui/window/ (collectives pane, views' tabs, bottom
// tabs, compare view, load controller, exports, settings, recent files, menus, pane proportions, the
// selection they all follow), connects them, and holds what is open: the capture or the comparison,
// and the analysis settings it was analysed with. The accessors below reach the rooms' widgets.

#include <QMainWindow>

#include "session.h"

class QCustomPlot;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace skewui {

class CollectiveFilter;
class CollectivesPane;
class CollectiveView;
class CompareView;
class DetailsTabs;
class ExportActions;
class HeatmapView;
class LoadController;
struct LoadRequest;
class PaneProportions;
class RecentFiles;
class RunViewTabs;
class Selection;
class SkewCdfChart;
class StepMapView;
class TimelineView;
class ViewNavigation;
class WarningBar;
struct WindowMenus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // opening: one capture, or capture A (before) compared with capture B (after), each one or more
    // files, loaded and analysed in the background; opening files leaves compare mode
    void openFiles(const QStringList& files);
    void openComparison(const QStringList& filesA, const QStringList& filesB);
    void reload();  // what is shown, keeping the selected collective (or pair) and the filters
    void cancelLoading();
    bool isLoading() const;
    // analysis settings (big threshold, anomaly threshold, step pattern, window); reloads the files
    void setAnalysisOptions(const skew::AnalysisOptions& o);
    const skew::AnalysisOptions& analysisOptions() const { return options_; }
    void editSettings();  // Analysis > Settings
    SessionPtr session() const { return session_; }
    // the capture shown has no what-if yet: it is computed after the first picture (whatIfLoaded)
    bool whatIfPending() const;
    bool viewIndexesPending() const;  // the run views of the capture shown wait for their indexes (viewIndexesLoaded)
    CompareSessionPtr comparison() const { return compare_; }
    bool inCompareMode() const;

    // selection shared by the table, the views and the panels (source row = collective index); the
    // filters that hide the collective are cleared, so the table always lists the one shown
    void selectCollective(int collective);
    bool selectCollective(int group, uint32_t index);
    int currentCollective() const;
    // next/previous (big late arriver, with bigOnly) in the table's order; comparing: in the pair's group
    void stepCollective(int delta, bool bigOnly);
    void showLateArriverDetails();     // Navigate > Show Late Arriver Details
    void zoomShownView(double factor);  // on the view tab shown (compare mode: both collective views)
    void fitShownView();

    // the filter widgets, as a user sets them (cause: identifier, empty for any)
    void setFilters(const QString& op, int group, const QString& cause, double minSkewMs, bool bigOnly);
    void clearFilters();
    QString filterStatusText() const;  // "N of M collectives shown"
    bool showsFilterEmptyState() const;
    QString statusText() const;
    bool showsEmptyState() const;
    QString emptyStateText() const;
    int ranksGroup() const;  // the group the Ranks tab shows

    // exports: the view tab shown, the window, the findings report (compare mode: the comparison's)
    bool exportView(const QString& path, int w = 1600, int h = 900, QString* error = nullptr);
    bool exportWindow(const QString& path, QString* error = nullptr);
    bool exportReport(const QString& path, QString* error = nullptr);
    bool isOpenInput(const QString& path, QString* error = nullptr) const;
    QString exportStartPath(const QString& fileName) const;  // in the last export folder

    // the rooms and their widgets
    CollectivesPane* collectivesPane() const { return pane_; }
    RunViewTabs* runViewTabs() const { return views_; }
    DetailsTabs* detailsTabs() const { return details_; }
    LoadController* loads() const { return loads_; }
    ExportActions* exports() const { return exports_; }
    RecentFiles* recentFiles() const { return recent_; }
    ViewNavigation* navigation() const { return navigation_; }
    Selection* selection() const { return selection_; }
    QTableView* table() const;
    CollectiveFilter* filter() const;
    CollectiveView* view() const;
    TimelineView* timeline() const;
    StepMapView* stepMap() const;
    HeatmapView* heatmap() const;
    QTabWidget* viewTabs() const;
    QTabWidget* tabs() const;
    QTextBrowser* findings() const;
    QPlainTextEdit* details() const;
    QTableView* ranksTable() const;
    QCustomPlot* ranksChart() const;
    SkewCdfChart* skewCdf() const;
    CompareView* compareView() const { return compareView_; }
    QSplitter* mainSplitter() const { return mainSplitter_; }
    QSplitter* rightSplitter() const { return rightSplitter_; }
    QWidget* warningBar() const;
    QMenu* recentMenu() const;

signals:
    void sessionLoaded();  // the capture's pictures and answers are shown (its what-if may still be pending)
    void viewIndexesLoaded();  // the run views of the capture shown have their indexes (built after the first picture)
    void whatIfLoaded();   // the what-if of the capture shown is in: the What-if view, answers and warnings show it
    void comparisonLoaded();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    void connectRooms();
    void connectMenus(const WindowMenus& m);
    void setSession(SessionPtr s);
    void swapSession(const SessionPtr& s);  // the capture shown, the views and panes on it (setSession)
    void setComparison(CompareSessionPtr c);
    void loadStopped(const LoadRequest& r, const QString& error, bool cancelled);
    void setStatus(const QString& text);

    skew::AnalysisOptions options_;
    SessionPtr session_;
    CompareSessionPtr compare_;

    CollectivesPane* pane_ = nullptr;
    RunViewTabs* views_ = nullptr;
    DetailsTabs* details_ = nullptr;
    CompareView* compareView_ = nullptr;
    LoadController* loads_ = nullptr;
    ExportActions* exports_ = nullptr;
    RecentFiles* recent_ = nullptr;
    ViewNavigation* navigation_ = nullptr;
    PaneProportions* proportions_ = nullptr;
    Selection* selection_ = nullptr;
    WarningBar* warningBar_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // the empty state, the panes, the compare view
    QSplitter* mainSplitter_ = nullptr;
    QSplitter* rightSplitter_ = nullptr;
};

}  // namespace skewui
