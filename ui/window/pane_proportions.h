#pragma once
// The proportions of the window's panes: the table beside the views (main splitter) and the views
// above the bottom pane (right splitter). The user's proportions are kept (QSettings, per mille, so
// they fit any window size); without them the plot gets the larger share, enough that the
// collective plot itself stays taller than the bottom pane whatever the view keeps around it.

#include <QList>

#include <functional>
#include <QObject>

class QSplitter;

namespace skewui {

class CollectiveView;

class PaneProportions : public QObject {
    Q_OBJECT
public:
    // watches both splitters (shown, resized, moved) and the view (laid out)
    PaneProportions(QSplitter* main, QSplitter* right, CollectiveView* view, QObject* parent);

    void save() const;  // the user's proportions (not before they were applied, not the defaults)
    void keepPlotShare();  // the default share again when the view needs more room around its plot
    // the width the table's pane asks for (its columns through Cause); by default it gets that, from
    // 38% up to 45% of the window's width
    void setTableWants(std::function<int()> f) { tableWants_ = std::move(f); }
    void tableChanged();  // the default share again for what the table now asks

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void apply(QSplitter* sp);

    QSplitter* main_;
    QSplitter* right_;
    CollectiveView* view_;
    bool mainShared_ = false, rightShared_ = false;  // the proportions applied
    QList<int> mainDefault_, rightDefault_;            // the sizes last set by default (not the user's)
    std::function<int()> tableWants_;
    int plotReserve_ = 0;  // most height seen above and below the collective plot in its pane
};

}  // namespace skewui
