#pragma once
// The What-if view (docs/analysis.md, What-if): per training step, the captured step time beside
// the step time of each scenario replayed without the late arrivals (bars, one group per step),
// and below, the ranks by what each alone costs (by_rank: the slowdown when only that rank keeps its
// captured kernels and launches). The sentence the reports lead their answers with is its subtitle.
// Drawn from core's WhatIfScene; without steps or kernels it says why, and while the viewer still
// computes the what-if (after its first picture) that it is being computed.

#include <qcustomplot.h>

class QPushButton;

#include "scene/whatif_scene.h"
#include "session.h"
#include "views/plot_keys.h"
#include "views/run_view.h"

namespace skewui {

class WhatIfView : public QCustomPlot, public RunView {
    Q_OBJECT
public:
    explicit WhatIfView(QWidget* parent = nullptr);

    void setSession(SessionPtr s) override;
    void refresh();  // the session's what-if came in after it was set (the viewer's): drawn, selection kept
    void setSelectedCollective(int c) override;  // its step is highlighted
    int selectedCollective() const override { return selected_; }
    void zoomBy(double factor) override;         // the steps' axis, about its centre
    void fit() override;
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) override;

    const skew::WhatIfScene& scene() const { return scene_; }
    size_t shownRanks() const { return shownRanks_; }  // rank bars that fit at the last layout
    QString subtitle() const;  // the sentence under the title (or why there is nothing to draw), unwrapped
    QCPAxisRect* stepsRect() const { return steps_; }
    QCPAxisRect* ranksRect() const { return ranks_; }
    QPushButton* settingsButton() const { return settings_; }  // shown when the run has kernels but no steps
    // the step (index into scene().steps) under a point of the steps' chart, or -1; its tooltip
    int stepAt(const QPointF& pos) const;
    QString tooltipAt(const QPointF& pos) const;

    // RunView
    QWidget* widget() override { return this; }
    RunViewRange viewRange() const override { return plotRange(this); }
    void restoreViewRange(const RunViewRange& kept) override { restorePlotRange(this, kept); }
    QString tabTitle() const override { return tr("What-if"); }
    QString tabToolTip() const override { return tr("Step times replayed without the late arrivals, and what each rank costs"); }
    QString viewName() const override { return QStringLiteral("whatif"); }

signals:
    void settingsRequested();  // the step pattern (the window opens its settings)

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void rebuild();
    void buildSteps();
    void buildRanks();
    void placeHighlight();
    void wrapTexts(int viewWidth);  // the subtitle broken into lines that fit the view, the key in one or two rows
    void placeButton();
    void fitRanks();  // after each layout: the rank bars that fit, the others counted

    static constexpr int kRankRowPx = 20;  // the least height of a rank's bar row

    SessionPtr s_;
    skew::WhatIfScene scene_;
    int selected_ = -1;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* sentence_ = nullptr;
    QCPAxisRect* steps_ = nullptr;
    QCPAxisRect* ranks_ = nullptr;
    QCPLegend* key_ = nullptr;
    QCPItemRect* highlight_ = nullptr;
    QPushButton* settings_ = nullptr;
    size_t shownRanks_ = 0;
};

}  // namespace skewui
