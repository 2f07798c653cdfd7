// The collectives table: columns sized to their widest text over all rows (numbers never elided),
// long rank labels elided in the middle, readable causes with the identifier as tooltip, key
// columns in view at 1600x900, measures sorted largest first on the first click, "N of M shown"
// with an empty state that also empties the plot, Ctrl+C as tab-separated rows with a header.

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

#include <gtest/gtest.h>

#include "views/collective/collective_view.h"
#include "gui_util.h"
#include "common/rank_labels.h"
#include "window/collectives_pane.h"
#include "window/ranks_panel.h"
#include "qcustomplot.h"
#include "session.h"
#include "views/timeline/timeline_view.h"

using namespace skewui;
using namespace guitest;

namespace {

// a long capture: 35,100 collectives in group 0 (the issue's 35,000-collective profile), so "#"
// reaches five digits
const testutil::Generated& longRun() {
    skewgen::GenConfig cfg;
    cfg.ranks = 2;
    cfg.steps = 1300;
    return testutil::generated("long-run", cfg);
}

TEST(Table, ColumnsFitTheWidestTextOfAllRows) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(longRun().path)}));
    ASSERT_EQ(w.session()->analysis.groups[0].count, 35100u);
    QTableView* t = w.table();
    QFontMetrics fm(t->font());
    auto* src = w.filter()->sourceModel();
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c) {
        if (c == CollectiveModel::LateRank) continue;
        int widest = 0;
        QString which;
        for (int r = 0; r < src->rowCount(); ++r) {
            QString text = src->index(r, c).data().toString();
            if (fm.horizontalAdvance(text) > widest) widest = fm.horizontalAdvance(text), which = text;
        }
        // the cell's text rectangle is the column less the item's margins (about 2 x 3 px)
        EXPECT_GE(t->columnWidth(c), widest + 8) << "column " << src->headerData(c, Qt::Horizontal).toString().toStdString() << " '"
                                                 << which.toStdString() << "'";
    }
    EXPECT_EQ(src->index(35099, CollectiveModel::Index).data().toString(), "35100");
}

TEST(Table, LongRankLabelsElideInTheMiddle) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite"), realPath("nsysai-mfu_2gpu_after.sqlite")}));
    QTableView* t = w.table();
    EXPECT_EQ(t->textElideMode(), Qt::ElideMiddle);
    QFontMetrics fm(t->font());
    int longest = 0;
    QString label;
    for (int r = 0; r < w.filter()->rowCount(); ++r) {
        QString l = w.filter()->index(r, CollectiveModel::LateRank).data().toString();
        if (fm.horizontalAdvance(l) > longest) longest = fm.horizontalAdvance(l), label = l;
    }
    ASSERT_TRUE(label.startsWith("nsysai-mfu_2gpu_")) << label.toStdString();
    // capped, so the key columns stay in view; the full label is in the row's tooltip
    EXPECT_LT(t->columnWidth(CollectiveModel::LateRank), longest);
    int row = 0;
    while (w.filter()->index(row, CollectiveModel::LateRank).data().toString() != label) ++row;
    EXPECT_NE(w.filter()->index(row, CollectiveModel::LateRank).data(Qt::ToolTipRole).toString().indexOf(label), -1);
}

// The labels of two captures of one run share "nsysai-mfu_2gpu_": that start goes first, so what
// tells the captures apart (before / after) and the device stay ("nsysai-mf...148/dev 0" hid it).
TEST(Table, RankLabelsElideKeepingWhatTellsTheCapturesApart) {
    const QStringList labels = {"nsysai-mfu_2gpu_before/pid 148/dev 0", "nsysai-mfu_2gpu_before/pid 149/dev 1",
                                "nsysai-mfu_2gpu_after/pid 148/dev 0", "nsysai-mfu_2gpu_after/pid 149/dev 1"};
    const RankLabelElider e(labels);
    EXPECT_EQ(e.commonStart(), "nsysai-mfu_2gpu_");
    const QFontMetrics fm(QApplication::font());
    const QString ell(QChar(0x2026));
    // wide enough: unchanged; a little narrower: the common start is what goes
    EXPECT_EQ(e.elide(labels[0], fm, fm.horizontalAdvance(labels[0])), labels[0]);
    EXPECT_EQ(e.elide(labels[0], fm, fm.horizontalAdvance(labels[0]) - 1), ell + "before/pid 148/dev 0");
    EXPECT_EQ(e.elide(labels[2], fm, fm.horizontalAdvance(ell + "after/pid 148/dev 0")), ell + "after/pid 148/dev 0");
    // narrower still: the middle of the rest, keeping its start and the device
    const int w = fm.horizontalAdvance(ell + "before/pid 148/dev 0") - 20;
    const QString shown = e.elide(labels[0], fm, w);
    EXPECT_LE(fm.horizontalAdvance(shown), w);
    EXPECT_TRUE(shown.startsWith(ell + "bef")) << shown.toStdString();
    EXPECT_TRUE(shown.endsWith("dev 0")) << shown.toStdString();
    EXPECT_EQ(shown.count(ell), 2);
    // the start is cut after a separator: "before" and "between" are kept whole
    EXPECT_EQ(RankLabelElider({"capture_before/dev 0", "capture_between/dev 0"}).commonStart(), "capture_");
    // one label, or a start too short to be worth an ellipsis: plain middle elision
    EXPECT_EQ(RankLabelElider({labels[0]}).commonStart(), "");
    EXPECT_EQ(RankLabelElider({"dev 0", "dev 1"}).commonStart(), "");
    EXPECT_EQ(RankLabelElider({"run_x/dev 0", "run_y/dev 0"}).elide("run_x/dev 0", fm, fm.horizontalAdvance("run_x/dev 0") - 1),
              fm.elidedText("run_x/dev 0", Qt::ElideMiddle, fm.horizontalAdvance("run_x/dev 0") - 1));
}

// With the two captures open at 1024x700 the rank labels of the collectives table, the collective
// view and the Ranks tab say which capture and which device; the Ranks tab's Rank column is capped
// like the table's, so its numbers are in view.
TEST(Table, TwoCapturesRankLabelsSayWhichCaptureAt1024x700) {
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite"), realPath("nsysai-mfu_2gpu_after.sqlite")}));
    const skew::Profile& p = w.session()->profile;
    auto capture = [&](const QString& label) {
        for (const auto& r : p.ranks)
            if (QString::fromStdString(r.label) == label) {
                const QString path = QString::fromStdString(p.inputs[size_t(r.file)].path);
                return std::pair{path.contains("before") ? QString("before/") : QString("after/"), QString("/dev %1").arg(r.device)};
            }
        return std::pair{QString("?"), QString("?")};
    };
    const QString ell(QChar(0x2026));
    // the collectives table's Late rank column, as its delegate paints it
    QTableView* t = w.table();
    auto* lateDelegate = dynamic_cast<RankLabelDelegate*>(t->itemDelegateForColumn(CollectiveModel::LateRank));
    ASSERT_TRUE(lateDelegate);
    ASSERT_GT(w.filter()->rowCount(), 0);
    int elided = 0;
    for (int r = 0; r < w.filter()->rowCount(); ++r) {
        const QModelIndex i = w.filter()->index(r, CollectiveModel::LateRank);
        QStyleOptionViewItem o;
        o.initFrom(t);
        o.rect = t->visualRect(i);
        o.rect.setWidth(t->columnWidth(CollectiveModel::LateRank));
        const QString shown = lateDelegate->shownText(o, i);
        const auto [file, dev] = capture(i.data().toString());
        SCOPED_TRACE(i.data().toString().toStdString() + " shown as " + shown.toStdString());
        // "...after/pid 148/dev 0", "...before/p...44/dev 0"
        EXPECT_TRUE(shown.startsWith(ell + file.left(3)));
        EXPECT_TRUE(shown.endsWith(dev.mid(1)));
        elided += shown != i.data().toString();
    }
    EXPECT_EQ(elided, w.filter()->rowCount());  // all long, all elided
    // the collective view's rank labels: "...after/pid 148/dev 0  >" (was "nsysai-mf...148/dev 0")
    auto ticker = w.view()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    // two ranks, and the CPU row's when the late arrival is a late CPU launch (as it is here)
    ASSERT_EQ(ticker->ticks().size(), w.view()->hasCpuRow() ? 3 : 2);
    for (const QString& l : ticker->ticks()) {
        SCOPED_TRACE(l.toStdString());
        if (l.startsWith("CPU of ")) continue;
        EXPECT_TRUE(l.startsWith(ell + "after/pid 14") || l.startsWith(ell + "before/pid 14"));
        EXPECT_NE(l.indexOf("/dev "), -1);
    }
    // the Ranks tab: capped Rank column, numbers in view, labels naming the capture and the device
    w.tabs()->setCurrentIndex(w.tabs()->indexOf(w.ranksTable()->parentWidget()));
    QTest::qWait(20);
    QTableView* rt = w.ranksTable();
    EXPECT_LE(rt->columnWidth(RanksModel::Rank), CollectivesPane::rankColumnCap(QFontMetrics(rt->font())));
    for (int c : {int(RanksModel::Last), int(RanksModel::First), int(RanksModel::MeanLateness)})
        EXPECT_LE(rt->columnViewportPosition(c) + rt->columnWidth(c), rt->viewport()->width()) << c;
    auto* rankDelegate = dynamic_cast<RankLabelDelegate*>(rt->itemDelegateForColumn(RanksModel::Rank));
    ASSERT_TRUE(rankDelegate);
    ASSERT_GT(rt->model()->rowCount(), 0);
    for (int r = 0; r < rt->model()->rowCount(); ++r) {
        const QModelIndex i = rt->model()->index(r, RanksModel::Rank);
        QStyleOptionViewItem o;
        o.initFrom(rt);
        o.rect = rt->visualRect(i);
        const QString shown = rankDelegate->shownText(o, i);
        const auto [file, dev] = capture(i.data().toString());
        SCOPED_TRACE(i.data().toString().toStdString() + " shown as " + shown.toStdString());
        EXPECT_TRUE(shown.startsWith(ell + file.left(3)));
        EXPECT_TRUE(shown.endsWith(dev.mid(1)));
        EXPECT_LE(QFontMetrics(rt->font()).horizontalAdvance(shown), o.rect.width());
    }
}

TEST(Table, ReadableCausesWithTheIdentifierAsTooltip) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    const auto& truth = demo().result;
    auto* src = w.filter()->sourceModel();
    for (const auto& tl : truth.late) {
        int c = collectiveOf(w, 0, uint32_t(tl.index));
        bool gpu = tl.planted.kind == skewgen::LateKind::Gpu;
        EXPECT_EQ(src->index(c, CollectiveModel::Cause).data().toString(), gpu ? "GPU dependency" : "CPU launch");
        EXPECT_TRUE(src->index(c, CollectiveModel::Cause).data(Qt::ToolTipRole).toString().startsWith(
            gpu ? "cause: gpu_dependency" : "cause: cpu_launch"));
    }
    EXPECT_EQ(std::string(skew::causeLabel(skew::Cause::GpuOther)), "GPU other");
    EXPECT_EQ(std::string(skew::causeLabel(skew::Cause::Unknown)), "Unknown");
    // the cause filter offers the core's words, in the reports' order, with the identifiers as data
    QComboBox* causes = nullptr;
    for (QComboBox* c : w.findChildren<QComboBox*>())
        if (c->toolTip() == "Show one cause of lateness") causes = c;
    ASSERT_TRUE(causes);
    QStringList texts, ids;
    for (int i = 1; i < causes->count(); ++i) texts << causes->itemText(i), ids << causes->itemData(i).toString();
    EXPECT_EQ(texts, QStringList({"CPU launch", "GPU dependency", "GPU other", "Unknown"}));
    EXPECT_EQ(ids, QStringList({"cpu_launch", "gpu_dependency", "gpu_other", "unknown"}));
    // the cause filter offers the words and filters by the identifier
    w.setFilters({}, -1, "cpu_launch", 20, false);
    EXPECT_EQ(w.filter()->rowCount(), 3);  // the three planted CPU late arrivers over 20 ms
}

// The real 2xH100 export has a late arriver whose cause is unknown (no launch row to tell): the
// table writes it as a word beside "GPU dependency", with the identifier in the tooltip.
TEST(Table, UnknownCauseIsAWordLikeTheOthers) {
    MainWindow w;
    ASSERT_TRUE(openAndWait(w, {realPath("nsysai-mfu_2gpu_before.sqlite")}));
    const auto& cs = w.session()->analysis.collectives;
    auto* src = w.filter()->sourceModel();
    int unknown = 0, gpu = 0;
    for (size_t i = 0; i < cs.size(); ++i) {
        if (cs[i].lateSlot < 0) continue;
        const QString shown = src->index(int(i), CollectiveModel::Cause).data().toString();
        if (cs[i].cause == skew::Cause::Unknown) {
            ++unknown;
            EXPECT_EQ(shown, "Unknown");
            EXPECT_TRUE(src->index(int(i), CollectiveModel::Cause).data(Qt::ToolTipRole).toString().startsWith("cause: unknown\n"));
        } else if (cs[i].cause == skew::Cause::GpuDependency) {
            ++gpu;
            EXPECT_EQ(shown, "GPU dependency");
        }
    }
    EXPECT_EQ(unknown, 1);
    EXPECT_GT(gpu, 0);
    w.setFilters({}, -1, "unknown", 0, false);
    EXPECT_EQ(w.filter()->rowCount(), 1);
}

TEST(Table, KeyColumnsInViewAt1600x900) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QTableView* t = w.table();
    for (int c : {CollectiveModel::Group, CollectiveModel::Index, CollectiveModel::Op, CollectiveModel::StartSkew, CollectiveModel::LateRank,
                  CollectiveModel::Cause, CollectiveModel::Excess}) {
        EXPECT_LE(t->columnViewportPosition(c) + t->columnWidth(c), t->viewport()->width())
            << t->model()->headerData(c, Qt::Horizontal).toString().toStdString();
    }
}

TEST(Table, MeasuresSortLargestFirstOnTheFirstClick) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QHeaderView* h = w.table()->horizontalHeader();
    auto click = [&](int column) {
        QPoint p(h->sectionViewportPosition(column) + h->sectionSize(column) / 2, h->height() / 2);
        QTest::mouseClick(h->viewport(), Qt::LeftButton, {}, p);
    };
    const auto& cs = w.session()->analysis.collectives;
    auto top = [&] { return cs[size_t(w.filter()->mapToSource(w.filter()->index(0, 0)).row())]; };
    click(CollectiveModel::StartSkew);
    EXPECT_EQ(h->sortIndicatorSection(), int(CollectiveModel::StartSkew));
    EXPECT_EQ(h->sortIndicatorOrder(), Qt::DescendingOrder);
    EXPECT_EQ(top().index, 102u);  // 54.97 ms, the largest
    click(CollectiveModel::StartSkew);
    EXPECT_EQ(h->sortIndicatorOrder(), Qt::AscendingOrder);
    click(CollectiveModel::Excess);
    EXPECT_EQ(h->sortIndicatorOrder(), Qt::DescendingOrder);
    int64_t maxExcess = 0;
    for (const auto& c : cs) maxExcess = std::max(maxExcess, c.excessNs);
    EXPECT_EQ(top().excessNs, maxExcess);
    // positions sort in their natural order
    click(CollectiveModel::Index);
    EXPECT_EQ(h->sortIndicatorOrder(), Qt::AscendingOrder);
    EXPECT_EQ(top().index, 1u);
    QAbstractItemModelTester tester(w.filter(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c)
        EXPECT_EQ(w.filter()->headerData(c, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
                  int(CollectiveModel::isMeasure(c) ? Qt::DescendingOrder : Qt::AscendingOrder));
}

TEST(Table, ShownCountEmptyStateAndThePlotFollowsTheFilters) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QAbstractItemModelTester tester(w.filter(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(w.filterStatusText(), "140 collectives shown");
    w.setFilters({}, -1, {}, 0, true);
    EXPECT_EQ(w.filterStatusText(), "5 of 140 collectives shown");
    EXPECT_TRUE(w.filter()->accepts(w.currentCollective()));
    // the view shows a collective the table lists
    ASSERT_TRUE(w.selectCollective(0, 102));
    w.setFilters("AllGather", -1, {}, 0, true);
    EXPECT_EQ(w.filter()->rowCount(), 4);
    EXPECT_TRUE(w.filter()->accepts(w.currentCollective()));
    EXPECT_EQ(w.view()->scene().collective, w.currentCollective());
    EXPECT_EQ(w.session()->analysis.collectives[size_t(w.currentCollective())].op, skew::CollOp::AllGather);
    const int onBefore = w.currentCollective();
    // nothing matches: an empty-state line, and no collective in the plot
    w.setFilters({}, 1, {}, 0, true);  // group 1 has no big late arriver
    EXPECT_EQ(w.filter()->rowCount(), 0);
    EXPECT_EQ(w.filterStatusText(), "0 of 140 collectives shown");
    EXPECT_TRUE(w.showsFilterEmptyState());
    EXPECT_EQ(w.currentCollective(), -1);
    EXPECT_LT(w.view()->scene().collective, 0);
    EXPECT_EQ(w.timeline()->selectedCollective(), -1);  // no selection band left in the run views
    EXPECT_FALSE(w.table()->isVisible());
    // "clear the filters" brings the rows back, on the collective shown before the list emptied
    QTest::qWait(20);
    QLabel* link = nullptr;
    for (QLabel* l : w.findChildren<QLabel*>())
        if (l->text().contains("Clear the filters")) link = l;
    ASSERT_TRUE(link && link->isVisible());
    emit link->linkActivated("clear");
    EXPECT_EQ(w.filter()->rowCount(), 140);
    EXPECT_FALSE(w.showsFilterEmptyState());
    EXPECT_TRUE(w.table()->isVisible());
    EXPECT_EQ(w.currentCollective(), onBefore);
    EXPECT_EQ(w.filter()->mapToSource(w.table()->selectionModel()->currentIndex()).row(), onBefore);
    EXPECT_EQ(w.view()->scene().collective, onBefore);
    EXPECT_EQ(w.timeline()->selectedCollective(), onBefore);
    // a filter change that hides it while other rows stay listed moves on to the first of them; that
    // one is then the collective kept while the list is empty
    w.setFilters({}, 1, {}, 0, false);
    const int firstOfGroup1 = w.currentCollective();
    EXPECT_EQ(w.session()->analysis.collectives[size_t(firstOfGroup1)].group, 1);
    w.setFilters({}, 1, {}, 0, true);
    EXPECT_EQ(w.currentCollective(), -1);
    w.clearFilters();
    EXPECT_EQ(w.currentCollective(), firstOfGroup1);
    // F5 while the list is empty keeps it across the reload as well
    w.setFilters({}, 1, {}, 0, true);
    {
        QSignalSpy ok(&w, &MainWindow::sessionLoaded);
        QTest::keyClick(&w, Qt::Key_F5);
        ASSERT_TRUE(waitLoaded(ok));
    }
    EXPECT_EQ(w.currentCollective(), -1);
    EXPECT_TRUE(w.showsFilterEmptyState());
    w.clearFilters();
    EXPECT_EQ(w.currentCollective(), firstOfGroup1);
}

TEST(Table, CtrlCCopiesTheSelectedRowsAsTsv) {
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QTableView* t = w.table();
    // click row 2, shift-click row 4: three rows selected, the current one drives the view
    t->scrollToTop();
    auto cell = [&](int row) { return t->visualRect(w.filter()->index(row, 1)).center(); };
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell(2));
    QTest::mouseClick(t->viewport(), Qt::LeftButton, Qt::ShiftModifier, cell(4));
    EXPECT_EQ(t->selectionModel()->selectedRows().size(), 3);
    EXPECT_EQ(w.currentCollective(), w.filter()->mapToSource(w.filter()->index(4, 0)).row());
    QApplication::clipboard()->clear();
    t->setFocus();
    QTest::keyClick(t, Qt::Key_C, Qt::ControlModifier);
    QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4);
    QStringList header;
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c) header << w.filter()->headerData(c, Qt::Horizontal).toString();
    EXPECT_EQ(lines[0], header.join('\t'));
    for (int r = 2; r <= 4; ++r) {
        QStringList cells;
        for (int c = 0; c < CollectiveModel::ColumnCount; ++c) cells << w.filter()->index(r, c).data().toString();
        EXPECT_EQ(lines[r - 1], cells.join('\t'));
        EXPECT_EQ(lines[r - 1].split('\t').size(), int(CollectiveModel::ColumnCount));
    }
}

}  // namespace

namespace {

skew::Collective row(uint32_t index, skew::CollOp op, bool complete, int64_t startSkew, int64_t endSkew, int64_t excess, uint32_t step,
                     int64_t offset) {
    skew::Collective c;
    c.index = index, c.op = op, c.complete = complete;
    c.minStart = 1000, c.maxStart = 1000 + startSkew, c.minEnd = 5000, c.maxEnd = 5000 + endSkew;
    c.excessNs = excess, c.step = step, c.offsetInStepNs = offset;
    return c;
}

// what the table's sizing wants, by its definition: every cell's text written, the first longest per
// column, each distinct op and late rank text in the order of their first row
CollectiveModel::WidestTexts everyCellsText(const skew::Session& s) {
    CollectiveModel::WidestTexts w;
    QSet<QString> seen[CollectiveModel::ColumnCount];
    for (int r = 0; r < int(s.analysis.collectives.size()); ++r)
        for (int c = 0; c < CollectiveModel::ColumnCount; ++c) {
            const QString t = CollectiveModel::text(s, r, c).toString();
            if (c == CollectiveModel::LateRank || c == CollectiveModel::Op) {
                if (!seen[c].contains(t)) seen[c].insert(t), w.texts[c] << t;
            } else if (w.texts[c].isEmpty() || t.size() > w.texts[c].front().size()) {
                w.texts[c] = QStringList{t};
            }
        }
    return w;
}

}  // namespace

// The widest texts come from the numbers without writing every cell (issue 25: 0.2-0.4 s before
// the first picture on 125,000 collectives); a value that rounds up to the next unit's power of ten
// ("999.96 us" is "1000.0 us") is one character longer than its neighbours, and a tie keeps the first row.
TEST(Table, WidestTextsComeFromTheNumbersWithRoundingAndTies) {
    using skew::CollOp;
    skew::Session s;
    s.profile.ranks.resize(2);
    s.profile.ranks[0].label = "r0";
    s.profile.ranks[1].label = "rank one";
    skew::Group g;
    g.lanes.resize(2);
    g.lanes[0].rank = 0, g.lanes[1].rank = 1;
    s.analysis.groups.push_back(g);
    auto& cs = s.analysis.collectives;
    //             index  op                 complete start skew   end skew     excess          step  offset
    cs.push_back(row(1, CollOp::AllReduce, true, 123'456, 999, -2'000, 0, 0));                  // 123.5 us, 999 ns, -2.0 us
    cs.push_back(row(2, CollOp::AllReduce, false, 999'960, 12'345'678, 9'999'999'999, 7, 42));  // 1000.0 us, 12.35 ms, 10.000 s
    cs.push_back(row(3, CollOp::AllGather, true, 5'000, 98'765'432, 1'500'000'000, 1234, 999'999'500));  // 5.0 us, 98.77 ms (a tie), 1.500 s, 1000.00 ms
    cs.push_back(row(10, CollOp::AllReduce, true, 999'949, 1'234'567, 0, 12, 7'000));           // 999.9 us, 1.23 ms, 0 ns, 7.0 us
    cs[1].lateSlot = 1, cs[1].cause = skew::Cause::GpuDependency;
    cs[2].lateSlot = 0, cs[2].cause = skew::Cause::CpuLaunch;
    cs[3].lateSlot = 1, cs[3].cause = skew::Cause::GpuOther;

    const CollectiveModel::WidestTexts w = CollectiveModel::widestTexts(s);
    using C = CollectiveModel;
    EXPECT_EQ(w.texts[C::Group], QStringList{"0"});
    EXPECT_EQ(w.texts[C::Index], QStringList{"10"});
    EXPECT_EQ(w.texts[C::StartSkew], QStringList{"1000.0 us"});
    EXPECT_EQ(w.texts[C::EndSkew], QStringList{"12.35 ms"});
    EXPECT_EQ(w.texts[C::Excess], QStringList{"10.000 s"});
    EXPECT_EQ(w.texts[C::Step], QStringList{"1234"});
    EXPECT_EQ(w.texts[C::Offset], QStringList{"1000.00 ms"});
    EXPECT_EQ(w.texts[C::Cause], QStringList{"GPU dependency"});
    EXPECT_EQ(w.texts[C::Op], (QStringList{"AllReduce", "AllReduce (partial)", "AllGather"}));
    EXPECT_EQ(w.texts[C::LateRank], (QStringList{"", "rank one", "r0"}));
}

TEST(Table, WidestTextsAreThoseOfEveryCellOnALongCapture) {
    const SessionPtr s = skew::loadSession({longRun().path}, {}, {});
    ASSERT_EQ(s->analysis.groups[0].count, 35100u);  // and the other groups' collectives
    const CollectiveModel::WidestTexts fast = CollectiveModel::widestTexts(*s), all = everyCellsText(*s);
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c) EXPECT_EQ(fast.texts[c], all.texts[c]) << "column " << c;
}

TEST(Table, RanksTabColumnsAreSizedWhenTheTabIsShown) {
    // sizing the Ranks table's columns measures every row's texts (30 ms a time on 1,024 ranks): an
    // open leaves it to the tab's first showing, and the tab then shows them sized to their content
    MainWindow w;
    w.resize(1600, 900);
    w.show();
    ASSERT_TRUE(openAndWait(w, {demoPath()}));
    QTableView* rt = w.ranksTable();
    QWidget* tab = rt->parentWidget();
    ASSERT_FALSE(tab->isVisible());  // a capture opens on its answers
    const int unsized = rt->horizontalHeader()->defaultSectionSize();
    EXPECT_EQ(rt->columnWidth(RanksModel::Last), unsized);
    w.tabs()->setCurrentIndex(w.tabs()->indexOf(tab));
    QTest::qWait(20);
    ASSERT_TRUE(tab->isVisible());
    for (int c : {int(RanksModel::Last), int(RanksModel::First), int(RanksModel::MeanLateness)}) {
        SCOPED_TRACE(c);
        EXPECT_NE(rt->columnWidth(c), unsized);
        EXPECT_GE(rt->columnWidth(c), rt->horizontalHeader()->sectionSizeHint(c));  // its title in full
        int widest = 0;  // and its widest value
        for (int r = 0; r < rt->model()->rowCount(); ++r)
            widest = std::max(widest, rt->fontMetrics().horizontalAdvance(rt->model()->index(r, c).data().toString()));
        EXPECT_GT(rt->columnWidth(c), widest);
    }
    EXPECT_LE(rt->columnWidth(RanksModel::Rank), CollectivesPane::rankColumnCap(QFontMetrics(rt->font())));
}

TEST(Table, RanksChartNamesEveryRankOrEveryKthWhenTheyCannotBePrintedApart) {
    EXPECT_EQ(RanksPanel::labelStride(40, 12), 1);
    EXPECT_EQ(RanksPanel::labelStride(12, 12), 1);  // touching, not overlapping
    EXPECT_EQ(RanksPanel::labelStride(11.9, 12), 2);
    EXPECT_EQ(RanksPanel::labelStride(7.9, 12), 5);    // 16 px needed (4 px apart): 2.03 pitches, a round 5
    EXPECT_EQ(RanksPanel::labelStride(1.5, 12), 20);   // 1,024 ranks on 1,500 px: 10.7 pitches, a round 20
    EXPECT_EQ(RanksPanel::labelStride(0, 12), 2000);   // no width at all: one label (rank 0)
    // 128 ranks in the chart: named ones a letter's height apart at least, the first rank named; on a wide
    // chart, every one
    skewgen::GenConfig cfg;
    cfg.ranks = 128;
    cfg.steps = 2;
    cfg.layers = 2;
    const auto& g = testutil::generated("ranks128", cfg);
    SessionPtr s = skew::loadSession({g.path}, {}, {});
    for (const int width : {700, 5000}) {
        SCOPED_TRACE(width);
        RanksPanel p;
        p.resize(width, 320);
        p.setGroup(s, 0);
        p.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&p));
        QTest::qWait(50);  // the chart's resize lays its ticks out again
        p.chart()->replot();
        auto ticker = p.chart()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        ASSERT_TRUE(ticker);
        const QList<double> at = ticker->ticks().keys();
        ASSERT_FALSE(at.isEmpty());
        EXPECT_EQ(at.front(), 0.0);
        const int thick = QFontMetrics(p.chart()->xAxis->tickLabelFont()).ascent();
        for (int i = 1; i < at.size(); ++i)
            EXPECT_GE(p.chart()->xAxis->coordToPixel(at[i]) - p.chart()->xAxis->coordToPixel(at[i - 1]), thick + (width == 5000 ? -0.5 : 3.5)) << i;
        if (width == 5000) EXPECT_EQ(at.size(), 128);
        else EXPECT_LT(at.size(), 64);
    }
}

TEST(Table, RanksChartNamesSixteenRanksAllAt1024x700) {
    // the common case stays whole: 16 ranks in the bottom pane of a 1024x700 window, upright labels
    // 13 px apart, every one named (a line's height as the spacing named only every second)
    skewgen::GenConfig cfg;
    cfg.ranks = 16;
    cfg.steps = 2;
    cfg.layers = 2;
    const auto& g = testutil::generated("ranks16", cfg);
    MainWindow w;
    w.resize(1024, 700);
    w.show();
    ASSERT_TRUE(openAndWait(w, {QString::fromStdString(g.path)}));
    w.tabs()->setCurrentIndex(w.tabs()->indexOf(w.ranksTable()->parentWidget()));
    QTest::qWait(50);
    w.ranksChart()->replot();
    auto ticker = w.ranksChart()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    EXPECT_EQ(ticker->ticks().size(), 16);
    EXPECT_EQ(w.ranksChart()->xAxis->tickLabelRotation(), 90);  // upright: the case the spacing rule is for
}

