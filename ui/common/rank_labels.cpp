#include "common/rank_labels.h"

#include <QApplication>
#include <QStyle>

#include "scene/rank_labels.h"

namespace skewui {

namespace {
const QString kEllipsis = QString(QChar(0x2026));
}  // namespace

RankLabelElider::RankLabelElider(const QStringList& labels) {
    std::vector<std::string> l;
    l.reserve(size_t(labels.size()));
    for (const QString& s : labels) l.push_back(s.toStdString());
    start_ = QString::fromStdString(skew::commonLabelStart(l));
}

RankLabelElider RankLabelElider::of(const skew::Profile& p) { return withStart(QString::fromStdString(skew::commonLabelStart(skew::rankLabels(p)))); }

RankLabelElider RankLabelElider::withStart(const QString& commonStart) {
    RankLabelElider e;
    e.start_ = commonStart;
    return e;
}

QString RankLabelElider::elide(const QString& label, const QFontMetrics& fm, int width) const {
    if (fm.horizontalAdvance(label) <= width) return label;
    if (start_.isEmpty() || !label.startsWith(start_)) return fm.elidedText(label, Qt::ElideMiddle, width);
    const QString rest = label.mid(start_.size());
    const int room = width - fm.horizontalAdvance(kEllipsis);
    if (fm.horizontalAdvance(rest) <= room) return kEllipsis + rest;
    const QString mid = fm.elidedText(rest, Qt::ElideMiddle, room);
    return mid.isEmpty() ? fm.elidedText(label, Qt::ElideMiddle, width) : kEllipsis + mid;
}

void RankLabelDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    // no rectangle: a size hint, which wants the whole label (resizeColumnsToContents)
    if (!(option->features & QStyleOptionViewItem::HasDisplay) || option->rect.width() <= 0) return;
    // the style draws the text inside the focus frame's margin on both sides
    const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option->widget) + 1;
    option->text = elider_.elide(option->text, option->fontMetrics, option->rect.width() - 2 * margin);
}

QString RankLabelDelegate::shownText(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    return o.text;
}

}  // namespace skewui
