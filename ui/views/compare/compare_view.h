#pragma once
// The compare view (File > Compare, `skewscope A... --vs B...`, `render --view compare`): two
// captures of one workload, before (A) and after (B) a change, for one pair of groups at a time.
// On top, the verdict in numbers (core's verdictLine) and the pair selector, notes and the groups
// that were not compared; below, the big events to follow, the step maps of A and B one above the
// other on one locked offset-in-step axis, the selected collective of one side and its paired one
// of the other in two collective views (a note above them when their time scales differ), and at
// the bottom the delta table, the start and end skew CDFs of both sides overlaid and the per-rank
// bars. Owns the selection and how it pairs across the sides (core/compare's CollectivePairing, built
// once per comparison); every figure comes from core. Its words are compare_header.cpp, its export
// (a copy laid out at the export's size) compare_export.cpp. In a small window (1024x700) the list
// of events and the delta table get the width their columns need, the collectives the larger share
// of the height, and the collective views wrap their titles instead of eliding them.

#include <QWidget>

#include "compare/compare.h"
#include "session.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QSplitter;
class QStackedWidget;
class QTableView;
class QVBoxLayout;

namespace skewui {

class CollectiveView;
class CompareDeltaModel;
class CompareEventsList;
class CompareRankBars;
class SkewCdfChart;
class StepMapView;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // shows pair `pair` with A's collective of largest start skew that has a pair in B selected (B's
    // that has one in A when none has; the largest unpaired one when no collective pairs)
    void setComparison(CompareSessionPtr c, int pair = 0);
    CompareSessionPtr comparison() const { return c_; }
    void setPair(int pair);
    int pair() const { return pair_; }
    // selects collective `collective` (index into that side's collectives; it must belong to the
    // pair's group there) and shows its paired collective on the other side
    void selectCollective(bool sideB, int collective);
    // the Navigate menu in compare mode: the next/previous collective (big late arrivers only
    // when `bigOnly`) of the pair's group on the side the selection came from, in run order; false
    // when there is none in that direction
    bool stepCollective(int delta, bool bigOnly);
    void zoomCollectives(double factor);  // both collective views; factor < 1 zooms in
    void fitCollectives();
    int selectedA() const { return selA_; }
    int selectedB() const { return selB_; }
    bool selectedFromB() const { return fromB_; }
    skew::PairedCollective::By pairedBy() const { return by_; }

    QString verdictText() const;      // the verdict line of the pair shown (empty when none)
    QString pairingText() const;      // how the other side's collective was found, or why none
    QString notesText() const;        // notes of the pair, groups not compared and why
    bool showsNotCompared() const;    // no pair: the page that says why is shown
    QString notComparedText() const;
    // "Time scales differ: A's view spans 105.3 ms, B's 2.83 ms ..." above the collective views when
    // their spans differ by 1.5x or more; empty otherwise
    QString scaleNoteText() const;
    QLabel* scaleNote() const { return scaleNote_; }
    // a bar clicked in A's (sideB false) or B's collective view: its details in the Details tab,
    // the bar outlined
    void showDetails(bool sideB, int rank, int lane, quint32 kernel);
    QString detailsText() const;
    bool showLateArriver();  // L: the late arriver of the side selected from; false when none

    QComboBox* pairBox() const { return pairBox_; }
    SkewCdfChart* cdf() const { return cdf_; }
    CompareRankBars* rankBars() const { return bars_; }
    QTableView* deltaTable() const { return deltaTable_; }
    CompareDeltaModel* deltaModel() const { return deltaModel_; }
    StepMapView* stepMapA() const { return mapA_; }
    StepMapView* stepMapB() const { return mapB_; }
    CollectiveView* collectiveA() const { return collA_; }
    CollectiveView* collectiveB() const { return collB_; }
    CompareEventsList* events() const { return events_; }

    // the view at width x height as PNG, SVG or PDF: a copy of this view laid out at that size,
    // with this one's pair, selection, zoom and moved splitters (the viewer's export and `render`)
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr) const;

signals:
    void settingsRequested();  // the step maps' "Set the step pattern..."

protected:
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void buildHeader(QVBoxLayout* root);
    void buildViews();
    void buildSideTabs();
    void connectSelection();
    void applyProportions();
    int deltaWidthNeeded() const;
    void updateHeader();
    void updateSideLabels();
    void updateScaleNote();
    void lockMaps(bool fromA);
    void fitMaps();
    void copyStateTo(CompareView& other, const QSize& size) const;
    void leaveOutControls();  // in an export's copy: no buttons, no scroll bars

    CompareSessionPtr c_;
    int pair_ = -1;
    int selA_ = -1, selB_ = -1;
    bool fromB_ = false;
    skew::PairedCollective::By by_ = skew::PairedCollective::By::Index;
    bool syncing_ = false, mapsZoomed_ = false, splittersMoved_ = false;

    QLabel* files_ = nullptr;
    QLabel* verdict_ = nullptr;
    QLabel* pairLabel_ = nullptr;
    QComboBox* pairBox_ = nullptr;
    QLabel* notes_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* notCompared_ = nullptr;
    QSplitter* outer_ = nullptr;
    QSplitter* top_ = nullptr;
    QSplitter* bottom_ = nullptr;
    QSplitter* maps_ = nullptr;
    QSplitter* colls_ = nullptr;
    QWidget* collsBox_ = nullptr;  // the scale note above the two collective views
    QLabel* scaleNote_ = nullptr;
    CompareEventsList* events_ = nullptr;
    StepMapView* mapA_ = nullptr;
    StepMapView* mapB_ = nullptr;
    QLabel* collLabelA_ = nullptr;
    QLabel* collLabelB_ = nullptr;
    CollectiveView* collA_ = nullptr;
    CollectiveView* collB_ = nullptr;
    QTableView* deltaTable_ = nullptr;
    QPlainTextEdit* details_ = nullptr;
    QTabWidget* side_ = nullptr;  // the delta table and the details
    CompareDeltaModel* deltaModel_ = nullptr;
    SkewCdfChart* cdf_ = nullptr;
    CompareRankBars* bars_ = nullptr;
};

}  // namespace skewui
