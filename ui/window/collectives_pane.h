#pragma once
// The collectives pane, left in the window: the filters on two lines (so the pane can be narrow),
// the collectives table with its empty state and Ctrl+C, and the "N of M shown" line. It lists and
// filters; which collective is shown is the window's (it asks the pane to show or reveal a row).

#include <QWidget>

#include "models/collective_filter.h"
#include "models/collective_model.h"
#include "session.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFontMetrics;
class QLabel;
class QStackedWidget;
class QTableView;
class QVBoxLayout;

namespace skewui {

class RankLabelDelegate;

class CollectivesPane : public QWidget {
    Q_OBJECT
public:
    // what the filter widgets are set to (op: its text, empty for all; group -1: all; cause: the
    // identifier, empty for any)
    struct Filters {
        QString op;
        int group = -1;
        QString cause;
        double minSkewMs = 0;
        bool bigOnly = false;
    };

    explicit CollectivesPane(QWidget* parent = nullptr);

    // the table lists `s` (the op and group filters offer its ops and groups; the filters themselves
    // are the caller's to set again); columns sized to the new rows, on `texts` when the loader
    // measured them off the UI thread (else here, a pass over every row); the rows in `order` when
    // the loader sorted them for the table's sort (else sorted here)
    void setSession(SessionPtr s, const CollectiveModel::WidestTexts* texts = nullptr,
                    std::shared_ptr<const CollectiveFilter::Order> order = nullptr);
    int sortColumn() const;  // the table's sort: column (-1: none) and order
    Qt::SortOrder sortOrder() const;
    Filters filters() const;
    void setFilters(const Filters& f);  // one update for the whole set, then filtersChanged
    void clearFilters() { setFilters({}); }
    int groupFilter() const;  // the group the filter shows, negative for all

    bool accepts(int collective) const;
    int firstListed() const;  // the collective in the table's first row, -1 when none is listed
    // the collective `delta` rows from `current` in the table's order, clamped at its ends; with
    // bigOnly, the next big complete late arriver, around the table's end (-1: none)
    int step(int current, int delta, bool bigOnly) const;
    void showRow(int collective);  // made current in the table (without rowActivated) and scrolled to
    // clears the filters that hide `collective` and says which ("Filters cleared to show G0 #5: ...";
    // empty when none hid it)
    QString reveal(int collective);

    QString filterStatusText() const;  // "N of M collectives shown"
    void updateFilterStatus();         // that line, and the empty state when the filters list nothing
    bool showsFilterEmptyState() const;
    QString selectedRowsTsv() const;  // the selected rows as tab-separated text with a header
    void copySelectedRows() const;    // Ctrl+C in the table
    static int rankColumnCap(const QFontMetrics& fm);
    // the pane's width that shows the table's columns up to the Cause one whole (0: no rows)
    int widthThroughCause() const;  // the widest a table column of rank labels gets

    QTableView* table() const { return table_; }
    CollectiveFilter* filter() const { return filter_; }

signals:
    void rowActivated(int collective);  // a user made the row current
    void columnsSized();                // for new rows: widthThroughCause() may have changed
    void filtersChanged();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void keepCurrentInView();
    void addFilterWidgets(QVBoxLayout* lv);
    void addTable(QVBoxLayout* lv);
    void applyFilters();  // the widgets' values to the filter model
    void sizeColumns(const CollectiveModel::WidestTexts& texts);
    SessionPtr session() const;

    CollectiveModel* model_ = nullptr;
    CollectiveFilter* filter_ = nullptr;
    QTableView* table_ = nullptr;
    RankLabelDelegate* lateRankLabels_ = nullptr;  // the Late rank column
    QComboBox* opFilter_ = nullptr;
    QComboBox* groupFilter_ = nullptr;
    QComboBox* causeFilter_ = nullptr;
    QDoubleSpinBox* minSkew_ = nullptr;
    QCheckBox* bigOnly_ = nullptr;
    QLabel* filterStatus_ = nullptr;
    QLabel* filterEmpty_ = nullptr;
    QStackedWidget* tableStack_ = nullptr;
    bool selecting_ = false;  // the pane itself moves the current row: no rowActivated
};

}  // namespace skewui
