#include "views/compare/compare_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

#include "report/analysis_report.h"
#include "scene/collective_scene.h"
#include "scene/kernel_details.h"
#include "scene/view_texts.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_delta_model.h"
#include "views/compare/compare_events.h"
#include "views/compare/compare_rank_bars.h"
#include "views/skew_cdf/skew_cdf_chart.h"
#include "views/stepmap/stepmap_view.h"

namespace skewui {

// The header: the files, the pair of groups shown, the verdict in numbers, the notes.
void CompareView::buildHeader(QVBoxLayout* root) {
    auto* line1 = new QHBoxLayout;
    files_ = new QLabel;
    files_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pairLabel_ = new QLabel;
    pairLabel_->setStyleSheet("QLabel { color: #444; }");
    pairBox_ = new QComboBox;
    pairBox_->setToolTip(tr("The pair of groups shown (groups pair by rank count and op mix)"));
    pairBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    line1->addWidget(files_);
    line1->addSpacing(16);
    line1->addWidget(pairLabel_);
    line1->addWidget(pairBox_);
    line1->addStretch(1);
    root->addLayout(line1);
    verdict_ = new QLabel;
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont vf = verdict_->font();
    vf.setPointSizeF(vf.pointSizeF() + 2);
    vf.setBold(true);
    verdict_->setFont(vf);
    verdict_->setToolTip(tr("B minus A: each figure from the analysis of each capture (as in skewscope compare)"));
    root->addWidget(verdict_);
    notes_ = new QLabel;
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notes_->setStyleSheet("QLabel { color: #555; }");
    root->addWidget(notes_);
}

// The step maps of A and B one above the other, the list of events to follow, the two collective
// views side by side, each under the line that says how it was paired.
void CompareView::buildViews() {
    events_ = new CompareEventsList;
    events_->setMinimumWidth(140);
    mapA_ = new StepMapView;
    mapB_ = new StepMapView;
    for (StepMapView* m : {mapA_, mapB_}) m->setMinimumSize(220, 110);
    maps_ = new QSplitter(Qt::Vertical);
    maps_->addWidget(mapA_);
    maps_->addWidget(mapB_);
    maps_->setChildrenCollapsible(false);
    collA_ = new CollectiveView;
    collB_ = new CollectiveView;
    collLabelA_ = new QLabel;
    collLabelB_ = new QLabel;
    auto* collBoxA = new QWidget;
    auto* collBoxB = new QWidget;
    for (auto [box, label, view] : {std::tuple{collBoxA, collLabelA_, collA_}, std::tuple{collBoxB, collLabelB_, collB_}}) {
        view->setMinimumSize(220, 120);
        view->setTitleWraps(2);  // a narrow pane: the op and who was late on two lines, not elided
        view->installEventFilter(this);  // small: the why-line in two lines
        // never widens the view: wrapped when narrow (how it was paired in full in the tooltip)
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(1);
        label->setWordWrap(true);
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(1);
        v->addWidget(label);
        v->addWidget(view, 1);
    }
    colls_ = new QSplitter(Qt::Horizontal);
    colls_->addWidget(collBoxA);
    colls_->addWidget(collBoxB);
    colls_->setChildrenCollapsible(false);
    // each view fits its own collective: when the spans differ, a line above both says so
    scaleNote_ = new QLabel;
    scaleNote_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    scaleNote_->setWordWrap(true);
    scaleNote_->setStyleSheet("QLabel { color: #9a4a00; font-weight: bold; }");
    scaleNote_->hide();
    collsBox_ = new QWidget;
    auto* v = new QVBoxLayout(collsBox_);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(1);
    v->addWidget(scaleNote_);
    v->addWidget(colls_, 1);
    for (CollectiveView* view : {collA_, collB_}) connect(view, &CollectiveView::laidOut, this, &CompareView::updateScaleNote);
}

// The delta table, and the details of a bar clicked in either collective view, as tabs.
void CompareView::buildSideTabs() {
    deltaModel_ = new CompareDeltaModel(this);
    deltaTable_ = new QTableView;
    deltaTable_->setModel(deltaModel_);
    deltaTable_->verticalHeader()->hide();
    deltaTable_->verticalHeader()->setDefaultSectionSize(19);
    deltaTable_->horizontalHeader()->setStretchLastSection(false);
    deltaTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    deltaTable_->horizontalHeader()->setSectionResizeMode(CompareDeltaModel::Figure, QHeaderView::Stretch);
    deltaTable_->setAlternatingRowColors(true);
    deltaTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    deltaTable_->setWordWrap(false);
    deltaTable_->setMinimumWidth(200);
    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setPlaceholderText(tr("Click a bar of A's or B's collective view for its details."));
    side_ = new QTabWidget;
    side_->addTab(deltaTable_, tr("Delta"));
    side_->addTab(details_, tr("Details"));
}

// the width that shows the delta table's columns whole, without a horizontal scroll bar, beside its
// vertical one, in its tab
int CompareView::deltaWidthNeeded() const {
    const QHeaderView* h = deltaTable_->horizontalHeader();
    // + the tab's frame around the table (as laid out; before that, about 12 px)
    const int frame = side_->width() > deltaTable_->width() && deltaTable_->width() > 0 ? side_->width() - deltaTable_->width() : 12;
    int w = 2 * deltaTable_->frameWidth() + deltaTable_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + frame + 2;
    for (int c = 0; c < deltaModel_->columnCount(); ++c) w += std::max(static_cast<const QAbstractItemView*>(deltaTable_)->sizeHintForColumn(c), h->sectionSizeHint(c));
    return w;
}

// Selection both ways between the step maps, the list and the pair box; one offset axis for both
// step maps; hover texts and Details for the bars of both collective views.
void CompareView::connectSelection() {
    connect(mapA_, &StepMapView::collectiveClicked, this, [this](int c) { selectCollective(false, c); });
    connect(mapB_, &StepMapView::collectiveClicked, this, [this](int c) { selectCollective(true, c); });
    connect(mapA_, &StepMapView::settingsRequested, this, &CompareView::settingsRequested);
    connect(mapB_, &StepMapView::settingsRequested, this, &CompareView::settingsRequested);
    connect(events_, &CompareEventsList::collectiveActivated, this, &CompareView::selectCollective);
    connect(pairBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i != pair_) setPair(i);
    });
    // one offset axis for both step maps
    connect(mapA_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { lockMaps(true); });
    connect(mapB_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { lockMaps(false); });
    collA_->setToolTipProvider([this](const Bar& b) {
        return c_ ? QString::fromStdString(barSummary(c_->a->profile, collA_->scene(), b)) : QString();
    });
    collB_->setToolTipProvider([this](const Bar& b) {
        return c_ ? QString::fromStdString(barSummary(c_->b->profile, collB_->scene(), b)) : QString();
    });
    connect(collA_, &CollectiveView::barClicked, this, [this](int rank, int lane, quint32 k) { showDetails(false, rank, lane, k); });
    connect(collB_, &CollectiveView::barClicked, this, [this](int rank, int lane, quint32 k) { showDetails(true, rank, lane, k); });
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 4, 6, 4);
    root->setSpacing(3);

    buildHeader(root);
    buildViews();
    buildSideTabs();
    cdf_ = new SkewCdfChart;
    bars_ = new CompareRankBars;
    // a grid of two rows: what to follow, where it falls and the numbers on top; the collectives
    // side by side and the distributions below (sizes: applyProportions)
    top_ = new QSplitter(Qt::Horizontal);
    top_->addWidget(events_);
    top_->addWidget(maps_);
    top_->addWidget(side_);
    bottom_ = new QSplitter(Qt::Horizontal);
    bottom_->addWidget(collsBox_);
    bottom_->addWidget(cdf_);
    bottom_->addWidget(bars_);
    outer_ = new QSplitter(Qt::Vertical);
    outer_->addWidget(top_);
    outer_->addWidget(bottom_);
    for (QSplitter* s : {outer_, top_, bottom_, maps_, colls_}) {
        s->setChildrenCollapsible(false);
        connect(s, &QSplitter::splitterMoved, this, [this] { splittersMoved_ = true; });
    }

    notCompared_ = new QLabel;
    notCompared_->setWordWrap(true);
    notCompared_->setAlignment(Qt::AlignCenter);
    notCompared_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notCompared_->setStyleSheet("QLabel { color: #444; font-size: 14px; padding: 40px; }");
    stack_ = new QStackedWidget;
    stack_->addWidget(outer_);
    stack_->addWidget(notCompared_);
    root->addWidget(stack_, 1);

    connectSelection();
    setComparison(nullptr);
}

CompareView::~CompareView() = default;

void CompareView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!splittersMoved_) applyProportions();
}

void CompareView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // resized while hidden, the splitters get their size only when shown (children first): the
    // shares are of that size
    if (!splittersMoved_) applyProportions();
}

void CompareView::applyProportions() {
    // the default shares of the space, at any size: the maps and collectives get most of it
    auto share = [](QSplitter* s, std::initializer_list<int> perMille) {
        const int total = s->orientation() == Qt::Horizontal ? s->width() : s->height();
        QList<int> sizes;
        for (int f : perMille) sizes << total * f / 1000;
        s->setSizes(sizes);
    };
    // a low window (1024x700): the collectives below get more, their rows keep their labels
    if (outer_->height() < 560) share(outer_, {440, 560});
    else share(outer_, {505, 495});
    share(top_, {175, 495, 330});
    // the list of events and the delta table as wide as their columns need (up to 34% and 38%), taken
    // from the step maps: at 1024 px their columns were cut behind horizontal scroll bars
    if (QList<int> t = top_->sizes(); t.size() == 3) {
        const int total = t[0] + t[1] + t[2];
        const int events = std::min(std::max(t[0], events_->widthNeeded()), total * 34 / 100);
        const int side = std::min(std::max(t[2], deltaWidthNeeded()), total * 38 / 100);
        top_->setSizes({events, total - events - side, side});
    }
    share(bottom_, {580, 225, 195});
    share(maps_, {500, 500});
    share(colls_, {500, 500});
}

bool CompareView::eventFilter(QObject* o, QEvent* e) {
    if ((o == collA_ || o == collB_) && e->type() == QEvent::Resize) {
        const int h = static_cast<QResizeEvent*>(e)->size().height();
        static_cast<CollectiveView*>(o)->setSubtitleMaxLines(h < 300 ? 1 : h < 400 ? 2 : 0);
    }
    return QWidget::eventFilter(o, e);
}

void CompareView::lockMaps(bool fromA) {
    if (syncing_) return;
    syncing_ = true;
    StepMapView* other = fromA ? mapB_ : mapA_;
    other->xAxis->setRange((fromA ? mapA_ : mapB_)->xAxis->range());
    other->replot();
    mapsZoomed_ = true;  // by the user: an export keeps it
    syncing_ = false;
}

void CompareView::fitMaps() {
    // both maps show the longer of the two steps
    const int64_t span = std::max(mapA_->map().spanNs, mapB_->map().spanNs);
    syncing_ = true;
    for (StepMapView* m : {mapA_, mapB_}) {
        m->setFitSpanNs(span);
        m->resetZoom();
    }
    syncing_ = false;
    mapsZoomed_ = false;
}

void CompareView::setComparison(CompareSessionPtr c, int pair) {
    c_ = std::move(c);
    pair_ = -1;
    {
        QSignalBlocker block(pairBox_);
        pairBox_->clear();
        if (c_)
            for (const skew::GroupPair& p : c_->comparison.pairs) {
                const skew::Group& ga = c_->a->analysis.groups[size_t(p.a)];
                pairBox_->addItem(tr("A group %1 \u2192 B group %2 \u00B7 %3 \u00B7 %4 ranks").arg(p.a).arg(p.b).arg(QString::fromStdString(skew::groupOpNames(ga, ", "))).arg(ga.width()));
            }
    }
    const bool none = !c_ || c_->comparison.pairs.empty();
    stack_->setCurrentIndex(c_ && none ? 1 : 0);
    notCompared_->setText(notComparedText());
    setPair(none ? -1 : std::clamp(pair, 0, int(c_->comparison.pairs.size()) - 1));
}

void CompareView::setPair(int pair) {
    const bool valid = c_ && pair >= 0 && size_t(pair) < c_->comparison.pairs.size();
    pair_ = valid ? pair : -1;
    selA_ = selB_ = -1;
    fromB_ = false;
    {
        QSignalBlocker block(pairBox_);
        if (valid) pairBox_->setCurrentIndex(pair);
    }
    pairBox_->setVisible(c_ && c_->comparison.pairs.size() > 1);
    const skew::GroupPair* p = valid ? &c_->comparison.pairs[size_t(pair)] : nullptr;
    syncing_ = true;
    if (p) {
        mapA_->setGroupSession(c_->a, p->a, tr("A (before)"));
        mapB_->setGroupSession(c_->b, p->b, tr("B (after)"));
    } else {
        mapA_->setSession(nullptr);
        mapB_->setSession(nullptr);
    }
    syncing_ = false;
    fitMaps();
    cdf_->setComparison(p ? c_->a : nullptr, p ? p->a : -1, p ? c_->b : nullptr, p ? p->b : -1);
    bars_->setPair(p ? c_ : nullptr, pair_);
    deltaModel_->setPair(p ? c_ : nullptr, pair_);
    events_->setPair(p ? c_ : nullptr, pair_);
    collA_->setScene({});
    collB_->setScene({});
    updateHeader();
    if (!p) {
        updateSideLabels();
        return;
    }
    if (!splittersMoved_) applyProportions();  // the list of events is new: its width
    // open on the collective a user came for: A's largest start skew that B has a pair for (then
    // B's that A has one for; then A's largest, unpaired), so both collective views show something
    const int ga = p->a, gb = p->b;
    int pick = c_->pairing(pair_, true).worst();
    if (pick >= 0) return selectCollective(false, pick);
    pick = c_->pairing(pair_, false).worst();
    if (pick >= 0) return selectCollective(true, pick);
    pick = skew::worstCollective(c_->a->analysis, [&](int ci) { return c_->a->analysis.collectives[size_t(ci)].group == ga; });
    if (pick >= 0) return selectCollective(false, pick);
    pick = skew::worstCollective(c_->b->analysis, [&](int ci) { return c_->b->analysis.collectives[size_t(ci)].group == gb; });
    if (pick >= 0) return selectCollective(true, pick);
    updateSideLabels();
}

void CompareView::selectCollective(bool sideB, int collective) {
    if (!c_ || pair_ < 0) return;
    const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
    const Session& from = sideB ? *c_->b : *c_->a;
    if (collective < 0 || size_t(collective) >= from.analysis.collectives.size() ||
        from.analysis.collectives[size_t(collective)].group != (sideB ? p.b : p.a))
        return;
    const skew::PairedCollective pc = c_->pairing(pair_, !sideB).of(uint32_t(collective));
    fromB_ = sideB;
    by_ = pc.by;
    selA_ = sideB ? pc.collective : collective;
    selB_ = sideB ? collective : pc.collective;
    const QString none = tr("No paired collective: %1").arg(pairingText());
    for (auto [view, sel, s] : {std::tuple{collA_, selA_, c_->a}, std::tuple{collB_, selB_, c_->b}}) {
        view->setEmptyText(sel < 0 ? none : QString());
        CollectiveScene scene = sel >= 0 ? buildScene(s->profile, s->analysis, sel) : CollectiveScene{};
        // the line above the view names the index and the step: the title keeps the op and who was late
        if (sel >= 0) scene.title = skew::collectiveShortTitle(s->profile, s->analysis, s->analysis.collectives[size_t(sel)]);
        view->setScene(std::move(scene));
    }
    mapA_->setSelectedCollective(selA_);
    mapB_->setSelectedCollective(selB_);
    events_->setSelected(sideB, collective);
    details_->clear();  // they were of a bar of the collective shown before
    side_->setCurrentWidget(deltaTable_);
    updateSideLabels();
}

bool CompareView::stepCollective(int delta, bool bigOnly) {
    if (!c_ || pair_ < 0 || delta == 0) return false;
    const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
    const bool sideB = (fromB_ && selB_ >= 0) || (selA_ < 0 && selB_ >= 0);  // the side the selection came from
    const int group = sideB ? p.b : p.a;
    const auto& cs = (sideB ? *c_->b : *c_->a).analysis.collectives;
    const int cur = sideB ? selB_ : selA_;
    // a group's collectives are contiguous and by index (Group::firstCollective): its run order
    for (int i = cur < 0 ? (delta > 0 ? 0 : int(cs.size()) - 1) : cur + delta; i >= 0 && size_t(i) < cs.size(); i += delta) {
        const skew::Collective& c = cs[size_t(i)];
        if (c.group != group || (bigOnly && !(c.big && c.complete))) continue;
        selectCollective(sideB, i);
        return true;
    }
    return false;
}

void CompareView::zoomCollectives(double factor) {
    collA_->zoomBy(factor);
    collB_->zoomBy(factor);
}

void CompareView::fitCollectives() {
    collA_->resetZoom();
    collB_->resetZoom();
}

void CompareView::showDetails(bool sideB, int rank, int lane, quint32 kernel) {
    if (!c_) return;
    const Session& s = sideB ? *c_->b : *c_->a;
    const QString text = QString::fromStdString(
        kernelDetails(s.profile, s.analysis, sideB ? selB_ : selA_, rank, lane, kernel, &s.nvtx));
    details_->setPlainText((sideB ? tr("B (after)") : tr("A (before)")) + "\n" + text);
    (sideB ? collB_ : collA_)->setHighlight(rank, lane, kernel);
    side_->setCurrentWidget(details_);
}

bool CompareView::showLateArriver() {
    if (!c_) return false;
    const bool sideB = (fromB_ && selB_ >= 0) || (selA_ < 0 && selB_ >= 0);
    const int sel = sideB ? selB_ : selA_;
    if (sel < 0) return false;
    const skew::Analysis& a = (sideB ? *c_->b : *c_->a).analysis;
    const skew::Collective& c = a.collectives[size_t(sel)];
    if (c.lateSlot < 0) return false;
    const skew::GroupSlot& gl = a.groups[size_t(c.group)].lanes[size_t(c.lateSlot)];
    showDetails(sideB, gl.rank, gl.lane, a.slotKernel(c, size_t(c.lateSlot)));
    return true;
}

QString CompareView::detailsText() const { return details_->toPlainText(); }

}  // namespace skewui
