// The compare view's words: the header (files, pair, verdict, notes), the line above each collective
// view (index, step, how it was paired), the page that says why nothing was compared, and the note
// when the two collective views' time scales differ. Figures and sentences from core (verdictLine,
// the pairing, the comparison's messages); these only put them together.

#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>

#include <algorithm>
#include <cmath>

#include "common/palette.h"
#include "common/text.h"
#include "report/compare_report.h"
#include "scene/view_texts.h"
#include "views/collective/collective_view.h"
#include "views/compare/compare_view.h"

namespace skewui {

namespace {

QString sideTag(bool sideB) {
    return QString("<b style=\"color:%1\">%2</b>")
        .arg((sideB ? palette::kSideB : palette::kSideA).name(), sideB ? QObject::tr("B (after)") : QObject::tr("A (before)"));
}

QString fileList(const Session& s) {
    QStringList names;
    for (const auto& f : s.files) names << QFileInfo(QString::fromStdString(f)).fileName();
    if (names.size() > 3) return names.mid(0, 2).join(", ") + QObject::tr(" and %1 more").arg(names.size() - 2);
    return names.join(", ");
}

}  // namespace

QString CompareView::scaleNoteText() const {
    if (collA_->scene().collective < 0 || collB_->scene().collective < 0) return {};
    const double a = collA_->xAxis->range().size(), b = collB_->xAxis->range().size();  // ms
    if (a <= 0 || b <= 0 || std::max(a, b) < 1.5 * std::min(a, b)) return {};
    auto span = [](double ms) { return dur(ms * 1e6); };
    const QString why = collA_->isFitted() && collB_->isFitted() ? tr("each fitted to its collective") : tr("zoomed; Fit Collective fits both");
    return tr("\u26A0 Time scales differ: A's view spans %1, B's %2 (%3)").arg(span(a), span(b), why);
}

void CompareView::updateScaleNote() {
    const QString t = scaleNoteText();
    if (t == scaleNote_->text() && scaleNote_->isVisible() == !t.isEmpty()) return;
    scaleNote_->setText(t);
    scaleNote_->setVisible(!t.isEmpty());
}

QString CompareView::verdictText() const {
    if (!c_ || pair_ < 0) return {};
    return QString::fromStdString(skew::verdictLine(c_->sideA(), c_->sideB(), c_->comparison.pairs[size_t(pair_)]));
}

QString CompareView::pairingText() const {
    if (!c_ || pair_ < 0 || (fromB_ ? selB_ : selA_) < 0) return {};
    const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
    const Session& from = fromB_ ? *c_->b : *c_->a;
    const Session& to = fromB_ ? *c_->a : *c_->b;
    const skew::Collective& c = from.analysis.collectives[size_t(fromB_ ? selB_ : selA_)];
    const int other = fromB_ ? selA_ : selB_;
    const QString toName = fromB_ ? tr("A") : tr("B");
    if (by_ == skew::PairedCollective::By::StepPosition)
        return other >= 0 ? tr("paired by step %1 and position %2 (both captures run the same op sequence per step)").arg(c.step).arg(c.positionInStep)
                          : tr("%1 has no collective at step %2, position %3").arg(toName).arg(c.step).arg(c.positionInStep);
    const QString why = p.sameStepSequence ? tr("it lies outside the steps") : QString::fromStdString(p.byIndexWhy);
    if (other >= 0) return tr("paired by index #%1: %2").arg(c.index).arg(why);
    const skew::Group& g = to.analysis.groups[size_t(fromB_ ? p.a : p.b)];
    return tr("%1's group has %2 collectives, none is #%3 (paired by index: %4)").arg(toName).arg(g.count).arg(c.index).arg(why);
}

void CompareView::updateSideLabels() {
    for (bool sideB : {false, true}) {
        QLabel* l = sideB ? collLabelB_ : collLabelA_;
        const int sel = sideB ? selB_ : selA_;
        if (!c_ || pair_ < 0) {
            l->setText(sideTag(sideB));
            continue;
        }
        QString text = sideTag(sideB), tip;
        if (sel >= 0) {
            const Session& s = sideB ? *c_->b : *c_->a;
            const skew::Collective& c = s.analysis.collectives[size_t(sel)];
            text += QString(" \u00B7 #%1").arg(c.index);
            if (c.step) text += tr(" \u00B7 step %1, pos %2").arg(c.step).arg(c.positionInStep);
        }
        const bool origin = sideB == fromB_;
        if (origin && sel >= 0) {
            text += tr(" \u00B7 <i>selected</i>");
        } else if (!origin && (fromB_ ? selB_ : selA_) >= 0) {
            const QString how = pairingText();
            tip = how;
            // the gist on the line, all of it in the tooltip
            text += " \u00B7 <i>" + (by_ == skew::PairedCollective::By::StepPosition && sel >= 0 ? tr("paired by step and position")
                                      : sel >= 0 ? tr("paired by index") : how).toHtmlEscaped() + "</i>";
        }
        l->setText(text);
        l->setToolTip(tip);
    }
}

QString CompareView::notesText() const {
    if (!c_) return {};
    QStringList out;
    if (pair_ >= 0) {
        const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
        for (const auto& k : p.cautions) out << tr("Caution: %1").arg(QString::fromStdString(k));
        for (const auto& n : p.notes) out << QString::fromStdString(n);
    }
    // A's what-if beside B's measured steps (the model's report card, when B is the fixed run)
    if (c_->comparison.whatIf.available())
        out << tr("What-if check: %1.").arg(QString::fromStdString(skew::whatIfCheckText(c_->comparison.whatIf)));
    if (!c_->comparison.pairs.empty() && !c_->comparison.messages.empty()) {
        QStringList not_;
        for (const auto& m : c_->comparison.messages) not_ << QString::fromStdString(m);
        out << tr("Not compared: %1").arg(not_.join("; "));
    }
    return out.join("\n");
}

bool CompareView::showsNotCompared() const { return stack_->currentIndex() == 1; }

QString CompareView::notComparedText() const {
    if (!c_ || !c_->comparison.pairs.empty()) return {};
    // core's summary, its message per group and its advice
    QStringList lines;
    lines << QString::fromStdString(c_->comparison.summary) + ".";
    for (const auto& m : c_->comparison.messages) lines << QString::fromStdString(m) + ".";
    if (!c_->comparison.advice.empty()) lines << QString::fromStdString(c_->comparison.advice) + ".";
    return lines.join("\n\n");
}

void CompareView::updateHeader() {
    if (!c_) {
        files_->setText(tr("No comparison open: File > Compare..."));
        verdict_->clear();
        notes_->clear();
        pairLabel_->clear();
        return;
    }
    files_->setText(sideTag(false) + " " + fileList(*c_->a).toHtmlEscaped() + " &nbsp;\u2192&nbsp; " + sideTag(true) + " " +
                    fileList(*c_->b).toHtmlEscaped());
    if (pair_ >= 0) {
        const skew::GroupPair& p = c_->comparison.pairs[size_t(pair_)];
        const skew::Group& ga = c_->a->analysis.groups[size_t(p.a)];
        pairLabel_->setText(c_->comparison.pairs.size() > 1 ? tr("pair:")
                                                            : tr("A group %1 \u2192 B group %2 \u00B7 %3 \u00B7 %4 ranks")
                                                                  .arg(p.a).arg(p.b).arg(QString::fromStdString(skew::groupOpNames(ga, ", "))).arg(ga.width()));
    } else {
        pairLabel_->clear();
    }
    verdict_->setText(pair_ >= 0 ? verdictText() : tr("No groups were compared"));
    const QString notes = notesText();
    notes_->setText(notes);
    notes_->setVisible(!notes.isEmpty());
}

}  // namespace skewui
