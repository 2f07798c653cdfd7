#pragma once
// The lateness heatmap of one group: collectives in order on x (step boundaries marked), ranks on
// y, each cell coloured by that rank's lateness on a log scale (0 is white), big events outlined.
// When there are more collectives than pixels a column shows the maximum of its collectives (core's
// heatmapCells), so a big event is never averaged away. Beside it, each rank's last-arrival count
// and mean lateness excluding big events. Drawn by one layerable; x zooms and pans. With several
// groups, a box left of the title picks the group (the title says "group 0 of 2"); selecting a
// collective of another group switches to it.

#include <qcustomplot.h>

class QComboBox;

#include "session.h"
#include "views/plot_keys.h"
#include "views/run_view.h"
#include "timeline/run_maps.h"

namespace skewui {

class HeatmapLayer;
class HeatmapTitle;

class HeatmapView : public QCustomPlot, public RunView {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void setSession(SessionPtr s) override;
    void setGroup(int group);            // refits
    int group() const { return group_; }
    QComboBox* groupBox() const { return groupBox_; }  // shown with two groups or more
    QString title() const;
    QString shownTitle() const;  // elided at its end when the view is narrow
    QRect titleTextRect() const;
    void setSelectedCollective(int c) override;   // switches to its group
    int selectedCollective() const override { return selected_; }
    void resetZoom();
    void zoomBy(double factor) override;  // as the wheel zooms, about the centre; factor < 1 zooms in

    // the pixel centre of a cell, and the (collective, slot) a point falls in (-1 when none)
    QPointF cellCenter(int collective, int slot) const;
    std::pair<int, int> cellAt(const QPointF& pos) const;
    const skew::HeatmapCells& cells() const { return cells_; }  // of the last frame
    QString tooltipAt(const QPointF& pos) const;

    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) override;

    // RunView
    QWidget* widget() override { return this; }
    RunViewRange viewRange() const override { return plotRange(this); }
    void restoreViewRange(const RunViewRange& kept) override { restorePlotRange(this, kept); }
    void fit() override { resetZoom(); }
    QString tabTitle() const override { return tr("Heatmap"); }
    QString tabToolTip() const override { return tr("Each rank's lateness in every collective"); }
    QString viewName() const override { return QStringLiteral("heatmap"); }

signals:
    void collectiveClicked(int collective);
    void kernelClicked(int rank, int lane, quint32 kernel);

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    friend class HeatmapLayer;
    void updateAxes();
    void updateStepTicks();
    void fillGroupBox();
    void placeGroupBox();

public:
    struct StepSpan {
        uint32_t first, last, step;  // a step's collectives: 1-based indices [first, last]
    };

private:
    std::vector<StepSpan> stepSpans_;

    SessionPtr s_;
    int group_ = -1;
    int selected_ = -1;
    HeatmapLayer* layer_ = nullptr;
    HeatmapTitle* title_ = nullptr;
    QComboBox* groupBox_ = nullptr;
    QSharedPointer<QCPAxisTickerText> rankTicker_, stepTicker_;
    skew::HeatmapCells cells_;
    QPointF pressPos_;
};

}  // namespace skewui
