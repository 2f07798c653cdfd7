// The main window's compare mode: File > Compare... (A files, then B files) or `skewscope A...
// --vs B...` loads and analyses both captures in the background (progress, cancel, the profile
// cache, as openFiles does) and shows the compare view in place of the table and panels. Reload,
// settings, the view export and the report export follow the mode; opening files leaves it.
// Kept apart from main_window.cpp so that the two grow without stepping on each other.

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>

#include "compare_view.h"
#include "main_window.h"
#include "nsys/export_reader.h"
#include "report/compare_report.h"
#include "util/atomic_file.h"

namespace skewui {

QWidget* MainWindow::buildCompareView() {
    compareView_ = new CompareView;
    connect(compareView_, &CompareView::settingsRequested, this, &MainWindow::editSettings);
    return compareView_;
}

bool MainWindow::inCompareMode() const { return compare_ && stack_->currentWidget() == compareView_; }

void MainWindow::chooseAndCompare() {
    QStringList a = QFileDialog::getOpenFileNames(this, tr("Compare: the A (before) capture's exports"), QString(),
                                                  tr("Nsight Systems exports (*.sqlite *.nsys-rep);;All files (*)"));
    if (a.isEmpty()) return;
    QStringList b = QFileDialog::getOpenFileNames(this, tr("Compare: the B (after) capture's exports"), QFileInfo(a.front()).absolutePath(),
                                                  tr("Nsight Systems exports (*.sqlite *.nsys-rep);;All files (*)"));
    if (b.isEmpty()) return;
    openComparison(a, b);
}

void MainWindow::openComparison(const QStringList& filesA, const QStringList& filesB) {
    if (filesA.isEmpty() || filesB.isEmpty()) return;
    if (loading_) {
        // the load under way is cancelled; this one starts when it has stopped
        cancel_ = true;
        pendingFiles_.clear();
        pendingCompareA_ = filesA;
        pendingCompareB_ = filesB;
        return;
    }
    loading_ = true;
    compareA_ = filesA;
    compareB_ = filesB;
    cancel_ = false;
    progress_ = 0;
    progressBar_->setValue(0);
    progressBar_->show();
    cancelButton_->show();
    progressTimer_->start();
    statusLabel_->setText(tr("Comparing %1 with %2...").arg(filesA.join(", "), filesB.join(", ")));
    std::vector<std::string> a, b;
    for (const auto& f : filesA) a.push_back(f.toStdString());
    for (const auto& f : filesB) b.push_back(f.toStdString());
    if (!compareWatcher_) {
        compareWatcher_ = new QFutureWatcher<CompareLoadResult>(this);
        connect(compareWatcher_, &QFutureWatcher<CompareLoadResult>::finished, this, &MainWindow::onComparisonLoaded);
    }
    skew::AnalysisOptions options = options_;
    compareWatcher_->setFuture(QtConcurrent::run([this, a, b, options]() -> CompareLoadResult {
        CompareLoadResult r;
        try {
            r.comparison = loadComparison(a, b, options, [this](double f) {
                progress_ = int(f * 100);
                return !cancel_.load();
            }, cache_.get());
        } catch (const skew::Cancelled&) {
            r.cancelled = true;
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        return r;
    }));
}

bool MainWindow::startPending() {
    if (!pendingFiles_.isEmpty()) {
        QStringList next = pendingFiles_;
        pendingFiles_.clear();
        openFiles(next);
        return true;
    }
    if (!pendingCompareA_.isEmpty()) {
        QStringList a = pendingCompareA_, b = pendingCompareB_;
        pendingCompareA_.clear();
        pendingCompareB_.clear();
        openComparison(a, b);
        return true;
    }
    return false;
}

void MainWindow::onComparisonLoaded() {
    loading_ = false;
    progressTimer_->stop();
    progressBar_->hide();
    cancelButton_->hide();
    CompareLoadResult r = compareWatcher_->result();
    if (startPending()) return;
    if (r.cancelled) {
        statusLabel_->setText(tr("Comparison cancelled. ") + (compare_ ? compareStatusText() : statusText()));
        emit loadFailed(tr("cancelled"));
        return;
    }
    if (!r.error.empty()) {
        statusLabel_->setText(compare_ ? compareStatusText() : statusText());
        removeRecent(comparisonEntry(compareA_, compareB_));  // a recent comparison that no longer opens leaves the menu
        QString msg = tr("Cannot compare: %1").arg(QString::fromStdString(r.error));
        emit loadFailed(msg);
        if (!qEnvironmentVariableIsSet("SKEWSCOPE_NO_DIALOGS")) QMessageBox::warning(this, tr("Cannot compare"), msg);
        return;
    }
    setComparison(r.comparison);
}

void MainWindow::setComparison(CompareSessionPtr c) {
    // a reload or a re-analysis of the same files keeps the pair shown
    const bool same = compare_ && c && compare_->a->files == c->a->files && compare_->b->files == c->b->files;
    const int keepPair = same ? compareView_->pair() : 0;
    compare_ = c;
    compareView_->setComparison(c, keepPair);
    QStringList warnings;
    for (const std::string& w : skew::comparisonWarnings(*c)) warnings << QString::fromStdString(w);
    warningLabel_->setText(warnings.isEmpty() ? QString() : tr("Warnings: ") + warnings.join("\n"));
    warningBar_->setVisible(!warnings.isEmpty());
    stack_->setCurrentWidget(compareView_);
    statusLabel_->setText(compareStatusText());
    setWindowTitle(tr("Skewscope - compare %1 vs %2")
                       .arg(QFileInfo(QString::fromStdString(c->a->files.front())).fileName(),
                            QFileInfo(QString::fromStdString(c->b->files.front())).fileName()));
    storeSnapshots(c->a);
    storeSnapshots(c->b);
    QStringList a, b;  // the files of the comparison shown (also one opened from the command line)
    for (const auto& f : c->a->files) a << QString::fromStdString(f);
    for (const auto& f : c->b->files) b << QString::fromStdString(f);
    addRecent(comparisonEntry(a, b));  // only comparisons that opened
    emit comparisonLoaded();
}

QString MainWindow::compareStatusText() const {
    if (!compare_) return {};
    auto side = [](const Session& s) {
        QStringList files;
        for (const auto& in : s.profile.inputs) files << QFileInfo(QString::fromStdString(in.path)).fileName();
        return tr("%1 (%2 ranks, %3 collectives)").arg(files.join(", ")).arg(s.profile.ranks.size()).arg(s.analysis.collectives.size());
    };
    const auto& cmp = compare_->comparison;
    return tr("Compare  |  A %1  |  B %2  |  %3 pair(s) of groups, %4 not compared  |  loaded in %5 s")
        .arg(side(*compare_->a), side(*compare_->b))
        .arg(cmp.pairs.size())
        .arg(cmp.unpairedA.size() + cmp.unpairedB.size())
        .arg(compare_->a->loadSeconds + compare_->a->analyzeSeconds + compare_->b->loadSeconds + compare_->b->analyzeSeconds, 0, 'f', 2);
}

QString MainWindow::compareExportName(const QString& suffix) const {
    if (!compare_) return "compare." + suffix;
    return QString("%1_vs_%2_compare.%3")
        .arg(QFileInfo(QString::fromStdString(compare_->a->files.front())).completeBaseName(),
             QFileInfo(QString::fromStdString(compare_->b->files.front())).completeBaseName(), suffix);
}

bool MainWindow::exportComparisonReport(const QString& path, QString* error) {
    const skew::Side a = compare_->sideA(), b = compare_->sideB();
    const QString l = path.toLower();
    std::string out = l.endsWith(".json") ? skew::compareJson(a, b, compare_->comparison)
                      : l.endsWith(".txt") ? skew::compareText(a, b, compare_->comparison)
                                           : skew::compareMarkdown(a, b, compare_->comparison);
    try {
        skew::writeOutput(path.toStdString(), out);
    } catch (const std::exception& e) {
        if (error) *error = e.what();
        return false;
    }
    return true;
}

}  // namespace skewui
