#pragma once
// The main window: collectives table, collective view, details / ranks / findings panels,
// background loading with progress and cancel, exports.

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
class QDoubleSpinBox;
class QCheckBox;
class QTabWidget;
class QMenu;
class QCustomPlot;
class QTimer;
class QStackedWidget;

namespace skewui {

class CollectiveView;
class CollectiveModel;
class CollectiveFilter;
class RanksModel;

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
    SessionPtr session() const { return session_; }

    // selection shared by the table, the view and the panels (source row = collective index)
    void selectCollective(int collective);
    int currentCollective() const { return current_; }
    void stepCollective(int delta);      // next/previous in the table's order
    void stepBigCollective(int delta);   // next/previous big late arriver

    CollectiveView* view() const { return view_; }
    QTableView* table() const { return table_; }
    QPlainTextEdit* details() const { return details_; }
    CollectiveFilter* filter() const { return filter_; }
    QString statusText() const;
    QString statusBarText() const;
    bool showsEmptyState() const;
    QString emptyStateText() const;

    bool exportView(const QString& path, int w = 1600, int h = 900, QString* error = nullptr);
    bool exportWindow(const QString& path, QString* error = nullptr);
    bool exportReport(const QString& path, QString* error = nullptr);

signals:
    void sessionLoaded();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    void buildMenus();
    void editSettings();
    void setSession(std::shared_ptr<Session> s);
    void onLoaded();
    void onBarClicked(int rank, int lane, quint32 kernel);
    void updateRecentMenu();
    void addRecent(const QStringList& files);
    void updateRanksChart();
    QString defaultExportName(const QString& suffix) const;
    void chooseAndExportView();
    void chooseAndExportWindow();
    void chooseAndExportReport();

    SessionPtr session_;
    skew::AnalysisOptions options_;
    int current_ = -1;
    bool loading_ = false;
    bool selecting_ = false;
    std::atomic<bool> cancel_{false};
    std::atomic<int> progress_{0};
    QFutureWatcher<LoadResult>* watcher_ = nullptr;
    QStringList pendingFiles_;

    CollectiveView* view_ = nullptr;
    CollectiveModel* model_ = nullptr;
    CollectiveFilter* filter_ = nullptr;
    RanksModel* ranksModel_ = nullptr;
    QTableView* table_ = nullptr;
    QTableView* ranksTable_ = nullptr;
    QCustomPlot* ranksChart_ = nullptr;
    QPlainTextEdit* details_ = nullptr;
    QTextBrowser* findings_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QLabel* warningLabel_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
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
};

}  // namespace skewui
