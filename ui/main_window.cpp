#include "main_window.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>

#include <cmath>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "collective_view.h"
#include "model/loader.h"
#include "models.h"
#include "nsys/export_reader.h"
#include "report/analysis_report.h"
#include "report/info_report.h"
#include "util/atomic_file.h"

using namespace skew;

namespace skewui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Skewscope"));
    setAcceptDrops(true);
    buildUi();
    buildMenus();
    QSettings st;
    restoreGeometry(st.value("window/geometry").toByteArray());
    if (!st.contains("window/geometry")) resize(1600, 900);
}

MainWindow::~MainWindow() {
    if (watcher_ && watcher_->isRunning()) {
        cancel_ = true;
        watcher_->waitForFinished();
    }
}

void MainWindow::buildUi() {
    model_ = new CollectiveModel(this);
    filter_ = new CollectiveFilter(this);
    filter_->setSourceModel(model_);
    ranksModel_ = new RanksModel(this);

    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(4, 4, 4, 4);
    auto* fl = new QHBoxLayout;
    opFilter_ = new QComboBox;
    opFilter_->setToolTip(tr("Show one collective op"));
    groupFilter_ = new QComboBox;
    groupFilter_->setToolTip(tr("Show one group (communicator)"));
    causeFilter_ = new QComboBox;
    causeFilter_->addItems({tr("any cause"), "cpu_launch", "gpu_dependency", "gpu_other", "unknown"});
    minSkew_ = new QDoubleSpinBox;
    minSkew_->setRange(0, 1e6);
    minSkew_->setDecimals(2);
    minSkew_->setSuffix(tr(" ms"));
    minSkew_->setPrefix(tr("skew \u2265 "));
    minSkew_->setToolTip(tr("Minimum start skew"));
    bigOnly_ = new QCheckBox(tr("big only"));
    fl->addWidget(opFilter_);
    fl->addWidget(groupFilter_);
    fl->addWidget(causeFilter_);
    fl->addWidget(minSkew_);
    fl->addWidget(bigOnly_);
    lv->addLayout(fl);
    table_ = new QTableView;
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CollectiveModel::Group, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    lv->addWidget(table_);

    view_ = new CollectiveView;
    view_->setMinimumHeight(300);
    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    details_->setPlaceholderText(tr("Click a bar in the collective view to see its details."));
    ranksTable_ = new QTableView;
    ranksTable_->setModel(ranksModel_);
    ranksTable_->verticalHeader()->hide();
    ranksTable_->horizontalHeader()->setStretchLastSection(true);
    ranksChart_ = new QCustomPlot;
    ranksChart_->setMinimumHeight(160);
    auto* ranksBox = new QSplitter(Qt::Horizontal);
    ranksBox->addWidget(ranksTable_);
    ranksBox->addWidget(ranksChart_);
    ranksBox->setStretchFactor(0, 1);
    ranksBox->setStretchFactor(1, 1);
    findings_ = new QTextBrowser;
    findings_->setOpenLinks(false);
    tabs_ = new QTabWidget;
    tabs_->addTab(details_, tr("Details"));
    tabs_->addTab(ranksBox, tr("Ranks"));
    tabs_->addTab(findings_, tr("Findings"));

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(view_);
    right->addWidget(tabs_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* main = new QSplitter(Qt::Horizontal);
    main->addWidget(left);
    main->addWidget(right);
    main->setStretchFactor(0, 2);
    main->setStretchFactor(1, 5);

    warningLabel_ = new QLabel;
    warningLabel_->setWordWrap(true);
    warningLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    warningLabel_->setStyleSheet("QLabel { background: #fff4cc; border: 1px solid #e0c060; padding: 4px; }");
    warningLabel_->hide();
    emptyLabel_ = new QLabel;
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    emptyLabel_->setStyleSheet("QLabel { color: #555; font-size: 15px; padding: 40px; }");
    stack_ = new QStackedWidget;
    stack_->addWidget(emptyLabel_);
    stack_->addWidget(main);
    auto* central = new QWidget;
    auto* cv = new QVBoxLayout(central);
    cv->setContentsMargins(0, 0, 0, 0);
    cv->addWidget(warningLabel_);
    cv->addWidget(stack_);
    setCentralWidget(central);
    emptyLabel_->setText(emptyStateText());

    statusLabel_ = new QLabel;
    progressBar_ = new QProgressBar;
    progressBar_->setRange(0, 100);
    progressBar_->setMaximumWidth(240);
    progressBar_->hide();
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->hide();
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(progressBar_);
    statusBar()->addPermanentWidget(cancelButton_);
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(100);  // progress is polled, so the loader never floods the event loop
    connect(progressTimer_, &QTimer::timeout, this, [this] { progressBar_->setValue(progress_.load()); });

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (!cur.isValid() || selecting_) return;
        int row = filter_->mapToSource(cur).row();
        if (row != current_) selectCollective(row);
    });
    connect(view_, &CollectiveView::barClicked, this, &MainWindow::onBarClicked);
    connect(opFilter_, &QComboBox::currentIndexChanged, this, [this](int i) { filter_->setOp(i <= 0 ? QString() : opFilter_->itemText(i)); });
    connect(groupFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setGroup(i <= 0 ? -1 : i - 1);
        updateRanksChart();
    });
    connect(causeFilter_, &QComboBox::currentIndexChanged, this, [this](int i) { filter_->setCause(i <= 0 ? QString() : causeFilter_->itemText(i)); });
    connect(minSkew_, &QDoubleSpinBox::valueChanged, this, [this](double v) { filter_->setMinSkewMs(v); });
    connect(bigOnly_, &QCheckBox::toggled, this, [this](bool on) { filter_->setBigOnly(on); });
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open..."), this, [this] {
        QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Nsight Systems exports"), QString(),
                                                          tr("Nsight Systems exports (*.sqlite *.nsys-rep);;All files (*)"));
        if (!files.isEmpty()) openFiles(files);
    });
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    QAction* reload = file->addAction(tr("Re&load"), this, [this] {
        if (session_) {
            QStringList f;
            for (const auto& s : session_->files) f << QString::fromStdString(s);
            openFiles(f);
        }
    });
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* ev = file->addAction(tr("&Export Collective View (PNG, SVG, PDF)..."), this, &MainWindow::chooseAndExportView);
    ev->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* ew = file->addAction(tr("Export &Window as PNG..."), this, &MainWindow::chooseAndExportWindow);
    ew->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* er = file->addAction(tr("Export &Report (Markdown, CSV, JSON)..."), this, &MainWindow::chooseAndExportReport);
    er->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* nav = menuBar()->addMenu(tr("&Navigate"));
    nav->addAction(tr("&Next Collective"), QKeySequence(Qt::Key_N), this, [this] { stepCollective(+1); });
    nav->addAction(tr("&Previous Collective"), QKeySequence(Qt::Key_P), this, [this] { stepCollective(-1); });
    nav->addAction(tr("Next &Big Late Arriver"), QKeySequence(Qt::Key_B), this, [this] { stepBigCollective(+1); });
    nav->addAction(tr("Previous Bi&g Late Arriver"), QKeySequence(Qt::SHIFT | Qt::Key_B), this, [this] { stepBigCollective(-1); });
    nav->addSeparator();
    nav->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { view_->zoomBy(0.8); });
    nav->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { view_->zoomBy(1.25); });
    nav->addAction(tr("&Fit Collective"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] { view_->resetZoom(); });
    nav->addAction(tr("Show &Late Arriver Details"), QKeySequence(Qt::Key_L), this, [this] {
        if (!session_ || current_ < 0) return;
        const Collective& c = session_->analysis.collectives[size_t(current_)];
        if (c.lateSlot < 0) return;
        const GroupLane& gl = session_->analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
        onBarClicked(gl.rank, gl.lane, session_->analysis.slotKernel(c, size_t(c.lateSlot)));
    });

    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    analysis->addAction(tr("&Settings..."), QKeySequence(Qt::CTRL | Qt::Key_Comma), this, &MainWindow::editSettings);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        QMessageBox::information(this, tr("Keyboard shortcuts"),
                                 tr("Ctrl+O open, F5 reload, Ctrl+E export view, Ctrl+Shift+E export window,\n"
                                    "Ctrl+Shift+R export report\n"
                                    "N / P next / previous collective, B / Shift+B next / previous big late arriver,\n"
                                    "L details of the late arriver\n"
                                    "In the view: + / - zoom, Left / Right pan, 0 or Home fit; drag to pan, wheel to zoom."));
    });
    help->addAction(tr("&About Skewscope"), this, [this] {
        QMessageBox::about(this, tr("About Skewscope"),
                           tr("Skewscope %1\nWho arrived late to each NCCL collective, and why.").arg(SKEWSCOPE_VERSION));
    });
    updateRecentMenu();
}

QString MainWindow::emptyStateText() const {
    if (loading_) return tr("Loading...");
    if (!session_)
        return tr("Open Nsight Systems SQLite exports (nsys export --type sqlite): File > Open (Ctrl+O), "
                  "or drop them here. One file per node or one per rank.");
    const Profile& p = session_->profile;
    if (p.kernelCount() == 0)
        return tr("These exports hold no GPU kernels (the CUDA trace was not captured), so there are no collectives to "
                  "show.\nCapture with nsys profile --trace=cuda,nvtx and export again.");
    if (session_->analysis.groups.empty()) {
        uint64_t nccl = 0;
        for (const auto& r : p.ranks) nccl += r.ncclKernelCount();
        if (nccl == 0)
            return tr("No NCCL kernels in these exports: %1 kernels on %2 rank(s), none of them ncclKernel_* or "
                      "ncclDevKernel_*.\nSkewscope compares NCCL collectives across ranks; open a capture of a multi-GPU run.")
                .arg(p.kernelCount())
                .arg(p.ranks.size());
        return tr("%1 NCCL kernels were found, but no lanes of two ranks carry the same op sequence, so no collective "
                  "could be matched across ranks. Open every rank's export together.")
            .arg(nccl);
    }
    return {};
}

QString MainWindow::statusText() const {
    if (!session_) return tr("No exports open");
    const Profile& p = session_->profile;
    QStringList files;
    for (const auto& in : p.inputs) files << QFileInfo(QString::fromStdString(in.path)).fileName();
    QStringList versions;
    for (const auto& in : p.inputs)
        if (!versions.contains(QString::fromStdString(in.nsysVersion))) versions << QString::fromStdString(in.nsysVersion);
    uint32_t complete = 0;
    for (const auto& g : session_->analysis.groups) complete += g.complete;
    return tr("%1  |  Nsight Systems %2  |  %3 ranks  |  %4 collectives (%5 complete) in %6 groups  |  loaded in %7 s")
        .arg(files.join(", "), versions.join(", "))
        .arg(p.ranks.size())
        .arg(session_->analysis.collectives.size())
        .arg(complete)
        .arg(session_->analysis.groups.size())
        .arg(session_->loadSeconds + session_->analyzeSeconds, 0, 'f', 2);
}

QString MainWindow::statusBarText() const { return statusLabel_->text(); }

void MainWindow::setAnalysisOptions(const AnalysisOptions& o) {
    options_ = o;
    if (session_) {
        QStringList f;
        for (const auto& s : session_->files) f << QString::fromStdString(s);
        openFiles(f);  // the clock refinement changes the profile: analyse a fresh load
    }
}

void MainWindow::editSettings() {
    QDialog d(this);
    d.setWindowTitle(tr("Analysis settings"));
    auto* form = new QFormLayout(&d);
    auto* big = new QDoubleSpinBox;
    big->setRange(0, 1e6);
    big->setDecimals(2);
    big->setSuffix(tr(" ms"));
    big->setValue(double(options_.bigSkewNs) / 1e6);
    auto* anomaly = new QDoubleSpinBox;
    anomaly->setRange(0.1, 1000);
    anomaly->setDecimals(1);
    anomaly->setSuffix(tr(" x the op's mean"));
    anomaly->setValue(options_.anomalyThreshold);
    auto* regex = new QLineEdit(QString::fromStdString(options_.stepRegex));
    regex->setPlaceholderText(QString::fromStdString(defaultStepRegex()));
    auto* trim = new QCheckBox(tr("keep kernels starting in"));
    trim->setChecked(options_.hasTrim);
    auto* t0 = new QDoubleSpinBox;
    auto* t1 = new QDoubleSpinBox;
    for (auto* t : {t0, t1}) {
        t->setRange(0, 1e7);
        t->setDecimals(6);
        t->setSuffix(tr(" s"));
    }
    // without a window yet, offer the exports' whole time range (aligned seconds) to narrow down
    bool offerRange = !options_.hasTrim && session_;
    t0->setValue(double(offerRange ? session_->profile.timeStart : options_.trimStartNs) / 1e9);
    t1->setValue(double(offerRange ? session_->profile.timeEnd + 1 : options_.trimEndNs) / 1e9);
    auto* trimRow = new QHBoxLayout;
    trimRow->addWidget(trim);
    trimRow->addWidget(t0);
    trimRow->addWidget(new QLabel(tr("to")));
    trimRow->addWidget(t1);
    form->addRow(tr("Big start skew above"), big);
    form->addRow(tr("Anomaly threshold"), anomaly);
    form->addRow(tr("Step NVTX pattern"), regex);
    form->addRow(tr("Time window"), trimRow);
    auto* error = new QLabel;
    error->setStyleSheet("color: #b00020");
    form->addRow(error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    AnalysisOptions o = options_;
    connect(buttons, &QDialogButtonBox::accepted, &d, [&] {
        // the same checks and unit conversions as the command line's
        AnalysisSettings st = analysisSettings(options_);
        st.bigSkewMs = big->value();
        st.anomalyThreshold = anomaly->value();
        st.stepRegex = regex->text().toStdString();
        st.hasTrim = trim->isChecked();
        st.trimStartS = t0->value();
        st.trimEndS = t1->value();
        if (std::string e = makeAnalysisOptions(st, o); !e.empty()) {
            QString msg = QString::fromStdString(e);
            error->setText(msg.left(1).toUpper() + msg.mid(1) + ".");
            return;
        }
        d.accept();
    });
    if (d.exec() != QDialog::Accepted) return;
    setAnalysisOptions(o);
}

bool MainWindow::showsEmptyState() const { return stack_->currentIndex() == 0; }

void MainWindow::openFiles(const QStringList& files) {
    if (files.isEmpty()) return;
    if (loading_) {
        cancel_ = true;
        pendingFiles_ = files;
        return;
    }
    loading_ = true;
    cancel_ = false;
    progress_ = 0;
    progressBar_->setValue(0);
    progressBar_->show();
    cancelButton_->show();
    progressTimer_->start();
    statusLabel_->setText(tr("Loading %1...").arg(files.join(", ")));
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.toStdString());
    if (!watcher_) {
        watcher_ = new QFutureWatcher<LoadResult>(this);
        connect(watcher_, &QFutureWatcher<LoadResult>::finished, this, &MainWindow::onLoaded);
    }
    addRecent(files);
    AnalysisOptions options = options_;
    watcher_->setFuture(QtConcurrent::run([this, paths, options]() -> LoadResult {
        LoadResult r;
        try {
            r.session = loadSession(paths, options, [this](double f) {
                progress_ = int(f * 100);
                return !cancel_.load();
            });
        } catch (const Cancelled&) {
            r.cancelled = true;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        return r;
    }));
}

void MainWindow::onLoaded() {
    loading_ = false;
    progressTimer_->stop();
    progressBar_->hide();
    cancelButton_->hide();
    LoadResult r = watcher_->result();
    if (!pendingFiles_.isEmpty()) {
        QStringList next = pendingFiles_;
        pendingFiles_.clear();
        openFiles(next);
        return;
    }
    if (r.cancelled) {
        statusLabel_->setText(tr("Loading cancelled. ") + statusText());
        emit loadFailed(tr("cancelled"));
        return;
    }
    if (!r.error.empty()) {
        statusLabel_->setText(statusText());
        QString msg = QString::fromStdString(r.error);
        emit loadFailed(msg);
        if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_DIALOGS")) QMessageBox::warning(this, tr("Cannot open"), msg);
        return;
    }
    setSession(r.session);
}

void MainWindow::setSession(std::shared_ptr<Session> s) {
    session_ = s;
    current_ = -1;
    view_->setScene({});  // the old scene's indices mean nothing in the new profile
    details_->clear();
    model_->setSession(session_);
    const Analysis& a = session_->analysis;
    const Profile& p = session_->profile;
    {
        QSignalBlocker b1(opFilter_), b2(groupFilter_);
        opFilter_->clear();
        opFilter_->addItem(tr("all ops"));
        QStringList ops;
        for (const auto& g : a.groups)
            for (const auto& [op, n] : g.ops)
                if (!ops.contains(QString::fromStdString(op))) ops << QString::fromStdString(op);
        opFilter_->addItems(ops);
        groupFilter_->clear();
        groupFilter_->addItem(tr("all groups"));
        for (const auto& g : a.groups) groupFilter_->addItem(tr("group %1 (%2)").arg(g.id).arg(g.count));
    }
    filter_->setOp({});
    filter_->setGroup(-1);
    QStringList warnings;
    for (const auto& w : p.warnings) warnings << QString::fromStdString(w);
    for (const auto& w : a.warnings) warnings << QString::fromStdString(w);
    for (const auto& g : a.groups)
        if (g.validation.status != "ok")
            warnings << tr("group %1 matching %2: %3 of %4 collectives complete%5")
                            .arg(g.id)
                            .arg(QString::fromStdString(g.validation.status))
                            .arg(g.complete)
                            .arg(g.count)
                            .arg(g.validation.messages.empty() ? QString() : " - " + QString::fromStdString(g.validation.messages[0]));
    for (const auto& u : a.unmatched)
        warnings << tr("%1 stream %2: %3").arg(QString::fromStdString(p.ranks[size_t(u.rank)].label))
                        .arg(p.ranks[size_t(u.rank)].lanes[size_t(u.lane)].stream)
                        .arg(QString::fromStdString(u.reason));
    warningLabel_->setText(warnings.isEmpty() ? QString() : tr("Warnings: ") + warnings.join("\n"));
    warningLabel_->setVisible(!warnings.isEmpty());
    findings_->setMarkdown(QString::fromStdString(analysisMarkdown(p, a)));
    statusLabel_->setText(statusText());
    QString empty = emptyStateText();
    emptyLabel_->setText(empty);
    stack_->setCurrentIndex(empty.isEmpty() ? 1 : 0);
    updateRanksChart();
    table_->resizeColumnsToContents();
    ranksTable_->resizeColumnsToContents();
    setWindowTitle(tr("Skewscope - %1").arg(QFileInfo(QString::fromStdString(s->files.front())).fileName()));
    // open on the biggest late arriver: the collective a user came for
    int best = -1;
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].complete && (best < 0 || a.collectives[i].startSkew() > a.collectives[size_t(best)].startSkew())) best = int(i);
    if (best >= 0) selectCollective(best);
    emit sessionLoaded();
}

void MainWindow::updateRanksChart() {
    int g = groupFilter_->currentIndex() > 0 ? groupFilter_->currentIndex() - 1 : 0;
    ranksModel_->setSession(session_, g);
    ranksChart_->clearPlottables();
    if (!session_ || size_t(g) >= session_->analysis.groups.size()) {
        ranksChart_->replot();
        return;
    }
    const Group& grp = session_->analysis.groups[size_t(g)];
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, all, rest;
    for (size_t i = 0; i < grp.perRank.size(); ++i) {
        keys << double(i);
        all << grp.perRank[i].meanLatenessNs / 1e6;
        rest << grp.perRank[i].meanLatenessExclBigNs / 1e6;
        ticker->addTick(double(i), QString::fromStdString(session_->profile.ranks[size_t(grp.perRank[i].rank)].label));
    }
    auto* b1 = new QCPBars(ranksChart_->xAxis, ranksChart_->yAxis);
    b1->setName(tr("mean lateness"));
    b1->setBrush(QColor(0xd6, 0x3c, 0x2f, 200));
    b1->setPen(Qt::NoPen);
    auto* b2 = new QCPBars(ranksChart_->xAxis, ranksChart_->yAxis);
    b2->setName(tr("excluding big events"));
    b2->setBrush(QColor(0x2f, 0x6f, 0xb5, 200));
    b2->setPen(Qt::NoPen);
    auto* bg = new QCPBarsGroup(ranksChart_);
    b1->setWidth(0.35);
    b2->setWidth(0.35);
    b1->setBarsGroup(bg);
    b2->setBarsGroup(bg);
    b1->setData(keys, all);
    b2->setData(keys, rest);
    ranksChart_->xAxis->setTicker(ticker);
    ranksChart_->xAxis->setTickLabelRotation(keys.size() > 4 ? -35 : 0);
    ranksChart_->xAxis->setRange(-0.6, double(keys.size()) - 0.4);
    ranksChart_->yAxis->setLabel(tr("ms"));
    ranksChart_->yAxis->rescale();
    ranksChart_->yAxis->setRangeLower(0);
    ranksChart_->yAxis->setRangeUpper(std::max(0.001, ranksChart_->yAxis->range().upper * 1.15));
    ranksChart_->legend->setVisible(true);
    ranksChart_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    ranksChart_->replot();
}

void MainWindow::selectCollective(int c) {
    if (!session_ || c < 0 || size_t(c) >= session_->analysis.collectives.size()) return;
    current_ = c;
    view_->setScene(buildScene(session_->profile, session_->analysis, c));
    QModelIndex src = model_->index(c, 0);
    QModelIndex proxy = filter_->mapFromSource(src);
    if (proxy.isValid()) {
        // keep the selection model's signals: the table repaints from them
        selecting_ = true;
        table_->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        selecting_ = false;
        table_->scrollTo(proxy);
    }
    const Collective& col = session_->analysis.collectives[size_t(c)];
    if (col.lateSlot >= 0) {
        const GroupLane& gl = session_->analysis.groups[size_t(col.group)].lanes[size_t(col.lateSlot)];
        details_->setPlainText(QString::fromStdString(
            kernelDetails(session_->profile, session_->analysis, c, gl.rank, gl.lane, session_->analysis.slotKernel(col, size_t(col.lateSlot)))));
    }
}

void MainWindow::stepCollective(int delta) {
    int rows = filter_->rowCount();
    if (rows == 0) return;
    QModelIndex cur = filter_->mapFromSource(model_->index(std::max(current_, 0), 0));
    int r = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : rows - 1);
    r = std::clamp(r, 0, rows - 1);
    selectCollective(filter_->mapToSource(filter_->index(r, 0)).row());
}

void MainWindow::stepBigCollective(int delta) {
    if (!session_) return;
    const auto& cs = session_->analysis.collectives;
    int n = int(cs.size());
    for (int i = 1; i <= n; ++i) {
        int c = ((current_ < 0 ? (delta > 0 ? -1 : 0) : current_) + delta * i + n * 2) % n;
        if (cs[size_t(c)].big && cs[size_t(c)].complete) {
            selectCollective(c);
            return;
        }
    }
    statusLabel_->setText(tr("No big late arrivers (start skew > %1).").arg(
        QString::fromStdString(formatDuration(session_->analysis.options.bigSkewNs))));
}

void MainWindow::onBarClicked(int rank, int lane, quint32 kernel) {
    if (!session_) return;
    details_->setPlainText(QString::fromStdString(kernelDetails(session_->profile, session_->analysis, current_, rank, lane, kernel)));
    tabs_->setCurrentWidget(details_);
}

QString MainWindow::defaultExportName(const QString& suffix) const {
    QString stem = session_ ? QFileInfo(QString::fromStdString(session_->files.front())).completeBaseName() : "skewscope";
    if (session_ && current_ >= 0) {
        const Collective& c = session_->analysis.collectives[size_t(current_)];
        return QString("%1_G%2_C%3.%4").arg(stem).arg(c.group).arg(c.index).arg(suffix);
    }
    return stem + "." + suffix;
}

bool MainWindow::exportView(const QString& path, int w, int h, QString* error) {
    if (!session_ || current_ < 0) {
        if (error) *error = tr("no collective is shown: open exports and select a collective first");
        return false;
    }
    return view_->exportTo(path, w, h, error);
}

bool MainWindow::exportWindow(const QString& path, QString* error) {
    QPixmap pm = grab();
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    if (!pm.save(&buf, "PNG")) {
        if (error) *error = tr("cannot encode the window as PNG");
        return false;
    }
    try {
        writeOutput(path.toStdString(), std::string_view(bytes.constData(), size_t(bytes.size())));
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

bool MainWindow::exportReport(const QString& path, QString* error) {
    if (!session_) {
        if (error) *error = tr("no exports are open");
        return false;
    }
    std::string out;
    QString l = path.toLower();
    if (l.endsWith(".csv")) out = analysisCsv(session_->profile, session_->analysis);
    else if (l.endsWith(".json")) out = analysisJson(session_->profile, session_->analysis);
    else if (l.endsWith(".txt")) out = analysisText(session_->profile, session_->analysis);
    else out = analysisMarkdown(session_->profile, session_->analysis);
    try {
        writeOutput(path.toStdString(), out);
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

void MainWindow::chooseAndExportView() {
    if (!session_ || current_ < 0) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export collective view"), defaultExportName("png"),
                                                tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    QString err;
    if (!exportView(path, std::max(view_->width(), 1600), std::max(view_->height(), 900), &err))
        QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

void MainWindow::chooseAndExportWindow() {
    QString path = QFileDialog::getSaveFileName(this, tr("Export window"), defaultExportName("png").replace(".png", "_window.png"),
                                                tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    QString err;
    if (!exportWindow(path, &err)) QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

void MainWindow::chooseAndExportReport() {
    if (!session_) return;
    QString stem = QFileInfo(QString::fromStdString(session_->files.front())).completeBaseName();
    QString path = QFileDialog::getSaveFileName(this, tr("Export report"), stem + "_report.md",
                                                tr("Markdown (*.md);;CSV (*.csv);;JSON (*.json);;Text (*.txt)"));
    if (path.isEmpty()) return;
    QString err;
    if (!exportReport(path, &err)) QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

void MainWindow::addRecent(const QStringList& files) {
    QStringList abs;
    for (const auto& f : files) abs << QFileInfo(f).absoluteFilePath();
    QString entry = abs.join('\n');
    QSettings st;
    QStringList recent = st.value("recent").toStringList();
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > 10) recent.removeLast();
    st.setValue("recent", recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    QStringList recent = QSettings().value("recent").toStringList();
    for (const QString& entry : recent) {
        QStringList files = entry.split('\n');
        QString label = QFileInfo(files.front()).fileName() + (files.size() > 1 ? tr(" (+%1 more)").arg(files.size() - 1) : QString());
        recentMenu_->addAction(label, this, [this, files] { openFiles(files); })->setToolTip(files.join(", "));
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

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
    cancel_ = true;
    QMainWindow::closeEvent(e);
}

}  // namespace skewui
