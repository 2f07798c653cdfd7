#pragma once
// The collective view: one row per rank, each rank's NCCL kernel as a horizontal bar whose
// waiting part (start to the latest start) is drawn apart from the transfer part, the rank's other
// streams in a thin lane below, the predecessor and the late arriver's CPU launch marked.
// All bars are painted by one layerable from a prepared CollectiveScene (no item per event).

#include <qcustomplot.h>

#include <memory>

#include "collective_scene.h"

namespace skewui {

class BarsLayer;

class CollectiveView : public QCustomPlot {
    Q_OBJECT
public:
    explicit CollectiveView(QWidget* parent = nullptr);
    ~CollectiveView() override;

    void setScene(CollectiveScene scene);  // also resets the zoom to fit
    const CollectiveScene& scene() const { return scene_; }
    void resetZoom();
    void zoomBy(double factor);
    void panBy(double fraction);

    // the pixel centre of a bar (for tests and keyboard navigation)
    QPointF barCenter(int barIndex) const;
    int barAt(const QPointF& pos) const;

    bool exportTo(const QString& path, int width, int height, QString* error = nullptr);

signals:
    void barClicked(int rank, int lane, quint32 kernel);

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    void onMousePress(QMouseEvent* e);
    friend class BarsLayer;
    CollectiveScene scene_;
    BarsLayer* bars_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* subtitle_ = nullptr;
    QSharedPointer<QCPAxisTickerText> rowTicker_;
};

}  // namespace skewui
