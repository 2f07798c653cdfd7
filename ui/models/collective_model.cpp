#include "models/collective_model.h"

#include <QBrush>
#include <QColor>
#include <QSet>

#include <cstring>
#include <map>
#include <set>
#include <tuple>

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

namespace {

int digits(uint64_t v) {
    int n = 1;
    while (v >= 10) v /= 10, ++n;
    return n;
}

// the length of a decimal integer's text
int integerLength(int64_t v) { return v < 0 ? 1 + digits(uint64_t(0) - uint64_t(v)) : digits(uint64_t(v)); }

// The length of formatDuration(ns)'s text (core/report/format.cpp), without writing it; -1 when
// only writing it tells (a value that rounds up to the next power of ten: "999.96 us" is "1000.0 us").
// A fixed text is [-]integer part "." `decimals` digits, then the unit; rounding to `decimals` moves
// |x| by at most half a unit of the last digit, so the integer part keeps the digits of floor(|x|)
// unless |x| + one unit of the last digit reaches the next power of ten (the sum in double is rounded
// monotonically and powers of ten are exact, so that test never misses one).
int durationLength(int64_t ns) {
    const double a = ns < 0 ? -double(ns) : double(ns);
    if (a < 1e3) return integerLength(ns) + 3;  // " ns"
    const auto [scale, decimals, unit] = a >= 1e9 ? std::tuple{1e9, 3, 2} : a >= 1e6 ? std::tuple{1e6, 2, 3} : std::tuple{1e3, 1, 3};
    const double x = a / scale, step = decimals == 3 ? 1e-3 : decimals == 2 ? 1e-2 : 1e-1;
    const int whole = digits(uint64_t(x));
    if (digits(uint64_t(x + step)) != whole) return -1;
    return (ns < 0 ? 1 : 0) + whole + 1 + decimals + unit;
}

}  // namespace

// Per column, the longest text of the rows, the first one of that length (as a pass writing each
// cell's text would find it), writing only that one: the lengths come from the numbers (digits,
// durationLength), and the op, late rank and cause columns have a handful of distinct texts. O(rows)
// without a string per cell (a pass writing 10 texts per row took 0.2-0.4 s on 125,000 collectives,
// before the first picture).
CollectiveModel::WidestTexts CollectiveModel::widestTexts(const Session& s) {
    WidestTexts w;
    const Analysis& a = s.analysis;
    const int rows = int(a.collectives.size());
    if (rows == 0) return w;
    auto length = [&](const Collective& c, int column) -> int {
        switch (column) {
        case Group: return integerLength(c.group);
        case Index: return integerLength(c.index);
        case Step: return c.step ? integerLength(c.step) : 0;
        case Offset: return c.step ? durationLength(c.offsetInStepNs) : 0;
        case StartSkew: return durationLength(c.startSkew());
        case EndSkew: return durationLength(c.endSkew());
        case Excess: return durationLength(c.excessNs);
        }
        return -1;
    };
    for (int col : {Group, Index, Step, Offset, StartSkew, EndSkew, Excess}) {
        int best = -1, bestRow = 0;
        for (int r = 0; r < rows; ++r) {
            int n = length(a.collectives[size_t(r)], col);
            if (n < 0) n = int(text(s, r, col).toString().size());  // near a power of ten: written
            if (n > best) best = n, bestRow = r;
        }
        w.texts[col] = QStringList{text(s, bestRow, col).toString()};
    }
    // the cause: its label, or nothing without a late arriver; the first row of the longest
    {
        std::map<int, int> labelLength;  // by cause
        int best = -1, bestRow = 0;
        for (int r = 0; r < rows; ++r) {
            const Collective& c = a.collectives[size_t(r)];
            int n = 0;
            if (c.lateSlot >= 0) {
                auto [it, fresh] = labelLength.try_emplace(int(c.cause), 0);
                if (fresh) it->second = int(text(s, r, Cause).toString().size());
                n = it->second;
            }
            if (n > best) best = n, bestRow = r;
        }
        w.texts[Cause] = QStringList{text(s, bestRow, Cause).toString()};
    }
    // each distinct op text ((op, partial) pairs) and late rank label, in the order of their first row
    std::set<std::pair<int, bool>> ops;
    std::set<int> ranks;
    QSet<QString> seen[ColumnCount];
    auto add = [&](int r, int col) {
        QString t = text(s, r, col).toString();
        if (!seen[col].contains(t)) seen[col].insert(t), w.texts[col] << t;
    };
    for (int r = 0; r < rows; ++r) {
        const Collective& c = a.collectives[size_t(r)];
        if (ops.insert({int(c.op), c.complete}).second) add(r, Op);
        if (ranks.insert(a.lateRank(c)).second) add(r, LateRank);
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
