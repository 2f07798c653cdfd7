#include "views/compare/compare_events.h"

#include <QHeaderView>
#include <QStyle>

#include <algorithm>
#include <array>
#include <set>

#include "report/format.h"
#include "common/palette.h"
#include "common/text.h"

namespace skewui {

namespace {
constexpr size_t kLargest = 5;  // a side without big events lists this many of its largest skews
}  // namespace

CompareEventsList::CompareEventsList(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(4);
    setHeaderLabels({tr("big events"), tr("step\u00B7pos"), tr("start skew"), tr("late")});
    headerItem()->setToolTip(0, tr("The collectives to follow from one capture to the other: click one to see it and its pair"));
    headerItem()->setToolTip(1, tr("Step, and position in the step"));
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setTextElideMode(Qt::ElideMiddle);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    auto activate = [this](QTreeWidgetItem* it) {
        if (!it || quiet_) return;
        // a position or a section: its first collective
        if (!it->data(0, CollectiveRole).isValid() && it->childCount() > 0) it = it->child(0);
        if (!it->data(0, CollectiveRole).isValid()) return;
        emit collectiveActivated(it->data(0, SideRole).toInt() == 1, it->data(0, CollectiveRole).toInt());
    };
    connect(this, &QTreeWidget::currentItemChanged, this, [activate](QTreeWidgetItem* cur) { activate(cur); });
    connect(this, &QTreeWidget::itemClicked, this, [activate](QTreeWidgetItem* it) { activate(it); });
}

QTreeWidgetItem* CompareEventsList::addCollective(QTreeWidgetItem* parent, bool sideB, uint32_t ci) {
    const Session& s = sideB ? *c_->b : *c_->a;
    const skew::Collective& c = s.analysis.collectives[ci];
    auto* it = new QTreeWidgetItem(parent);
    const bool paired = c_->pairing(pair_, !sideB).of(ci).collective >= 0;
    it->setText(0, QString("%1 #%2 %3%4").arg(sideB ? "B" : "A").arg(c.index).arg(skew::opName(c.op)).arg(paired ? "" : tr(" \u00B7 no pair")));
    it->setForeground(0, sideB ? palette::kSideB : palette::kSideA);
    it->setText(1, c.step ? QString("%1 \u00B7 %2").arg(c.step).arg(c.positionInStep) : QStringLiteral("\u2014"));
    it->setText(2, dur(c.startSkew()));
    QString late;
    if (c.lateSlot >= 0)
        late = QString::fromStdString(s.profile.ranks[size_t(s.analysis.groups[size_t(c.group)].lanes[size_t(c.lateSlot)].rank)].label);
    it->setText(3, late);
    it->setToolTip(0, tr("%1 (%2): group %3 collective %4, %5%6, late arriver %7, cause %8")
                          .arg(sideB ? tr("B") : tr("A"), sideB ? tr("after") : tr("before"))
                          .arg(c.group)
                          .arg(c.index)
                          .arg(skew::opName(c.op))
                          .arg(c.step ? tr(", step %1 position %2").arg(c.step).arg(c.positionInStep) : QString())
                          .arg(late, skew::causeLabel(c.cause)) +
                          (paired ? QString() : tr("; %1 has no paired collective").arg(sideB ? tr("A") : tr("B"))));
    it->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    it->setData(0, SideRole, sideB ? 1 : 0);
    it->setData(0, CollectiveRole, int(ci));
    return it;
}

void CompareEventsList::setPair(CompareSessionPtr c, int pair) {
    quiet_ = true;
    clear();
    c_ = c;
    pair_ = pair;
    widthNeeded_ = 0;
    if (!c || pair < 0 || size_t(pair) >= c->comparison.pairs.size()) {
        quiet_ = false;
        return;
    }
    std::set<uint32_t> listedA, listedB;
    addPositions(listedA, listedB);
    addSide(false, listedA);
    addSide(true, listedB);
    // section and position rows span the columns: their text is a sentence, not a row of figures
    for (int i = 0; i < topLevelItemCount(); ++i) topLevelItem(i)->setFirstColumnSpanned(true);
    expandAll();
    fitColumns();
    quiet_ = false;
}

// per position of the step that held a big event on either side, the big collectives of A and B there
void CompareEventsList::addPositions(std::set<uint32_t>& listedA, std::set<uint32_t>& listedB) {
    for (const skew::PositionChange& pc : c_->comparison.pairs[size_t(pair_)].positions) {
        auto* top = new QTreeWidgetItem(this);
        top->setText(0, tr("position %1 %2: big A %3/%4 \u2192 B %5/%6")
                            .arg(pc.position)
                            .arg(skew::opName(pc.op))
                            .arg(pc.bigStepsA)
                            .arg(pc.stepsA)
                            .arg(pc.bigStepsB)
                            .arg(pc.stepsB));
        top->setToolTip(0, tr("Position %1 of the step: big in %2 of %3 steps before, %4 of %5 after")
                               .arg(pc.position).arg(pc.bigStepsA).arg(pc.stepsA).arg(pc.bigStepsB).arg(pc.stepsB));
        QFont f = top->font(0);
        f.setBold(true);
        top->setFont(0, f);
        for (uint32_t ci : pc.collectivesA) addCollective(top, false, ci), listedA.insert(ci);
        for (uint32_t ci : pc.collectivesB) addCollective(top, true, ci), listedB.insert(ci);
    }
}

// a side's big events not listed at a position; a side without any lists its largest start skews
void CompareEventsList::addSide(bool sideB, const std::set<uint32_t>& listed) {
    const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
    const Session& s = sideB ? *c_->b : *c_->a;
    const skew::Group& g = s.analysis.groups[size_t(sideB ? p.b : p.a)];
    std::vector<uint32_t> big, all;
    for (uint32_t i = 0; i < g.count; ++i) {
        const uint32_t ci = g.firstCollective + i;
        const skew::Collective& col = s.analysis.collectives[ci];
        if (!col.complete) continue;
        all.push_back(ci);
        if (col.big && !listed.count(ci)) big.push_back(ci);
    }
    const QString side = sideB ? tr("B (after)") : tr("A (before)");
    QTreeWidgetItem* top = nullptr;
    if (!big.empty()) {
        top = new QTreeWidgetItem(this);
        top->setText(0, listed.empty() ? tr("%1: %2 big events").arg(sideB ? "B" : "A").arg(big.size())
                                       : tr("%1: %2 more big events").arg(sideB ? "B" : "A").arg(big.size()));
        top->setToolTip(0, tr("%1: big events not at a position listed above").arg(side));
        for (uint32_t ci : big) addCollective(top, sideB, ci);
    } else if (listed.empty()) {
        // nothing big: the largest start skews, so there is still something to follow
        std::partial_sort(all.begin(), all.begin() + std::min(all.size(), kLargest), all.end(), [&](uint32_t x, uint32_t y) {
            return s.analysis.collectives[x].startSkew() > s.analysis.collectives[y].startSkew();
        });
        all.resize(std::min(all.size(), kLargest));
        top = new QTreeWidgetItem(this);
        top->setText(0, tr("%1: largest start skews (no big events)").arg(sideB ? "B" : "A"));
        top->setToolTip(0, tr("No start skew above %1 in %2; its %3 largest")
                               .arg(dur(s.analysis.options.bigSkewNs), side)
                               .arg(all.size()));
        for (uint32_t ci : all) addCollective(top, sideB, ci);
    }
    if (!top) return;
    QFont f = top->font(0);
    f.setBold(true);
    top->setFont(0, f);
    top->setForeground(0, sideB ? palette::kSideB : palette::kSideA);
}

// the collectives' columns fitted to them (a spanned row's text does not widen its column); the
// width that shows the section lines (bold, spanning the columns) and those columns whole
void CompareEventsList::fitColumns() {
    QFontMetrics fm(font());
    // no step in either capture: no step·pos column (a column of dashes took the others' room)
    bool steps = false;
    for (QTreeWidgetItemIterator it(this); *it && !steps; ++it) steps = (*it)->parent() && (*it)->text(1) != QStringLiteral("\u2014");
    setColumnHidden(1, !steps);
    std::array<int, 4> w{};
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        if ((*it)->parent())
            for (int col = 0; col < 4; ++col)
                w[size_t(col)] = std::max(w[size_t(col)], fm.horizontalAdvance((*it)->text(col)) + (col == 0 ? 2 * indentation() + 14 : 14));
    int columns = 0;
    for (int col = 0; col < 4; ++col) {
        const int cw = std::max(w[size_t(col)], fm.horizontalAdvance(headerItem()->text(col)) + 14);
        setColumnWidth(col, cw);  // the last too: its width when there is no room to stretch it
        if (!isColumnHidden(col)) columns += cw;
    }
    int lines = 0;
    for (int i = 0; i < topLevelItemCount(); ++i)
        lines = std::max(lines, QFontMetrics(topLevelItem(i)->font(0)).horizontalAdvance(topLevelItem(i)->text(0)) + indentation() + 16);
    widthNeeded_ = std::max(lines, columns) + 2 * frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

QTreeWidgetItem* CompareEventsList::itemOf(bool sideB, int collective) const {
    for (QTreeWidgetItemIterator it(const_cast<CompareEventsList*>(this)); *it; ++it)
        if ((*it)->data(0, CollectiveRole).isValid() && (*it)->data(0, CollectiveRole).toInt() == collective &&
            ((*it)->data(0, SideRole).toInt() == 1) == sideB)
            return *it;
    return nullptr;
}

void CompareEventsList::setSelected(bool sideB, int collective) {
    quiet_ = true;
    QTreeWidgetItem* it = itemOf(sideB, collective);
    if (it) {
        setCurrentItem(it);
        scrollToItem(it);
    } else {
        setCurrentItem(nullptr);
        clearSelection();
    }
    quiet_ = false;
}

}  // namespace skewui
