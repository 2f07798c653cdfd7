#include "cli/command_line.h"
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
#include <QClipboard>
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
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "collective_scene.h"
#include "cache/profile_cache.h"
#include "collective_view.h"
#include "compare_view.h"
#include "model/loader.h"
#include "models/collective_model.h"
#include "nsys/export_reader.h"
#include "rank_labels.h"
#include "report/analysis_report.h"
#include "report/info_report.h"
#include "skew_cdf_chart.h"
#include "util/atomic_file.h"

using namespace skew;

namespace skewui {

namespace {
// "1 group", "2 groups"
QString count(qulonglong n, const char* one, const char* many) {
    return QString("%1 %2").arg(n).arg(n == 1 ? QObject::tr(one) : QObject::tr(many));
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Skewscope"));
    setAcceptDrops(true);
    if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_CACHE")) cache_ = std::make_unique<skew::ProfileCache>();
    QSettings st;
    // the analysis settings of the last session (the time window belongs to one profile: not kept)
    options_.bigSkewNs = st.value("analysis/bigSkewNs", qlonglong(options_.bigSkewNs)).toLongLong();
    options_.anomalyThreshold = st.value("analysis/anomalyThreshold", options_.anomalyThreshold).toDouble();
    options_.stepRegex = st.value("analysis/stepRegex", QString()).toString().toStdString();
    buildUi();
    buildMenus();
    if (!restoreGeometry(st.value("window/geometry").toByteArray())) {
        // 1600x900, or most of a smaller screen
        QSize size(1600, 900);
        if (QScreen* s = QGuiApplication::primaryScreen()) size = size.boundedTo(s->availableGeometry().size() * 0.95);
        resize(size);
    }
}

void MainWindow::saveAnalysisOptions() const {
    QSettings st;
    st.setValue("analysis/bigSkewNs", qlonglong(options_.bigSkewNs));
    st.setValue("analysis/anomalyThreshold", options_.anomalyThreshold);
    st.setValue("analysis/stepRegex", QString::fromStdString(options_.stepRegex));
}

void MainWindow::applySplitterShare(QSplitter* sp) {
    // the user's proportions, else the plot gets the larger share: the table 38% of the width; the
    // bottom pane 36% of the right side's height, less when the collective view keeps much of its
    // pane for its tab bar, title, why-lines, axis and legend (large fonts, Qt scale factor 1.5 on
    // 1080p, small windows): at most what leaves the plot itself (its axis rectangle) 1.3x the bottom
    // pane's height, never under the bottom pane's minimum (its tab bars and the Ranks tab's charts,
    // 110 and 90 px: 160 px in all, under the 177 px this gives at 1024x700, where the plot is 1.30x
    // to 1.54x the bottom pane; at factor 1.5 on 1080p 1.30x to 1.44x, gui_scaled_tests). Applied whenever
    // the splitter is shown or resized, and when the view needs more room around its plot than seen
    // before (keepPlotShare). Only proportions the user chose are saved (saveSplitters).
    QSettings st;
    bool horizontal = sp->orientation() == Qt::Horizontal;
    QList<int> f;
    for (const QVariant& v : st.value(horizontal ? "window/mainSplitter" : "window/rightSplitter").toList()) f << v.toInt();
    int total = horizontal ? sp->width() : sp->height();
    QList<int> sizes;
    const bool users = f.size() == 2 && f[0] > 0 && f[1] > 0;
    if (users) {
        sizes = {total * f[0] / 1000, total * f[1] / 1000};
    } else if (horizontal) {
        sizes = {total * 380 / 1000, total * 620 / 1000};
    } else {
        // plot = total - reserve - bottom >= 1.3 * bottom (QSplitter keeps the panes' minimums)
        int bottom = std::min(total * 360 / 1000, std::max(0, total - plotReserve_) * 10 / 23);
        sizes = {total - bottom, bottom};
    }
    sp->setSizes(sizes);
    if (!users) (horizontal ? mainDefault_ : rightDefault_) = sp->sizes();
    (horizontal ? mainShared_ : rightShared_) = true;
}

void MainWindow::keepPlotShare() {
    // the height the collective view's pane keeps around its plot (tab bar, title, why-line, axes,
    // legend) varies with the collective and the width; once it grows past the most seen so far, the
    // default share is applied again for it (never the user's proportions). The most seen is kept,
    // so the panes do not move back and forth while stepping through collectives.
    if (!rightShared_ || !view_->isVisible() || view_->scene().collective < 0 || view_->viewport().size() != view_->size()) return;
    int reserve = rightSplitter_->widget(0)->height() - view_->axisRect()->rect().height();
    if (reserve <= plotReserve_) return;
    plotReserve_ = reserve;
    if (QSettings().contains("window/rightSplitter")) return;
    applySplitterShare(rightSplitter_);
    view_->replot();  // laid out at its new height now, not at the next paint
}

void MainWindow::saveSplitters() const {
    // proportions (per mille), so they fit any window size; not before they were applied, and not
    // the default sizes (they follow the window and the fonts; only the user's choice is kept)
    QSettings st;
    for (auto [sp, key] : {std::pair{mainSplitter_, "window/mainSplitter"}, std::pair{rightSplitter_, "window/rightSplitter"}}) {
        if (!(sp == mainSplitter_ ? mainShared_ : rightShared_)) continue;
        if (!st.contains(key) && sp->sizes() == (sp == mainSplitter_ ? mainDefault_ : rightDefault_)) continue;
        QList<int> s = sp->sizes();
        int total = s.size() == 2 ? s[0] + s[1] : 0;
        if (total > 0) st.setValue(key, QVariantList{s[0] * 1000 / total, s[1] * 1000 / total});
    }
}

MainWindow::~MainWindow() {
    // both loads' workers read this window's cancel flag, progress and cache: none outlives it
    cancel_ = true;
    if (watcher_) watcher_->waitForFinished();
    if (compareWatcher_) compareWatcher_->waitForFinished();
    for (auto* job : snapshotJobs_) job->waitForFinished();  // a snapshot is never left half written
}

// The left side: the filters on two lines (so the table side can be narrow), the collectives
// table with its empty state and Ctrl+C, the shown-count line; the filters and the table's current
// row drive the selection.
QWidget* MainWindow::buildTablePane() {
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(4, 4, 4, 4);
    // filters on two lines, so the table side can be narrow
    auto* fl = new QHBoxLayout;
    auto* fl2 = new QHBoxLayout;
    opFilter_ = new QComboBox;
    opFilter_->setToolTip(tr("Show one collective op"));
    groupFilter_ = new QComboBox;
    groupFilter_->setToolTip(tr("Show one group (communicator)"));
    causeFilter_ = new QComboBox;
    causeFilter_->setToolTip(tr("Show one cause of lateness"));
    causeFilter_->addItem(tr("any cause"));
    // readable words, the identifier as data and tooltip
    for (Cause cause : kAllCauses) {
        causeFilter_->addItem(tr(causeLabel(cause)), QString(causeName(cause)));
        causeFilter_->setItemData(causeFilter_->count() - 1, QString(causeName(cause)), Qt::ToolTipRole);
    }
    for (QComboBox* c : {opFilter_, groupFilter_, causeFilter_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(8);
        c->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    minSkew_ = new QDoubleSpinBox;
    minSkew_->setRange(0, 1e6);
    minSkew_->setDecimals(2);
    minSkew_->setSuffix(tr(" ms"));
    minSkew_->setPrefix(tr("skew \u2265 "));
    minSkew_->setToolTip(tr("Minimum start skew"));
    bigOnly_ = new QCheckBox(tr("big only"));
    bigOnly_->setToolTip(tr("Only collectives whose start skew is above the big threshold (Analysis > Settings)"));
    filterStatus_ = new QLabel;
    filterStatus_->setStyleSheet("QLabel { color: #555; }");
    fl->addWidget(opFilter_);
    fl->addWidget(groupFilter_);
    fl->addWidget(causeFilter_);
    fl2->addWidget(minSkew_);
    fl2->addWidget(bigOnly_);
    fl2->addStretch(1);
    lv->addLayout(fl);
    lv->addLayout(fl2);
    table_ = new QTableView;
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CollectiveModel::Group, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // several rows can be selected for copying; the current row drives the view
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setTextElideMode(Qt::ElideMiddle);
    lateRankLabels_ = new RankLabelDelegate(table_);  // elided keeping what tells the files apart
    table_->setItemDelegateForColumn(CollectiveModel::LateRank, lateRankLabels_);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->setAlternatingRowColors(true);
    auto* copy = new QAction(tr("Copy Rows"), table_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &MainWindow::copySelectedRows);
    table_->addAction(copy);
    filterEmpty_ = new QLabel;
    filterEmpty_->setAlignment(Qt::AlignCenter);
    filterEmpty_->setWordWrap(true);
    filterEmpty_->setStyleSheet("QLabel { color: #555; padding: 20px; }");
    filterEmpty_->setText(tr("No collective matches these filters. <a href=\"clear\">Clear the filters</a>"));
    connect(filterEmpty_, &QLabel::linkActivated, this, [this] { clearFilters(); });
    tableStack_ = new QStackedWidget;
    tableStack_->addWidget(table_);
    tableStack_->addWidget(filterEmpty_);
    lv->addWidget(tableStack_);
    lv->addWidget(filterStatus_);

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (!cur.isValid() || selecting_) return;
        int row = filter_->mapToSource(cur).row();
        if (row != current_) selectCollective(row);
    });
    connect(opFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setOp(i <= 0 ? QString() : opFilter_->itemText(i));
        followFilter();
    });
    connect(groupFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setGroup(i <= 0 ? -1 : i - 1);
        followFilter();
    });
    connect(causeFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setCause(i <= 0 ? QString() : causeFilter_->itemData(i).toString());
        followFilter();
    });
    connect(minSkew_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        filter_->setMinSkewMs(v);
        followFilter();
    });
    connect(bigOnly_, &QCheckBox::toggled, this, [this](bool on) {
        filter_->setBigOnly(on);
        followFilter();
    });
    return left;
}

// The bottom pane: Answers, Details and Ranks (table and chart side by side); returns the Ranks box,
// which the run views' tabs move next to the collective view.
QSplitter* MainWindow::buildBottomTabs() {
    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    details_->setPlaceholderText(tr("Click a bar in the collective view to see its details."));
    ranksTable_ = new QTableView;
    ranksTable_->setModel(ranksModel_);
    ranksTable_->verticalHeader()->hide();
    ranksTable_->horizontalHeader()->setStretchLastSection(true);
    ranksRankLabels_ = new RankLabelDelegate(ranksTable_);
    ranksTable_->setItemDelegateForColumn(RanksModel::Rank, ranksRankLabels_);
    ranksChart_ = new QCustomPlot;
    ranksChart_->setMinimumHeight(110);  // the bottom pane's minimum, with the tab bars: see applySplitterShare
    // the legend above the bars, never over them
    ranksChart_->legend->setVisible(true);
    ranksChart_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    ranksChart_->legend->setBorderPen(Qt::NoPen);
    ranksChart_->legend->setIconSize(14, 10);  // small swatches: the legend's width is the chart's minimum, beside the table
    ranksChart_->plotLayout()->insertRow(0);
    ranksChart_->plotLayout()->addElement(0, 0, ranksChart_->legend);
    ranksChart_->plotLayout()->setRowStretchFactor(0, 0.001);
    ranksChart_->installEventFilter(this);
    auto* ranksBox = new QSplitter(Qt::Horizontal);
    ranksBox->addWidget(ranksTable_);
    ranksBox->addWidget(ranksChart_);
    ranksBox->setStretchFactor(0, 1);
    ranksBox->setStretchFactor(1, 1);
    ranksBox_ = ranksBox;
    ranksBox->installEventFilter(this);
    connect(ranksBox, &QSplitter::splitterMoved, this, [this] { ranksBoxMoved_ = true; });
    findings_ = new QTextBrowser;
    findings_->setOpenLinks(false);
    connect(findings_, &QTextBrowser::anchorClicked, this, &MainWindow::openLink);
    tabs_ = new QTabWidget;
    // the answers first: the page opens with them (and ends with what the next capture should record)
    tabs_->addTab(findings_, tr("Answers"));
    tabs_->addTab(details_, tr("Details"));
    tabs_->addTab(ranksBox, tr("Ranks"));
    return ranksBox;
}

// The warning bar above everything: selectable text and a close button.
QWidget* MainWindow::buildWarningBar() {
    auto* bar = new QWidget;
    bar->setObjectName("warningBar");
    bar->setStyleSheet("#warningBar { background: #fff4cc; border: 1px solid #e0c060; }");
    auto* wl = new QHBoxLayout(bar);
    wl->setContentsMargins(6, 3, 3, 3);
    warningLabel_ = new QLabel;
    warningLabel_->setWordWrap(true);
    warningLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* closeWarnings = new QToolButton;
    closeWarnings->setText(QString::fromUtf8("\u2715"));
    closeWarnings->setToolTip(tr("Hide the warnings"));
    closeWarnings->setAutoRaise(true);
    connect(closeWarnings, &QToolButton::clicked, bar, &QWidget::hide);
    wl->addWidget(warningLabel_, 1);
    wl->addWidget(closeWarnings, 0, Qt::AlignTop);
    bar->hide();
    return bar;
}

// The status bar: the status text, the loading progress (polled every 100 ms) and Cancel.
void MainWindow::buildStatusBar() {
    statusLabel_ = new QLabel;
    statusLabel_->setObjectName("statusText");
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
}

void MainWindow::buildUi() {
    model_ = new CollectiveModel(this);
    filter_ = new CollectiveFilter(this);
    filter_->setSourceModel(model_);
    ranksModel_ = new RanksModel(this);

    QWidget* left = buildTablePane();

    view_ = new CollectiveView;
    view_->setMinimumHeight(300);
    QSplitter* ranksBox = buildBottomTabs();

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(buildRunViews(view_, ranksBox));
    right->addWidget(tabs_);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    auto* main = new QSplitter(Qt::Horizontal);
    main->addWidget(left);
    main->addWidget(right);
    main->setStretchFactor(0, 2);
    main->setStretchFactor(1, 3);
    main->setChildrenCollapsible(false);
    left->setMinimumWidth(240);
    rightSplitter_ = right;
    mainSplitter_ = main;
    main->installEventFilter(this);
    right->installEventFilter(this);
    connect(main, &QSplitter::splitterMoved, this, &MainWindow::saveSplitters);
    connect(right, &QSplitter::splitterMoved, this, &MainWindow::saveSplitters);

    warningBar_ = buildWarningBar();
    emptyLabel_ = new QLabel;
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    emptyLabel_->setStyleSheet("QLabel { color: #555; font-size: 15px; padding: 40px; }");
    stack_ = new QStackedWidget;
    stack_->addWidget(emptyLabel_);
    stack_->addWidget(main);
    stack_->addWidget(buildCompareView());
    auto* central = new QWidget;
    auto* cv = new QVBoxLayout(central);
    cv->setContentsMargins(0, 0, 0, 0);
    cv->addWidget(warningBar_);
    cv->addWidget(stack_);
    setCentralWidget(central);
    emptyLabel_->setText(emptyStateText());

    buildStatusBar();

    connect(view_, &CollectiveView::barClicked, this, &MainWindow::onBarClicked);
    // a new layout of the view may need more room around the plot (wider legend, longer why-line)
    connect(view_, &CollectiveView::laidOut, this, &MainWindow::keepPlotShare, Qt::QueuedConnection);
    view_->setToolTipProvider([this](const Bar& b) {
        return session_ ? QString::fromStdString(barSummary(session_->profile, view_->scene(), b)) : QString();
    });
    updateFilterStatus();
}

void MainWindow::setFilters(const QString& op, int group, const QString& cause, double minSkewMs, bool bigOnly) {
    {
        // one update for the whole set
        QSignalBlocker b1(opFilter_), b2(groupFilter_), b3(causeFilter_), b4(minSkew_), b5(bigOnly_);
        int oi = op.isEmpty() ? 0 : opFilter_->findText(op);
        opFilter_->setCurrentIndex(std::max(oi, 0));
        groupFilter_->setCurrentIndex(group >= 0 && group + 1 < groupFilter_->count() ? group + 1 : 0);
        int ci = cause.isEmpty() ? 0 : causeFilter_->findData(cause);
        causeFilter_->setCurrentIndex(std::max(ci, 0));
        minSkew_->setValue(minSkewMs);
        bigOnly_->setChecked(bigOnly);
    }
    filter_->setOp(opFilter_->currentIndex() <= 0 ? QString() : opFilter_->currentText());
    filter_->setGroup(groupFilter_->currentIndex() - 1);
    filter_->setCause(causeFilter_->currentIndex() <= 0 ? QString() : causeFilter_->currentData().toString());
    filter_->setMinSkewMs(minSkew_->value());
    filter_->setBigOnly(bigOnly_->isChecked());
    followFilter();
}

void MainWindow::clearFilters() { setFilters({}, -1, {}, 0, false); }

void MainWindow::followFilter() {
    updateFilterStatus();
    updateRanksChart();
    if (!session_) return;
    if (current_ < 0 && parked_ >= 0 && filter_->accepts(parked_)) {
        // the filters list again the collective that was shown before they hid every row
        selectCollective(parked_);
        return;
    }
    if (current_ >= 0 && filter_->accepts(current_)) {
        // still listed: keep it, and keep it in sight
        QModelIndex proxy = filter_->mapFromSource(model_->index(current_, 0));
        selecting_ = true;
        table_->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        selecting_ = false;
        table_->scrollTo(proxy);
        return;
    }
    if (filter_->rowCount() > 0) {
        selectCollective(filter_->mapToSource(filter_->index(0, 0)).row());
        return;
    }
    // nothing listed: nothing shown
    if (current_ >= 0) parked_ = current_;
    current_ = -1;
    view_->setScene({});
    view_->setEmptyText(tr("No collective matches the filters."));
    details_->clear();
}

QString MainWindow::filterStatusText() const {
    if (!session_) return {};
    int n = filter_->rowCount(), total = model_->rowCount();
    return n == total ? tr("%1 shown").arg(count(qulonglong(total), "collective", "collectives"))
                      : tr("%1 of %2 shown").arg(n).arg(count(qulonglong(total), "collective", "collectives"));
}

void MainWindow::updateFilterStatus() {
    filterStatus_->setText(filterStatusText());
    tableStack_->setCurrentIndex(showsFilterEmptyState() ? 1 : 0);
}

bool MainWindow::showsFilterEmptyState() const { return session_ && model_->rowCount() > 0 && filter_->rowCount() == 0; }

QString MainWindow::selectedRowsTsv() const {
    QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList cols;
    QHeaderView* h = table_->horizontalHeader();
    std::vector<int> order;  // visual order, hidden columns left out
    for (int v = 0; v < h->count(); ++v)
        if (!h->isSectionHidden(h->logicalIndex(v))) order.push_back(h->logicalIndex(v));
    for (int c : order) cols << filter_->headerData(c, Qt::Horizontal).toString();
    QString out = cols.join('\t') + '\n';
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c : order) cells << filter_->index(r.row(), c).data().toString().replace('\t', ' ').replace('\n', ' ');
        out += cells.join('\t') + '\n';
    }
    return rows.isEmpty() ? QString() : out;
}

void MainWindow::copySelectedRows() const {
    QString tsv = selectedRowsTsv();
    if (!tsv.isEmpty()) QApplication::clipboard()->setText(tsv);
}

void MainWindow::sizeTableColumns() {
    // widths from the widest text of each column over all rows, so numbers are never elided (the
    // view's own sizing samples a few rows); rank labels are capped and elided in the middle
    QFontMetrics fm(table_->font());
    QFontMetrics hfm(table_->horizontalHeader()->font());
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c) {
        int w = hfm.horizontalAdvance(model_->headerData(c, Qt::Horizontal).toString()) + 24;  // room for the sort arrow
        QString longest;
        for (int r = 0; r < model_->rowCount(); ++r) {
            QString t = model_->index(r, c).data().toString();
            if (t.size() > longest.size()) longest = t;
            if (c == CollectiveModel::LateRank || c == CollectiveModel::Op) w = std::max(w, fm.horizontalAdvance(t) + 12);
        }
        // digits are of one width in table fonts: the longest text is the widest, plus one digit of slack
        if (c != CollectiveModel::LateRank && c != CollectiveModel::Op) w = std::max(w, fm.horizontalAdvance(longest + "0") + 12);
        if (c == CollectiveModel::LateRank) w = std::min(w, rankColumnCap(fm));
        table_->setColumnWidth(c, w);
    }
}

int MainWindow::rankColumnCap(const QFontMetrics& fm) { return fm.horizontalAdvance(QString(18, 'x')) + 12; }

void MainWindow::sizeRanksColumns() {
    // to their content, the rank labels capped as in the collectives table (elided keeping what
    // tells the files apart), so that the numbers stay in view
    ranksTable_->resizeColumnsToContents();
    const int cap = rankColumnCap(QFontMetrics(ranksTable_->font()));
    if (ranksTable_->columnWidth(RanksModel::Rank) > cap) ranksTable_->setColumnWidth(RanksModel::Rank, cap);
    sizeRanksBox();
}

void MainWindow::sizeRanksBox() {
    // the splitter alone sized the table from the tab's first, hidden, layout (70 px at 1024x700)
    if (ranksBoxMoved_ || !ranksBox_->isVisible() || ranksBox_->count() < 2) return;
    const int total = ranksBox_->width() - ranksBox_->handleWidth();
    int want = 2 * ranksTable_->frameWidth() + ranksTable_->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < RanksModel::ColumnCount; ++c) want += ranksTable_->columnWidth(c);
    const int table = std::min(want, total * 60 / 100);
    ranksBox_->setSizes({table, total - table});
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
    QAction* compare = file->addAction(tr("&Compare..."), this, &MainWindow::chooseAndCompare);
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compare->setToolTip(tr("Compare two captures: pick the A (before) exports, then the B (after) exports"));
    QAction* reload = file->addAction(tr("Re&load"), this, [this] {
        if (inCompareMode()) {
            openComparison(compareA_, compareB_);
        } else if (session_) {
            QStringList f;
            for (const auto& s : session_->files) f << QString::fromStdString(s);
            openFiles(f);
        }
    });
    reload->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction* ev = file->addAction(tr("&Export View (PNG, SVG, PDF)..."), this, &MainWindow::chooseAndExportView);
    ev->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* ew = file->addAction(tr("Export &Window as PNG..."), this, &MainWindow::chooseAndExportWindow);
    ew->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction* er = file->addAction(tr("Export &Report (Markdown, CSV, JSON)..."), this, &MainWindow::chooseAndExportReport);
    er->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* nav = menuBar()->addMenu(tr("&Navigate"));
    // in compare mode they act on the compare view (the collective of the side selected from)
    nav->addAction(tr("&Next Collective"), QKeySequence(Qt::Key_N), this, [this] { stepCollective(+1); });
    nav->addAction(tr("&Previous Collective"), QKeySequence(Qt::Key_P), this, [this] { stepCollective(-1); });
    nav->addAction(tr("Next &Big Late Arriver"), QKeySequence(Qt::Key_B), this, [this] { stepBigCollective(+1); });
    nav->addAction(tr("Previous Bi&g Late Arriver"), QKeySequence(Qt::SHIFT | Qt::Key_B), this, [this] { stepBigCollective(-1); });
    nav->addSeparator();
    // both key sets work (the plain keys also in the view itself): the menu shows both. They act on
    // the view tab shown: the single keys are window shortcuts, so a run view never sees them itself
    auto twoKeys = [&](const QString& text, QList<QKeySequence> keys, auto fn) {
        QStringList shown;
        for (const auto& k : keys) shown << k.toString(QKeySequence::NativeText);
        QAction* a = nav->addAction(text + "\t" + shown.mid(0, 2).join(", "), this, fn);
        a->setShortcuts(keys);
        return a;
    };
    twoKeys(tr("Zoom &In"), {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal),
                            QKeySequence(Qt::Key_Equal)},
            [this] { zoomShownView(0.8); });
    twoKeys(tr("Zoom &Out"), {QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence(Qt::Key_Minus)}, [this] { zoomShownView(1.25); });
    twoKeys(tr("&Fit View"), {QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::Key_0), QKeySequence(Qt::Key_Home)},
            [this] { fitShownView(); })
        ->setToolTip(tr("The collective, the whole run (timeline), every step (step map) or every collective (heatmap)"));
    nav->addAction(tr("Show &Late Arriver Details"), QKeySequence(Qt::Key_L), this, [this] {
        if (inCompareMode()) {
            if (!compareView_->showLateArriver()) statusLabel_->setText(tr("The collective shown has no late arriver."));
            return;
        }
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
        std::unique_ptr<QDialog> d(shortcutsDialog(this));
        d->exec();
    });
    help->addAction(tr("&About Skewscope"), this, [this] {
        QMessageBox::about(this, tr("About Skewscope"),
                           tr("Skewscope %1\nWho arrived late to each NCCL collective, and why.").arg(SKEWSCOPE_VERSION));
    });
    updateRecentMenu();
}

QString MainWindow::shortcutsHtml() {
    // grouped by where the keys act, so the key column holds only keys and each description fits
    // on one line beside it
    struct Row {
        const char* keys;
        const char* what;  // nullptr: a section heading
    };
    const Row rows[] = {
        {"In the window", nullptr},
        {"Ctrl+O", "open exports"},
        {"Ctrl+Shift+O", "compare two captures (A before, B after)"},
        {"F5", "reload, keeping the selected collective and the filters"},
        {"Ctrl+,", "analysis settings"},
        {"N / P", "next / previous collective in the table"},
        {"B / Shift+B", "next / previous big late arriver in the table"},
        {"L", "details of the late arriver"},
        {"+ / -  (Ctrl++ / Ctrl+-)", "zoom the view shown in / out"},
        {"0, Home  (Ctrl+0)", "fit the view shown: the collective, the whole run, every step"},
        {"Ctrl+C", "copy the selected table rows (tab-separated)"},
        {"Ctrl+E", "export the view shown (PNG, SVG, PDF)"},
        {"Ctrl+Shift+E", "export the window (PNG)"},
        {"Ctrl+Shift+R", "export the report (Markdown, CSV, JSON)"},
        {"Comparing two captures", nullptr},
        {"N / P, B / Shift+B", "step through the pair's group on the side selected"},
        {"Collective view", nullptr},
        {"Left / Right, drag", "pan"},
        {"wheel", "zoom at the cursor"},
        {"Timeline", nullptr},
        {"wheel, Ctrl+wheel, W / S", "zoom in / out at the cursor"},
        {"drag, A / D", "pan (drag also scrolls the rows)"},
        {"Shift+wheel, Up / Down", "scroll the rows"},
        {"drag on the ruler", "zoom to that range (marked with its length)"},
        {"Shift+drag, Z, Esc", "measure a range, zoom to it, clear it"},
        {"F", "fit the selected collective"},
    };
    QString html = "<table cellspacing=\"0\" cellpadding=\"3\">";
    for (const Row& r : rows) {
        if (!r.what) {
            html += QString("<tr><td colspan=\"2\" style=\"padding-top: 8px; color: #10305f;\"><b>%1</b></td></tr>").arg(tr(r.keys).toHtmlEscaped());
            continue;
        }
        html += QString("<tr><td style=\"padding-right: 18px; white-space: nowrap;\"><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString(r.keys).toHtmlEscaped(), tr(r.what).toHtmlEscaped());
    }
    return html + "</table>";
}

QDialog* MainWindow::shortcutsDialog(QWidget* parent) {
    auto* d = new QDialog(parent);
    d->setWindowTitle(tr("Keyboard shortcuts"));
    auto* layout = new QVBoxLayout(d);
    auto* text = new QTextBrowser;
    text->setObjectName("shortcuts");
    text->setFrameShape(QFrame::NoFrame);
    text->setHtml(shortcutsHtml());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
    layout->addWidget(text);
    layout->addWidget(buttons);
    // as wide and high as the table at its natural width (nothing wraps), within the screen
    QTextDocument* doc = text->document();
    doc->setTextWidth(-1);
    const QSize natural(int(std::ceil(doc->idealWidth())) + 2 * text->frameWidth(), int(std::ceil(doc->size().height())) + 2 * text->frameWidth());
    const QMargins m = layout->contentsMargins();
    QSize want(natural.width() + m.left() + m.right() + text->verticalScrollBar()->sizeHint().width(),
               natural.height() + m.top() + m.bottom() + layout->spacing() + buttons->sizeHint().height());
    QScreen* screen = parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen();
    if (screen) want = want.boundedTo(screen->availableGeometry().size() * 0.9);
    d->resize(want);
    return d;
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
    return tr("%1  |  Nsight Systems %2  |  %3  |  %4 (%5 complete) in %6  |  loaded in %7 s")
        .arg(files.join(", "), versions.join(", "))
        .arg(count(p.ranks.size(), "rank", "ranks"))
        .arg(count(session_->analysis.collectives.size(), "collective", "collectives"))
        .arg(complete)
        .arg(count(session_->analysis.groups.size(), "group", "groups"))
        .arg(session_->loadSeconds + session_->analyzeSeconds, 0, 'f', 2);
}


void MainWindow::setAnalysisOptions(const AnalysisOptions& o) {
    options_ = o;
    saveAnalysisOptions();
    if (inCompareMode()) {
        openComparison(compareA_, compareB_);
    } else if (session_) {
        QStringList f;
        for (const auto& s : session_->files) f << QString::fromStdString(s);
        openFiles(f);  // the clock refinement changes the profile: analyse a fresh load
    }
}

void MainWindow::editSettings() {
    QDialog d(this);
    d.setWindowTitle(tr("Analysis settings"));
    // what the dialog shows, in the user's units (core converts, as for the command line); without
    // a window yet, the exports' whole time range is offered to narrow down
    AnalysisSettings shown = analysisSettings(options_);
    if (!options_.hasTrim && session_) {
        AnalysisOptions whole = options_;
        whole.hasTrim = true, whole.trimStartNs = session_->profile.timeStart, whole.trimEndNs = session_->profile.timeEnd + 1;
        const AnalysisSettings w = analysisSettings(whole);
        shown.trimStartS = w.trimStartS, shown.trimEndS = w.trimEndS;
    }
    auto* form = new QFormLayout(&d);
    auto* big = new QDoubleSpinBox;
    big->setRange(0, 1e6);
    big->setDecimals(2);
    big->setSuffix(tr(" ms"));
    big->setValue(shown.bigSkewMs);
    auto* anomaly = new QDoubleSpinBox;
    anomaly->setRange(0.1, 1000);
    anomaly->setDecimals(1);
    anomaly->setSuffix(tr(" x the op's mean"));
    anomaly->setValue(shown.anomalyThreshold);
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
    t0->setValue(shown.trimStartS);
    t1->setValue(shown.trimEndS);
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
        pendingCompareA_.clear();
        pendingCompareB_.clear();
        return;
    }
    loading_ = true;
    loadingFiles_ = files;
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
    AnalysisOptions options = options_;
    watcher_->setFuture(QtConcurrent::run([this, paths, options]() -> LoadResult {
        LoadResult r;
        try {
            r.session = loadSession(paths, options, [this](double f) {
                progress_ = int(f * 100);
                return !cancel_.load();
            }, cache_.get());
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
    if (startPending()) return;
    if (r.cancelled) {
        statusLabel_->setText(tr("Loading cancelled. ") + statusText());
        emit loadFailed(tr("cancelled"));
        return;
    }
    if (!r.error.empty()) {
        statusLabel_->setText(statusText());
        removeRecent(loadingFiles_);  // a recent entry that no longer opens leaves the menu
        QString msg = QString::fromStdString(r.error);
        emit loadFailed(msg);
        if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_DIALOGS")) QMessageBox::warning(this, tr("Cannot open"), msg);
        return;
    }
    setSession(r.session);
}

void MainWindow::setSession(std::shared_ptr<Session> s) {
    // a reload or a re-analysis of the same files keeps the selected collective and the filters
    bool sameFiles = session_ && s && session_->files == s->files;
    int keepGroup = -1;
    uint32_t keepIndex = 0;
    // (or the one shown before the filters hid every row)
    if (const int keep = current_ >= 0 ? current_ : parked_; sameFiles && keep >= 0) {
        keepGroup = session_->analysis.collectives[size_t(keep)].group;
        keepIndex = session_->analysis.collectives[size_t(keep)].index;
    }
    QString keepOp = opFilter_->currentIndex() > 0 ? opFilter_->currentText() : QString();
    int keepGroupFilter = groupFilter_->currentIndex() - 1;
    session_ = s;
    compare_.reset();  // opening files leaves compare mode
    current_ = -1;
    parked_ = -1;
    view_->setScene({});  // the old scene's indices mean nothing in the new profile
    view_->setEmptyText({});
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
    QStringList warnings;
    for (const std::string& w : sessionWarnings(*session_)) warnings << QString::fromStdString(w);
    warningLabel_->setText(warnings.isEmpty() ? QString() : tr("Warnings: ") + warnings.join("\n"));
    warningBar_->setVisible(!warnings.isEmpty());
    findings_->setMarkdown(QString::fromStdString(analysisMarkdown(p, a, MarkdownOptions{true})));
    statusLabel_->setText(statusText());
    QString empty = emptyStateText();
    emptyLabel_->setText(empty);
    stack_->setCurrentIndex(empty.isEmpty() ? 1 : 0);
    const RankLabelElider labels = RankLabelElider::of(p);
    lateRankLabels_->setElider(labels);
    ranksRankLabels_->setElider(labels);
    sizeTableColumns();
    setRunViewsSession();
    setWindowTitle(tr("Skewscope - %1").arg(QFileInfo(QString::fromStdString(s->files.front())).fileName()));
    QStringList files;
    for (const auto& f : s->files) files << QString::fromStdString(f);
    addRecent(files);  // only files that opened
    // the filters: the same ones on a reload; the op and group ones reset for other files
    setFilters(sameFiles ? keepOp : QString(), sameFiles ? keepGroupFilter : -1, causeFilter_->currentData().toString(),
               minSkew_->value(), bigOnly_->isChecked());
    int pick = -1;
    if (const Collective* kept = keepGroup >= 0 ? a.find(keepGroup, keepIndex) : nullptr) {
        int c = int(kept - a.collectives.data());
        if (filter_->accepts(c)) pick = c;
        else if (filter_->rowCount() == 0) parked_ = c;  // the filters still list nothing: kept for when they do
    }
    // else open on the biggest late arriver the filters show: the collective a user came for
    if (pick < 0) pick = worstCollective(a, [&](int c) { return filter_->accepts(c); });
    if (pick >= 0) selectCollective(pick);
    else followFilter();
    sizeRanksColumns();
    tabs_->setCurrentWidget(findings_);  // a new capture opens on its answers
    storeSnapshots(session_);
    emit sessionLoaded();
}

void MainWindow::storeSnapshots(SessionPtr s) {
    if (!cache_ || !hasFreshFiles(s->profile)) return;
    // in the background, after the profile is shown: the session is immutable and kept alive here
    skew::ProfileCache* cache = cache_.get();
    auto job = QtConcurrent::run([s, cache]() -> QString { return QString::fromStdString(storeFreshSnapshots(cache, s->profile)); });
    auto* watch = new QFutureWatcher<QString>(this);
    snapshotJobs_.push_back(watch);
    connect(watch, &QFutureWatcher<QString>::finished, this, [this, watch] {
        QString error = watch->result();
        if (!error.isEmpty()) statusBar()->showMessage(error + tr("; the next open reads the export again"), 10000);
        snapshotJobs_.removeOne(watch);  // held only while it runs
        watch->deleteLater();
    });
    watch->setFuture(job);
}

void MainWindow::updateRanksChart() {
    // the group the filter shows, else the selected collective's group
    int g = groupFilter_->currentIndex() > 0 ? groupFilter_->currentIndex() - 1 : 0;
    if (groupFilter_->currentIndex() <= 0 && session_ && current_ >= 0) g = session_->analysis.collectives[size_t(current_)].group;
    if (!session_ || size_t(g) >= session_->analysis.groups.size()) g = -1;
    bool same = g == ranksGroup_ && ranksFor_ == session_.get();
    ranksGroup_ = g;
    ranksFor_ = session_.get();
    tabs_->setTabText(tabs_->indexOf(ranksTable_->parentWidget()), g >= 0 ? tr("Ranks: group %1").arg(g) : tr("Ranks"));
    if (same) return;
    skewCdf_->setGroup(session_, g);  // the distributions of the same group, named in their title
    ranksModel_->setSession(session_, std::max(g, 0));
    sizeRanksColumns();
    ranksChart_->clearPlottables();
    if (g < 0) {
        ranksChart_->replot();
        return;
    }
    const Group& grp = session_->analysis.groups[size_t(g)];
    QVector<double> keys, all, rest;
    ranksLabels_.clear();
    for (size_t i = 0; i < grp.perRank.size(); ++i) {
        keys << double(i);
        all << grp.perRank[i].meanLatenessNs / 1e6;
        rest << grp.perRank[i].meanLatenessExclBigNs / 1e6;
        ranksLabels_ << QString::fromStdString(session_->profile.ranks[size_t(grp.perRank[i].rank)].label);
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
    ranksChart_->xAxis->setRange(-0.6, double(keys.size()) - 0.4);
    ranksChart_->yAxis->setLabel(tr("ms"));
    ranksChart_->yAxis->rescale();
    ranksChart_->yAxis->setRangeLower(0);
    ranksChart_->yAxis->setRangeUpper(std::max(0.001, ranksChart_->yAxis->range().upper * 1.1));
    layoutRanksTicks();
}

void MainWindow::layoutRanksTicks() {
    // every rank's label is drawn: horizontal when they fit under their bars, else upright and
    // elided in the middle (QCustomPlot leaves out a label that would cross the widget's edge)
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QFontMetrics fm(ranksChart_->xAxis->tickLabelFont());
    int n = std::max(1, int(ranksLabels_.size()));
    int plotW = ranksChart_->axisRect()->width() > 0 ? ranksChart_->axisRect()->width() : ranksChart_->width() - 60;
    double pitch = double(std::max(plotW, 1)) / (n + 0.2);
    int widest = 0;
    for (const QString& l : ranksLabels_) widest = std::max(widest, fm.horizontalAdvance(l));
    // too wide for their bars: elided in the middle to the bar pitch, or upright when the pitch is
    // too narrow for a readable piece (many ranks), elided to a third of the chart's height
    bool upright = widest + 8 > pitch && pitch < 64;
    int maxW = upright ? std::max(40, ranksChart_->height() / 3) : int(pitch) - 8;
    const RankLabelElider elider = session_ ? RankLabelElider::of(session_->profile) : RankLabelElider();
    for (int i = 0; i < ranksLabels_.size(); ++i) ticker->addTick(double(i), elider.elide(ranksLabels_[i], fm, maxW));
    ranksChart_->xAxis->setTicker(ticker);
    ranksChart_->xAxis->setTickLabelRotation(upright ? 90 : 0);
    // a short chart (a small window's bottom pane) with fewer value ticks, so that their labels do not touch
    ranksChart_->yAxis->ticker()->setTickCount(ranksChart_->axisRect()->height() < 80 ? 3 : 5);
    ranksChart_->replot();
}

bool MainWindow::eventFilter(QObject* o, QEvent* e) {
    // the splitters keep their proportions when the window is resized (QSplitter alone would give
    // the whole change to the stretchier side)
    if ((e->type() == QEvent::Resize || e->type() == QEvent::Show) && (o == mainSplitter_ || o == rightSplitter_) &&
        static_cast<QWidget*>(o)->isVisible())
        applySplitterShare(static_cast<QSplitter*>(o));
    if (o == ranksChart_ && e->type() == QEvent::Resize && !ranksLabels_.isEmpty()) QTimer::singleShot(0, this, &MainWindow::layoutRanksTicks);
    if (o == ranksBox_ && (e->type() == QEvent::Resize || e->type() == QEvent::Show)) sizeRanksBox();
    return QMainWindow::eventFilter(o, e);
}

void MainWindow::revealInTable(int c) {
    const unsigned by = filter_->hiddenBy(c);
    if (by == 0) return;
    const Collective& col = session_->analysis.collectives[size_t(c)];
    QStringList cleared;
    if (by & CollectiveFilter::ByOp) cleared << tr("op %1").arg(opFilter_->currentText());
    if (by & CollectiveFilter::ByGroup) cleared << tr("group %1").arg(groupFilter_->currentIndex() - 1);
    if (by & CollectiveFilter::ByCause) cleared << tr("cause %1").arg(causeFilter_->currentText());
    if (by & CollectiveFilter::ByMinSkew) cleared << minSkew_->text();
    if (by & CollectiveFilter::ByBigOnly) cleared << tr("big only");
    // shown first, so that the filters' change keeps it instead of moving to the first row
    current_ = c;
    setFilters(by & CollectiveFilter::ByOp ? QString() : (opFilter_->currentIndex() > 0 ? opFilter_->currentText() : QString()),
               by & CollectiveFilter::ByGroup ? -1 : groupFilter_->currentIndex() - 1,
               by & CollectiveFilter::ByCause ? QString() : causeFilter_->currentData().toString(),
               by & CollectiveFilter::ByMinSkew ? 0.0 : minSkew_->value(), (by & CollectiveFilter::ByBigOnly) ? false : bigOnly_->isChecked());
    statusLabel_->setText(tr("Filters cleared to show G%1 #%2: %3.").arg(col.group).arg(col.index).arg(cleared.join(", ")));
}

void MainWindow::selectCollective(int c) {
    if (!session_ || c < 0 || size_t(c) >= session_->analysis.collectives.size()) return;
    revealInTable(c);  // the table always lists and selects the collective shown (a click in a run view)
    current_ = c;
    parked_ = -1;
    view_->setEmptyText({});
    view_->setScene(buildScene(session_->profile, session_->analysis, c));
    selectInRunViews(c);
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
    details_->clear();
    if (col.lateSlot >= 0) {
        const GroupLane& gl = session_->analysis.groups[size_t(col.group)].lanes[size_t(col.lateSlot)];
        uint32_t k = session_->analysis.slotKernel(col, size_t(col.lateSlot));
        details_->setPlainText(QString::fromStdString(kernelDetails(session_->profile, session_->analysis, c, gl.rank, gl.lane, k, &session_->nvtx)));
        view_->setHighlight(gl.rank, gl.lane, k);
    }
    updateRanksChart();
    keepPlotShare();
}

bool MainWindow::selectCollective(int group, uint32_t index) {
    const Collective* col = session_ ? session_->analysis.find(group, index) : nullptr;
    if (!col) return false;
    selectCollective(int(col - session_->analysis.collectives.data()));  // clears the filters that hide it
    return true;
}

void MainWindow::openLink(const QUrl& url) {
    // skewscope://collective/G/K
    QStringList parts = url.path().split('/', Qt::SkipEmptyParts);
    if (url.scheme() != "skewscope" || url.host() != "collective" || parts.size() != 2) return;
    bool ok1 = false, ok2 = false;
    int g = parts[0].toInt(&ok1);
    uint32_t k = parts[1].toUInt(&ok2);
    if (ok1 && ok2 && selectCollective(g, k)) view_->setFocus();
}

void MainWindow::stepCollective(int delta) {
    if (inCompareMode()) {
        if (!compareView_->stepCollective(delta, false)) statusLabel_->setText(delta > 0 ? tr("Last collective of the group.") : tr("First collective of the group."));
        return;
    }
    int rows = filter_->rowCount();
    if (rows == 0) return;
    QModelIndex cur = filter_->mapFromSource(model_->index(std::max(current_, 0), 0));
    int r = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : rows - 1);
    r = std::clamp(r, 0, rows - 1);
    selectCollective(filter_->mapToSource(filter_->index(r, 0)).row());
}

void MainWindow::stepBigCollective(int delta) {
    if (inCompareMode()) {
        if (!compareView_->stepCollective(delta, true))
            statusLabel_->setText(delta > 0 ? tr("No later big late arriver in this group.") : tr("No earlier big late arriver in this group."));
        return;
    }
    if (!session_) return;
    // in the table's order, among the rows the filters show
    const auto& cs = session_->analysis.collectives;
    int n = filter_->rowCount();
    QModelIndex cur = current_ >= 0 ? filter_->mapFromSource(model_->index(current_, 0)) : QModelIndex();
    int start = cur.isValid() ? cur.row() : (delta > 0 ? -1 : n);
    for (int i = 1; i <= n; ++i) {
        int r = ((start + delta * i) % n + n) % n;
        int c = filter_->mapToSource(filter_->index(r, 0)).row();
        if (cs[size_t(c)].big && cs[size_t(c)].complete) {
            selectCollective(c);
            return;
        }
    }
    statusLabel_->setText(tr("No big late arrivers (start skew > %1) in the table.").arg(
        QString::fromStdString(formatDuration(session_->analysis.options.bigSkewNs))));
}

void MainWindow::onBarClicked(int rank, int lane, quint32 kernel) {
    if (!session_) return;
    details_->setPlainText(QString::fromStdString(kernelDetails(session_->profile, session_->analysis, current_, rank, lane, kernel, &session_->nvtx)));
    view_->setHighlight(rank, lane, kernel);
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

QString MainWindow::exportStartPath(const QString& fileName) const {
    QString dir = QSettings().value("export/folder").toString();
    return dir.isEmpty() || !QFileInfo(dir).isDir() ? fileName : QDir(dir).filePath(fileName);
}

void MainWindow::rememberExportFolder(const QString& path) {
    QSettings().setValue("export/folder", QFileInfo(path).absolutePath());
}

// An export never replaces one of the open exports (same file by device and inode, whatever the
// spelling or link): the command line refuses --output the same way.
bool MainWindow::isOpenInput(const QString& path, QString* error) const {
    std::vector<std::string> open;
    for (const SessionPtr& s : {session_, compare_ ? compare_->a : SessionPtr(), compare_ ? compare_->b : SessionPtr()})
        if (s) open.insert(open.end(), s->files.begin(), s->files.end());
    for (const auto& f : open)
        if (sameFile(path.toStdString(), f)) {
            if (error) *error = tr("%1 is the open export %2; refusing to overwrite an export").arg(path, QString::fromStdString(f));
            return true;
        }
    return false;
}

bool MainWindow::exportView(const QString& path, int w, int h, QString* error) {
    if (isOpenInput(path, error)) return false;
    if (inCompareMode()) {
        bool ok = compareView_->exportTo(path, w, h, error);
        if (ok) rememberExportFolder(path);
        return ok;
    }
    if (viewTabs_ && viewTabs_->currentWidget() != view_) return exportRunView(path, w, h, error);
    if (!session_ || current_ < 0) {
        if (error) *error = tr("no collective is shown: open exports and select a collective first");
        return false;
    }
    // the picture of the collective, without the outline of the bar whose details are open
    std::vector<int> hl = view_->highlightedBars();
    const Bar* b = hl.empty() ? nullptr : &view_->scene().bars[size_t(hl.front())];
    int rank = b ? b->rank : -1, lane = b ? b->lane : -1;
    quint32 kernel = b ? b->kernel : 0;
    if (b) view_->clearHighlight();
    bool ok = view_->exportTo(path, w, h, error);
    if (rank >= 0) view_->setHighlight(rank, lane, kernel);
    if (ok) rememberExportFolder(path);
    return ok;
}

bool MainWindow::exportWindow(const QString& path, QString* error) {
    if (isOpenInput(path, error)) return false;
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
    rememberExportFolder(path);
    return true;
}

bool MainWindow::exportReport(const QString& path, QString* error) {
    if (isOpenInput(path, error)) return false;
    if (inCompareMode()) {
        bool ok = exportComparisonReport(path, error);
        if (ok) rememberExportFolder(path);
        return ok;
    }
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
    rememberExportFolder(path);
    return true;
}

void MainWindow::chooseAndExportView() {
    const bool comparing = inCompareMode();
    if (!comparing && (!session_ || current_ < 0)) return;
    QString path = QFileDialog::getSaveFileName(this, comparing ? tr("Export compare view") : tr("Export collective view"),
                                                exportStartPath(comparing ? compareExportName("png") : defaultExportName("png")),
                                                tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    QString err;
    QWidget* shown = comparing ? static_cast<QWidget*>(compareView_) : view_;
    if (!exportView(path, std::max(shown->width(), 1600), std::max(shown->height(), 900), &err))
        QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

void MainWindow::chooseAndExportWindow() {
    QString path = QFileDialog::getSaveFileName(this, tr("Export window"), exportStartPath(defaultExportName("png").replace(".png", "_window.png")),
                                                tr("PNG image (*.png)"));
    if (path.isEmpty()) return;
    QString err;
    if (!exportWindow(path, &err)) QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

void MainWindow::chooseAndExportReport() {
    const bool comparing = inCompareMode();
    if (!comparing && !session_) return;
    QString stem = QFileInfo(QString::fromStdString(session_ ? session_->files.front() : std::string())).completeBaseName();
    QString path = comparing ? QFileDialog::getSaveFileName(this, tr("Export comparison report"), exportStartPath(compareExportName("md")),
                                                            tr("Markdown (*.md);;JSON (*.json);;Text (*.txt)"))
                             : QFileDialog::getSaveFileName(this, tr("Export report"), exportStartPath(stem + "_report.md"),
                                                            tr("Markdown (*.md);;CSV (*.csv);;JSON (*.json);;Text (*.txt)"));
    if (path.isEmpty()) return;
    QString err;
    if (!exportReport(path, &err)) QMessageBox::warning(this, tr("Export failed"), err);
    else statusLabel_->setText(tr("Saved %1").arg(path));
}

// One line per file, absolute; a comparison is A's files, a line "--vs", then B's files.
static QString recentEntry(const QStringList& files) {
    QStringList abs;
    for (const auto& f : files) abs << (f == "--vs" ? f : QFileInfo(f).absoluteFilePath());
    return abs.join('\n');
}

QStringList MainWindow::comparisonEntry(const QStringList& filesA, const QStringList& filesB) {
    return filesA + QStringList{"--vs"} + filesB;
}

void MainWindow::addRecent(const QStringList& files) {
    QString entry = recentEntry(files);
    QSettings st;
    QStringList recent = st.value("recent").toStringList();
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > 10) recent.removeLast();
    st.setValue("recent", recent);
    updateRecentMenu();
}

void MainWindow::removeRecent(const QStringList& files) {
    QSettings st;
    QStringList recent = st.value("recent").toStringList();
    if (recent.removeAll(recentEntry(files)) == 0) return;
    st.setValue("recent", recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    QStringList recent = QSettings().value("recent").toStringList();
    auto name = [this](const QStringList& files) {
        return QFileInfo(files.front()).fileName() + (files.size() > 1 ? tr(" (+%1 more)").arg(files.size() - 1) : QString());
    };
    for (const QString& entry : recent) {
        QStringList files = entry.split('\n');
        const qsizetype vs = files.indexOf("--vs");
        if (vs > 0 && vs + 1 < files.size()) {
            const QStringList a = files.mid(0, vs), b = files.mid(vs + 1);
            recentMenu_->addAction(tr("%1 vs %2").arg(name(a), name(b)), this, [this, a, b] { openComparison(a, b); })
                ->setToolTip(tr("compare %1 with %2").arg(a.join(", "), b.join(", ")));
        } else if (vs < 0) {
            recentMenu_->addAction(name(files), this, [this, files] { openFiles(files); })->setToolTip(files.join(", "));
        }
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
    QSettings st;
    st.setValue("window/geometry", saveGeometry());
    saveSplitters();
    cancel_ = true;
    QMainWindow::closeEvent(e);
}

}  // namespace skewui
