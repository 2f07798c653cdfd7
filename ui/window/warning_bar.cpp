#include "window/warning_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStringList>
#include <QToolButton>

namespace skewui {

WarningBar::WarningBar(QWidget* parent) : QWidget(parent) {
    setObjectName("warningBar");
    // a QWidget subclass paints a style sheet's background only when asked to
    setAttribute(Qt::WA_StyledBackground, true);
    setStyleSheet("#warningBar { background: #fff4cc; border: 1px solid #e0c060; }");
    auto* wl = new QHBoxLayout(this);
    wl->setContentsMargins(6, 3, 3, 3);
    label_ = new QLabel;
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton;
    close->setText(QString::fromUtf8("\u2715"));
    close->setToolTip(tr("Hide the warnings"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    wl->addWidget(label_, 1);
    wl->addWidget(close, 0, Qt::AlignTop);
    hide();
}

void WarningBar::setWarnings(const std::vector<std::string>& lines) {
    QStringList warnings;
    for (const std::string& w : lines) warnings << QString::fromStdString(w);
    label_->setText(warnings.isEmpty() ? QString() : tr("Warnings: ") + warnings.join("\n"));
    setVisible(!warnings.isEmpty());
}

}  // namespace skewui
