// The CPU row of the collective view and the "CPU before the late launch" section of Details (issue
// 24): on a causal run with a 4 ms CPU stall of rank 1 before step 2's third collective, generated
// with the CPU trace (--cpu-trace: in the stall, samples in collate_batch, a cudaMemcpyAsync call,
// pthread_mutex_lock for its second half), selecting that collective shows, once the export is read
// off the GUI thread, the lock as a bar of the row spanning exactly its time, and Details names it
// with its 2.00 ms. A collective late for another reason has no row.

#include <QPlainTextEdit>

#include "gui_util.h"
#include "views/collective/collective_view.h"
#include "window/cpu_activity_job.h"
#include "window/selection.h"

using namespace guitest;

namespace {

skewgen::GenConfig stallRun() {
    skewgen::GenConfig c;
    c.causal = true;
    c.ranks = 4;
    c.steps = 3;
    c.layers = 3;
    c.cpuStalls = {{2, 3, 1, 4'000'000}};
    c.slowKernels.clear();
    c.cpuTrace = true;
    return c;
}

// the truth's third collective of step 2, the stalled one
const skewgen::TruthCollective* stalled(const skewgen::GenResult& r) {
    int pos = 0;
    for (const auto& c : r.collectives)
        if (c.step == 2 && ++pos == 3) return &c;
    return nullptr;
}

bool waitCpuRow(skewui::MainWindow& w) {
    for (int i = 0; i < 600 && w.selection()->cpuActivity()->running(); ++i) QTest::qWait(20);
    QTest::qWait(20);
    return !w.selection()->cpuActivity()->running();
}

TEST(CpuRow, TheLockOfTheStallIsDrawnWhereItWasAndNamedInDetails) {
    const testutil::Generated& g = testutil::generated("gui-cpu-trace", stallRun());
    const skewgen::TruthCollective* tc = stalled(g.result);
    ASSERT_NE(tc, nullptr);
    int64_t lockStart = 0, lockEnd = 0;
    for (const auto& e : g.result.cpuEvents)
        if (e.rank == 1 && e.launchingThread && e.name == "pthread_mutex_lock") lockStart = e.startNs, lockEnd = e.endNs;
    ASSERT_EQ(lockEnd - lockStart, 2'000'000);
    skewui::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(g.path)}));
    w.selection()->select(collectiveOf(w, tc->group, uint32_t(tc->index)));
    skewui::CollectiveView* v = w.view();
    ASSERT_TRUE(v->hasCpuRow());
    // while the export is read, the row and Details say so
    ASSERT_TRUE(waitCpuRow(w));
    v->replot();
    const skewui::CpuRowLayout& L = v->cpuRowLayout();
    ASSERT_TRUE(L.shown);
    EXPECT_TRUE(L.status.isEmpty()) << L.status.toStdString();
    const skewui::CpuRowItem* lock = nullptr;
    for (const auto& i : L.items)
        if (i.kind == skew::CpuKind::OsRuntime && i.name == "pthread_mutex_lock") lock = &i;
    ASSERT_NE(lock, nullptr);
    // its pixels: where the axis puts the truth's start and end (scene ns are relative to t0)
    const double t0 = double(v->scene().t0);
    EXPECT_NEAR(lock->rect.left(), v->xAxis->coordToPixel((double(lockStart) - t0) / 1e6), 1.0);
    EXPECT_NEAR(lock->rect.right(), v->xAxis->coordToPixel((double(lockEnd) - t0) / 1e6), 1.0);
    // below the last rank's row, inside the plot
    EXPECT_GT(lock->rect.top(), v->yAxis->coordToPixel(double(v->scene().rows.size() - 1)));
    EXPECT_TRUE(v->axisRect()->rect().contains(lock->rect.center().toPoint()));
    size_t samples = 0;
    for (const auto& i : L.items) samples += i.kind == skew::CpuKind::Sample && i.name == "collate_batch";
    EXPECT_EQ(samples, 10u);
    EXPECT_TRUE(v->legendEntries().contains("OS runtime"));
    EXPECT_TRUE(v->legendEntries().contains("CPU samples"));
    EXPECT_EQ(v->toolTipAt(lock->rect.center()).toStdString(), "OS runtime: pthread_mutex_lock, 2.00 ms");
    const std::string details = w.details()->toPlainText().toStdString();
    EXPECT_NE(details.find("CPU before the late launch: thread"), std::string::npos) << details;
    EXPECT_NE(details.find("OS runtime: pthread_mutex_lock 2.00 ms"), std::string::npos) << details;
    EXPECT_NE(details.find("CPU samples: collate_batch in 10 of 10"), std::string::npos) << details;
    shot(&w, "cpu_row");
}

TEST(CpuRow, ACollectiveLateForAnotherReasonHasNoRow) {
    const testutil::Generated& g = testutil::generated("gui-cpu-trace", stallRun());
    skewui::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(g.path)}));
    const auto& a = w.session()->analysis;
    int other = -1;
    for (size_t i = 0; i < a.collectives.size() && other < 0; ++i)
        if (a.collectives[i].lateSlot >= 0 && a.collectives[i].cause != skew::Cause::CpuLaunch) other = int(i);
    ASSERT_GE(other, 0);
    w.selection()->select(other);
    ASSERT_TRUE(waitCpuRow(w));
    EXPECT_FALSE(w.view()->hasCpuRow());
    EXPECT_FALSE(w.view()->cpuRowLayout().shown);
    EXPECT_EQ(w.details()->toPlainText().toStdString().find("CPU before the late launch"), std::string::npos);
}

}  // namespace
