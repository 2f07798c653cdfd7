#pragma once
// The compare view's delta table: every figure of a pair's GroupDelta (core/compare) as a row with
// its value in A (before), in B (after) and the difference B - A, formatted (durations, shares in
// percent and percentage points, counts), the verdict's figures, skews and causes first and the
// per-rank ones last (a cause no big event had is left out of the big-event rows). Differences of figures where less is better (skews,
// cost, big events) are green when they went down and red when they went up.

#include <QAbstractTableModel>

#include "session.h"

namespace skewui {

class CompareDeltaModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Figure, A, B, Delta, ColumnCount };
    explicit CompareDeltaModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setPair(CompareSessionPtr c, int pair);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    int rowOf(const QString& figure) const;  // -1 when absent

private:
    struct Row {
        QString figure, a, b, d, tip;
        int trend = 0;  // -1 better, +1 worse, 0 neither (or not a figure where less is better)
    };
    std::vector<Row> rows_;
};

}  // namespace skewui
