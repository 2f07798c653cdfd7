#include "window/search_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace skewui {

SearchBar::SearchBar(QWidget* parent) : QWidget(parent) {
    setObjectName("searchBar");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 6, 2);
    field_ = new QLineEdit;
    field_->setObjectName("searchField");
    field_->setPlaceholderText(tr("kernel name, correlation id, #12 or 3:12 (group:collective), NVTX text"));
    field_->setClearButtonEnabled(true);
    field_->installEventFilter(this);
    count_ = new QLabel;
    count_->setMinimumWidth(count_->fontMetrics().horizontalAdvance("99999 of the first 100000") + 8);
    prev_ = new QToolButton;
    prev_->setArrowType(Qt::UpArrow);
    prev_->setToolTip(tr("Previous hit (Shift+Enter, Shift+F3)"));
    next_ = new QToolButton;
    next_->setArrowType(Qt::DownArrow);
    next_->setToolTip(tr("Next hit (Enter, F3)"));
    auto* closeButton = new QToolButton;
    closeButton->setText(QStringLiteral("\u00D7"));
    closeButton->setToolTip(tr("Close (Escape)"));
    row->addWidget(new QLabel(tr("Find:")));
    row->addWidget(field_, 1);
    row->addWidget(prev_);
    row->addWidget(next_);
    row->addWidget(count_);
    row->addWidget(closeButton);
    connect(prev_, &QToolButton::clicked, this, &SearchBar::previous);
    connect(next_, &QToolButton::clicked, this, &SearchBar::next);
    connect(closeButton, &QToolButton::clicked, this, &SearchBar::close);
    hide();
}

void SearchBar::setSession(SessionPtr s) {
    s_ = std::move(s);
    result_ = {};
    searched_ = QString();
    current_ = -1;
    count_->clear();
}

void SearchBar::open() {
    show();
    field_->setFocus(Qt::ShortcutFocusReason);
    field_->selectAll();
}

void SearchBar::close() {
    hide();
    emit closed();
}

void SearchBar::next() { go(+1); }
void SearchBar::previous() { go(-1); }

bool SearchBar::searchIfNeeded() {
    if (!s_) return false;
    const QString q = field_->text();
    if (searched_.isNull() || q != searched_) {
        result_ = skew::searchRun(s_->timeline, q.toStdString());
        searched_ = q;
        current_ = -1;
    }
    return !result_.hits.empty();
}

void SearchBar::go(int delta) {
    if (s_ && s_->viewIndexesPending) {  // the search reads the timeline's index, built after the first picture
        count_->setText(tr("preparing the search..."));
        return;
    }
    if (!searchIfNeeded()) {
        count_->setText(field_->text().trimmed().isEmpty() ? QString() : countText());
        return;
    }
    const int n = int(result_.hits.size());
    current_ = current_ < 0 ? (delta > 0 ? 0 : n - 1) : ((current_ + delta) % n + n) % n;
    count_->setText(countText());
    emit hitChosen(result_.hits[size_t(current_)]);
}

QString SearchBar::countText() const {
    if (result_.hits.empty()) return searched_.isNull() ? QString() : tr("no match");
    const QString of = result_.truncated ? tr("the first %1").arg(result_.hits.size()) : QString::number(result_.hits.size());
    return current_ < 0 ? tr("%1 hits").arg(of) : tr("%1 of %2").arg(current_ + 1).arg(of);
}

// Enter / Shift+Enter step through the hits, Escape closes (in the field: the window's keys stay as they are)
bool SearchBar::eventFilter(QObject* o, QEvent* e) {
    if (o == field_ && e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) {
            (k->modifiers() & Qt::ShiftModifier) ? previous() : next();
            return true;
        }
        if (k->key() == Qt::Key_Escape) {
            close();
            return true;
        }
    }
    return QWidget::eventFilter(o, e);
}

}  // namespace skewui
