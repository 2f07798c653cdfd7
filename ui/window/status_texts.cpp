#include "window/status_texts.h"

#include "scene/view_texts.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>

using namespace skew;

namespace skewui {

namespace {
// "1 group", "2 groups"
QString count(qulonglong n, const char* one, const char* many) {
    return QString("%1 %2").arg(n).arg(n == 1 ? QObject::tr(one) : QObject::tr(many));
}

// the inputs' file names; more than three: the first two and how many more (a 1,000-rank job's
// status line names two files, not a thousand); then how many were read from summaries
QString fileNames(const Profile& p) {
    QStringList files;
    for (size_t i = 0; i < p.inputs.size() && (p.inputs.size() <= 3 || i < 2); ++i)
        files << QFileInfo(QString::fromStdString(p.inputs[i].path)).fileName();
    QString out = files.join(", ");
    if (p.inputs.size() > 3) out += QObject::tr(" and %1 more").arg(p.inputs.size() - 2);
    if (const size_t n = summaryCount(p)) out += QObject::tr(", read from %1").arg(count(n, "summary", "summaries"));
    return out;
}
}  // namespace

size_t summaryCount(const Profile& p) {
    size_t n = 0;
    for (const auto& in : p.inputs) n += !in.summaryPath.empty();
    return n;
}

QString sessionTitle(const Session& s) {
    QString title = QObject::tr("Skewscope - %1").arg(QFileInfo(QString::fromStdString(s.files.front())).fileName());
    const Profile& p = s.profile;
    if (const size_t n = summaryCount(p))
        title += n == p.inputs.size() ? QObject::tr(" (%1 from summaries)").arg(count(p.ranks.size(), "rank", "ranks"))
                                      : QObject::tr(" (%1 of %2 inputs from summaries)").arg(n).arg(p.inputs.size());
    return title;
}

QString sessionStatusText(const Session* s) {
    if (!s) return QObject::tr("No exports open");
    const Profile& p = s->profile;
    QStringList versions;
    for (const auto& in : p.inputs)
        if (!versions.contains(QString::fromStdString(in.nsysVersion))) versions << QString::fromStdString(in.nsysVersion);
    uint32_t complete = 0;
    for (const auto& g : s->analysis.groups) complete += g.complete;
    return QObject::tr("%1  |  Nsight Systems %2  |  %3  |  %4 (%5 complete) in %6  |  loaded in %7 s")
        .arg(fileNames(p), versions.join(", "))
        .arg(count(p.ranks.size(), "rank", "ranks"))
        .arg(count(s->analysis.collectives.size(), "collective", "collectives"))
        .arg(complete)
        .arg(count(s->analysis.groups.size(), "group", "groups"))
        .arg(s->loadSeconds + s->analyzeSeconds, 0, 'f', 2);
}

QString comparisonStatusText(const CompareSession& c) {
    auto side = [](const Session& s) {
        return QObject::tr("%1 (%2 ranks, %3 collectives)").arg(fileNames(s.profile)).arg(s.profile.ranks.size()).arg(s.analysis.collectives.size());
    };
    const auto& cmp = c.comparison;
    return QObject::tr("Compare  |  A %1  |  B %2  |  %3 pair(s) of groups, %4 not compared  |  loaded in %5 s")
        .arg(side(*c.a), side(*c.b))
        .arg(cmp.pairs.size())
        .arg(cmp.unpairedA.size() + cmp.unpairedB.size())
        .arg(c.a->loadSeconds + c.a->analyzeSeconds + c.b->loadSeconds + c.b->analyzeSeconds, 0, 'f', 2);
}

QString emptyStateText(const Session* s, bool loading) {
    if (loading) return QObject::tr("Loading...");
    if (!s)
        return QObject::tr("Open Nsight Systems SQLite exports (nsys export --type sqlite): File > Open (Ctrl+O), "
                           "or drop them here. One file per node or one per rank.");
    return QString::fromStdString(skew::noCollectivesText(s->profile, s->analysis));  // as render and the report say it
}

}  // namespace skewui
