#include "window/view_navigation.h"

#include <QAction>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTableView>

#include "models/collective_filter.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"
#include "window/details_tabs.h"
#include "window/main_window.h"
#include "window/run_view_tabs.h"
#include "window/search_bar.h"
#include "window/selection.h"

using namespace skew;

namespace skewui {

ViewNavigation::ViewNavigation(MainWindow* window) : QObject(window), w_(window) {
    search_ = new SearchBar;
    if (QLayout* l = window->centralWidget()->layout()) l->addWidget(search_);  // under the panes, as a browser's find bar
    buildMenu();
    connectContextMenus();
    connect(search_, &SearchBar::hitChosen, this, [this](const SearchHit& h) {
        showHit(h);
        search_->field()->setFocus();  // Enter goes on to the next hit
    });
    connect(w_, &MainWindow::sessionLoaded, this, [this] { setSession(w_->session()); });
}

void ViewNavigation::buildMenu() {
    menu_ = new QMenu(tr("&View"), w_);
    QAction* before = nullptr;
    for (QAction* a : w_->menuBar()->actions())
        if (a->text() == tr("&Analysis")) before = a;
    w_->menuBar()->insertMenu(before, menu_);
    // one action a tab, Ctrl+1 the first: listed with their keys, so that users find them
    RunViewTabs* views = w_->runViewTabs();
    static const Qt::Key digits[] = {Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_4, Qt::Key_5, Qt::Key_6, Qt::Key_7, Qt::Key_8, Qt::Key_9};
    for (int i = 0; i < views->count() && i < 9; ++i) {
        QAction* a = menu_->addAction(views->tabText(i));
        a->setShortcut(QKeySequence(Qt::CTRL | digits[i]));
        a->setToolTip(views->tabToolTip(i));
        connect(a, &QAction::triggered, this, [this, i] { showTab(i); });
        tabActions_.push_back(a);
    }
    menu_->addSeparator();
    auto add = [this](const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = menu_->addAction(text);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    add(tr("&Find..."), QKeySequence(Qt::CTRL | Qt::Key_F), [this] {
        searchRemembered_ = false;
        search_->open();
    });
    add(tr("Find &Next"), QKeySequence(Qt::Key_F3), [this] { search_->next(); });
    add(tr("Find Pre&vious"), QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { search_->previous(); });
    menu_->addSeparator();
    showInTimeline_ = add(tr("Show in &Timeline"), QKeySequence(Qt::CTRL | Qt::Key_T), [this] { showInTimeline(); });
    showInTimeline_->setToolTip(tr("The kernel in Details (when its tab is up), else the selected collective, zoomed in the timeline"));
    back_ = add(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), [this] {
        if (!back()) w_->statusBar()->showMessage(tr("Nothing to go back to."), 4000);
    });
}

void ViewNavigation::connectContextMenus() {
    // (a scroll area's position is its viewport's)
    auto hook = [this](QWidget* widget, QWidget* area, QMenu* (ViewNavigation::*make)(const QPoint&)) {
        widget->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(widget, &QWidget::customContextMenuRequested, this, [this, area, make](const QPoint& pos) {
            if (QMenu* m = (this->*make)(pos)) {
                m->exec(area->mapToGlobal(pos));
                delete m;
            }
        });
    };
    hook(w_->table(), w_->table()->viewport(), &ViewNavigation::tableMenu);
    hook(w_->stepMap(), w_->stepMap(), &ViewNavigation::stepMapMenu);
    hook(w_->heatmap(), w_->heatmap(), &ViewNavigation::heatmapMenu);
    hook(w_->details(), w_->details()->viewport(), &ViewNavigation::detailsMenu);
}

void ViewNavigation::setSession(SessionPtr s) {
    s_ = std::move(s);
    history_.clear();
    search_->setSession(s_);
}

void ViewNavigation::showTab(int index) {
    RunViewTabs* views = w_->runViewTabs();
    if (index < 0 || index >= views->count()) return;
    views->setCurrentIndex(index);
    views->currentWidget()->setFocus();
}

bool ViewNavigation::usable() const { return s_ && !w_->inCompareMode(); }  // (compare mode has no run views)

void ViewNavigation::remember() {
    TimelineView* tl = w_->timeline();
    history_.push_back(Place{w_->runViewTabs()->currentIndex(), w_->currentCollective(), tl->viewRange()});
    if (history_.size() > kHistory) history_.erase(history_.begin());
}

void ViewNavigation::markInTimeline(const TimelineHighlight& h, double margin) {
    TimelineView* tl = w_->timeline();
    showTab(w_->runViewTabs()->indexOf(tl));
    tl->showHighlight(h, margin);
}

void ViewNavigation::showCollective(int collective) {
    if (!usable() || collective < 0 || size_t(collective) >= s_->analysis.collectives.size()) return;
    remember();
    if (collective != w_->currentCollective()) w_->selectCollective(collective);
    // the selection's band marks it; zoomed as F does
    TimelineView* tl = w_->timeline();
    showTab(w_->runViewTabs()->indexOf(tl));
    tl->clearHighlight();
    tl->fitCollective();
}

void ViewNavigation::showKernel(int collective, int rank, int lane, uint32_t kernel) {
    if (!usable() || rank < 0 || size_t(rank) >= s_->profile.ranks.size() || lane < 0 ||
        size_t(lane) >= s_->profile.ranks[size_t(rank)].lanes.size())
        return;
    const KernelLane& kl = s_->profile.ranks[size_t(rank)].lanes[size_t(lane)];
    if (kernel >= kl.size()) return;
    remember();
    if (collective >= 0 && collective != w_->currentCollective()) w_->selectCollective(collective);
    w_->selection()->showKernel(rank, lane, kernel);
    // the kernel a fifth of the view, outlined
    markInTimeline(TimelineHighlight{double(kl.start[kernel]), double(kl.end(kernel)), rank, lane, kernel}, 2.0);
}

void ViewNavigation::showHit(const SearchHit& h) {
    if (!usable()) return;
    // a search remembers where it started once, so that Back leaves the hits
    const bool first = !searchRemembered_;
    searchRemembered_ = true;
    const size_t before = history_.size();
    switch (h.kind) {
    case SearchHit::Collective: showCollective(h.collective); break;
    case SearchHit::Kernel: showKernel(h.collective, h.rank, h.lane, h.kernel); break;
    case SearchHit::Nvtx:
        remember();
        markInTimeline(TimelineHighlight{double(h.start), double(h.end), h.rank, -1, 0}, 0.25);
        break;
    }
    if (!first && history_.size() > before) history_.pop_back();
}

void ViewNavigation::showInTimeline() {
    DetailsTabs* d = w_->detailsTabs();
    const DetailsTabs::Shown& k = d->shownKernel();
    if (d->currentWidget() == d->details() && k.rank >= 0) showKernel(k.collective, k.rank, k.lane, k.kernel);
    else showCollective(w_->currentCollective());
}

bool ViewNavigation::back() {
    if (history_.empty() || !usable()) return false;
    const Place p = history_.back();
    history_.pop_back();
    if (p.collective >= 0 && p.collective != w_->currentCollective()) w_->selectCollective(p.collective);
    TimelineView* tl = w_->timeline();
    tl->clearHighlight();
    tl->restoreViewRange(p.timeline);
    showTab(p.tab);
    return true;
}

QMenu* ViewNavigation::menuWith(const QString& text, std::function<void()> act) {
    auto* m = new QMenu;
    connect(m->addAction(text), &QAction::triggered, this, std::move(act));
    return m;
}

QMenu* ViewNavigation::tableMenu(const QPoint& pos) {
    const QModelIndex i = w_->table()->indexAt(pos);
    if (!s_ || !i.isValid()) return nullptr;
    const int c = w_->filter()->mapToSource(i).row();
    return menuWith(tr("Show in Timeline"), [this, c] { showCollective(c); });
}

QMenu* ViewNavigation::stepMapMenu(const QPoint& pos) {
    const int c = s_ ? w_->stepMap()->collectiveAt(pos) : -1;
    if (c < 0) return nullptr;
    return menuWith(tr("Show in Timeline"), [this, c] { showCollective(c); });
}

QMenu* ViewNavigation::heatmapMenu(const QPoint& pos) {
    const std::pair<int, int> cell = s_ ? w_->heatmap()->cellAt(pos) : std::pair<int, int>{-1, -1};
    const int c = cell.first, slot = cell.second;
    if (c < 0) return nullptr;
    const Collective& col = s_->analysis.collectives[size_t(c)];
    const GroupSlot& gl = s_->analysis.groups[size_t(col.group)].lanes[size_t(slot)];
    const uint32_t k = s_->analysis.slotKernel(col, size_t(slot));
    return menuWith(tr("Show in Timeline"), [this, c, rank = gl.rank, lane = gl.lane, k] { showKernel(c, rank, lane, k); });
}

QMenu* ViewNavigation::detailsMenu(const QPoint& pos) {
    QMenu* m = w_->details()->createStandardContextMenu(pos);
    const DetailsTabs::Shown k = w_->detailsTabs()->shownKernel();
    m->addSeparator();
    QAction* a = m->addAction(tr("Show in Timeline"));
    a->setEnabled(s_ && k.rank >= 0);
    connect(a, &QAction::triggered, this, [this, k] { showKernel(k.collective, k.rank, k.lane, k.kernel); });
    return m;
}

}  // namespace skewui
