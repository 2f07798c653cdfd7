#pragma once
// Analysis > Settings: the dialog (big threshold, anomaly threshold, step NVTX pattern, time window,
// in the user's units and checked as the command line checks them), and the analysis settings kept
// from one run of the viewer to the next (QSettings; the time window belongs to one profile: not kept);
// and one preference of the viewer: what the wheel does in the timeline.

#include <QDialog>

#include "session.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace skewui {

skew::AnalysisOptions loadAnalysisOptions();  // the last run's, over the defaults
void saveAnalysisOptions(const skew::AnalysisOptions& o);
// the timeline's wheel: false (the default) scrolls the rows and Ctrl+wheel zooms, as Nsight
// Systems; true zooms (TimelineView::setWheelZooms)
bool timelineWheelZooms();
void setTimelineWheelZooms(bool zooms);

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // shows `o`; without a time window, `open`'s whole time range is offered to narrow down
    SettingsDialog(const skew::AnalysisOptions& o, const skew::Session* open, QWidget* parent = nullptr);
    const skew::AnalysisOptions& options() const { return options_; }  // once accepted

    void accept() override;  // only settings the command line would take; else the error is shown

    // the fields, for tests
    QDoubleSpinBox* bigSkew() const { return big_; }
    QDoubleSpinBox* anomalyThreshold() const { return anomaly_; }
    QLineEdit* stepRegex() const { return regex_; }
    QCheckBox* trim() const { return trim_; }
    QCheckBox* wheelZooms() const { return wheelZooms_; }  // saved on OK (setTimelineWheelZooms)
    QDoubleSpinBox* trimStart() const { return t0_; }
    QDoubleSpinBox* trimEnd() const { return t1_; }
    QString errorText() const;

private:
    skew::AnalysisOptions options_;
    QDoubleSpinBox* big_;
    QDoubleSpinBox* anomaly_;
    QLineEdit* regex_;
    QCheckBox* trim_;
    QDoubleSpinBox* t0_;
    QDoubleSpinBox* t1_;
    QCheckBox* wheelZooms_;
    QLabel* error_;
};

}  // namespace skewui
