#pragma once
// The Ranks tab: one group's ranks in a table (rank labels capped like the collectives table's) and,
// beside it, the mean lateness per rank as bars (every rank's label drawn, or every k-th when there
// are too many to print apart) and the group's start/end
// skew CDF. The table takes the width of its columns, within 60% of the tab, until the user moves
// the divider.

#include <QSplitter>
#include <QStringList>

#include "session.h"

class QCustomPlot;
class QTableView;

namespace skewui {

class RankLabelDelegate;
class RanksModel;
class SkewCdfChart;

class RanksPanel : public QSplitter {
    Q_OBJECT
public:
    explicit RanksPanel(QWidget* parent = nullptr);

    // shows group `group` of `s` (-1: none); nothing to do when it shows that group of `s` already
    void setGroup(SessionPtr s, int group);
    int group() const { return group_; }
    // every how many ranks the lateness chart names one, its upright labels `thickness` px thick
    // and `pitch` px apart: 1 while they fit, else the least of 2, 5, 10, 20... that puts named
    // ones 4 px apart
    static int labelStride(double pitch, int thickness);

    QTableView* table() const { return table_; }
    QCustomPlot* chart() const { return chart_; }
    SkewCdfChart* skewCdf() const { return skewCdf_; }

protected:
    bool event(QEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void drawLateness(const skew::Session& s, int group);
    void layoutTicks();
    // the columns to their content, the rank labels capped (setGroup); when the tab is hidden, once
    // it is shown (measuring every row's texts took 30 ms on 1,024 ranks, behind the first picture)
    void sizeColumns();
    void sizeTable();

    SessionPtr session_;
    RanksModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    RankLabelDelegate* rankLabels_ = nullptr;  // the Rank column
    QCustomPlot* chart_ = nullptr;
    SkewCdfChart* skewCdf_ = nullptr;
    QStringList labels_;  // the chart's rank labels, in bar order
    int group_ = -1;
    const void* shownFor_ = nullptr;  // the session the tab was filled from
    bool moved_ = false;  // by the user: then the divider's place is theirs
    bool columnsStale_ = false;  // sizeColumns() asked while hidden: done when shown
};

}  // namespace skewui
