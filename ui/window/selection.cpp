#include "window/selection.h"

#include "scene/cpu_activity.h"
#include "scene/kernel_details.h"
#include "views/collective/collective_view.h"
#include "report/format.h"
#include "window/collectives_pane.h"
#include "window/cpu_activity_job.h"
#include "window/details_tabs.h"
#include "window/pane_proportions.h"
#include "window/run_view_tabs.h"

using namespace skew;

namespace skewui {

Selection::Selection(CollectivesPane* pane, RunViewTabs* views, DetailsTabs* details, PaneProportions* proportions, QObject* parent)
    : QObject(parent), pane_(pane), views_(views), details_(details), proportions_(proportions), cpu_(new CpuActivityJob(this)) {
    connect(cpu_, &CpuActivityJob::ready, this, [this](std::shared_ptr<const CpuActivity> a) {
        if (!a || a->window.collective != current_) return;
        views_->collective()->setCpuActivity(a);
        details_->setCpuSection(current_, QString::fromStdString(cpuActivityText(*a)));
    });
}

std::pair<int, uint32_t> Selection::kept() const {
    const int keep = current_ >= 0 ? current_ : parked_;
    if (!session_ || keep < 0) return {-1, 0};
    const Collective& c = session_->analysis.collectives[size_t(keep)];
    return {c.group, c.index};
}

void Selection::reset(SessionPtr s) {
    session_ = std::move(s);
    current_ = parked_ = -1;
    cpu_->cancel();
    views_->collective()->setScene({});  // the old scene's indices mean nothing in the new profile
    views_->collective()->setEmptyText({});
    details_->clearDetails();
}

void Selection::open(std::pair<int, uint32_t> kept) {
    const Analysis& a = session_->analysis;
    int pick = -1;
    if (const Collective* c = kept.first >= 0 ? a.find(kept.first, kept.second) : nullptr) {
        const int i = int(c - a.collectives.data());
        if (pane_->accepts(i)) pick = i;
        else if (pane_->firstListed() < 0) parked_ = i;  // the filters still list nothing: kept for when they do
    }
    // else open on the biggest late arriver the filters show: the collective a user came for
    if (pick < 0) pick = worstCollective(a, [&](int c) { return pane_->accepts(c); });
    if (pick >= 0) select(pick);
    else followFilter();
}

void Selection::select(int c) {
    if (!session_ || c < 0 || size_t(c) >= session_->analysis.collectives.size()) return;
    // the table always lists the collective shown (a click in a run view): the filters that hide
    // it are cleared, with it shown first so that their change keeps it
    if (!pane_->accepts(c)) {
        current_ = c;
        emit status(pane_->reveal(c));
    }
    current_ = c;
    parked_ = -1;
    CollectiveView* view = views_->collective();
    view->setEmptyText({});
    view->setScene(buildScene(session_->profile, session_->analysis, c));
    // the CPU row: its window now, what the thread did once its export is read
    const CpuWindow w = cpuWindowFor(session_->profile, session_->analysis, c);
    view->setCpuWindow(w);
    details_->setCpuSection(c, w.present ? tr("CPU before the late launch: reading what thread %1 did from %2…")
                                               .arg(w.tid).arg(QString::fromStdString(w.exportPath))
                                         : QString());
    views_->setSelectedCollective(c);
    pane_->showRow(c);
    const Collective& col = session_->analysis.collectives[size_t(c)];
    details_->clearDetails();
    if (col.lateSlot >= 0) {
        const GroupSlot& gl = session_->analysis.groups[size_t(col.group)].lanes[size_t(col.lateSlot)];
        uint32_t k = session_->analysis.slotKernel(col, size_t(col.lateSlot));
        details_->setKernel(*session_, c, gl.rank, gl.lane, k);
        view->setHighlight(gl.rank, gl.lane, k);
    }
    cpu_->request(session_, c);
    updateRanksTab();
    proportions_->keepPlotShare();
}

bool Selection::select(int group, uint32_t index) {
    const Collective* col = session_ ? session_->analysis.find(group, index) : nullptr;
    if (!col) return false;
    select(int(col - session_->analysis.collectives.data()));
    return true;
}

void Selection::followFilter() {
    pane_->updateFilterStatus();
    updateRanksTab();
    if (!session_) return;
    if (current_ < 0 && parked_ >= 0 && pane_->accepts(parked_)) {
        // the filters list again the collective that was shown before they hid every row
        select(parked_);
        return;
    }
    if (current_ >= 0 && pane_->accepts(current_)) {
        pane_->showRow(current_);  // still listed: keep it, and keep it in sight
        return;
    }
    if (const int first = pane_->firstListed(); first >= 0) {
        select(first);
        return;
    }
    // nothing listed: nothing shown
    if (current_ >= 0) parked_ = current_;
    current_ = -1;
    views_->setSelectedCollective(-1);  // the run views' selection band goes too
    views_->collective()->setScene({});
    views_->collective()->setEmptyText(tr("No collective matches the filters."));
    details_->clearDetails();
}

void Selection::updateRanksTab() {
    // the group the filter shows, else the selected collective's group
    const int shown = pane_->groupFilter();
    int g = shown >= 0 ? shown : 0;
    if (shown < 0 && session_ && current_ >= 0) g = session_->analysis.collectives[size_t(current_)].group;
    if (!session_ || size_t(g) >= session_->analysis.groups.size()) g = -1;
    details_->setRanksGroup(session_, g);
}

void Selection::step(int delta, bool bigOnly) {
    if (!session_) return;
    if (const int c = pane_->step(current_, delta, bigOnly); c >= 0) select(c);
    else if (bigOnly)
        emit status(tr("No big late arrivers (start skew > %1) in the table.")
                        .arg(QString::fromStdString(formatDuration(session_->analysis.options.bigSkewNs))));
}

void Selection::showKernel(int rank, int lane, quint32 kernel) {
    if (!session_) return;
    details_->setKernel(*session_, current_, rank, lane, kernel);
    views_->collective()->setHighlight(rank, lane, kernel);
    details_->setCurrentWidget(details_->details());
}

void Selection::showLateArriver() {
    if (!session_ || current_ < 0) return;
    const Collective& c = session_->analysis.collectives[size_t(current_)];
    if (c.lateSlot < 0) return;
    const GroupSlot& gl = session_->analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
    showKernel(gl.rank, gl.lane, session_->analysis.slotKernel(c, size_t(c.lateSlot)));
}

}  // namespace skewui
