#pragma once
// Start and end skew distributions of one group as two empirical CDFs on a log time axis (Ranks
// tab): "ends cluster, starts do not" reads as two curves far apart. In a comparison, both sides'
// curves on one axis: colour tells the side (A amber, B blue), the line tells start (solid) from
// end (dashed), and the legend sits above the plot, where no curve can be. Narrow (the compare view
// at 1024 px), the title goes on two lines, the legend drops the medians and fewer decades are
// labelled, so that nothing is cut or runs together. Data from core
// (sortedSkews). A group's curves are computed when the chart is shown, replotted or read: the
// Ranks tab follows every selection and reload, mostly hidden (issue 24: two sorts of a big
// group's skews on the UI thread at each reload).

#include <qcustomplot.h>

#include <optional>
#include <tuple>
#include <vector>

#include "session.h"

namespace skewui {

class SkewCdfChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit SkewCdfChart(QWidget* parent = nullptr);
    void setGroup(SessionPtr s, int group);  // hidden in a shown window: drawn when shown
    // A's group `ga` and B's group `gb` overlaid; startCurve/endCurve are then A's
    void setComparison(SessionPtr a, int ga, SessionPtr b, int gb);
    QCPGraph* startCurve() const { return showPending(), start_; }
    QCPGraph* endCurve() const { return showPending(), end_; }
    QCPGraph* startCurveB() const { return startB_; }
    QCPGraph* endCurveB() const { return endB_; }
    QString title() const;  // names the group (or the pair's groups) and how many collectives
    QString titleShown() const { return title_->text(); }  // as drawn: on two lines when narrow
    QCPTextElement* titleElement() const { return title_; }
    bool legendAbove() const;  // above the plot (a comparison), not inside it

protected:
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void showGroup(const SessionPtr& s, int group);
    void showPending() const;  // the group set while hidden, now (a lazy computation: const)
    struct Pending {
        SessionPtr s;
        int group = -1;
    };
    mutable std::optional<Pending> pending_;
    void placeLegend(bool above);
    void fitLegend();
    void fitTitle();
    void fitTicks();
    void setTitle(const QString& t) {
        fullTitle_ = t;
        fitTitle();
    }
    QString fullTitle_;
    std::vector<std::tuple<QCPGraph*, QString, QString>> names_;  // each curve's legend names: with its median, alone
    void fill(const std::vector<std::pair<QCPGraph*, std::vector<int64_t>>>& curves, const QStringList& names);
    QCPGraph* start_ = nullptr;
    QCPGraph* end_ = nullptr;
    QCPGraph* startB_ = nullptr;
    QCPGraph* endB_ = nullptr;
    QCPTextElement* title_ = nullptr;
};

}  // namespace skewui
