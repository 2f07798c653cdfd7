#include "models/collective_model.h"

#include <QBrush>
#include <QColor>
#include <QSet>

#include <cstring>

#include "report/analysis_report.h"
#include "common/text.h"
#include "report/format.h"

using namespace skew;

namespace skewui {

void CollectiveModel::setSession(SessionPtr s) {
    beginResetModel();
    s_ = std::move(s);
    endResetModel();
}

int CollectiveModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !s_ ? 0 : int(s_->analysis.collectives.size());
}

int CollectiveModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool CollectiveModel::isMeasure(int column) {
    return column == StartSkew || column == EndSkew || column == Excess || column == Offset;
}

QVariant CollectiveModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::InitialSortOrderRole) return int(isMeasure(section) ? Qt::DescendingOrder : Qt::AscendingOrder);
    if (role == Qt::ToolTipRole) {
        static const char* tips[] = {"Group of matched NCCL streams (communicator)",
                                     "Position of the collective in its group (1-based)",
                                     "Collective op",
                                     "Latest start minus earliest start over the ranks",
                                     "Why the late rank was late (cpu_launch, gpu_dependency, gpu_other, unknown)",
                                     "The rank that started last",
                                     "Waiting inside NCCL kernels caused by the skew, summed over ranks",
                                     "Latest end minus earliest end",
                                     "Training step (NVTX step ranges or the repeating op sequence)",
                                     "Time from the step's start to the collective's first start"};
        return tr(tips[section]);
    }
    if (role != Qt::DisplayRole) return {};
    static const char* names[] = {"Group", "#", "Op", "Start skew", "Cause", "Late rank", "Excess", "End skew", "Step", "Offset in step"};
    return tr(names[section]);
}

QVariant CollectiveModel::text(const Session& s, int row, int column) {
    const Analysis& a = s.analysis;
    const Collective& c = a.collectives[size_t(row)];
    switch (column) {
    case Group: return c.group;
    case Index: return c.index;
    case Step: return c.step ? QVariant(c.step) : QVariant(QString());
    case Offset: return c.step ? dur(c.offsetInStepNs) : QString();
    case Op: return QString(opName(c.op)) + (c.complete ? QString() : tr(" (partial)"));
    case StartSkew: return dur(c.startSkew());
    case EndSkew: return dur(c.endSkew());
    case LateRank:
        return c.lateSlot >= 0 ? QString::fromStdString(s.profile.ranks[size_t(a.slotRank(c, size_t(c.lateSlot)))].label) : QString();
    case Excess: return dur(c.excessNs);
    case Cause: return c.lateSlot >= 0 ? QString(causeLabel(c.cause)) : QString();
    }
    return {};
}

CollectiveModel::WidestTexts CollectiveModel::widestTexts(const Session& s) {
    WidestTexts w;
    QSet<QString> seen[ColumnCount];
    for (int r = 0; r < int(s.analysis.collectives.size()); ++r)
        for (int c = 0; c < ColumnCount; ++c) {
            QString t = text(s, r, c).toString();
            if (c == LateRank || c == Op) {
                if (!seen[c].contains(t)) seen[c].insert(t), w.texts[c] << t;
            } else if (t.size() > (w.texts[c].isEmpty() ? -1 : w.texts[c].front().size())) {
                w.texts[c] = QStringList{t};
            }
        }
    return w;
}

double CollectiveModel::numericKey(const Analysis& a, const Collective& c, int column) {
    switch (column) {
    case Group: return c.group * 1e9 + c.index;
    case Index: return double(c.index);
    case Step: return double(c.step);
    case Offset: return double(c.offsetInStepNs);
    case StartSkew: return double(c.startSkew());
    case EndSkew: return double(c.endSkew());
    case LateRank: return c.lateSlot >= 0 ? a.slotRank(c, size_t(c.lateSlot)) : -1;
    case Excess: return double(c.excessNs);
    }
    return 0;
}

bool CollectiveModel::sortsBefore(const Analysis& a, int column, int left, int right) {
    const Collective& x = a.collectives[size_t(left)];
    const Collective& y = a.collectives[size_t(right)];
    // the op and cause identifiers are ASCII: byte order is QString's order
    if (column == Op) return std::strcmp(opName(x.op), opName(y.op)) < 0;
    if (column == Cause) return std::strcmp(causeName(x.cause), causeName(y.cause)) < 0;
    return numericKey(a, x, column) < numericKey(a, y, column);
}

QVariant CollectiveModel::data(const QModelIndex& index, int role) const {
    if (!s_ || !index.isValid() || index.row() >= rowCount()) return {};
    const Analysis& a = s_->analysis;
    const Collective& c = a.collectives[size_t(index.row())];
    if (role == CollectiveRole) return index.row();
    if (role == SortRole) {
        if (index.column() == Op) return QString(opName(c.op));
        if (index.column() == Cause) return QString(causeName(c.cause));
        return numericKey(a, c, index.column());
    }
    if (role == Qt::DisplayRole) return text(*s_, index.row(), index.column());
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == Op || index.column() == LateRank || index.column() == Cause) return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ForegroundRole) {
        if (!c.complete) return QBrush(QColor(130, 130, 130));
        if (c.big && (index.column() == StartSkew || index.column() == LateRank)) return QBrush(QColor(0xc0, 0x30, 0x20));
    }
    if (role == Qt::ToolTipRole) {
        QString title = QString::fromStdString(collectiveTitle(s_->profile, a, c));
        if (index.column() == Cause && c.lateSlot >= 0) return tr("cause: %1\n%2").arg(causeName(c.cause), title);
        return title;
    }
    return {};
}

}  // namespace skewui
