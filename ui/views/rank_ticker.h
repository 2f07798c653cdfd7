#pragma once
// A rank axis (the heatmap's, the collective view's): one label per rank row while the rows are as
// high as a label, else every k-th row's (k = 1, 2, 5, 10, 20, 50, ...: the smallest that keeps labels a line apart), so
// that a 1,000-rank group shows readable labels instead of a black smear. Decided at each replot
// from the axis rect's height then (the screen and every export size alike). A row set always
// labelled (the late arriver's) keeps its label among the thinned ones.

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace skewui {

class RankTicker : public QCPAxisTickerText {
public:
    explicit RankTicker(const QCPAxis* axis) : axis_(axis) {}
    // a row labelled whatever the thinning (the collective's late arriver): the kept labels too near
    // it give way; -1: none
    void setAlwaysLabelled(int row) { always_ = row; }

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
        const bool always = always_ >= 0 && std::any_of(all.begin(), all.end(), [&](double t) { return std::lround(t) == always_; });
        for (double t : all) {
            const long row = std::lround(t);
            if (always && row == always_) kept.push_back(t);
            else if (row % every == 0 && (!always || std::abs(row - always_) >= every)) kept.push_back(t);
        }
        return kept;
    }

private:
    const QCPAxis* axis_;
    int always_ = -1;
};

}  // namespace skewui
