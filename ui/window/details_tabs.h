#pragma once
// The bottom pane's tabs: Answers (the findings page, whose links name collectives), Details (the
// kernel clicked in a view, or the late arriver) and Ranks (ranks_panel.h, named after its group).

#include <QTabWidget>

#include "session.h"

class QPlainTextEdit;
class QTextBrowser;
class QUrl;

namespace skewui {

class RanksPanel;

class DetailsTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit DetailsTabs(QWidget* parent = nullptr);

    // the Answers page of a new capture (laid out again only when its text changed: a reload of the
    // same capture with the same settings keeps the page, issue 24)
    void showFindings(const skew::Session& s);
    // the page from its Markdown: parsed into a document of its own, then shown (laid out once; a
    // browser's own document is laid out again after every piece of text the parser inserts, which
    // took minutes for the 2,000-row tables of a 1,000-rank job)
    void setFindingsMarkdown(const QString& markdown);
    // the details of kernel `kernel` of (rank, lane), seen from collective `collective` (-1: none)
    void setKernel(const skew::Session& s, int collective, int rank, int lane, uint32_t kernel);
    void clearDetails();
    // The late arriver's "CPU before the late launch" section (scene/cpu_activity.h), shown under
    // its details whenever Details shows the late arriver of `collective`; empty text: none.
    void setCpuSection(int collective, const QString& text);
    // the kernel Details shows (Show in Timeline from Details); rank -1: none
    struct Shown {
        int collective = -1, rank = -1, lane = -1;
        uint32_t kernel = 0;
    };
    const Shown& shownKernel() const { return shown_; }
    void setRanksGroup(SessionPtr s, int group);  // the Ranks tab shows `group` (-1: none) and says which

    QTextBrowser* findings() const { return findings_; }
    QPlainTextEdit* details() const { return details_; }
    RanksPanel* ranks() const { return ranks_; }

signals:
    void collectiveLinked(int group, uint32_t index);  // a link of the findings page (skewscope://collective/G/K)

private:
    void openLink(const QUrl& url);

    QTextBrowser* findings_ = nullptr;
    QString findingsText_;  // the Markdown shown
    QPlainTextEdit* details_ = nullptr;
    RanksPanel* ranks_ = nullptr;
    Shown shown_;
    bool shownLate_ = false;  // the kernel shown is its collective's late arriver
    QString base_;            // the kernel's details without the CPU section
    int cpuCollective_ = -1;
    QString cpuSection_;
    void showText();
};

}  // namespace skewui
