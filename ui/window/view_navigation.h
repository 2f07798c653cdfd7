#pragma once
// The View menu and the moves between the views, as Nsight Systems and Perfetto users expect them:
//   Ctrl+1..N      the N-th tab (Collective, Timeline, Step map, Heatmap, What-if), keys in its view;
//   Ctrl+F, F3     the find bar (search_bar.h) and its next / previous hit, each shown in the timeline;
//   Ctrl+T         Show in Timeline: the kernel Details shows (when the Details tab is up), else the
//                  selected collective; also from the context menus of the collectives table, the
//                  step map's markers, the heatmap's cells and Details;
//   Alt+Left       Back: the tab, the selected collective and the timeline's range before the last
//                  Show in Timeline (or search), one step of a small history each press.

#include <QObject>

#include <functional>
#include <vector>

#include "session.h"
#include "timeline/run_search.h"
#include "views/run_view.h"

class QAction;
class QMenu;
class QPoint;

namespace skewui {

class MainWindow;
class SearchBar;
struct TimelineHighlight;

class ViewNavigation : public QObject {
    Q_OBJECT
public:
    // adds the View menu to `window`'s menu bar, before its Analysis menu, and the find bar under
    // its central widget's panes
    explicit ViewNavigation(MainWindow* window);

    QMenu* menu() const { return menu_; }
    SearchBar* searchBar() const { return search_; }
    const std::vector<QAction*>& tabActions() const { return tabActions_; }  // Ctrl+1.., in tab order
    QAction* showInTimelineAction() const { return showInTimeline_; }
    QAction* backAction() const { return back_; }

    void setSession(SessionPtr s);  // a new capture: the history and the hits go
    void showTab(int index);        // the tab, with the keys in its view
    // Show in Timeline: the Timeline tab zoomed on it and marked, the collective selected, the
    // kernel in Details; the place left is remembered for back()
    void showCollective(int collective);
    void showKernel(int collective, int rank, int lane, uint32_t kernel);
    void showHit(const skew::SearchHit& hit);
    void showInTimeline();  // Ctrl+T: Details' kernel when the Details tab is up, else the selection
    bool back();            // false: nowhere to go back to
    size_t historySize() const { return history_.size(); }

    // the context menus with Show in Timeline (null where there is nothing to show), for the
    // caller to exec and delete: the table row, the step map's collective, the heatmap's cell at
    // `pos` (their widget's coordinates); Details' own menu with the action added
    QMenu* tableMenu(const QPoint& pos);
    QMenu* stepMapMenu(const QPoint& pos);
    QMenu* heatmapMenu(const QPoint& pos);
    QMenu* detailsMenu(const QPoint& pos);

private:
    struct Place {
        int tab = 0;
        int collective = -1;
        RunViewRange timeline;
    };
    void buildMenu();
    void connectContextMenus();
    bool usable() const;  // a capture open, not in compare mode
    void remember();      // the place shown now, for back()
    void markInTimeline(const TimelineHighlight& h, double margin);
    QMenu* menuWith(const QString& text, std::function<void()> act);

    MainWindow* w_;
    SessionPtr s_;
    QMenu* menu_ = nullptr;
    SearchBar* search_ = nullptr;
    std::vector<QAction*> tabActions_;
    QAction* showInTimeline_ = nullptr;
    QAction* back_ = nullptr;
    std::vector<Place> history_;  // the last at the back; at most kHistory
    bool searchRemembered_ = false;  // the find bar's hits remember the place once per opening
    static constexpr size_t kHistory = 50;
};

}  // namespace skewui
