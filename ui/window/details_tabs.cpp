#include "window/details_tabs.h"

#include <QPlainTextEdit>
#include <QPointer>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>

#include "scene/kernel_details.h"
#include "report/analysis_report.h"
#include "window/ranks_panel.h"

namespace skewui {

DetailsTabs::DetailsTabs(QWidget* parent) : QTabWidget(parent) {
    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    details_->setPlaceholderText(tr("Click a bar in the collective view to see its details."));
    ranks_ = new RanksPanel;
    findings_ = new QTextBrowser;
    findings_->setOpenLinks(false);
    connect(findings_, &QTextBrowser::anchorClicked, this, &DetailsTabs::openLink);
    // the answers first: the page opens with them (and ends with what the next capture should record)
    addTab(findings_, tr("Answers"));
    addTab(details_, tr("Details"));
    addTab(ranks_, tr("Ranks"));
}

void DetailsTabs::showFindings(const skew::Session& s) {
    QString text = QString::fromStdString(skew::analysisMarkdown(s.profile, s.analysis, skew::MarkdownOptions{true}));
    if (text == findingsText_) return;
    setFindingsMarkdown(text);
}

void DetailsTabs::setFindingsMarkdown(const QString& markdown) {
    findingsText_ = markdown;
    // a document without a layout while the parser fills it (the layout is made when the browser
    // shows it), in the browser's font; the previous page goes with its successor's arrival
    auto* doc = new QTextDocument(findings_);
    doc->setDefaultFont(findings_->font());
    doc->setMarkdown(findingsText_);
    QPointer<QTextDocument> old = findings_->document();  // the browser deletes its own first document
    findings_->setDocument(doc);
    if (old && old->parent() == findings_) old->deleteLater();
}

void DetailsTabs::setKernel(const skew::Session& s, int collective, int rank, int lane, uint32_t kernel) {
    base_ = QString::fromStdString(kernelDetails(s.profile, s.analysis, collective, rank, lane, kernel, &s.nvtx));
    shown_ = Shown{collective, rank, lane, kernel};
    shownLate_ = false;
    if (collective >= 0 && size_t(collective) < s.analysis.collectives.size()) {
        const skew::Collective& c = s.analysis.collectives[size_t(collective)];
        if (c.lateSlot >= 0) {
            const skew::GroupSlot& gl = s.analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
            shownLate_ = gl.rank == rank && gl.lane == lane && s.analysis.slotKernel(c, size_t(c.lateSlot)) == kernel;
        }
    }
    showText();
}

void DetailsTabs::setCpuSection(int collective, const QString& text) {
    cpuCollective_ = collective;
    cpuSection_ = text;
    showText();
}

void DetailsTabs::showText() {
    const bool cpu = shownLate_ && shown_.collective == cpuCollective_ && !cpuSection_.isEmpty();
    details_->setPlainText(cpu ? base_ + "\n" + cpuSection_ : base_);
}

void DetailsTabs::clearDetails() {
    details_->clear();
    shown_ = {};
    shownLate_ = false;
    base_.clear();
}

void DetailsTabs::setRanksGroup(SessionPtr s, int group) {
    // the same title (a reload) left alone: a new one lays the window out again (a tab bar's new
    // text asks its splitters for their children's size hints, every plot's among them)
    const QString title = group >= 0 ? tr("Ranks: group %1").arg(group) : tr("Ranks");
    if (tabText(indexOf(ranks_)) != title) setTabText(indexOf(ranks_), title);
    ranks_->setGroup(std::move(s), group);
}

void DetailsTabs::openLink(const QUrl& url) {
    // skewscope://collective/G/K
    QStringList parts = url.path().split('/', Qt::SkipEmptyParts);
    if (url.scheme() != "skewscope" || url.host() != "collective" || parts.size() != 2) return;
    bool ok1 = false, ok2 = false;
    int g = parts[0].toInt(&ok1);
    uint32_t k = parts[1].toUInt(&ok2);
    if (ok1 && ok2) emit collectiveLinked(g, k);
}

}  // namespace skewui
