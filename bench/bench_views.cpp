// skewscope-bench --views: the run views built offscreen at 1920x1080 from a loaded capture, their
// frames, hit testing and the level-of-detail structures' memory (bench_views.h).
#include "bench_views.h"

#include <QApplication>
#include <QPainter>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "bench_util.h"
#include "common/palette.h"
#include "gui_entry.h"
#include "session.h"
#include "views/heatmap/heatmap_view.h"
#include "views/stepmap/stepmap_view.h"
#include "views/timeline/timeline_view.h"

namespace bench {

void benchViews(int argc, char** argv, skew::Profile&& p, skew::Analysis&& a, const std::string& file) {
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    skewui::keepCNumbersAndMessages();  // the figures read the same under any locale
    auto s = std::make_shared<skewui::Session>();
    s->files = {file};
    s->profile = std::move(p);
    s->analysis = std::move(a);
    double t0 = now();
    skewui::indexSession(*s);  // the level of detail, with the NVTX index and the colour scale
    const double build = now() - t0;
    const double k = double(s->profile.kernelCount());
    const auto b = s->timeline.bytes();
    std::printf("level of detail (with the NVTX index and colour scale): built in %.3f s; %.2f extra bytes per kernel (block sums %.2f, launch order %.2f, collective order %.2f, "
                "names %.3f, missing %.3f)\n",
                build, double(b.total()) / k, double(b.blocks) / k, double(b.launches) / k, double(b.collectives) / k,
                double(b.names) / k, double(b.missing) / k);
    const QSize size(1920, 1080);
    const int runs = std::getenv("SKEWSCOPE_BENCH_VIEW_RUNS") ? std::max(1, std::atoi(std::getenv("SKEWSCOPE_BENCH_VIEW_RUNS"))) : 50;
    // the biggest late arriver, to zoom on
    int worst = 0;
    for (size_t i = 0; i < s->analysis.collectives.size(); ++i)
        if (s->analysis.collectives[i].startSkew() > s->analysis.collectives[size_t(worst)].startSkew()) worst = int(i);

    skewui::TimelineView tl;
    tl.resize(size);
    tl.setSession(s);
    tl.show();
    tl.fit();
    // a redraw after the view moved: the frame body is rebuilt (labels of an unchanged layout stay cached)
    QImage screen(size, QImage::Format_ARGB32_Premultiplied);
    auto redraw = [&] {
        tl.invalidate();
        QPainter p(&screen);
        tl.paintTo(p, size, true);  // what paintEvent does
    };
    auto full = timeMs(runs, redraw);
    auto fullCpu = timeMs(runs, redraw, true);
    std::printf("timeline, full zoom-out (%zu rows, %.0f kernels), frame redrawn on screen: best %.2f ms, median %.2f ms; CPU time best %.2f ms "
                "(target <= 16)\n",
                tl.rows().size(), k, full.first, full.second, fullCpu.first);
    tl.setSelectedCollective(worst);
    tl.fitCollective();
    auto one = timeMs(runs, redraw);
    auto oneCpu = timeMs(runs, redraw, true);
    auto exportFrame = timeMs(runs, [&] { tl.render(size); });
    std::printf("timeline, zoomed to one collective (%.2f ms visible): best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 2); "
                "as an exported image (no cached labels) best %.2f ms\n",
                (tl.rangeEnd() - tl.rangeStart()) / 1e6, one.first, one.second, oneCpu.first, exportFrame.first);
    tl.fit();
    // every big late arrival stays visible at full zoom-out: its marker's pixel in the late colour on
    // the late rank's NCCL row, and a hover there names that collective
    {
        QImage img = tl.render(size).convertToFormat(QImage::Format_RGB32);
        const QColor late = skewui::palette::kLate;
        int big = 0, drawn = 0;
        for (size_t i = 0; i < s->analysis.collectives.size(); ++i) {
            const skew::Collective& c = s->analysis.collectives[i];
            if (!c.big) continue;
            ++big;
            const skew::GroupSlot& gl = s->analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
            const QPoint at(int(tl.xAtTime(double(c.maxStart))), tl.rowRect(tl.rowOf(gl.rank, gl.lane)).top() + 3);
            const QColor px(img.pixel(at));
            const bool colour = std::abs(px.red() - late.red()) <= 20 && std::abs(px.green() - late.green()) <= 20 &&
                                std::abs(px.blue() - late.blue()) <= 20;
            const auto h = tl.hitTest(at);
            drawn += colour && h.kind == skewui::TimelineView::Hit::Marker && h.collective == int(i);
        }
        std::printf("timeline, full zoom-out: %d of %d big late arrivals drawn as markers (pixel in the late colour, hover names the collective)\n",
                    drawn, big);
        // a missing marker is a wrong picture, not a slow one: the benchmark says so and fails
        if (drawn != big) die(std::to_string(big - drawn) + " big late arrival(s) not drawn at full zoom-out");
    }
    std::mt19937 rng(7);
    const QRect area = tl.rowsArea();
    std::vector<QPointF> pts;
    for (int i = 0; i < 20000; ++i)
        pts.emplace_back(area.left() + double(rng() % uint32_t(area.width())), area.top() + double(rng() % uint32_t(area.height())));
    int hits = 0;
    auto hit = timeMs(1, [&] {
        for (const auto& q : pts) hits += tl.hitTest(q).kind != skewui::TimelineView::Hit::None;
    });
    size_t tipChars = 0;
    auto tip = timeMs(1, [&] {
        for (size_t i = 0; i < 2000; ++i) tipChars += size_t(tl.tooltipAt(pts[i]).size());
    });
    std::printf("timeline hover at full zoom-out: hit test %.2f us per position, hit test + tooltip text %.2f us (target <= 1 ms; %d of %zu hit)\n",
                hit.first * 1e3 / double(pts.size()), tip.first * 1e3 / 2000.0, hits, pts.size());

    // the core parts of those frames alone: every lane's merged columns, every CPU row's launch counts
    {
        const skew::TimelineIndex& ix = s->timeline;
        const int W = tl.rowsArea().width();
        skew::PixelMap m = skew::PixelMap::fit(double(ix.start()), double(ix.end()), W);
        std::vector<skew::ColumnSum> cols(static_cast<size_t>(W));
        std::vector<uint32_t> la(static_cast<size_t>(W)), ln(static_cast<size_t>(W));
        auto lanes = timeMs(runs, [&] {
            for (size_t r = 0; r < s->profile.ranks.size(); ++r)
                for (size_t l = 0; l < s->profile.ranks[r].lanes.size(); ++l) ix.columns(int(r), int(l), m, cols.data());
        }, true);
        auto cpu = timeMs(runs, [&] {
            for (size_t r = 0; r < s->profile.ranks.size(); ++r) ix.launchColumns(int(r), m, la.data(), ln.data());
        }, true);
        std::printf("  of which the level-of-detail queries (%d columns, CPU time): every lane %.2f ms, every CPU launch row %.2f ms\n", W,
                    lanes.first, cpu.first);
    }

    skewui::HeatmapView hm;
    hm.resize(size);
    hm.setSession(s);
    hm.show();
    const auto& g = s->analysis.groups[size_t(hm.group())];
    auto heat = timeMs(runs, [&] { hm.replot(QCustomPlot::rpImmediateRefresh); });
    auto heatCpu = timeMs(runs, [&] { hm.replot(QCustomPlot::rpImmediateRefresh); }, true);
    skew::HeatmapCells cells;
    auto heatCore = timeMs(runs, [&] {
        skew::heatmapCells(s->profile, s->analysis, hm.group(), 0, double(s->analysis.groups[size_t(hm.group())].count), hm.axisRect()->width(), cells);
    });
    std::printf("heatmap of %u collectives x %zu ranks, whole frame: best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 16)\n",
                g.count, g.width(), heat.first, heat.second, heatCpu.first);
    std::printf("  of which the cells merged by maximum (%d columns): best %.2f ms\n", hm.axisRect()->width(), heatCore.first);

    skewui::StepMapView sm;
    sm.resize(size);
    sm.setSession(s);
    sm.show();
    auto step = timeMs(runs, [&] { sm.replot(QCustomPlot::rpImmediateRefresh); });
    auto stepCpu = timeMs(runs, [&] { sm.replot(QCustomPlot::rpImmediateRefresh); }, true);
    std::printf("step map of %zu collectives in %u steps, whole frame: best %.2f ms, median %.2f ms; CPU time best %.2f ms (target <= 8)\n",
                sm.map().items.size(), sm.map().steps, step.first, step.second, stepCpu.first);
}


}  // namespace bench
