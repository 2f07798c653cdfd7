#include "window/pane_proportions.h"

#include <QEvent>
#include <QSettings>
#include <QSplitter>

#include <algorithm>

#include "common/deferred_replot.h"
#include "views/collective/collective_view.h"

namespace skewui {

PaneProportions::PaneProportions(QSplitter* main, QSplitter* right, CollectiveView* view, QObject* parent)
    : QObject(parent), main_(main), right_(right), view_(view) {
    main->installEventFilter(this);
    right->installEventFilter(this);
    connect(main, &QSplitter::splitterMoved, this, &PaneProportions::save);
    connect(right, &QSplitter::splitterMoved, this, &PaneProportions::save);
    // a new layout of the view may need more room around the plot (wider legend, longer why-line)
    connect(view, &CollectiveView::laidOut, this, &PaneProportions::keepPlotShare, Qt::QueuedConnection);
}

void PaneProportions::apply(QSplitter* sp) {
    // the user's proportions, else the plot gets the larger share: the table 38% of the width (up to
    // 45% when its columns through Cause need it: a narrow window); the
    // bottom pane 36% of the right side's height, less when the collective view keeps much of its
    // pane for its tab bar, title, why-lines, axis and legend (large fonts, Qt scale factor 1.5 on
    // 1080p, small windows): at most what leaves the plot itself (its axis rectangle) 1.3x the bottom
    // pane's height, never under the bottom pane's minimum (its tab bars and the Ranks tab's charts,
    // 110 and 90 px: 160 px in all, under the 177 px this gives at 1024x700, where the plot is 1.30x
    // to 1.54x the bottom pane; at factor 1.5 on 1080p 1.30x to 1.44x, gui_scaled_tests). Applied whenever
    // the splitter is shown or resized, and when the view needs more room around its plot than seen
    // before (keepPlotShare). Only proportions the user chose are saved (save).
    QSettings st;
    bool horizontal = sp->orientation() == Qt::Horizontal;
    QList<int> f;
    for (const QVariant& v : st.value(horizontal ? "window/mainSplitter" : "window/rightSplitter").toList()) f << v.toInt();
    int total = horizontal ? sp->width() : sp->height();
    QList<int> sizes;
    const bool users = f.size() == 2 && f[0] > 0 && f[1] > 0;
    if (users) {
        sizes = {total * f[0] / 1000, total * f[1] / 1000};
    } else if (horizontal) {
        // a narrow window: the table as wide as its Cause column needs (it was cut at 1024 px: review
        // defect 8), up to 45%; the plot keeps the larger share
        const int table = std::clamp(tableWants_ ? tableWants_() : 0, total * 380 / 1000, total * 450 / 1000);
        sizes = {table, total - table};
    } else {
        // plot = total - reserve - bottom >= 1.3 * bottom (QSplitter keeps the panes' minimums)
        int bottom = std::min(total * 360 / 1000, std::max(0, total - plotReserve_) * 10 / 23);
        sizes = {total - bottom, bottom};
    }
    sp->setSizes(sizes);
    if (!users) (horizontal ? mainDefault_ : rightDefault_) = sp->sizes();
    (horizontal ? mainShared_ : rightShared_) = true;
}

void PaneProportions::tableChanged() {
    if (mainShared_ && main_->isVisible() && !QSettings().contains("window/mainSplitter")) apply(main_);
}

void PaneProportions::keepPlotShare() {
    // the height the collective view's pane keeps around its plot (tab bar, title, why-line, axes,
    // legend) varies with the collective and the width; once it grows past the most seen so far, the
    // default share is applied again for it (never the user's proportions). The most seen is kept,
    // so the panes do not move back and forth while stepping through collectives.
    if (!rightShared_ || !view_->isVisible() || view_->scene().collective < 0 || view_->viewport().size() != view_->size()) return;
    int reserve = right_->widget(0)->height() - view_->axisRect()->rect().height();
    if (reserve <= plotReserve_) return;
    plotReserve_ = reserve;
    if (QSettings().contains("window/rightSplitter")) return;
    apply(right_);
    // laid out at its new height now, not at the next paint; in the swap of a capture, once after it
    // with the swap's own replot (a second replot here cost 150 ms on 1,024 ranks)
    replotWhenShown(view_);
}

void PaneProportions::save() const {
    // proportions (per mille), so they fit any window size; not before they were applied, and not
    // the default sizes (they follow the window and the fonts; only the user's choice is kept)
    QSettings st;
    for (auto [sp, key] : {std::pair{main_, "window/mainSplitter"}, std::pair{right_, "window/rightSplitter"}}) {
        if (!(sp == main_ ? mainShared_ : rightShared_)) continue;
        if (!st.contains(key) && sp->sizes() == (sp == main_ ? mainDefault_ : rightDefault_)) continue;
        QList<int> s = sp->sizes();
        int total = s.size() == 2 ? s[0] + s[1] : 0;
        if (total > 0) st.setValue(key, QVariantList{s[0] * 1000 / total, s[1] * 1000 / total});
    }
}

bool PaneProportions::eventFilter(QObject* o, QEvent* e) {
    // the splitters keep their proportions when the window is resized (QSplitter alone would give
    // the whole change to the stretchier side)
    if ((e->type() == QEvent::Resize || e->type() == QEvent::Show) && (o == main_ || o == right_) && static_cast<QWidget*>(o)->isVisible())
        apply(static_cast<QSplitter*>(o));
    return QObject::eventFilter(o, e);
}

}  // namespace skewui
