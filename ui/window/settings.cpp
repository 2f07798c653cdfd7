#include "window/settings.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

#include "analysis/step_pattern.h"

using namespace skew;

namespace skewui {

AnalysisOptions loadAnalysisOptions() {
    AnalysisOptions o;
    QSettings st;
    o.bigSkewNs = st.value("analysis/bigSkewNs", qlonglong(o.bigSkewNs)).toLongLong();
    o.anomalyThreshold = st.value("analysis/anomalyThreshold", o.anomalyThreshold).toDouble();
    o.stepRegex = st.value("analysis/stepRegex", QString()).toString().toStdString();
    return o;
}

void saveAnalysisOptions(const AnalysisOptions& o) {
    QSettings st;
    st.setValue("analysis/bigSkewNs", qlonglong(o.bigSkewNs));
    st.setValue("analysis/anomalyThreshold", o.anomalyThreshold);
    st.setValue("analysis/stepRegex", QString::fromStdString(o.stepRegex));
}

bool timelineWheelZooms() { return QSettings().value("timeline/wheelZooms", false).toBool(); }
void setTimelineWheelZooms(bool zooms) { QSettings().setValue("timeline/wheelZooms", zooms); }

SettingsDialog::SettingsDialog(const AnalysisOptions& o, const Session* open, QWidget* parent) : QDialog(parent), options_(o) {
    setWindowTitle(tr("Analysis settings"));
    // what the dialog shows, in the user's units (core converts, as for the command line)
    AnalysisSettings shown = analysisSettings(o);
    if (!o.hasTrim && open) {
        AnalysisOptions whole = o;
        whole.hasTrim = true, whole.trimStartNs = open->profile.timeStart, whole.trimEndNs = open->profile.timeEnd + 1;
        const AnalysisSettings w = analysisSettings(whole);
        shown.trimStartS = w.trimStartS, shown.trimEndS = w.trimEndS;
    }
    auto* form = new QFormLayout(this);
    big_ = new QDoubleSpinBox;
    big_->setRange(0, 1e6);
    big_->setDecimals(2);
    big_->setSuffix(tr(" ms"));
    big_->setValue(shown.bigSkewMs);
    anomaly_ = new QDoubleSpinBox;
    anomaly_->setRange(0.1, 1000);
    anomaly_->setDecimals(1);
    anomaly_->setSuffix(tr(" x the op's mean"));
    anomaly_->setValue(shown.anomalyThreshold);
    regex_ = new QLineEdit(QString::fromStdString(o.stepRegex));
    regex_->setPlaceholderText(QString::fromStdString(defaultStepRegex()));
    trim_ = new QCheckBox(tr("keep kernels starting in"));
    trim_->setChecked(o.hasTrim);
    t0_ = new QDoubleSpinBox;
    t1_ = new QDoubleSpinBox;
    for (auto* t : {t0_, t1_}) {
        t->setRange(0, 1e7);
        t->setDecimals(6);
        t->setSuffix(tr(" s"));
    }
    t0_->setValue(shown.trimStartS);
    t1_->setValue(shown.trimEndS);
    auto* trimRow = new QHBoxLayout;
    trimRow->addWidget(trim_);
    trimRow->addWidget(t0_);
    trimRow->addWidget(new QLabel(tr("to")));
    trimRow->addWidget(t1_);
    form->addRow(tr("Big start skew above"), big_);
    form->addRow(tr("Anomaly threshold"), anomaly_);
    form->addRow(tr("Step NVTX pattern"), regex_);
    form->addRow(tr("Time window"), trimRow);
    wheelZooms_ = new QCheckBox(tr("the wheel zooms (else it scrolls the rows and Ctrl+wheel zooms, as in Nsight Systems)"));
    wheelZooms_->setChecked(timelineWheelZooms());
    form->addRow(tr("Timeline"), wheelZooms_);
    error_ = new QLabel;
    error_->setStyleSheet("color: #b00020");
    form->addRow(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
}

void SettingsDialog::accept() {
    // the same checks and unit conversions as the command line's
    AnalysisSettings st = analysisSettings(options_);
    st.bigSkewMs = big_->value();
    st.anomalyThreshold = anomaly_->value();
    st.stepRegex = regex_->text().toStdString();
    st.hasTrim = trim_->isChecked();
    st.trimStartS = t0_->value();
    st.trimEndS = t1_->value();
    AnalysisOptions o = options_;
    if (std::string e = makeAnalysisOptions(st, o); !e.empty()) {
        QString msg = QString::fromStdString(e);
        error_->setText(msg.left(1).toUpper() + msg.mid(1) + ".");
        return;
    }
    options_ = o;
    setTimelineWheelZooms(wheelZooms_->isChecked());
    QDialog::accept();
}

QString SettingsDialog::errorText() const { return error_->text(); }

}  // namespace skewui
