// GUI tests of the viewer review's defects 8 and 15 (the timeline's legend, note and key, its launch
// lines) (docs/reviews/gui-2026-12.md, issue 24) at the sizes the review used: the main window at 1024x700 and 1280x720 logical pixels. Built into
// gui_tests and, at Qt scale factor 1.5, into gui_scaled_tests (1280x720 logical is 1920x1080
// there), so each test runs at both scales. Each drives the real window and checks rectangles.

#include <QHeaderView>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gui_util.h"
#include "views/timeline/timeline_view.h"
#include "window/main_window.h"

using namespace skewui;
using namespace guitest;

#ifdef SKEWSCOPE_GUI_SCALE_FACTOR
#define SIZES_SUITE ReviewDefectsSizesScaled
#else
#define SIZES_SUITE ReviewDefectsSizes
#endif

namespace {

const QSize kSizes[] = {{1024, 700}, {1280, 720}};

std::string str(const QRectF& r) {
    return "(" + std::to_string(r.x()) + "," + std::to_string(r.y()) + " " + std::to_string(r.width()) + "x" + std::to_string(r.height()) + ")";
}

// the window at `size` with `files` open, the timeline shown
bool openTimeline(MainWindow& w, QSize size, const QStringList& files) {
    w.resize(size);
    w.show();
    w.activateWindow();
    if (!QTest::qWaitForWindowExposed(&w) || !openAndWait(w, files)) return false;
    QTest::keyClick(w.table(), Qt::Key_2, Qt::ControlModifier);
    QTest::qWait(20);
    return w.viewTabs()->currentWidget() == w.timeline();
}

// The timeline's legend keeps all ten entries (a narrow view dropped the last four), on lines of its
// own under the rows, none over another; the note on the rows cut off below (the demo's seven ranks
// never fit 700 or 720 px) sits in the legend band, whole, off the entries and off the rows (over the
// rows it covered a marker's label); the overview's colour key keeps its end values.
TEST(SIZES_SUITE, TimelineLegendNoteAndKeyWhole) {
    const QStringList names = {"NCCL transfer", "NCCL waiting", "GEMM", "other kernel", "big event", "late arriver", "NCCL launch",
                               "selected collective", "other NCCL", "other launch"};
    for (QSize size : kSizes) {
        SCOPED_TRACE(std::to_string(size.width()) + "x" + std::to_string(size.height()));
        MainWindow w;
        ASSERT_TRUE(openTimeline(w, size, {demoPath()}));
        TimelineView* tl = w.timeline();
        tl->repaint();
        shot(&w, QString("timeline-legend-%1x%2").arg(size.width()).arg(size.height()));
        const LegendBoxes b = tl->legendBoxes();
        const QRectF view(tl->rect()), rows(tl->rowsArea());
        ASSERT_EQ(b.entries.size(), size_t(names.size()));
        for (size_t i = 0; i < b.entries.size(); ++i) {
            const auto& [r, text] = b.entries[i];
            SCOPED_TRACE(text.toStdString() + " " + str(r));
            EXPECT_TRUE(text.startsWith(names[int(i)]));
            EXPECT_TRUE(view.contains(r));
            EXPECT_GE(r.top(), rows.bottom());  // (a QRectF's bottom is the first pixel row below it)
            EXPECT_GE(r.width(), 14 + QFontMetricsF(tl->font()).horizontalAdvance(text) * 0.8);  // (the legend's font is smaller)
            for (size_t j = i + 1; j < b.entries.size(); ++j) EXPECT_FALSE(r.intersects(b.entries[j].first)) << b.entries[j].second.toStdString();
            EXPECT_FALSE(r.intersects(b.note)) << "under the note";
        }
        ASSERT_FALSE(tl->rowsBelowNote().isEmpty());
        EXPECT_EQ(b.noteText, QString::fromUtf8("\u25BC ") + tl->rowsBelowNote()) << "the note elided";
        EXPECT_TRUE(view.contains(b.note)) << str(b.note);
        EXPECT_GE(b.note.top(), rows.bottom()) << "the note over the rows " << str(b.note) << " rows " << str(rows);
        for (const QRectF& l : tl->markerLabelRects()) EXPECT_FALSE(l.intersects(b.note));
        EXPECT_TRUE(tl->overviewKeyShowsValues());
    }
}

// the pixels of colour `c` whose centre is inside `r` (widget coordinates) in a grab
int pixelsOf(const QImage& img, const QRectF& r, QRgb c) {
    const double dpr = img.devicePixelRatio();
    const QRect px = QRectF(r.left() * dpr, r.top() * dpr, r.width() * dpr, r.height() * dpr).toAlignedRect().intersected(img.rect());
    int n = 0;
    for (int y = px.top(); y <= px.bottom(); ++y)
        for (int x = px.left(); x <= px.right(); ++x)
            n += r.contains(QPointF((x + 0.5) / dpr, (y + 0.5) / dpr)) && (img.pixel(x, y) & 0xffffff) == (c & 0xffffff);
    return n;
}

// whether segment `l` passes through the inside of `r` (sampled every quarter pixel)
bool crosses(const QLineF& l, const QRectF& r) {
    const QRectF in = r.adjusted(0.5, 0.5, -0.5, -0.5);
    const int n = std::max(2, int(l.length() * 4));
    for (int i = 0; i <= n; ++i)
        if (in.contains(l.pointAt(double(i) / n))) return true;
    return false;
}

// Zoomed in on the demo's collective 0:32 (3 ms around it: the kernels wide enough for their names),
// the lines from the NCCL kernels down to their CPU launches are broken where they would cross a
// kernel's name (they were drawn through them): no segment through a name's box, no pixel of their
// colour inside one in the window's picture, and names that did stand in a line's way (a segment
// ends on their box).
TEST(SIZES_SUITE, TimelineLaunchLinesLeaveKernelNamesFree) {
    for (QSize size : kSizes) {
        SCOPED_TRACE(std::to_string(size.width()) + "x" + std::to_string(size.height()));
        MainWindow w;
        ASSERT_TRUE(openTimeline(w, size, {demoPath()}));
        TimelineView* tl = w.timeline();
        const skew::Collective& c = w.session()->analysis.collectives[size_t(collectiveOf(w, 0, 32))];
        tl->setRange(double(c.minStart) - 1.7e6, double(c.minStart) + 1.3e6);
        int cut = 0, linesSeen = 0;
        for (int scrolled = 0; scrolled < 6; ++scrolled, tl->scrollRows(tl->rowsArea().height() / 2)) {  // every rank in turn
            tl->repaint();
            const LaunchLines ll = tl->launchLines();
            linesSeen += int(ll.lines.size());
            for (const QRectF& n : ll.names) {
                bool ends = false;
                for (const QLineF& l : ll.lines) {
                    EXPECT_FALSE(crosses(l, n)) << "a line through the name at " << str(n);
                    for (QPointF p : {l.p1(), l.p2()})
                        ends |= p.x() >= n.left() - 0.01 && p.x() <= n.right() + 0.01 && p.y() >= n.top() - 0.01 && p.y() <= n.bottom() + 0.01;
                }
                cut += ends;
            }
            const QImage img = tl->grab().toImage();
            if (!ll.lines.empty()) {
                EXPECT_GT(pixelsOf(img, tl->rowsArea(), kLaunchLine), 0) << "no launch line drawn";
            }
            for (const QRectF& n : ll.names) EXPECT_EQ(pixelsOf(img, n.adjusted(1, 1, -1, -1), kLaunchLine), 0) << "line pixels in the name at " << str(n);
            if (cut == 1 && !ll.names.empty()) shot(tl, QString("timeline-launch-lines-%1x%2").arg(size.width()).arg(size.height()));
        }
        EXPECT_GT(linesSeen, 0);
        EXPECT_GT(cut, 0) << "no line met a name: nothing checked";
    }
}

}  // namespace
