#pragma once
// The collective view: one row per rank, each rank's NCCL kernel as a horizontal bar whose
// waiting part (start to the latest start) is drawn apart from the transfer part, the rank's other
// streams in a thin lane below, the predecessor and the late arriver's CPU launch marked.
// All bars are painted by one layerable from a prepared CollectiveScene (no item per event); the
// pixel layout (collective_layout.h) is computed after QCustomPlot's own layout and before painting.

#include <qcustomplot.h>

#include <functional>
#include <memory>

#include "scene/collective_scene.h"
#include "views/collective/collective_layout.h"
#include "views/collective/cpu_row.h"
#include "views/rank_ticker.h"

namespace skewui {

// the scene's types (core/scene) as the view's interface names them
using skew::Bar;
using skew::CollectiveScene;

class BarsLayer;
class TextElement;
class LegendElement;

class CollectiveView : public QCustomPlot {
    Q_OBJECT
public:
    explicit CollectiveView(QWidget* parent = nullptr);
    ~CollectiveView() override;

    void setScene(CollectiveScene scene);  // also resets the zoom to fit
    const CollectiveScene& scene() const { return scene_; }
    void setEmptyText(const QString& text);  // shown when there is no scene
    void resetZoom();
    void zoomBy(double factor);
    void panBy(double fraction);
    bool isFitted() const { return fitted_; }
    // the least height the view takes (a splitter stops there): at least `h`, and with `readableRows`
    // more when the rows of the collective shown need it to keep their labels (readablePlotHeight;
    // the main window's view, not the compare view's small pair)
    void setFloorHeight(int h, bool readableRows);

    // the pixel layout of the last replot: bar and label rectangles, lanes, launch marker
    const SceneLayout& sceneLayout() const { return layout_; }
    QPointF barCenter(int barIndex) const;  // for tests and keyboard navigation
    int barAt(const QPointF& pos) const;

    // the bar whose details are shown: outlined (main rows) or drawn on top of its lane (thin lane)
    void setHighlight(int rank, int lane, quint32 kernel);
    void clearHighlight();
    const std::vector<int>& highlightedBars() const { return highlight_; }

    // hover text of a bar (the main window knows the profile); empty: no tooltip
    void setToolTipProvider(std::function<QString(const Bar&)> f) { tooltip_ = std::move(f); }
    QString toolTipAt(const QPointF& pos) const;

    // the why-line below the title in at most n lines, the last elided (0: all; a small view)
    void setSubtitleMaxLines(int n);
    QString subtitleShown() const;
    // the title wrapped at its words onto at most `maxLines` lines when narrow, instead of elided in
    // the middle (0: elided; the compare view's narrow panes wrap)
    void setTitleWraps(int maxLines);
    QString titleText() const;          // the full title (drawn elided in the middle when narrow)
    QString titleShown() const;         // the title as drawn at the current width
    QRect titleRect() const;
    QStringList legendEntries() const;  // what the legend lists now

    bool exportTo(const QString& path, int width, int height, QString* error = nullptr);

    // The CPU row under the last rank (cpu_row.h): the window of the late arriver's late launch,
    // shown at once (the fit widens to hold it), and what its thread did once read (null: reading).
    // A window that is not present removes the row. setScene() removes it too.
    void setCpuWindow(const skew::CpuWindow& w);
    void setCpuActivity(std::shared_ptr<const skew::CpuActivity> a);
    const CpuRowLayout& cpuRowLayout() const { return cpuLayout_; }
    bool hasCpuRow() const { return cpuWindow_.present; }

signals:
    void barClicked(int rank, int lane, quint32 kernel);
    void laidOut();  // after each layout: the plot's rectangle may have changed

protected:
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;
    void updateLayout() override;

private:
    void onMousePress(QMouseEvent* e);
    void setXRange(double lo, double hi);
    void updateRowTicks();
    friend class BarsLayer;
    CollectiveScene scene_;
    SceneLayout layout_;
    skew::CpuWindow cpuWindow_;
    std::shared_ptr<const skew::CpuActivity> cpuActivity_;
    CpuRowLayout cpuLayout_;
    LayoutFonts fonts_;
    BarsLayer* bars_ = nullptr;
    TextElement* title_ = nullptr;
    TextElement* subtitle_ = nullptr;
    LegendElement* legend_ = nullptr;
    QSharedPointer<RankTicker> rowTicker_;
    int tickWidth_ = -1;         // viewport width the row ticks were elided for
    int floorHeight_ = 240;      // setFloorHeight
    bool readableRows_ = false;
    bool fitted_ = true;         // the time range follows the size (no zoom or pan since the fit)
    bool settingRange_ = false;  // our own range changes do not end the fit
    std::vector<int> highlight_;
    QString emptyText_;
    std::function<QString(const Bar&)> tooltip_;
};

}  // namespace skewui
