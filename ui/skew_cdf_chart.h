#pragma once
// Start and end skew distributions of one group as two empirical CDFs on a log time axis (Ranks
// tab): "ends cluster, starts do not" reads as two curves far apart. Data from core (sortedSkews).

#include <qcustomplot.h>

#include "session.h"

namespace skewui {

class SkewCdfChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit SkewCdfChart(QWidget* parent = nullptr);
    void setGroup(SessionPtr s, int group);
    QCPGraph* startCurve() const { return start_; }
    QCPGraph* endCurve() const { return end_; }

private:
    QCPGraph* start_ = nullptr;
    QCPGraph* end_ = nullptr;
};

}  // namespace skewui
