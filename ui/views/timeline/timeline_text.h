#pragma once
// The timeline's fonts and laid-out text: frames repeat the same labels and kernel names, and shaping
// them anew every frame would cost more than the level of detail itself, so strings are kept as
// QStaticText per font, and kernel names elided per width bucket.

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QString>

#include "model/profile.h"

class QPainter;

namespace skewui {

class TimelineText {
public:
    enum FontKind { Base, Small, Bold, SmallBold, FontKinds };

    // the widget's font; clears what was laid out with the previous one
    void setFont(const QFont& base);
    QFont font(FontKind k) const;
    // `s` in `r`, aligned left, right or centred horizontally and top, bottom or centred vertically
    void draw(QPainter& p, const QRectF& r, const QString& s, FontKind k, Qt::Alignment a);
    QString elided(const QString& s, FontKind k, int width) const;  // elided at its end
    // a kernel's base name (core's kernelBaseName) elided to `width` in steps of 8 px
    QString elidedName(const skew::StringTable& strings, skew::StrId name, int width);
    void clearNames() { names_.clear(); }  // string ids of another profile

private:
    QFont base_;
    QHash<QString, QStaticText> cache_[FontKinds];
    QHash<quint64, QString> names_;
};

// "1.234 567 s": seconds with as many decimals as the tick step needs, grouped by three
QString tickLabel(double ns, double stepNs);

}  // namespace skewui
