#include "rank_labels.h"

#include <QApplication>
#include <QStyle>

namespace skewui {

namespace {
const QString kEllipsis = QString(QChar(0x2026));
bool separator(QChar c) { return c == '_' || c == '-' || c == '/' || c == '.' || c == ' ' || c == ':'; }
}  // namespace

RankLabelElider::RankLabelElider(const QStringList& labels) {
    if (labels.size() < 2) return;
    int n = int(labels.front().size());
    for (const QString& l : labels) {
        int i = 0;
        while (i < n && i < l.size() && l[i] == labels.front()[i]) ++i;
        n = i;
    }
    // back to just after a separator, leaving every label something of its own
    int cut = 0;
    for (int i = 0; i < n; ++i)
        if (separator(labels.front()[i])) cut = i + 1;
    for (const QString& l : labels)
        if (l.size() <= cut) cut = 0;
    if (cut >= 6) start_ = labels.front().left(cut);  // shorter ones ("dev ") are not worth an ellipsis
}

RankLabelElider RankLabelElider::of(const skew::Profile& p) {
    QStringList labels;
    for (const auto& r : p.ranks) labels << QString::fromStdString(r.label);
    return RankLabelElider(labels);
}

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
