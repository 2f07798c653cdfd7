#pragma once
// Helpers of the GUI tests: the demo export, opening files and waiting, finding table rows.

#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gen_fixture.h"
#include "window/main_window.h"
#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "models/ranks_model.h"

namespace guitest {

inline const testutil::Generated& demo() { return testutil::generated("demo", skewgen::demoConfig()); }
inline QString demoPath() { return QString::fromStdString(demo().path); }
inline QString realPath(const char* name) { return QString::fromStdString(testutil::realDataDir() + "/" + name); }

// opens `files` in the window and waits (at most 60 s: the run views' large export under a loaded
// machine) until it has loaded them, what-if included (computed after the first picture), or said
// why not; true when loaded
inline bool openAndWait(skewui::MainWindow& w, const QStringList& files) {
    QSignalSpy ok(&w, &skewui::MainWindow::sessionLoaded);
    QSignalSpy failed(&w, &skewui::MainWindow::loadFailed);
    w.openFiles(files);
    for (int i = 0; i < 1200 && (ok.isEmpty() || w.whatIfPending()) && failed.isEmpty(); ++i) QTest::qWait(50);
    return !ok.isEmpty();
}

// waits for a reload or re-analysis started by the window itself
inline bool waitLoaded(QSignalSpy& ok) {
    for (int i = 0; i < 600 && ok.isEmpty(); ++i) QTest::qWait(20);
    return !ok.isEmpty();
}

// collective index of (group, index)
inline int collectiveOf(const skewui::MainWindow& w, int group, uint32_t index) {
    const auto& a = w.session()->analysis;
    return int(a.groups[size_t(group)].firstCollective + index - 1);
}

// proxy row of collective (group, index) in the table, -1 when filtered out
inline int tableRow(skewui::MainWindow& w, int group, uint32_t index) {
    const auto& cs = w.session()->analysis.collectives;
    for (int r = 0; r < w.filter()->rowCount(); ++r) {
        int src = w.filter()->mapToSource(w.filter()->index(r, 0)).row();
        if (cs[size_t(src)].group == group && cs[size_t(src)].index == index) return r;
    }
    return -1;
}

// (group, index) of the collective the window shows
inline std::pair<int, uint32_t> shown(const skewui::MainWindow& w) {
    const auto& c = w.session()->analysis.collectives[size_t(w.currentCollective())];
    return {c.group, c.index};
}

// SKEWSCOPE_TEST_SHOTS=folder: layout tests save what they check, to look at
inline void shot(QWidget* widget, const QString& name) {
    const char* dir = std::getenv("SKEWSCOPE_TEST_SHOTS");
    if (dir && *dir) widget->grab().save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
}

// the demo open in a shown 1600x1000 window (tests that press keys need it shown and active)
struct DemoWindow {
    skewui::MainWindow w;
    explicit DemoWindow(QSize size = QSize(1600, 1000)) {
        w.resize(size);
        w.show();
        w.activateWindow();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&w));
        EXPECT_TRUE(openAndWait(w, {demoPath()}));
    }
};

}  // namespace guitest
