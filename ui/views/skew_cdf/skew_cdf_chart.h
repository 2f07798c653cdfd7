#pragma once
// Start and end skew distributions of one group as two empirical CDFs on a log time axis (Ranks
// tab): "ends cluster, starts do not" reads as two curves far apart. In a comparison, both sides'
// curves on one axis: colour tells the side (A amber, B blue), the line tells start (solid) from
// end (dashed), and the legend sits above the plot, where no curve can be. Data from core
// (sortedSkews).

#include <qcustomplot.h>

#include "session.h"

namespace skewui {

class SkewCdfChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit SkewCdfChart(QWidget* parent = nullptr);
    void setGroup(SessionPtr s, int group);
    // A's group `ga` and B's group `gb` overlaid; startCurve/endCurve are then A's
    void setComparison(SessionPtr a, int ga, SessionPtr b, int gb);
    QCPGraph* startCurve() const { return start_; }
    QCPGraph* endCurve() const { return end_; }
    QCPGraph* startCurveB() const { return startB_; }
    QCPGraph* endCurveB() const { return endB_; }
    QString title() const;  // names the group (or the pair's groups) and how many collectives
    bool legendAbove() const;  // above the plot (a comparison), not inside it

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void placeLegend(bool above);
    void fitLegend();
    void fill(const std::vector<std::pair<QCPGraph*, std::vector<int64_t>>>& curves, const QStringList& names);
    QCPGraph* start_ = nullptr;
    QCPGraph* end_ = nullptr;
    QCPGraph* startB_ = nullptr;
    QCPGraph* endB_ = nullptr;
    QCPTextElement* title_ = nullptr;
};

}  // namespace skewui
