#pragma once
// A rank axis (the heatmap's, the collective view's): one label per rank row while the rows are as
// high as a label, else every k-th row's (k = 1, 2, 5, 10, 20, 50, ...: the smallest that keeps labels a line apart), so
// that a 1,000-rank group shows readable labels instead of a black smear. Decided at each replot
// from the axis rect's height then (the screen and every export size alike).

#include <qcustomplot.h>

#include <QFontMetrics>

#include <cmath>

namespace skewui {

class RankTicker : public QCPAxisTickerText {
public:
    explicit RankTicker(const QCPAxis* axis) : axis_(axis) {}

    // the label step for `rows` visible rows on `pixels` pixels with labels `labelPx` high
    static int labelEvery(double rows, double pixels, double labelPx) {
        if (rows <= 0 || pixels <= 0) return 1;
        const double rowPx = pixels / rows;
        for (int decade = 1; decade < 100'000'000; decade *= 10)
            for (int m : {1, 2, 5})
                if (double(m * decade) * rowPx >= labelPx) return m * decade;
        return 100'000'000;
    }

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> all = QCPAxisTickerText::createTickVector(tickStep, range);
        const int every = labelEvery(range.size(), axis_->axisRect()->height(), QFontMetrics(axis_->tickLabelFont()).height() + 2);
        if (every == 1) return all;
        QVector<double> kept;
        for (double t : all)
            if (std::lround(t) % every == 0) kept.push_back(t);
        return kept;
    }

private:
    const QCPAxis* axis_;
};

}  // namespace skewui
