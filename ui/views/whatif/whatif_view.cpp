#include "views/whatif/whatif_view.h"

#include <QFontMetrics>
#include <QPushButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "common/deferred_replot.h"
#include "common/palette.h"
#include "common/view_export.h"
#include "views/plot_keys.h"

using namespace skew;

namespace skewui {

namespace {

// the rank bars' axis title (a line saying which ranks are not drawn goes under it)
QString rankAxisTitle() { return QObject::tr("slowdown when only this rank keeps its captured kernels and launches (x)"); }

// The bars' colours: captured as the compare view's "before" (A), the ideal as its "after" (B),
// the slow kernels' scenario in the GEMM colour, the late launches' in the CPU launch's.
QColor seriesColor(int series) {  // 0 captured, 1 + scenario
    switch (series) {
    case 0: return palette::kSideA;
    case 1: return palette::kGemm;
    case 2: return palette::kLaunchNccl;
    default: return palette::kSideB;
    }
}

// `text` broken at spaces into lines no wider than `width` pixels in `font`.
QString wrapped(const QString& text, const QFont& font, int width) {
    const QFontMetrics fm(font);
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString next = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(next) > width) {
            lines << line;
            line = word;
        } else {
            line = next;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines.join(QLatin1Char('\n'));
}

void hideTopRight(QCPAxisRect* r) {
    r->axis(QCPAxis::atTop)->setVisible(false);
    r->axis(QCPAxis::atRight)->setVisible(false);
}

}  // namespace

WhatIfView::WhatIfView(QWidget* parent) : QCustomPlot(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(360, 240);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    steps_ = axisRect();
    steps_->setRangeDrag(Qt::Horizontal);
    steps_->setRangeZoom(Qt::Horizontal);
    hideTopRight(steps_);
    steps_->axis(QCPAxis::atBottom)->setLabel(tr("step"));
    steps_->axis(QCPAxis::atLeft)->setLabel(tr("step time (ms)"));
    auto whole = QSharedPointer<QCPAxisTickerFixed>::create();
    whole->setTickStep(1.0);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // whole steps, thinned out when there are many
    steps_->axis(QCPAxis::atBottom)->setTicker(whole);
    steps_->axis(QCPAxis::atBottom)->grid()->setVisible(false);
    steps_->axis(QCPAxis::atLeft)->grid()->setPen(QPen(QColor(0, 0, 0, 25)));

    ranks_ = new QCPAxisRect(this);
    ranks_->setRangeDrag(Qt::Orientations());
    ranks_->setRangeZoom(Qt::Orientations());
    hideTopRight(ranks_);
    ranks_->axis(QCPAxis::atBottom)->setLabel(rankAxisTitle());
    ranks_->axis(QCPAxis::atLeft)->setLabel(QStringLiteral(" "));  // a margin like the steps' axis title's
    ranks_->axis(QCPAxis::atLeft)->setRangeReversed(true);  // the costliest rank on top
    ranks_->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    ranks_->axis(QCPAxis::atLeft)->setSubTicks(false);
    ranks_->axis(QCPAxis::atBottom)->grid()->setPen(QPen(QColor(0, 0, 0, 25)));

    plotLayout()->insertRow(0);
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), QFont(font().family(), 10, QFont::Bold));
    sentence_ = new QCPTextElement(this, QString(), QFont(font().family(), 9));
    plotLayout()->addElement(0, 0, title_);
    plotLayout()->addElement(1, 0, sentence_);
    plotLayout()->addElement(3, 0, ranks_);
    key_ = legend;
    steps_->insetLayout()->take(key_);
    plotLayout()->addElement(4, 0, key_);
    key_->setFillOrder(QCPLegend::foColumnsFirst);
    key_->setBorderPen(Qt::NoPen);
    key_->setVisible(true);
    plotLayout()->setRowStretchFactors({0.01, 0.01, 3, 2, 0.01});

    settings_ = new QPushButton(tr("Set the step pattern..."), this);
    settings_->hide();
    connect(settings_, &QPushButton::clicked, this, &WhatIfView::settingsRequested);
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons()) return;
        const QString t = tooltipAt(e->position());
        if (t.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), t, this);
    });
    connect(this, &QCustomPlot::afterLayout, this, &WhatIfView::fitRanks);
    setSession(nullptr);
}

void WhatIfView::setSession(SessionPtr s) {
    s_ = std::move(s);
    selected_ = -1;
    rebuild();
}

void WhatIfView::refresh() {
    rebuild();
    replot();
}

void WhatIfView::rebuild() {
    clearPlottables();
    clearItems();
    highlight_ = nullptr;
    scene_ = s_ ? buildWhatIfScene(s_->profile, s_->analysis) : WhatIfScene{};
    if (!s_) scene_.emptyText = tr("Open a capture to replay its steps without the late arrivals.").toStdString();
    title_->setText(s_ ? QString::fromStdString(scene_.title) : tr("What-if"));
    const bool show = !scene_.empty();
    for (QCPAxisRect* r : {steps_, ranks_})
        for (QCPAxis::AxisType t : {QCPAxis::atBottom, QCPAxis::atLeft}) r->axis(t)->setVisible(show);
    key_->setVisible(show);
    // kernels but no steps: the step pattern may find them (as the step map offers it)
    settings_->setVisible(s_ && !show && s_->analysis.whatIf.kernels > 0);
    placeButton();
    if (show) {
        buildSteps();
        buildRanks();
    }
    wrapTexts(width());
    fit();
}

void WhatIfView::buildSteps() {
    auto* group = new QCPBarsGroup(this);
    int series = 1;
    for (bool has : scene_.hasScenario) series += has ? 1 : 0;
    QVector<double> keys;
    for (uint32_t st : scene_.steps) keys << double(st);
    auto add = [&](int colour, const QString& name, const std::vector<int64_t>& ns) {
        auto* bars = new QCPBars(steps_->axis(QCPAxis::atBottom), steps_->axis(QCPAxis::atLeft));
        QVector<double> ms;
        for (int64_t v : ns) ms << double(v) / 1e6;
        bars->setData(keys, ms, true);
        bars->setName(name);
        bars->setWidth(0.8 / series);
        bars->setPen(Qt::NoPen);
        bars->setBrush(seriesColor(colour));
        bars->setBarsGroup(group);
    };
    add(0, tr("captured"), scene_.capturedNs);
    for (int k = 0; k < WhatIfScene::kScenarios; ++k)
        if (scene_.hasScenario[size_t(k)])
            add(1 + k, QString::fromStdString(whatIfScenarioName(k)), scene_.scenarioNs[size_t(k)]);
    highlight_ = new QCPItemRect(this);
    highlight_->setClipAxisRect(steps_);
    for (QCPItemPosition* p : {highlight_->topLeft, highlight_->bottomRight}) {
        p->setAxisRect(steps_);
        p->setAxes(steps_->axis(QCPAxis::atBottom), steps_->axis(QCPAxis::atLeft));
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    highlight_->setLayer(QStringLiteral("background"));  // behind the bars
    highlight_->setPen(Qt::NoPen);
    highlight_->setBrush(QColor(palette::kSelect.red(), palette::kSelect.green(), palette::kSelect.blue(), 60));
    placeHighlight();
}

void WhatIfView::buildRanks() {
    QCPAxis* y = ranks_->axis(QCPAxis::atLeft);
    QCPAxis* x = ranks_->axis(QCPAxis::atBottom);
    auto labels = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values;
    for (size_t i = 0; i < scene_.ranks.size(); ++i) {
        labels->addTick(double(i), QString::fromStdString(scene_.ranks[i].label));
        keys << double(i);
        values << scene_.ranks[i].slowdown - 1.0;  // a bar stands on its base: from 1.0 to the slowdown
        auto* t = new QCPItemText(this);
        t->setClipAxisRect(ranks_);
        t->position->setAxes(x, y);
        t->position->setCoords(scene_.ranks[i].slowdown, double(i));
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setPadding(QMargins(4, 0, 0, 0));
        t->setText(QString::number(scene_.ranks[i].slowdown, 'f', 2) + QStringLiteral("x"));
    }
    y->setTicker(labels);
    auto* bars = new QCPBars(y, x);
    bars->setData(keys, values, true);
    bars->setBaseValue(1.0);  // a slowdown grows from 1.0 (costs nothing)
    bars->setLayer(QStringLiteral("background"));  // under its labels
    bars->setWidth(0.6);
    bars->setPen(Qt::NoPen);
    bars->setBrush(palette::kLate);
    bars->removeFromLegend();
}

void WhatIfView::wrapTexts(int viewWidth) {
    const int w = std::max(200, viewWidth - 40);
    sentence_->setText(wrapped(subtitle(), sentence_->font(), w));
    // the key in one row where it fits, else two: in one row too wide for the view QCustomPlot
    // cuts each name short ("without slow kerne" at 1024x700)
    const int n = key_->itemCount();
    int wanted = key_->margins().left() + key_->margins().right() + 10;
    for (int i = 0; i < n; ++i) wanted += key_->item(i)->minimumOuterSizeHint().width() + (i ? key_->columnSpacing() : 0);
    const int columns = wanted <= viewWidth ? 0 : (n + 1) / 2;  // 0: no wrap, one row
    if (key_->wrap() != columns) {
        key_->setWrap(columns);
        key_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

QString WhatIfView::subtitle() const {
    return QString::fromStdString(scene_.empty() ? scene_.emptyText : scene_.sentence);
}

void WhatIfView::fit() {
    if (!scene_.empty()) {
        steps_->axis(QCPAxis::atBottom)->setRange(double(scene_.steps.front()) - 0.6, double(scene_.steps.back()) + 0.6);
        int64_t top = 0;
        for (int64_t v : scene_.capturedNs) top = std::max(top, v);
        for (const auto& ns : scene_.scenarioNs)
            for (int64_t v : ns) top = std::max(top, v);
        steps_->axis(QCPAxis::atLeft)->setRange(0, std::max(1e-3, double(top) / 1e6 * 1.08));
        double most = 1.0;
        for (const auto& r : scene_.ranks) most = std::max(most, r.slowdown);
        ranks_->axis(QCPAxis::atBottom)->setRange(1.0, 1.0 + std::max(0.05, (most - 1.0) * 1.25));
    }
    replotWhenShown(this);
}

// After each layout: as many rank bars as fit at a legible height, the rest counted below.
void WhatIfView::fitRanks() {
    if (scene_.empty()) return;
    const int fit = std::max(1, ranks_->rect().height() / kRankRowPx);
    const size_t shown = std::min(scene_.ranks.size(), size_t(fit));
    ranks_->axis(QCPAxis::atLeft)->setRange(-0.6, std::max<double>(1, double(shown)) - 0.4);
    const int more = int(scene_.moreRanks + (scene_.ranks.size() - shown));
    // the ranks left out said under the bars, in a line read the right way up (it was the rotated
    // y axis title), with what they cost at most: the bars are sorted, theirs are no longer
    const QString x = rankAxisTitle();
    ranks_->axis(QCPAxis::atBottom)
        ->setLabel(more ? x + tr("\n%n more rank(s) not drawn, each %1x or less", nullptr, more)
                                  .arg(QString::number(scene_.ranks[shown - 1].slowdown, 'f', 2))
                        : x);
    shownRanks_ = shown;
    ranks_->update(QCPLayoutElement::upPreparation);  // the ticks again, for the range just set (layout made them)
}

void WhatIfView::setSelectedCollective(int c) {
    selected_ = (s_ && c >= 0 && size_t(c) < s_->analysis.collectives.size()) ? c : -1;
    placeHighlight();
    replotWhenShown(this);
}

void WhatIfView::placeHighlight() {
    if (!highlight_) return;
    const uint32_t step = selected_ >= 0 ? s_->analysis.collectives[size_t(selected_)].step : 0;
    const bool on = step > 0 && std::find(scene_.steps.begin(), scene_.steps.end(), step) != scene_.steps.end();
    highlight_->setVisible(on);
    highlight_->topLeft->setCoords(double(step) - 0.5, 0);
    highlight_->bottomRight->setCoords(double(step) + 0.5, 1);
}

int WhatIfView::stepAt(const QPointF& pos) const {
    if (scene_.empty() || !steps_->rect().contains(pos.toPoint())) return -1;
    const double key = steps_->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
    const long step = std::lround(key);
    if (std::fabs(key - double(step)) > 0.45) return -1;
    auto it = std::lower_bound(scene_.steps.begin(), scene_.steps.end(), uint32_t(std::max(0L, step)));
    if (it == scene_.steps.end() || long(*it) != step) return -1;
    return int(it - scene_.steps.begin());
}

QString WhatIfView::tooltipAt(const QPointF& pos) const {
    const int i = stepAt(pos);
    return i < 0 ? QString() : QString::fromStdString(whatIfStepText(scene_, size_t(i)));
}

void WhatIfView::zoomBy(double factor) { zoomAboutCentre(this, factor); }

void WhatIfView::keyPressEvent(QKeyEvent* e) {
    if (!zoomKey(e, *this, this)) QCustomPlot::keyPressEvent(e);
}

void WhatIfView::resizeEvent(QResizeEvent* e) {
    wrapTexts(e->size().width());  // before the base class lays out and replots at the new size
    QCustomPlot::resizeEvent(e);
    placeButton();
}

void WhatIfView::placeButton() {
    const QSize hint = settings_->sizeHint();
    settings_->setGeometry((width() - hint.width()) / 2, height() / 3, hint.width(), hint.height());
}

bool WhatIfView::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(this, path, width, height, error);
}

}  // namespace skewui
