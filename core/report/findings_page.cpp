// The text and Markdown findings page of `skewscope analyze` (report/analysis_report.h): the
// answers of every group first (each opening with its verdict line, the first group's with the
// what-if), then the next-capture advice, the numbers, anomalies and warnings.
#include "report/analysis_report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "report/answers_report.h"
#include "report/format.h"
#include "report/page.h"
#include "report/verdict_line.h"
#include "report/info_report.h"
#include "report/whatif_report.h"
#include "util/paths.h"

namespace skew {
namespace {

std::string dur(int64_t ns) { return formatDuration(ns); }  // short, for dense formats

// The big events a group's numbers list one by one, as the anomalies are listed (a run of many
// steps can have hundreds; the viewer's table and the JSON/CSV have them all).
constexpr size_t kListedBig = 20;

// Inputs named one by one in the header, and ranks' streams listed one by one; past that, a job of
// per-rank files (hundreds) is named by its first files and counted (the JSON has them all).
constexpr size_t kListedInputs = 16;

// One more of `key` in `counts` (keys in order of first appearance; few distinct keys: a scan).
template <typename K>
void countIn(std::vector<std::pair<K, size_t>>& counts, const K& key) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == key; });
    if (it == counts.end()) counts.emplace_back(key, 1);
    else ++it->second;
}

// One findings page, written either as plain text or as Markdown (optionally with links).
class Findings {
public:
    Findings(const Profile& p, const Analysis& a, bool md, bool links) : p_(p), a_(a), page_(md), links_(links && md) {}

    std::string page() {
        header();
        if (a_.groups.empty()) {
            h2("No collectives");
            line(p_.kernelCount() == 0 ? "The exports hold no GPU kernels." : "No NCCL kernels were matched across ranks.");
            if (std::string s = whatIfSentence(p_, a_); !s.empty()) line(s);
        }
        for (const auto& g : a_.groups) answers(g);
        nextCapture();
        for (const auto& g : a_.groups) group(g);
        unmatched();
        anomalies();
        warnings();
        return page_.take();
    }

private:
    void h1(const std::string& s) { page_.h1(s); }
    void h2(const std::string& s) { page_.h2(s); }
    void line(const std::string& s) { page_.line(s); }
    void bullet(const std::string& s) { page_.bullet(s); }
    std::string link(const std::string& text, const Collective& c) const {
        return links_ ? "[" + text + "](" + collectiveLink(c) + ")" : text;
    }

    void header() {
        // a job of many per-rank files: the first few named, the rest counted (the JSON lists them all)
        const size_t n = p_.inputs.size(), named = n > kListedInputs ? 3 : n;
        std::string files;
        for (size_t i = 0; i < named; ++i) files += (files.empty() ? "" : ", ") + fileStem(p_.inputs[i].path);
        if (named < n) files += strprintf(" and %zu more", n - named);
        h1("Skewscope findings: " + files);
        for (size_t i = 0; i < named; ++i) {
            const auto& in = p_.inputs[i];
            line(strprintf("%s: Nsight Systems %s (schema %s)", in.path.c_str(), in.nsysVersion.c_str(), in.schemaVersion.c_str()));
        }
        if (named < n) line(strprintf("%zu more inputs, %s", n - named, versionCounts(named).c_str()));
        line(strprintf("%zu ranks; window %s to %s (%s)", p_.ranks.size(), dur(a_.windowStart).c_str(), dur(a_.windowEnd).c_str(),
                       dur(a_.windowEnd - a_.windowStart).c_str()));
        for (const auto& r : p_.ranks)
            if (r.clockOffsetNs != 0)
                line(strprintf("clock of %s corrected by %s (residual p90 %s)", r.label.c_str(), dur(r.clockOffsetNs).c_str(),
                               dur(a_.clocks[size_t(r.id)].residualP90Ns).c_str()));
    }

    // "group 0, 135 collectives (AllGather 90, ReduceScatter 45)"
    static std::string groupName(const Group& g) { return strprintf("group %d, %u collectives (%s)", g.id, g.count, opList(g).c_str()); }

    // The report opens with the answers of every group, before any numbers.
    void answers(const Group& g) {
        h2("Answers: " + groupName(g));
        verdict(g);
        // the answers open with the what-if (about the whole run: in the first group's answers)
        if (g.id == a_.groups.front().id)
            if (std::string w = whatIfSentence(p_, a_); !w.empty()) bullet(w);
        AnswerSentences s = answerSentences(p_, a_, g, [this](const std::string& t, const Collective& c) { return link(t, c); });
        bullet(s.who);
        bullet(s.same);
        if (!s.where.empty()) bullet(s.where);
        bullet(s.cpuGpu);
        if (!s.caveats.empty()) bullet(s.caveats);
    }

    // the versions of the inputs from `first` on: "all Nsight Systems 2026.2.1.210 (schema 3.25.0)",
    // or each with its count ("Nsight Systems 2024.5.1 (schema 3.11.0): 12; ...")
    std::string versionCounts(size_t first) const {
        std::vector<std::pair<std::string, size_t>> counts;
        for (size_t i = first; i < p_.inputs.size(); ++i)
            countIn(counts, "Nsight Systems " + p_.inputs[i].nsysVersion + " (schema " + p_.inputs[i].schemaVersion + ")");
        if (counts.size() == 1) return "all " + counts.front().first;
        std::string out;
        for (const auto& [v, k] : counts) out += (out.empty() ? "" : "; ") + v + ": " + std::to_string(k);
        return out;
    }

    // the group's stream on each rank ("dev 1: 56, dev 2: 56"); past kListedInputs lanes, each
    // stream with how many ranks use it ("stream 60 on 512 ranks, stream 61 on 512 ranks")
    std::string streamList(const Group& g) const {
        auto streamOf = [&](const GroupSlot& gl) { return p_.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)].stream; };
        std::string out;
        if (g.lanes.size() <= kListedInputs) {
            for (const auto& gl : g.lanes) out += (out.empty() ? "" : ", ") + rankLabel(p_, gl.rank) + ": " + std::to_string(streamOf(gl));
            return out;
        }
        std::vector<std::pair<decltype(streamOf(g.lanes.front())), size_t>> counts;
        for (const auto& gl : g.lanes) countIn(counts, streamOf(gl));
        for (const auto& [stream, k] : counts)
            out += (out.empty() ? "" : ", ") + strprintf("stream %s on %zu %s", std::to_string(stream).c_str(), k, k == 1 ? "rank" : "ranks");
        return out;
    }

    // The group's verdict in one line of plain words, before the answers' bullets.
    void verdict(const Group& g) {
        const std::string v = verdictLine(p_, a_, g) + ".";
        line(page_.markdown() ? "**Verdict:** " + v : "Verdict: " + v);
    }

    void group(const Group& g) {
        h2("Numbers: " + groupName(g));
        line("Streams: " + streamList(g));
        const Validation& v = g.validation;
        line(strprintf("Matching: %s. %u of %u complete; end skew p50 %s vs start skew p50 %s%s", validationStatusName(v.status), g.complete, g.count,
                       dur(g.endSkew.p50).c_str(), dur(g.startSkew.p50).c_str(), endsCluster(g) ? " (ends cluster: matching trusted)" : ""));
        for (const auto& m : v.messages) bullet(m);
        if (!v.partial.empty()) {
            std::string list;
            for (size_t i = 0; i < v.partial.size() && i < 8; ++i) {
                std::string who;
                for (int r : v.partial[i].missingRanks) who += (who.empty() ? "" : "+") + rankLabel(p_, r);
                list += (list.empty() ? "" : "; ") + strprintf("#%u missing %s", v.partial[i].index, who.c_str());
            }
            if (v.partial.size() > 8) list += strprintf("; %zu more", v.partial.size() - 8);
            bullet("Partial collectives (left out of the statistics): " + list);
        }
        line(strprintf("Start skew: p50 %s, p90 %s, max %s", dur(g.startSkew.p50).c_str(), dur(g.startSkew.p90).c_str(), dur(g.startSkew.max).c_str()));
        line(strprintf("End skew:   p50 %s, p90 %s, max %s", dur(g.endSkew.p50).c_str(), dur(g.endSkew.p90).c_str(), dur(g.endSkew.max).c_str()));
        if (g.stepsSource == StepSource::Nvtx) line(strprintf("Steps: %u, from NVTX ranges (median %s)", g.stepCount, dur(g.stepMedianNs).c_str()));
        else if (g.stepsSource == StepSource::Inferred) line(strprintf("Steps: %u, inferred from the op sequence (period %u collectives)", g.stepCount, g.inferredPeriod));
        else line("Steps: none found (no NVTX step ranges, no repeating sequence of two ops or more)");
        const Cost& c = g.cost;
        line(strprintf("Start-skew cost: %s excess of %s NCCL kernel time (%s); lateness sum %s", dur(c.excessNs).c_str(), dur(c.totalNs).c_str(),
                       formatShare(c.share).c_str(), dur(c.latenessSumNs).c_str()));
        line(strprintf("  big (start skew > %s): %u collectives, %s excess; the rest: %u, %s", dur(a_.options.bigSkewNs).c_str(), c.bigCount,
                       dur(c.bigExcessNs).c_str(), c.restCount, dur(c.restExcessNs).c_str()));
        line("  An estimate of waiting inside NCCL kernels, summed over ranks: those kernels overlap other GPU work, so this is "
             "not a step-time saving.");
        rankTable(g);
        bigEvents(g);
    }

    // Every rank's row; past kListedInputs ranks, those most often last (then in rank order), and
    // how many are left out (the JSON's per_rank and the viewer's Ranks tab have them all).
    void rankTable(const Group& g) {
        std::vector<size_t> rows(g.perRank.size());
        for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
        if (rows.size() > kListedInputs) {
            std::stable_sort(rows.begin(), rows.end(), [&](size_t x, size_t y) { return g.perRank[x].lastCount > g.perRank[y].lastCount; });
            rows.resize(kListedInputs);
        }
        if (page_.markdown()) page_.raw("\n| rank | last | first | mean lateness | excl. big | NCCL time | NCCL-only |\n|---|---:|---:|---:|---:|---:|---:|\n");
        else page_.raw(strprintf("\n  %-24s %6s %6s %14s %14s %14s %14s\n", "rank", "last", "first", "mean lateness", "excl. big", "NCCL time", "NCCL-only"));
        for (size_t i : rows) {
            const auto& rs = g.perRank[i];
            const char* form = page_.markdown() ? "| %s | %u | %u | %s | %s | %s | %s |\n" : "  %-24s %6u %6u %14s %14s %14s %14s\n";
            page_.raw(strprintf(form, rankLabel(p_, rs.rank).c_str(), rs.lastCount, rs.firstCount, dur(rs.meanLatenessNs).c_str(),
                                dur(rs.meanLatenessExclBigNs).c_str(), dur(rs.ncclKernelNs).c_str(), dur(rs.ncclOnlyNs).c_str()));
        }
        if (rows.size() < g.perRank.size()) {
            page_.raw("\n");
            line(strprintf("The %zu ranks most often last of %zu; every rank is in the JSON report (per_rank) and the viewer's Ranks tab.",
                           rows.size(), g.perRank.size()));
        }
    }

    void bigEvents(const Group& g) {
        page_.raw("\n");
        const auto& big = g.answers.big;
        if (big.empty()) {
            line(strprintf("No big events (start skew > %s).", dur(a_.options.bigSkewNs).c_str()));
            return;
        }
        line(strprintf("Big events (start skew > %s): %zu", dur(a_.options.bigSkewNs).c_str(), big.size()));
        for (size_t i = 0; i < big.size() && i < kListedBig; ++i) {
            const Collective& col = a_.collectives[big[i]];
            bullet(link(collectiveTitle(p_, a_, col), col) + ". " + whyText(p_, a_, col));
        }
        if (big.size() > kListedBig) bullet(strprintf("%zu more big events in the JSON/CSV output", big.size() - kListedBig));
    }

    void unmatched() {
        if (a_.unmatched.empty()) return;
        h2("Lanes not matched");
        for (const auto& u : a_.unmatched)
            bullet(strprintf("%s: %u NCCL kernels: %s", rankLabel(p_, u.rank).c_str(), u.kernels, u.reason.c_str()));
    }

    void anomalies() {
        const Anomalies& an = a_.anomalies;
        h2("Anomalies");
        line(strprintf("%" PRIu64 " kernel rows over %.1fx the mean duration of their op, in %" PRIu64 " events (collectives)", an.rows,
                       an.threshold, an.events));
        for (size_t i = 0; i < an.items.size() && i < 20; ++i) {
            const auto& it = an.items[i];
            const Collective& c = a_.collectives[it.collective];
            std::string rows;
            for (auto [r, d] : it.rows) rows += (rows.empty() ? "" : ", ") + rankLabel(p_, r) + " " + dur(d);
            std::string what = strprintf("G%d #%u %s%s", it.group, c.index, opName(c.op), c.step ? strprintf(" step %u", c.step).c_str() : "");
            bullet(strprintf("%s: %zu rows (%s)", link(what, c).c_str(), it.rows.size(), rows.c_str()));
        }
        if (an.items.size() > 20) bullet(strprintf("%zu more events in the JSON/CSV output", an.items.size() - 20));
    }

    // What the next capture should record, right after the answers: each advice by its title and
    // its evidence in words (the JSON keeps the identifiers).
    void nextCapture() {
        if (a_.advice.empty()) return;
        h2("Next capture");
        for (const auto& ad : a_.advice) bullet(ad.title + ": " + ad.words + ". " + ad.advice);
    }

    void warnings() {
        if (p_.warnings.empty() && a_.warnings.empty()) return;
        h2("Warnings");
        for (const auto& s : p_.warnings) bullet(s);
        for (const auto& s : a_.warnings) bullet(s);
    }

    const Profile& p_;
    const Analysis& a_;
    ReportPage page_;
    bool links_;
};

}  // namespace

std::string analysisText(const Profile& p, const Analysis& a) { return Findings(p, a, false, false).page(); }
std::string analysisMarkdown(const Profile& p, const Analysis& a, const MarkdownOptions& options) {
    return Findings(p, a, true, options.links).page();
}

}  // namespace skew
