// The thin lane's level of detail as the collective view paints it: per pixel column the class that
// took most of the column's time, checked against a brute force over the profile's own kernel arrays
// at the view's own zoom, and on the real export of issue 9: dev 1's only GEMM ends at 2.24 ms, so
// nothing after it may be painted GEMM (core's functions alone: tests/test_scene.cpp).

#include <QImage>

#include <gtest/gtest.h>

#include "analysis/analysis.h"
#include "views/collective/collective_view.h"
#include "gui_util.h"
#include "kernel_names_oracle.h"
#include "scene/lane_lod.h"
#include "session.h"

using namespace skewui;
using namespace guitest;
using skew::KernelClass;
using skew::PixelColumns;

namespace {

// Brute force: every kernel of the rank's lanes (but the member itself) against every column.
std::vector<KernelClass> bruteColumns(const skew::Profile& p, const skew::Analysis& a, const CollectiveScene& sc, int row,
                                    const PixelColumns& cols) {
    const skew::Collective& c = a.collectives[size_t(sc.collective)];
    const skew::GroupSlot& gl = a.groups[size_t(c.group)].lanes[size_t(row)];
    const skew::Rank& r = p.ranks[size_t(gl.rank)];
    std::vector<double> gemm(size_t(cols.count)), nccl(size_t(cols.count)), other(size_t(cols.count));
    double span = std::max(sc.endX, 1000.0);  // the scene holds kernels up to 3 spans of the collective each side
    for (size_t li = 0; li < r.lanes.size(); ++li) {
        const skew::KernelLane& kl = r.lanes[li];
        for (size_t k = 0; k < kl.size(); ++k) {
            if (int(li) == gl.lane && k == a.slotKernel(c, size_t(row))) continue;
            double s = double(kl.start[k] - sc.t0), e = double(kl.end(k) - sc.t0);
            if (s > 4 * span || e < -3 * span) continue;
            // the classes by the spec's name rules, not core's classifiers
            bool isNccl = testutil::isNcclKernelName(p.strings.str(kl.name[k]));
            bool isGemm = !isNccl && testutil::isGemmKernelName(p.strings.str(kl.name[k]));
            for (int i = 0; i < cols.count; ++i) {
                double cs = cols.x0Ns + i * cols.nsPerPx, ce = cs + cols.nsPerPx;
                double t = std::min(e, ce) - std::max(s, cs);
                if (t <= 0 && !(s == e && s >= cs && s < ce)) continue;
                t = std::max(t, 1e-9);
                (isNccl ? nccl : isGemm ? gemm : other)[size_t(i)] += t;
            }
        }
    }
    std::vector<KernelClass> out(size_t(cols.count), KernelClass::None);
    for (size_t i = 0; i < out.size(); ++i) {
        double best = std::max({gemm[i], nccl[i], other[i]});
        if (best <= 0) continue;
        out[i] = gemm[i] == best ? KernelClass::Gemm : nccl[i] == best ? KernelClass::OtherNccl : KernelClass::Other;
    }
    return out;
}

TEST(LaneLod, RealExportNeverPaintsGemmWhereNoGemmRan) {
    auto s = loadSession({realPath("nsysai-mfu_2gpu_before.sqlite").toStdString()}, {}, {});
    const skew::Analysis& a = s->analysis;
    // the viewer opens on the largest start skew: G0 #32
    int worst = -1;
    for (size_t i = 0; i < a.collectives.size(); ++i)
        if (a.collectives[i].complete && (worst < 0 || a.collectives[i].startSkew() > a.collectives[size_t(worst)].startSkew())) worst = int(i);
    ASSERT_EQ(a.collectives[size_t(worst)].group, 0);
    ASSERT_EQ(a.collectives[size_t(worst)].index, 32u);

    CollectiveView v;
    v.resize(1024, 700);
    v.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
    v.setScene(buildScene(s->profile, a, worst));
    v.replot();
    ASSERT_EQ(v.viewport().width(), 1024);
    ASSERT_TRUE(v.isFitted());
    const CollectiveScene& sc = v.scene();
    int row = -1;
    for (size_t r = 0; r < sc.rows.size(); ++r)
        if (sc.rows[r].label == "dev 1") row = int(r);
    ASSERT_GE(row, 0);

    // the columns the view paints, against the brute force over the profile
    const QRect plot = v.axisRect()->rect();
    PixelColumns cols{v.xAxis->pixelToCoord(plot.left()) * 1e6, v.xAxis->range().size() * 1e6 / plot.width(), plot.width()};
    std::vector<KernelClass> painted = laneColumns(sc, row, cols);
    std::vector<KernelClass> brute = bruteColumns(s->profile, a, sc, row, cols);
    ASSERT_EQ(painted.size(), brute.size());
    for (size_t i = 0; i < painted.size(); ++i) EXPECT_EQ(int(painted[i]), int(brute[i])) << "column " << i;

    // dev 1's GEMM ran 2.14-2.24 ms after the first arrival; elementwise kernels fill 2.25-3.34 ms
    int gemmColumns = 0;
    for (int i = 0; i < cols.count; ++i) {
        double cs = cols.x0Ns + i * cols.nsPerPx, ce = cs + cols.nsPerPx;
        if (cs >= 2.25e6 && ce <= 3.34e6) {
            EXPECT_NE(painted[size_t(i)], KernelClass::Gemm) << "column at " << cs / 1e6 << " ms";
        }
        if (cs >= 2.15e6 && ce <= 2.23e6) {
            EXPECT_EQ(painted[size_t(i)], KernelClass::Gemm) << "column at " << cs / 1e6 << " ms";
            ++gemmColumns;
        }
    }
    EXPECT_GT(gemmColumns, 2);

    // and on screen: the pixels of dev 1's lane in the rendered view
    QImage img = v.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRgb gemm = qRgb(0x6b, 0x8e, 0x23);
    int laneY = int(std::lround(v.yAxis->coordToPixel(row + kSubY)));
    int green = 0;
    for (int x = plot.left(); x <= plot.right(); ++x) {
        if (img.pixel(x, laneY) != gemm) continue;
        double ms = v.xAxis->pixelToCoord(x + 0.5);
        EXPECT_FALSE(ms > 2.25 && ms < 3.34) << "GEMM colour at " << ms << " ms (x " << x << ")";
        if (ms > 2.14 && ms < 2.24) ++green;
    }
    EXPECT_GT(green, 2);
    // the predecessor stays on top, emphasised: the elementwise kernel queued before the late
    // SendRecv on its own stream, ending just before it started (not a GEMM)
    ASSERT_EQ(v.sceneLayout().predecessors.size(), 1u);
    const Bar& pred = sc.bars[size_t(v.sceneLayout().predecessors[0])];
    EXPECT_EQ(pred.row, row);
    EXPECT_EQ(pred.kind, KernelClass::Other);
    EXPECT_LE(pred.x1, sc.launch.kernelStart);
    EXPECT_GT(pred.x1, sc.launch.kernelStart - 10'000);
    EXPECT_EQ(img.pixel(int(v.sceneLayout().predRects[0].center().x()), int(v.sceneLayout().predRects[0].center().y())) | 0xff000000u,
              qRgb(0xff, 0x8c, 0x00));
}

TEST(LaneLod, DemoLanesMatchTheBruteForceAtEveryZoom) {
    auto s = loadSession({demo().path}, {}, {});
    const skew::Analysis& a = s->analysis;
    CollectiveView v;
    v.resize(1200, 600);
    v.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&v));
    for (uint32_t index : {5u, 63u, 102u}) {
        v.setScene(buildScene(s->profile, a, int(a.groups[0].firstCollective + index - 1)));
        for (double zoom : {1.0, 0.25, 4.0}) {
            SCOPED_TRACE("G0 #" + std::to_string(index) + " zoom " + std::to_string(zoom));
            if (zoom != 1.0) v.zoomBy(zoom);
            v.replot();
            const QRect plot = v.axisRect()->rect();
            PixelColumns cols{v.xAxis->pixelToCoord(plot.left()) * 1e6, v.xAxis->range().size() * 1e6 / plot.width(), plot.width()};
            for (int row = 0; row < int(v.scene().rows.size()); ++row) {
                EXPECT_EQ(laneColumns(v.scene(), row, cols), bruteColumns(s->profile, a, v.scene(), row, cols)) << "row " << row;
            }
            v.resetZoom();
        }
    }
}

}  // namespace
