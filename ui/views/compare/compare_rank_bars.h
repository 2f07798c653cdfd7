#pragma once
// The compare view's per-rank chart: for each rank of a pair of groups, its last-arrival count
// (top) and its mean lateness without big events (bottom) as paired bars, A (before) beside B
// (after). Ranks pair by their place in the group (core/compare); a rank whose label differs
// between the captures is labelled with both ("dev 1 / dev 3"). Figures from GroupPair::valuesA/B.

#include <qcustomplot.h>

#include "session.h"

namespace skewui {

class CompareRankBars : public QCustomPlot {
    Q_OBJECT
public:
    explicit CompareRankBars(QWidget* parent = nullptr);
    void setPair(CompareSessionPtr c, int pair);

    QCPBars* lastA() const { return lastA_; }
    QCPBars* lastB() const { return lastB_; }
    QCPBars* latenessA() const { return latA_; }
    QCPBars* latenessB() const { return latB_; }
    QStringList rankLabels() const { return labels_; }  // as given, before eliding
    QList<QCPTextElement*> chartTitles() const { return {lastTitle_, latTitle_}; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void layoutTicks();
    QCPAxisRect* lastRect_ = nullptr;
    QCPAxisRect* latRect_ = nullptr;
    QCPTextElement* lastTitle_ = nullptr;
    QCPTextElement* latTitle_ = nullptr;
    QCPBars *lastA_ = nullptr, *lastB_ = nullptr, *latA_ = nullptr, *latB_ = nullptr;
    QStringList labels_;
};

}  // namespace skewui
