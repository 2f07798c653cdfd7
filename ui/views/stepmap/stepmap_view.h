#pragma once
// The step map: one row per training step (NVTX or inferred), x the offset in the step. Every
// collective is a small tick coloured by its start skew (merged per pixel by maximum), big events
// are large markers coloured by their late rank and sized by their lateness, labelled with it, so
// "fixed position, rotating GPU" reads at a glance: the markers line up vertically. Without steps it
// says why and offers the step pattern setting. Drawn by one layerable from core's StepMap.

#include <qcustomplot.h>

#include "session.h"
#include "views/elided_title.h"
#include "views/plot_keys.h"
#include "views/run_view.h"
#include "timeline/run_maps.h"

class QPushButton;

namespace skewui {

class StepMapLayer;

class StepMapView : public QCustomPlot, public RunView {
    Q_OBJECT
public:
    explicit StepMapView(QWidget* parent = nullptr);
    ~StepMapView() override;

    void setSession(SessionPtr s) override;  // one without its view indexes: preparing
    bool preparing() const override { return preparing_ != nullptr; }
    void viewIndexesLoaded() override;
    // one group's steps alone, titled "<side>: N steps ..." (a side of the compare view)
    void setGroupSession(SessionPtr s, int group, const QString& side);
    // resetZoom shows at least this much of the step (two maps on one axis fit the longer step)
    void setFitSpanNs(int64_t ns) { fitSpanNs_ = ns; }
    void setSelectedCollective(int c) override;
    int selectedCollective() const override { return selected_; }
    const skew::StepMap& map() const { return map_; }
    void resetZoom();
    void zoomBy(double factor) override;  // as the wheel zooms, about the centre; factor < 1 zooms in

    // pixel centre of a collective's tick or marker (tests, keyboard), and the collective under a point
    QPointF collectivePos(int collective) const;
    int collectiveAt(const QPointF& pos) const;
    QPushButton* settingsButton() const { return settings_; }
    QString tooltipAt(const QPointF& pos) const;
    // the legend above the plot as last drawn: its rectangle, its lines, whether it holds the ticks'
    // key, how many late ranks it names; the title as shown (elided at its end when narrow)
    QRectF legendRect() const;
    int legendLines() const { return legendLines_; }
    bool legendShowsTickKey() const;
    size_t legendRanks() const;
    QString title() const { return title_->text(); }
    QString shownTitle() const;
    QRect titleTextRect() const;

    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) override;

    // RunView
    QWidget* widget() override { return this; }
    RunViewRange viewRange() const override { return plotRange(this); }
    void restoreViewRange(const RunViewRange& kept) override { restorePlotRange(this, kept); }
    void fit() override { resetZoom(); }
    QString tabTitle() const override { return tr("Step map"); }
    QString tabToolTip() const override { return tr("Where in the step the collectives and big late arrivals fall"); }
    QString viewName() const override { return QStringLiteral("stepmap"); }

signals:
    void collectiveClicked(int collective);
    void settingsRequested();

protected:
    void keyPressEvent(QKeyEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    friend class StepMapLayer;
    double markerRadius(uint32_t item) const;
    void rebuild(int preferredGroup);  // the map of these groups, titles, zoom
    void placeButton();
    void fitLegend(int viewWidth);

    SessionPtr s_;
    SessionPtr preparing_;  // shown once its view indexes are in (s_ is null meanwhile)
    skew::StepMap map_;
    int selected_ = -1;
    StepMapLayer* layer_ = nullptr;
    ElidedTitle* title_ = nullptr;
    int legendLines_ = 0;
    QPushButton* settings_ = nullptr;
    QPointF pressPos_;
    int onlyGroup_ = -1;
    QString side_;
    int64_t fitSpanNs_ = 0;
};

}  // namespace skewui
