#include "views/timeline/timeline_raster.h"

#include <QColor>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>

#include "common/palette.h"

using namespace skew;

namespace skewui {

using namespace palette;

double niceStep(double raw) {
    double e = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * e >= raw) return m * e;
    return 10 * e;
}

namespace {

// 20% of the selection colour over a background pixel
uint32_t tint(uint32_t b) {
    return qRgb((qRed(b) * 205 + kSelect.red() * 50) / 255, (qGreen(b) * 205 + kSelect.green() * 50) / 255,
                (qBlue(b) * 205 + kSelect.blue() * 50) / 255);
}
// a grid line over a background pixel: 7% black
uint32_t gridOver(uint32_t b) { return qRgb(qRed(b) * 237 / 255, qGreen(b) * 237 / 255, qBlue(b) * 237 / 255); }

// per task: the columns of a row and what the painting needs, kept per thread across frames
struct Scratch {
    std::vector<ColumnSum> cols;
    std::vector<uint32_t> all, nccl;
    std::vector<uint64_t> ends;  // per column: the pixel height where each class ends, a byte per class
    std::vector<std::pair<int, int>> runs;
    void fit(int w) {
        cols.resize(size_t(w));
        all.resize(size_t(w));
        nccl.resize(size_t(w));
        ends.resize(size_t(w));
    }
};

class BodyRaster {
public:
    BodyRaster(const RasterFrame& f, QImage& img);
    void paint();

private:
    void prepareBackgrounds();
    void prepareBand();
    void background(int y0, int y1, bool band) const;  // device rows [y0, y1)
    void stack(Scratch& sc, int top, int bottom) const;
    void row(const TimelineRow& r, Scratch& sc) const;
    void laneRow(const TimelineRow& r, Scratch& sc, int top, int bottom) const;
    void kernelOutlines(const TimelineRow& r, uint32_t first, uint32_t last, int top, int bottom) const;
    void cpuRow(const TimelineRow& r, Scratch& sc, int top, int bottom) const;
    int deviceY(double contentY) const { return int(std::lround((contentY - f_.scrollY) * f_.dpr)); }
    uint32_t* line(int y) const { return bits_ + size_t(y) * stride_; }

    const RasterFrame& f_;
    const int W_, H_;
    const PixelMap m_;
    uint32_t* bits_ = nullptr;
    size_t stride_ = 0;  // pixels per image line
    std::vector<uint32_t> bg_;  // per device row: its background colour
    std::vector<int> gridX_;    // columns of the time grid
    int bandX0_ = 0, bandX1_ = 0;
    std::vector<uint8_t> inBand_;  // per rank: the selected collective has a member there
    uint32_t colors_[kKernelClasses] = {}, hatch_ = kWaitHatch.rgb();
};

BodyRaster::BodyRaster(const RasterFrame& f, QImage& img)
    : f_(f),
      W_(std::max(1, int(std::lround(f.width * f.dpr)))),
      H_(std::max(1, int(std::lround(f.height * f.dpr)))),
      m_(PixelMap::fit(f.t0, f.t1, W_)) {
    if (img.size() != QSize(W_, H_) || img.format() != QImage::Format_ARGB32_Premultiplied)
        img = QImage(W_, H_, QImage::Format_ARGB32_Premultiplied);  // else the last frame's memory is reused
    img.setDevicePixelRatio(f.dpr);
    bits_ = reinterpret_cast<uint32_t*>(img.bits());
    stride_ = size_t(img.bytesPerLine() / 4);
    for (int w = 0; w < kKernelClasses; ++w) colors_[w] = classColor(KernelClass(w)).rgb();
    prepareBackgrounds();
    prepareBand();
}

// opaque: rank blocks' backgrounds, a line above each rank and the time grid, painted by each row's
// task (rows past the last rank here)
void BodyRaster::prepareBackgrounds() {
    bg_.assign(size_t(H_), qRgb(255, 255, 255));
    int rankIdx = -1;
    for (const TimelineRow& r : *f_.rows) {
        if (r.kind == TimelineRow::Header) rankIdx = r.rank;
        const uint32_t c = rankIdx % 2 ? qRgb(0xf4, 0xf6, 0xf9) : qRgb(0xfb, 0xfc, 0xfd);
        const int y0 = deviceY(r.y), y1 = deviceY(r.y + r.h);
        for (int y = std::max(0, y0); y < std::min(H_, y1); ++y) bg_[size_t(y)] = c;
        if (r.kind == TimelineRow::Header && y0 >= 0 && y0 < H_) bg_[size_t(y0)] = qRgb(200, 204, 210);
    }
    const double step = niceStep(m_.nsPerPx / f_.dpr * 75);
    for (double t = std::ceil(f_.t0 / step) * step; t <= f_.t1; t += step) {
        const int x = int(std::floor(m_.x(t)));
        if (x >= 0 && x < W_) gridX_.push_back(x);
    }
}

// the selected collective's band: a tint behind its ranks' rows, from its first start to its last end
void BodyRaster::prepareBand() {
    if (!f_.session) return;
    inBand_.assign(f_.session->profile.ranks.size(), 0);
    if (f_.selected < 0) return;
    const Collective& c = f_.session->analysis.collectives[size_t(f_.selected)];
    double xa = m_.x(double(c.minStart)), xb = m_.x(double(c.maxEnd));
    if (xb - xa < 3 * f_.dpr) xa = (xa + xb) / 2 - 1.5 * f_.dpr, xb = xa + 3 * f_.dpr;
    bandX0_ = std::clamp(int(std::floor(xa)), 0, W_);
    bandX1_ = std::clamp(int(std::ceil(xb)), 0, W_);
    for (const GroupSlot& gl : f_.session->analysis.groups[size_t(c.group)].lanes) inBand_[size_t(gl.rank)] = 1;
}

void BodyRaster::background(int y0, int y1, bool band) const {
    for (int y = std::max(0, y0); y < std::min(H_, y1); ++y) {
        uint32_t* l = line(y);
        const uint32_t b = bg_[size_t(y)], t = tint(b);
        std::fill(l, l + W_, b);
        if (band) std::fill(l + bandX0_, l + bandX1_, t);
        for (int x : gridX_) l[x] = gridOver(band && x >= bandX0_ && x < bandX1_ ? t : b);
    }
}

// stacked shares of one row's columns (sc.cols), between device rows [top, bottom): per column the
// pixel height where each class ends (from the bottom), then the rows written in order
void BodyRaster::stack(Scratch& sc, int top, int bottom) const {
    const int h = std::min(bottom - top, 255);
    if (h <= 0) return;
    bottom = top + h;
    auto endOf = [](uint64_t e, int j) { return int((e >> (8 * j)) & 0xFF); };
    for (int x = 0; x < W_; ++x) {
        const ColumnSum& c = sc.cols[size_t(x)];
        const double busy = c.busy();
        if (busy <= 0) {
            sc.ends[size_t(x)] = 0;
            continue;
        }
        const double denom = std::max(m_.nsPerPx, busy);  // overlapping kernels: shares of the busy time
        int used = 0;
        double cum = 0;
        uint64_t e = 0;
        for (int j = 0; j < kKernelClasses; ++j) {
            const double v = c.ns[int(kStackOrder[j])];
            if (v > 0 && used < h) {
                cum += v / denom;
                used = std::min(h, std::max(used + 1, int(cum * h + 0.5)));  // a class that ran takes >= 1 px
            }
            e |= uint64_t(used) << (8 * j);
        }
        sc.ends[size_t(x)] = e;
    }
    // runs of columns that look alike (zoomed in: whole kernels), then the rows in order
    sc.runs.clear();
    for (int x = 0; x < W_;) {
        int x1 = x + 1;
        while (x1 < W_ && sc.ends[size_t(x1)] == sc.ends[size_t(x)]) ++x1;
        if (sc.ends[size_t(x)]) sc.runs.push_back({x, x1});
        x = x1;
    }
    for (int y = std::max(0, top); y < std::min(H_, bottom); ++y) {
        const int fromBottom = bottom - y;  // 1 .. h
        uint32_t* l = line(y);
        for (const auto& [x0, x1] : sc.runs) {
            const uint64_t e = sc.ends[size_t(x0)];
            if (endOf(e, kKernelClasses - 1) < fromBottom) continue;  // idle at this height
            int j = 0;
            while (endOf(e, j) < fromBottom) ++j;
            const KernelClass w = kStackOrder[j];
            if (w == KernelClass::NcclWait) {
                for (int x = x0; x < x1; ++x) l[x] = (x + y) % 5 == 0 ? hatch_ : colors_[int(w)];
            } else {
                std::fill(l + x0, l + x1, colors_[int(w)]);
            }
        }
    }
}

void BodyRaster::row(const TimelineRow& r, Scratch& sc) const {
    background(deviceY(r.y), deviceY(r.y + r.h), inBand_[size_t(r.rank)]);
    const int top = deviceY(r.y + 2), bottom = deviceY(r.y + r.h - 1);
    const TimelineIndex& ix = f_.session->timeline;
    if (r.kind == TimelineRow::Lane) {
        laneRow(r, sc, top, bottom);
    } else if (r.kind == TimelineRow::Header && f_.collapsed && f_.collapsed(r.rank)) {
        std::fill(sc.cols.begin(), sc.cols.end(), ColumnSum{});
        for (int l : ix.laneOrder(r.rank)) ix.columns(r.rank, l, m_, sc.cols.data(), true);
        stack(sc, top, bottom);
    } else if (r.kind == TimelineRow::Cpu) {
        cpuRow(r, sc, top, bottom);
    }
}

void BodyRaster::laneRow(const TimelineRow& r, Scratch& sc, int top, int bottom) const {
    const TimelineIndex& ix = f_.session->timeline;
    auto [first, last] = ix.kernelsIn(r.rank, r.lane, f_.t0, f_.t1);
    if (first >= last) return;  // nothing on this stream in view
    ix.columns(r.rank, r.lane, m_, sc.cols.data());
    stack(sc, top, bottom);
    // each kernel outlined once kernels are a few pixels wide, so neighbours of one class stay apart
    if (last - first <= uint32_t(W_ / 4)) kernelOutlines(r, first, last, top, bottom);
}

void BodyRaster::kernelOutlines(const TimelineRow& r, uint32_t first, uint32_t last, int top, int bottom) const {
    const TimelineIndex& ix = f_.session->timeline;
    const KernelLane& kl = f_.session->profile.ranks[size_t(r.rank)].lanes[size_t(r.lane)];
    const int y0 = std::max(0, top), y1 = std::min(H_, bottom);
    if (y1 <= y0) return;
    for (uint32_t k = first; k < last; ++k) {
        const double xa = m_.x(double(kl.start[k])), xb = m_.x(double(kl.end(k)));
        if (xb - xa < 4 * f_.dpr) continue;
        const uint32_t edge = classColor(ix.kernelClass(r.rank, r.lane, k)).darker(150).rgb();
        const int a = std::max(0, int(std::floor(xa))), b = std::min(W_ - 1, int(std::ceil(xb)) - 1);
        if (b < a) continue;
        std::fill(line(y0) + a, line(y0) + b + 1, edge);
        std::fill(line(y1 - 1) + a, line(y1 - 1) + b + 1, edge);
        for (int y = y0; y < y1; ++y) {
            if (xa >= 0) line(y)[a] = edge;
            if (xb <= W_) line(y)[b] = edge;
        }
    }
}

void BodyRaster::cpuRow(const TimelineRow& r, Scratch& sc, int top, int bottom) const {
    const TimelineIndex& ix = f_.session->timeline;
    const int y0 = std::max(0, top - 1), y1 = std::min(H_, bottom);
    if (ix.launchCountIn(r.rank, f_.t0, f_.t1) <= size_t(W_ / 3)) {
        // zoomed in: every launch call as a bar over its duration, NCCL launches on top
        const Rank& rank = f_.session->profile.ranks[size_t(r.rank)];
        auto fill = [&](int xa, int xb, uint32_t col) {
            for (int y = y0; y < y1; ++y)
                for (int x = std::max(0, xa); x < std::min(W_, xb); ++x) line(y)[x] = col;
        };
        for (int pass = 0; pass < 2; ++pass)
            ix.forEachLaunch(r.rank, f_.t0, f_.t1, [&](int lane, uint32_t k) {
                bool n = ix.ncclLaunch(r.rank, lane, k);
                if (n != (pass == 1)) return;
                const KernelLane& kl = rank.lanes[size_t(lane)];
                int xa = int(std::floor(m_.x(double(kl.launchStart(k))))), xb = int(std::ceil(m_.x(double(kl.launchEnd(k)))));
                fill(xa, std::max(xa + 1, xb), (n ? kLaunchNccl : kLaunch).rgb());
            });
        return;
    }
    // zoomed out: where the rank's NCCL kernels were launched (every launch would be a solid bar);
    // one colour (or none) per column, rows written in order
    ix.launchColumns(r.rank, m_, sc.all.data(), sc.nccl.data());
    const uint32_t tick = QColor(0x95, 0x75, 0xbd).rgb();
    for (int x = 0; x < W_; ++x) sc.all[size_t(x)] = sc.nccl[size_t(x)] ? tick : 0;
    for (int y = y0; y < y1; ++y) {
        uint32_t* l = line(y);
        for (int x = 0; x < W_; ++x)
            if (sc.all[size_t(x)]) l[x] = sc.all[size_t(x)];
    }
}

void BodyRaster::paint() {
    if (!f_.session || !f_.session->timeline.valid()) {
        background(0, H_, false);
        return;
    }
    // one task per rank, on the thread pool; the gaps between ranks and the space below the last
    // one are background
    const int viewTop = f_.scrollY, viewBottom = f_.scrollY + f_.height;
    std::vector<std::vector<const TimelineRow*>> tasks;
    int covered = 0;  // device rows painted by the tasks end here
    for (const TimelineRow& r : *f_.rows) {
        if (r.y + r.h <= viewTop || r.y >= viewBottom) continue;
        if (tasks.empty() || tasks.back().front()->rank != r.rank) {
            background(covered, deviceY(r.y), false);
            tasks.emplace_back();
        }
        tasks.back().push_back(&r);
        covered = deviceY(r.y + r.h);
    }
    background(covered, H_, false);
    QtConcurrent::blockingMap(tasks, [&](const std::vector<const TimelineRow*>& rows) {
        thread_local Scratch sc;  // kept per thread: no allocation per frame
        sc.fit(W_);
        for (const TimelineRow* r : rows) row(*r, sc);
    });
}

}  // namespace

void paintTimelineBody(const RasterFrame& f, QImage& img) {
    BodyRaster(f, img).paint();
}

}  // namespace skewui
