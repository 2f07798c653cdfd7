#pragma once
// The main window: collectives table, collective view, details / ranks / findings panels,
// background loading with progress and cancel, exports; and compare mode (ui/compare_mode.cpp):
// two captures loaded side by side into the compare view, which replaces the panels.

#include <QFontMetrics>
#include <QFutureWatcher>
#include <QMainWindow>

#include <atomic>
#include <memory>

#include "session.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTextBrowser;
class QPlainTextEdit;
class QComboBox;
class QDialog;
class QDoubleSpinBox;
class QCheckBox;
class QTabWidget;
class QMenu;
class QCustomPlot;
class QTimer;
class QStackedWidget;
class QSplitter;
class QUrl;

namespace skew {
class ProfileCache;
}

namespace skewui {

class RankLabelDelegate;

class CollectiveView;
class CollectiveModel;
class CollectiveFilter;
class RanksModel;
class TimelineView;
class StepMapView;
class HeatmapView;
class SkewCdfChart;
class CompareView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFiles(const QStringList& files);
    void cancelLoading() { cancel_ = true; }
    // analysis settings (big threshold, anomaly threshold, step pattern, window); reloads the files
    void setAnalysisOptions(const skew::AnalysisOptions& o);
    const skew::AnalysisOptions& analysisOptions() const { return options_; }
    bool isLoading() const { return loading_; }
    int snapshotJobCount() const { return int(snapshotJobs_.size()); }  // snapshots being stored
    SessionPtr session() const { return session_; }

    // selection shared by the table, the view and the panels (source row = collective index); the
    // filters that hide the collective are cleared, so the table always lists the one shown
    void selectCollective(int collective);
    int currentCollective() const { return current_; }
    bool selectCollective(int group, uint32_t index);  // clears the filters when they hide it
    void stepCollective(int delta);      // next/previous in the table's order
    void stepBigCollective(int delta);   // next/previous big late arriver in the table's order
    void openLink(const QUrl& url);      // skewscope://collective/G/K (the findings page's links)

    CollectiveView* view() const { return view_; }
    QTableView* table() const { return table_; }
    QTableView* ranksTable() const { return ranksTable_; }
    static int rankColumnCap(const QFontMetrics& fm);  // the widest a table column of rank labels gets
    QPlainTextEdit* details() const { return details_; }
    CollectiveFilter* filter() const { return filter_; }
    QTabWidget* tabs() const { return tabs_; }
    QTextBrowser* findings() const { return findings_; }
    QCustomPlot* ranksChart() const { return ranksChart_; }
    QSplitter* mainSplitter() const { return mainSplitter_; }
    QSplitter* rightSplitter() const { return rightSplitter_; }
    QWidget* warningBar() const { return warningBar_; }
    QMenu* recentMenu() const { return recentMenu_; }
    QString statusText() const;
    QString filterStatusText() const;  // "N of M collectives shown"
    bool showsEmptyState() const;
    QString emptyStateText() const;
    bool showsFilterEmptyState() const;
    int ranksGroup() const { return ranksGroup_; }  // the group the Ranks tab shows

    // the filter widgets, as a user sets them (cause: identifier, empty for any)
    void setFilters(const QString& op, int group, const QString& cause, double minSkewMs, bool bigOnly);
    void clearFilters();
    QString selectedRowsTsv() const;  // the selected table rows as tab-separated text with a header
    void copySelectedRows() const;    // Ctrl+C in the table
    QString exportStartPath(const QString& fileName) const;  // in the last export folder
    static QString shortcutsHtml();   // Help > Keyboard Shortcuts, as a table
    // the Help > Keyboard Shortcuts dialog: the table in a browser named "shortcuts", sized to the
    // table's natural width within the screen
    static QDialog* shortcutsDialog(QWidget* parent);

    // the run views (ui/run_views.cpp): tabs beside the collective view, skew CDFs on the Ranks tab
    TimelineView* timeline() const { return timeline_; }
    StepMapView* stepMap() const { return stepMap_; }
    HeatmapView* heatmap() const { return heatmap_; }
    SkewCdfChart* skewCdf() const { return skewCdf_; }
    QTabWidget* viewTabs() const { return viewTabs_; }

    // exports the view tab that is shown (the collective view, the timeline, the step map or the heatmap)
    bool exportView(const QString& path, int w = 1600, int h = 900, QString* error = nullptr);
    bool exportWindow(const QString& path, QString* error = nullptr);
    bool exportReport(const QString& path, QString* error = nullptr);
    // True (with the message) when `path` is one of the open exports: no export may replace it.
    bool isOpenInput(const QString& path, QString* error = nullptr) const;

    // compare mode (ui/compare_mode.cpp): A (before) and B (after), each one or more files, loaded
    // and analysed in the background; opening files (openFiles) leaves it
    void openComparison(const QStringList& filesA, const QStringList& filesB);
    CompareSessionPtr comparison() const { return compare_; }
    bool inCompareMode() const;
    CompareView* compareView() const { return compareView_; }

signals:
    void sessionLoaded();
    void comparisonLoaded();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    QWidget* buildTablePane();
    QSplitter* buildBottomTabs();
    QWidget* buildWarningBar();
    void buildStatusBar();
    void buildMenus();
    void editSettings();
    void setSession(std::shared_ptr<Session> s);
    void onLoaded();
    void onBarClicked(int rank, int lane, quint32 kernel);
    void updateRecentMenu();
    void addRecent(const QStringList& files);  // files, or a comparisonEntry
    static QStringList comparisonEntry(const QStringList& filesA, const QStringList& filesB);
    void removeRecent(const QStringList& files);
    void updateRanksChart();
    void layoutRanksTicks();
    bool eventFilter(QObject* o, QEvent* e) override;
    void followFilter();           // the view never shows a collective the filters hide
    void revealInTable(int collective);  // clears the filters that hide it, and says which
    void updateFilterStatus();
    void sizeTableColumns();
    void rememberExportFolder(const QString& path);
    void saveAnalysisOptions() const;
    void saveSplitters() const;
    void applySplitterShare(QSplitter* sp);
    void keepPlotShare();
    QString defaultExportName(const QString& suffix) const;
    void chooseAndExportView();
    void chooseAndExportWindow();
    void chooseAndExportReport();
    QWidget* buildRunViews(QWidget* collectiveView, QSplitter* ranksBox);
    void setRunViewsSession();
    void selectInRunViews(int collective);
    bool exportRunView(const QString& path, int w, int h, QString* error);
    // Navigate > Zoom In / Zoom Out / Fit View: on the view tab shown (compare mode: both collective views)
    void zoomShownView(double factor);
    void fitShownView();

    void storeSnapshots(SessionPtr s);
    void sizeRanksColumns();
    void sizeRanksBox();  // the Ranks tab's table as wide as its columns, within 60% of the tab

    // compare mode (ui/compare_mode.cpp)
    QWidget* buildCompareView();
    void chooseAndCompare();
    void onComparisonLoaded();
    void setComparison(CompareSessionPtr c);
    bool startPending();  // a load asked for while another ran: true when it was started
    QString compareStatusText() const;
    bool exportComparisonReport(const QString& path, QString* error);
    QString compareExportName(const QString& suffix) const;  // "before_vs_after_compare.png"

    SessionPtr session_;
    // snapshots of the files opened (null with SKEWSCOPE_NO_CACHE); written in the background
    std::unique_ptr<skew::ProfileCache> cache_;
    QList<QFutureWatcher<QString>*> snapshotJobs_;  // running; each dropped when it has finished
    skew::AnalysisOptions options_;
    int current_ = -1;
    int parked_ = -1;  // the collective shown before the filters listed none: shown again once listed
    int ranksGroup_ = -1;
    QStringList ranksLabels_;
    const void* ranksFor_ = nullptr;  // the session the Ranks tab was filled from
    bool mainShared_ = false, rightShared_ = false;  // the splitters' proportions applied
    QList<int> mainDefault_, rightDefault_;            // the sizes last set by default (not the user's)
    int plotReserve_ = 0;  // most height seen above and below the collective plot in its pane
    bool loading_ = false;
    bool selecting_ = false;
    std::atomic<bool> cancel_{false};
    std::atomic<int> progress_{0};
    QFutureWatcher<LoadResult>* watcher_ = nullptr;
    QStringList pendingFiles_;
    QStringList loadingFiles_;
    CompareSessionPtr compare_;
    QFutureWatcher<CompareLoadResult>* compareWatcher_ = nullptr;
    QStringList pendingCompareA_, pendingCompareB_, compareA_, compareB_;  // asked for while loading; loading or shown
    CompareView* compareView_ = nullptr;

    CollectiveView* view_ = nullptr;
    CollectiveModel* model_ = nullptr;
    CollectiveFilter* filter_ = nullptr;
    RanksModel* ranksModel_ = nullptr;
    QTableView* table_ = nullptr;
    QTableView* ranksTable_ = nullptr;
    RankLabelDelegate* lateRankLabels_ = nullptr;   // the table's Late rank column
    RankLabelDelegate* ranksRankLabels_ = nullptr;  // the Ranks tab's Rank column
    QCustomPlot* ranksChart_ = nullptr;
    QSplitter* ranksBox_ = nullptr;
    bool ranksBoxMoved_ = false;  // by the user: then its sizes are theirs
    QPlainTextEdit* details_ = nullptr;
    QTextBrowser* findings_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QLabel* warningLabel_ = nullptr;
    QWidget* warningBar_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QLabel* filterStatus_ = nullptr;
    QLabel* filterEmpty_ = nullptr;
    QStackedWidget* tableStack_ = nullptr;
    QSplitter* mainSplitter_ = nullptr;
    QSplitter* rightSplitter_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QComboBox* opFilter_ = nullptr;
    QComboBox* groupFilter_ = nullptr;
    QComboBox* causeFilter_ = nullptr;
    QDoubleSpinBox* minSkew_ = nullptr;
    QCheckBox* bigOnly_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QTimer* progressTimer_ = nullptr;
    QTabWidget* viewTabs_ = nullptr;
    TimelineView* timeline_ = nullptr;
    StepMapView* stepMap_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    SkewCdfChart* skewCdf_ = nullptr;
};

}  // namespace skewui
