#include "window/collectives_pane.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTimer>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "common/rank_labels.h"

using namespace skew;

namespace skewui {

namespace {
// "1 collective", "2 collectives"
QString collectives(qulonglong n) { return QString("%1 %2").arg(n).arg(n == 1 ? QObject::tr("collective") : QObject::tr("collectives")); }
}  // namespace

CollectivesPane::CollectivesPane(QWidget* parent) : QWidget(parent) {
    model_ = new CollectiveModel(this);
    filter_ = new CollectiveFilter(this);
    filter_->setSourceModel(model_);
    auto* lv = new QVBoxLayout(this);
    lv->setContentsMargins(4, 4, 4, 4);
    addFilterWidgets(lv);
    addTable(lv);
    lv->addWidget(filterStatus_);
    updateFilterStatus();
}

void CollectivesPane::addFilterWidgets(QVBoxLayout* lv) {
    auto* fl = new QHBoxLayout;
    auto* fl2 = new QHBoxLayout;
    opFilter_ = new QComboBox;
    opFilter_->setToolTip(tr("Show one collective op"));
    groupFilter_ = new QComboBox;
    groupFilter_->setToolTip(tr("Show one group (communicator)"));
    causeFilter_ = new QComboBox;
    causeFilter_->setToolTip(tr("Show one cause of lateness"));
    causeFilter_->addItem(tr("any cause"));
    // readable words, the identifier as data and tooltip
    for (Cause cause : kAllCauses) {
        causeFilter_->addItem(tr(causeLabel(cause)), QString(causeName(cause)));
        causeFilter_->setItemData(causeFilter_->count() - 1, QString(causeName(cause)), Qt::ToolTipRole);
    }
    for (QComboBox* c : {opFilter_, groupFilter_, causeFilter_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(8);
        c->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    minSkew_ = new QDoubleSpinBox;
    minSkew_->setRange(0, 1e6);
    minSkew_->setDecimals(2);
    minSkew_->setSuffix(tr(" ms"));
    minSkew_->setPrefix(tr("skew \u2265 "));
    minSkew_->setToolTip(tr("Minimum start skew"));
    bigOnly_ = new QCheckBox(tr("big only"));
    bigOnly_->setToolTip(tr("Only collectives whose start skew is above the big threshold (Analysis > Settings)"));
    filterStatus_ = new QLabel;
    filterStatus_->setStyleSheet("QLabel { color: #555; }");
    fl->addWidget(opFilter_);
    fl->addWidget(groupFilter_);
    fl->addWidget(causeFilter_);
    fl2->addWidget(minSkew_);
    fl2->addWidget(bigOnly_);
    fl2->addStretch(1);
    lv->addLayout(fl);
    lv->addLayout(fl2);

    connect(opFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setOp(i <= 0 ? QString() : opFilter_->itemText(i));
        emit filtersChanged();
    });
    connect(groupFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setGroup(i <= 0 ? -1 : i - 1);
        emit filtersChanged();
    });
    connect(causeFilter_, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter_->setCause(i <= 0 ? QString() : causeFilter_->itemData(i).toString());
        emit filtersChanged();
    });
    connect(minSkew_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        filter_->setMinSkewMs(v);
        emit filtersChanged();
    });
    connect(bigOnly_, &QCheckBox::toggled, this, [this](bool on) {
        filter_->setBigOnly(on);
        emit filtersChanged();
    });
}

// The table, sorted by group; several rows can be selected for copying, the current row is the
// collective shown. Beneath it, in its place when the filters list nothing, the empty state.
void CollectivesPane::addTable(QVBoxLayout* lv) {
    table_ = new QTableView;
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CollectiveModel::Group, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setTextElideMode(Qt::ElideMiddle);
    lateRankLabels_ = new RankLabelDelegate(table_);  // elided keeping what tells the files apart
    table_->setItemDelegateForColumn(CollectiveModel::LateRank, lateRankLabels_);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->setAlternatingRowColors(true);
    auto* copy = new QAction(tr("Copy Rows"), table_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &CollectivesPane::copySelectedRows);
    table_->addAction(copy);
    filterEmpty_ = new QLabel;
    filterEmpty_->setAlignment(Qt::AlignCenter);
    filterEmpty_->setWordWrap(true);
    filterEmpty_->setStyleSheet("QLabel { color: #555; padding: 20px; }");
    filterEmpty_->setText(tr("No collective matches these filters. <a href=\"clear\">Clear the filters</a>"));
    connect(filterEmpty_, &QLabel::linkActivated, this, [this] { clearFilters(); });
    tableStack_ = new QStackedWidget;
    tableStack_->addWidget(table_);
    tableStack_->addWidget(filterEmpty_);
    lv->addWidget(tableStack_);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
        if (cur.isValid() && !selecting_) emit rowActivated(filter_->mapToSource(cur).row());
    });
    // the current row stays in sight when the rows are sorted again and when the table is resized
    // (it scrolled out of view: review defect 12)
    connect(filter_, &QAbstractItemModel::layoutChanged, this, &CollectivesPane::keepCurrentInView);
    table_->viewport()->installEventFilter(this);
}

void CollectivesPane::keepCurrentInView() {
    const QModelIndex cur = table_->currentIndex();
    if (!cur.isValid()) return;
    // the row only: the leftmost column in sight, so that the columns do not scroll
    const int column = std::max(0, table_->columnAt(0));
    table_->scrollTo(filter_->index(cur.row(), column), QAbstractItemView::EnsureVisible);
}

bool CollectivesPane::eventFilter(QObject* o, QEvent* e) {
    // after the view has laid out its rows for the new size
    if (o == table_->viewport() && e->type() == QEvent::Resize) QTimer::singleShot(0, this, &CollectivesPane::keepCurrentInView);
    return QWidget::eventFilter(o, e);
}

SessionPtr CollectivesPane::session() const { return model_->session(); }

int CollectivesPane::sortColumn() const { return filter_->sortColumn(); }
Qt::SortOrder CollectivesPane::sortOrder() const { return filter_->sortOrder(); }

void CollectivesPane::setSession(SessionPtr s, const CollectiveModel::WidestTexts* texts,
                                 std::shared_ptr<const CollectiveFilter::Order> order) {
    filter_->prepareOrder(std::move(order));  // used by the model's reset
    model_->setSession(s);
    {
        QSignalBlocker b1(opFilter_), b2(groupFilter_);
        opFilter_->clear();
        opFilter_->addItem(tr("all ops"));
        QStringList ops;
        for (const auto& g : s->analysis.groups)
            for (const auto& [op, n] : g.ops)
                if (!ops.contains(QString::fromStdString(op))) ops << QString::fromStdString(op);
        opFilter_->addItems(ops);
        groupFilter_->clear();
        groupFilter_->addItem(tr("all groups"));
        for (const auto& g : s->analysis.groups) groupFilter_->addItem(tr("group %1 (%2)").arg(g.id).arg(g.count));
    }
    lateRankLabels_->setElider(RankLabelElider::of(s->profile));
    sizeColumns(texts ? *texts : CollectiveModel::widestTexts(*s));
}

CollectivesPane::Filters CollectivesPane::filters() const {
    return {opFilter_->currentIndex() > 0 ? opFilter_->currentText() : QString(), groupFilter_->currentIndex() - 1,
            causeFilter_->currentData().toString(), minSkew_->value(), bigOnly_->isChecked()};
}

void CollectivesPane::setFilters(const Filters& f) {
    {
        // one update for the whole set
        QSignalBlocker b1(opFilter_), b2(groupFilter_), b3(causeFilter_), b4(minSkew_), b5(bigOnly_);
        int oi = f.op.isEmpty() ? 0 : opFilter_->findText(f.op);
        opFilter_->setCurrentIndex(std::max(oi, 0));
        groupFilter_->setCurrentIndex(f.group >= 0 && f.group + 1 < groupFilter_->count() ? f.group + 1 : 0);
        int ci = f.cause.isEmpty() ? 0 : causeFilter_->findData(f.cause);
        causeFilter_->setCurrentIndex(std::max(ci, 0));
        minSkew_->setValue(f.minSkewMs);
        bigOnly_->setChecked(f.bigOnly);
    }
    applyFilters();
    emit filtersChanged();
}

void CollectivesPane::applyFilters() {
    filter_->setOp(opFilter_->currentIndex() <= 0 ? QString() : opFilter_->currentText());
    filter_->setGroup(groupFilter_->currentIndex() - 1);
    filter_->setCause(causeFilter_->currentIndex() <= 0 ? QString() : causeFilter_->currentData().toString());
    filter_->setMinSkewMs(minSkew_->value());
    filter_->setBigOnly(bigOnly_->isChecked());
}

int CollectivesPane::groupFilter() const { return groupFilter_->currentIndex() - 1; }

bool CollectivesPane::accepts(int collective) const { return filter_->accepts(collective); }

int CollectivesPane::firstListed() const { return filter_->rowCount() > 0 ? filter_->mapToSource(filter_->index(0, 0)).row() : -1; }

int CollectivesPane::step(int current, int delta, bool bigOnly) const {
    const int n = filter_->rowCount();
    if (n == 0) return -1;
    auto at = [&](int row) { return filter_->mapToSource(filter_->index(row, 0)).row(); };
    if (!bigOnly) {
        QModelIndex cur = filter_->mapFromSource(model_->index(std::max(current, 0), 0));
        int r = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : n - 1);
        return at(std::clamp(r, 0, n - 1));
    }
    if (!session()) return -1;
    const auto& cs = session()->analysis.collectives;
    QModelIndex cur = current >= 0 ? filter_->mapFromSource(model_->index(current, 0)) : QModelIndex();
    int start = cur.isValid() ? cur.row() : (delta > 0 ? -1 : n);
    for (int i = 1; i <= n; ++i) {
        int c = at(((start + delta * i) % n + n) % n);
        if (cs[size_t(c)].big && cs[size_t(c)].complete) return c;
    }
    return -1;
}

void CollectivesPane::showRow(int collective) {
    QModelIndex proxy = filter_->mapFromSource(model_->index(collective, 0));
    if (!proxy.isValid()) return;
    // keep the selection model's signals: the table repaints from them
    selecting_ = true;
    table_->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selecting_ = false;
    table_->scrollTo(proxy);
}

QString CollectivesPane::reveal(int c) {
    const unsigned by = filter_->hiddenBy(c);
    if (by == 0) return {};
    const Collective& col = session()->analysis.collectives[size_t(c)];
    QStringList cleared;
    if (by & CollectiveFilter::ByOp) cleared << tr("op %1").arg(opFilter_->currentText());
    if (by & CollectiveFilter::ByGroup) cleared << tr("group %1").arg(groupFilter_->currentIndex() - 1);
    if (by & CollectiveFilter::ByCause) cleared << tr("cause %1").arg(causeFilter_->currentText());
    if (by & CollectiveFilter::ByMinSkew) cleared << minSkew_->text();
    if (by & CollectiveFilter::ByBigOnly) cleared << tr("big only");
    Filters f = filters();
    if (by & CollectiveFilter::ByOp) f.op.clear();
    if (by & CollectiveFilter::ByGroup) f.group = -1;
    if (by & CollectiveFilter::ByCause) f.cause.clear();
    if (by & CollectiveFilter::ByMinSkew) f.minSkewMs = 0;
    if (by & CollectiveFilter::ByBigOnly) f.bigOnly = false;
    setFilters(f);
    return tr("Filters cleared to show G%1 #%2: %3.").arg(col.group).arg(col.index).arg(cleared.join(", "));
}

QString CollectivesPane::filterStatusText() const {
    if (!session()) return {};
    int n = filter_->rowCount(), total = model_->rowCount();
    return n == total ? tr("%1 shown").arg(collectives(qulonglong(total))) : tr("%1 of %2 shown").arg(n).arg(collectives(qulonglong(total)));
}

void CollectivesPane::updateFilterStatus() {
    filterStatus_->setText(filterStatusText());
    tableStack_->setCurrentIndex(showsFilterEmptyState() ? 1 : 0);
}

bool CollectivesPane::showsFilterEmptyState() const { return session() && model_->rowCount() > 0 && filter_->rowCount() == 0; }

QString CollectivesPane::selectedRowsTsv() const {
    QModelIndexList rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList cols;
    QHeaderView* h = table_->horizontalHeader();
    std::vector<int> order;  // visual order, hidden columns left out
    for (int v = 0; v < h->count(); ++v)
        if (!h->isSectionHidden(h->logicalIndex(v))) order.push_back(h->logicalIndex(v));
    for (int c : order) cols << filter_->headerData(c, Qt::Horizontal).toString();
    QString out = cols.join('\t') + '\n';
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c : order) cells << filter_->index(r.row(), c).data().toString().replace('\t', ' ').replace('\n', ' ');
        out += cells.join('\t') + '\n';
    }
    return rows.isEmpty() ? QString() : out;
}

void CollectivesPane::copySelectedRows() const {
    QString tsv = selectedRowsTsv();
    if (!tsv.isEmpty()) QApplication::clipboard()->setText(tsv);
}

void CollectivesPane::sizeColumns(const CollectiveModel::WidestTexts& texts) {
    // widths from the widest text of each column over all rows, so numbers are never elided (the
    // view's own sizing samples a few rows); rank labels are capped and elided in the middle
    QFontMetrics fm(table_->font());
    QFontMetrics hfm(table_->horizontalHeader()->font());
    for (int c = 0; c < CollectiveModel::ColumnCount; ++c) {
        int w = hfm.horizontalAdvance(model_->headerData(c, Qt::Horizontal).toString()) + 24;  // room for the sort arrow
        const bool proportional = c == CollectiveModel::LateRank || c == CollectiveModel::Op;
        for (const QString& t : texts.texts[c])
            // digits are of one width in table fonts: the longest text is the widest, plus one digit of slack
            w = std::max(w, fm.horizontalAdvance(proportional ? t : t + "0") + 12);
        if (texts.texts[c].isEmpty() && !proportional) w = std::max(w, fm.horizontalAdvance("0") + 12);
        if (c == CollectiveModel::LateRank) w = std::min(w, rankColumnCap(fm));
        table_->setColumnWidth(c, w);
    }
    emit columnsSized();
}

int CollectivesPane::widthThroughCause() const {
    if (model_->rowCount() == 0) return 0;
    const QHeaderView* h = table_->horizontalHeader();
    int through = 0;  // the sections left of Cause in the visual order, and Cause
    for (int v = 0; v <= h->visualIndex(CollectiveModel::Cause); ++v)
        if (!h->isSectionHidden(h->logicalIndex(v))) through += h->sectionSize(h->logicalIndex(v));
    return width() - table_->viewport()->width() + through + 2;
}

int CollectivesPane::rankColumnCap(const QFontMetrics& fm) { return fm.horizontalAdvance(QString(18, 'x')) + 12; }

}  // namespace skewui
