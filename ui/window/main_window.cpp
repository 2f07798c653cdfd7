#include "window/main_window.h"

#include <QAction>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <tuple>
#include <utility>

#include "scene/kernel_details.h"
#include "util/stage_clock.h"
#include "common/deferred_replot.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_view.h"
#include "views/plot_keys.h"
#include "views/timeline/timeline_view.h"
#include "window/collectives_pane.h"
#include "window/details_tabs.h"
#include "window/export_actions.h"
#include "window/load_controller.h"
#include "window/menus.h"
#include "window/pane_proportions.h"
#include "window/ranks_panel.h"
#include "window/recent_files.h"
#include "window/run_view_tabs.h"
#include "window/selection.h"
#include "window/settings.h"
#include "window/status_texts.h"
#include "window/view_navigation.h"
#include "window/warning_bar.h"

using namespace skew;

namespace skewui {

namespace {
QStringList qt(const std::vector<std::string>& files) {
    QStringList out;
    for (const auto& f : files) out << QString::fromStdString(f);
    return out;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Skewscope"));
    setAcceptDrops(true);
    options_ = loadAnalysisOptions();
    loads_ = new LoadController(this);
    buildUi();
    exports_ = new ExportActions(this, views_, compareView_,
                                 [this] { return ExportActions::Shown{session_, compare_, inCompareMode(), selection_->current()}; });
    const WindowMenus menus = buildMenus(this, exports_);
    recent_ = new RecentFiles(menus.recent, this);
    navigation_ = new ViewNavigation(this);
    views_->timeline()->setWheelZooms(timelineWheelZooms());
    connectRooms();
    connectMenus(menus);
    if (!restoreGeometry(QSettings().value("window/geometry").toByteArray())) {
        // 1600x900, or most of a smaller screen
        QSize size(1600, 900);
        if (QScreen* s = QGuiApplication::primaryScreen()) size = size.boundedTo(s->availableGeometry().size() * 0.95);
        resize(size);
    }
}

// No load outlives the window: the controller's destructor cancels its load and waits for it and
// for the snapshots being stored; done here so that it is over before any of the rooms goes.
MainWindow::~MainWindow() {
    delete loads_;
    loads_ = nullptr;
}

// The table pane beside the views' tabs over the bottom tabs; above them the warning bar; in their
// place the empty state or the compare view; the status line with the load's progress.
void MainWindow::buildUi() {
    pane_ = new CollectivesPane;
    views_ = new RunViewTabs;
    details_ = new DetailsTabs;
    rightSplitter_ = new QSplitter(Qt::Vertical);
    rightSplitter_->addWidget(views_);
    rightSplitter_->addWidget(details_);
    rightSplitter_->setStretchFactor(0, 2);
    rightSplitter_->setStretchFactor(1, 1);
    rightSplitter_->setChildrenCollapsible(false);
    mainSplitter_ = new QSplitter(Qt::Horizontal);
    mainSplitter_->addWidget(pane_);
    mainSplitter_->addWidget(rightSplitter_);
    mainSplitter_->setStretchFactor(0, 2);
    mainSplitter_->setStretchFactor(1, 3);
    mainSplitter_->setChildrenCollapsible(false);
    pane_->setMinimumWidth(240);
    proportions_ = new PaneProportions(mainSplitter_, rightSplitter_, views_->collective(), this);
    proportions_->setTableWants([this] { return pane_->widthThroughCause(); });
    connect(pane_, &CollectivesPane::columnsSized, proportions_, &PaneProportions::tableChanged, Qt::QueuedConnection);
    selection_ = new Selection(pane_, views_, details_, proportions_, this);

    warningBar_ = new WarningBar;
    emptyLabel_ = new QLabel;
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    emptyLabel_->setStyleSheet("QLabel { color: #555; font-size: 15px; padding: 40px; }");
    compareView_ = new CompareView;
    stack_ = new QStackedWidget;
    stack_->addWidget(emptyLabel_);
    stack_->addWidget(mainSplitter_);
    stack_->addWidget(compareView_);
    auto* central = new QWidget;
    auto* cv = new QVBoxLayout(central);
    cv->setContentsMargins(0, 0, 0, 0);
    cv->addWidget(warningBar_);
    cv->addWidget(stack_);
    setCentralWidget(central);
    emptyLabel_->setText(emptyStateText());

    statusLabel_ = new QLabel;
    statusLabel_->setObjectName("statusText");
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(loads_->progressBar());
    statusBar()->addPermanentWidget(loads_->cancelButton());
}

void MainWindow::connectRooms() {
    connect(pane_, &CollectivesPane::rowActivated, this, [this](int c) {
        if (c != selection_->current()) selection_->select(c);
    });
    connect(pane_, &CollectivesPane::filtersChanged, selection_, &Selection::followFilter);
    connect(views_, &RunViewTabs::collectiveClicked, selection_, qOverload<int>(&Selection::select));
    connect(views_, &RunViewTabs::kernelClicked, selection_, &Selection::showKernel);
    connect(selection_, &Selection::status, this, &MainWindow::setStatus);
    connect(views_, &RunViewTabs::settingsRequested, this, &MainWindow::editSettings);
    connect(details_, &DetailsTabs::collectiveLinked, this, [this](int g, uint32_t k) {
        if (selectCollective(g, k)) views_->collective()->setFocus();
    });
    connect(compareView_, &CompareView::settingsRequested, this, &MainWindow::editSettings);
    views_->collective()->setToolTipProvider([this](const Bar& b) {
        return session_ ? QString::fromStdString(barSummary(session_->profile, views_->collective()->scene(), b)) : QString();
    });

    connect(loads_, &LoadController::started, this, [this](const LoadRequest& r) {
        setStatus(r.comparison() ? tr("Comparing %1 with %2...").arg(r.files.join(", "), r.filesB.join(", "))
                                 : tr("Loading %1...").arg(r.files.join(", ")));
    });
    connect(loads_, &LoadController::loaded, this, &MainWindow::setSession);
    connect(loads_, &LoadController::whatIfLoaded, this, [this](const SessionPtr& s) {
        if (s != session_) return;  // never shown on another capture (the controller drops a replaced one's)
        warningBar_->setWarnings(sessionWarnings(*s));
        views_->whatIfLoaded();
        details_->showFindings(*s);
        emit whatIfLoaded();
    });
    connect(loads_, &LoadController::viewIndexesLoaded, this, [this](const SessionPtr& s) {
        if (s != session_) return;  // never shown on another capture
        views_->viewIndexesLoaded();
        emit viewIndexesLoaded();
    });
    connect(loads_, &LoadController::compared, this, &MainWindow::setComparison);
    connect(loads_, &LoadController::cancelled, this, [this](const LoadRequest& r) { loadStopped(r, {}, true); });
    connect(loads_, &LoadController::failed, this, [this](const LoadRequest& r, const QString& e) { loadStopped(r, e, false); });
    connect(loads_, &LoadController::snapshotFailed, this,
            [this](const QString& e) { statusBar()->showMessage(e + tr("; the next open reads the export again"), 10000); });
    // for a few seconds: then the capture's summary is back (it was replaced until the next load)
    connect(exports_, &ExportActions::saved, this, [this](const QString& path) { statusBar()->showMessage(tr("Saved %1").arg(path), 6000); });
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFiles);
    connect(recent_, &RecentFiles::compareRequested, this, &MainWindow::openComparison);
}

void MainWindow::connectMenus(const WindowMenus& m) {
    connect(m.open, &QAction::triggered, this, [this] { openFiles(chooseExports(this)); });
    connect(m.openFolder, &QAction::triggered, this, [this] {
        if (const QString dir = chooseFolder(this); !dir.isEmpty()) openFiles({dir});
    });
    connect(m.compare, &QAction::triggered, this, [this] {
        const auto [a, b] = chooseComparison(this);
        openComparison(a, b);
    });
    connect(m.reload, &QAction::triggered, this, &MainWindow::reload);
    for (auto [action, delta, big] : {std::tuple{m.next, +1, false}, std::tuple{m.previous, -1, false}, std::tuple{m.nextBig, +1, true},
                                      std::tuple{m.previousBig, -1, true}})
        connect(action, &QAction::triggered, this, [this, delta, big] { stepCollective(delta, big); });
    connect(m.zoomIn, &QAction::triggered, this, [this] { zoomShownView(kKeyZoomIn); });
    connect(m.zoomOut, &QAction::triggered, this, [this] { zoomShownView(kKeyZoomOut); });
    connect(m.fit, &QAction::triggered, this, &MainWindow::fitShownView);
    connect(m.lateArriver, &QAction::triggered, this, &MainWindow::showLateArriverDetails);
    connect(m.settings, &QAction::triggered, this, &MainWindow::editSettings);
}

void MainWindow::openFiles(const QStringList& files) {
    // the table's rows are sorted by the loader's worker, in the table's order
    if (!files.isEmpty()) loads_->load({files, {}, options_, pane_->sortColumn(), pane_->sortOrder()});
}

void MainWindow::openComparison(const QStringList& filesA, const QStringList& filesB) {
    if (!filesA.isEmpty() && !filesB.isEmpty()) loads_->load({filesA, filesB, options_});
}

void MainWindow::reload() {
    if (inCompareMode()) openComparison(qt(compare_->a->files), qt(compare_->b->files));
    else if (session_) openFiles(qt(session_->files));  // the clock refinement changes the profile: analyse a fresh load
}

void MainWindow::cancelLoading() { loads_->cancel(); }
bool MainWindow::isLoading() const { return loads_->isLoading(); }
bool MainWindow::whatIfPending() const { return loads_->whatIfPending(session_.get()); }
bool MainWindow::viewIndexesPending() const { return loads_->viewIndexesPending(session_.get()); }

void MainWindow::setAnalysisOptions(const AnalysisOptions& o) {
    options_ = o;
    saveAnalysisOptions(options_);
    reload();
}

void MainWindow::editSettings() {
    SettingsDialog d(options_, session_.get(), this);
    if (d.exec() != QDialog::Accepted) return;
    views_->timeline()->setWheelZooms(timelineWheelZooms());
    setAnalysisOptions(d.options());
}

bool MainWindow::inCompareMode() const { return compare_ && stack_->currentWidget() == compareView_; }

// A load that ended without a capture to show: the status line says so, a recent entry that no
// longer opens leaves the menu, and the reason is shown (but not for a cancel).
void MainWindow::loadStopped(const LoadRequest& r, const QString& error, bool cancelled) {
    const QString status = compare_ ? comparisonStatusText(*compare_) : statusText();
    if (cancelled) {
        setStatus(r.comparison() ? tr("Comparison cancelled. ") + status : tr("Loading cancelled. ") + statusText());
        emit loadFailed(tr("cancelled"));
        return;
    }
    setStatus(r.comparison() ? status : statusText());
    if (r.comparison()) recent_->removeComparison(r.files, r.filesB);
    else recent_->remove(r.files);
    const QString msg = r.comparison() ? tr("Cannot compare: %1").arg(error) : error;
    emit loadFailed(msg);
    if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_DIALOGS")) QMessageBox::warning(this, r.comparison() ? tr("Cannot compare") : tr("Cannot open"), msg);
}

void MainWindow::setSession(SessionPtr s) {
    skew::StageClock clock("setSession");
    {
        // each plot shown replots once, after the swap (its old picture stays until then), each
        // hidden one when it is shown (issue 24: a reload replotted them all, some several times)
        const ReplotBatch batch;
        swapSession(s);
    }
    clock.done("swap+replots");
    // the answers' page (a long document to lay out) in an event of its own, after the pictures:
    // no one event of the swap holds the window up for the sum of them (issue 24). A timer, not a
    // posted event: the input and timers that came due during the swap run before it.
    QTimer::singleShot(1, this, [this, s] {
        if (session_ != s) return;  // a later load replaced it first
        // after the pictures, which do not wait for them: the run views' indexes (on a worker while
        // the answers are laid out here), then the what-if (the replay)
        loads_->completeSession(s);
        details_->showFindings(*s);
        emit sessionLoaded();
    });
}

void MainWindow::swapSession(const SessionPtr& s) {
    // a reload or a re-analysis of the same files keeps the selected collective and the filters;
    // the op and group filters reset for other files
    const bool sameFiles = session_ && s && session_->files == s->files;
    const std::pair<int, uint32_t> kept = sameFiles ? selection_->kept() : std::pair<int, uint32_t>{-1, 0};
    CollectivesPane::Filters filters = pane_->filters();
    if (!sameFiles) filters.op.clear(), filters.group = -1;
    // the capture shown until now is freed off the UI thread once every view has let it go
    skew::StageClock clock("swap");
    SessionPtr old = std::exchange(session_, s);
    CompareSessionPtr oldComparison = std::exchange(compare_, nullptr);  // opening files leaves compare mode
    selection_->reset(s);
    pane_->setSession(s, loads_->tableTexts(s.get()), loads_->tableOrder(s.get()));
    clock.done("pane");
    warningBar_->setWarnings(sessionWarnings(*s));
    setStatus(statusText());
    const QString empty = emptyStateText();
    emptyLabel_->setText(empty);
    stack_->setCurrentIndex(empty.isEmpty() ? 1 : 0);
    clock.done("status+stack");
    views_->setSession(s, sameFiles);  // the skew CDF follows the Ranks tab's group
    clock.done("views");
    setWindowTitle(sessionTitle(*s));  // says when the ranks came from summaries
    recent_->add(qt(s->files));  // only files that opened
    clock.done("title+recent");
    {
        const QSignalBlocker quiet(pane_);  // the selection follows the filters once, below (open)
        pane_->setFilters(filters);
    }
    pane_->updateFilterStatus();
    clock.done("filters");
    selection_->open(kept);
    clock.done("selection");
    views_->restoreKeptRanges();  // F5 keeps the zoom (after the selection, which may pan to the collective)
    clock.done("ranges");
    details_->setCurrentWidget(details_->findings());  // a new capture opens on its answers
    clock.done("details");
    loads_->storeSnapshots(s);
    loads_->release(std::move(old));
    loads_->release(std::move(oldComparison));
    clock.done("rest");
}

void MainWindow::setComparison(CompareSessionPtr c) {
    // a reload or a re-analysis of the same files keeps the pair shown
    const bool same = compare_ && c && compare_->a->files == c->a->files && compare_->b->files == c->b->files;
    const int keepPair = same ? compareView_->pair() : 0;
    CompareSessionPtr old = std::exchange(compare_, c);
    compareView_->setComparison(c, keepPair);
    warningBar_->setWarnings(comparisonWarnings(*c));
    stack_->setCurrentWidget(compareView_);
    setStatus(comparisonStatusText(*c));
    setWindowTitle(tr("Skewscope - compare %1 vs %2")
                       .arg(QFileInfo(QString::fromStdString(c->a->files.front())).fileName(),
                            QFileInfo(QString::fromStdString(c->b->files.front())).fileName()));
    loads_->storeSnapshots(c->a);
    loads_->storeSnapshots(c->b);
    recent_->addComparison(qt(c->a->files), qt(c->b->files));  // only comparisons that opened (also from the command line)
    loads_->release(std::move(old));
    emit comparisonLoaded();
}

void MainWindow::selectCollective(int c) { selection_->select(c); }
bool MainWindow::selectCollective(int group, uint32_t index) { return selection_->select(group, index); }
int MainWindow::currentCollective() const { return selection_->current(); }

void MainWindow::stepCollective(int delta, bool bigOnly) {
    if (!inCompareMode()) {
        selection_->step(delta, bigOnly);
        return;
    }
    if (!compareView_->stepCollective(delta, bigOnly))
        statusBar()->showMessage(bigOnly ? (delta > 0 ? tr("No later big late arriver in this group.") : tr("No earlier big late arriver in this group."))
                          : (delta > 0 ? tr("Last collective of the group.") : tr("First collective of the group.")),
                                 4000);
}

void MainWindow::showLateArriverDetails() {
    if (!inCompareMode()) selection_->showLateArriver();
    else if (!compareView_->showLateArriver()) statusBar()->showMessage(tr("The collective shown has no late arriver."), 4000);
}

void MainWindow::zoomShownView(double factor) {
    if (inCompareMode()) compareView_->zoomCollectives(factor);
    else views_->zoomShown(factor);
}

void MainWindow::fitShownView() {
    if (inCompareMode()) compareView_->fitCollectives();
    else views_->fitShown();
}

void MainWindow::setStatus(const QString& text) { statusLabel_->setText(text); }

void MainWindow::setFilters(const QString& op, int group, const QString& cause, double minSkewMs, bool bigOnly) {
    pane_->setFilters({op, group, cause, minSkewMs, bigOnly});
}
void MainWindow::clearFilters() { pane_->clearFilters(); }
QString MainWindow::filterStatusText() const { return pane_->filterStatusText(); }
bool MainWindow::showsFilterEmptyState() const { return pane_->showsFilterEmptyState(); }
QString MainWindow::statusText() const { return sessionStatusText(session_.get()); }
bool MainWindow::showsEmptyState() const { return stack_->currentIndex() == 0; }
QString MainWindow::emptyStateText() const { return skewui::emptyStateText(session_.get(), isLoading()); }
int MainWindow::ranksGroup() const { return details_->ranks()->group(); }

bool MainWindow::exportView(const QString& path, int w, int h, QString* error) { return exports_->exportView(path, w, h, error); }
bool MainWindow::exportWindow(const QString& path, QString* error) { return exports_->exportWindow(path, error); }
bool MainWindow::exportReport(const QString& path, QString* error) { return exports_->exportReport(path, error); }
bool MainWindow::isOpenInput(const QString& path, QString* error) const { return exports_->isOpenInput(path, error); }
QString MainWindow::exportStartPath(const QString& fileName) const { return ExportActions::startPath(fileName); }

QTableView* MainWindow::table() const { return pane_->table(); }
CollectiveFilter* MainWindow::filter() const { return pane_->filter(); }
CollectiveView* MainWindow::view() const { return views_->collective(); }
TimelineView* MainWindow::timeline() const { return views_->timeline(); }
StepMapView* MainWindow::stepMap() const { return views_->stepMap(); }
HeatmapView* MainWindow::heatmap() const { return views_->heatmap(); }
QTabWidget* MainWindow::viewTabs() const { return views_; }
QTabWidget* MainWindow::tabs() const { return details_; }
QTextBrowser* MainWindow::findings() const { return details_->findings(); }
QPlainTextEdit* MainWindow::details() const { return details_->details(); }
QTableView* MainWindow::ranksTable() const { return details_->ranks()->table(); }
QCustomPlot* MainWindow::ranksChart() const { return details_->ranks()->chart(); }
SkewCdfChart* MainWindow::skewCdf() const { return details_->ranks()->skewCdf(); }
QWidget* MainWindow::warningBar() const { return warningBar_; }
QMenu* MainWindow::recentMenu() const { return recent_->menu(); }

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList files;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) files << u.toLocalFile();
    openFiles(files);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings().setValue("window/geometry", saveGeometry());
    proportions_->save();
    loads_->cancel();
    QMainWindow::closeEvent(e);
}

}  // namespace skewui
