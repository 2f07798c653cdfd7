#pragma once
// The selected collective: one state that the collectives table, the collective view, the run
// views and the bottom tabs all follow, set from any of them. It also decides what is shown when
// the filters change (never a collective they hide) and when a capture is (re)loaded.

#include <QObject>

#include "session.h"

namespace skewui {

class CollectivesPane;
class CpuActivityJob;
class DetailsTabs;
class PaneProportions;
class RunViewTabs;

class Selection : public QObject {
    Q_OBJECT
public:
    Selection(CollectivesPane* pane, RunViewTabs* views, DetailsTabs* details, PaneProportions* proportions, QObject* parent);

    // a new capture: nothing selected, nothing shown until open() (after the filters are set again)
    void reset(SessionPtr s);
    // the collective selected (or the one shown before the filters hid every row) as (group,
    // index), kept over a reload of the same files; group -1: none
    std::pair<int, uint32_t> kept() const;
    // after reset: the kept collective when the filters list it, else the biggest late arriver they list
    void open(std::pair<int, uint32_t> kept);

    int current() const { return current_; }
    // selects `collective` everywhere; the filters that hide it are cleared, so the table always lists it
    void select(int collective);
    bool select(int group, uint32_t index);
    void followFilter();  // the filters changed
    void updateRanksTab();
    // next/previous in the table's order; with bigOnly the next/previous big late arriver
    void step(int delta, bool bigOnly);
    void showKernel(int rank, int lane, quint32 kernel);  // a bar clicked in a view: its details
    void showLateArriver();                                // the selected collective's late arriver, same
    CpuActivityJob* cpuActivity() const { return cpu_; }   // the CPU row's reads (tests wait for them)

signals:
    void status(const QString& text);  // a message for the status line

private:
    CollectivesPane* pane_;
    RunViewTabs* views_;
    DetailsTabs* details_;
    PaneProportions* proportions_;
    CpuActivityJob* cpu_;
    SessionPtr session_;
    int current_ = -1;
    int parked_ = -1;  // the collective shown before the filters listed none: shown again once listed
};

}  // namespace skewui
