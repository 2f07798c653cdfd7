#include "cli/commands.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <sys/stat.h>
#include <stdexcept>

#include "cache/profile_cache.h"
#include "model/loader.h"
#include "nsys/export_reader.h"
#include "analysis/analysis.h"
#include "report/analysis_report.h"
#include "report/compare_report.h"
#include "report/info_report.h"
#include "util/atomic_file.h"

namespace skew {

std::string usageText() {
    return "usage:\n"
           "  skewscope [FILE...]                       open the viewer\n"
           "  skewscope A... --vs B...                  open the viewer comparing capture A (before) with B (after)\n"
           "  skewscope info FILE... [--format text|json] [--output PATH]\n"
           "  skewscope analyze FILE... [--format text|json|md|csv] [--output PATH] [--trim S E]\n"
           "                    [--big-skew-ms X] [--step-regex R] [--anomaly-threshold X] [--limit N]\n"
           "  skewscope render FILE... [--view collective|timeline|stepmap|heatmap] [--collective [G:]K|worst]\n"
           "                   [--range S E] --output shot.png|.svg|.pdf [--size WxH]\n"
           "  skewscope render A... --vs B... --view compare [--collective [G:]K|worst] --output F [--size WxH]\n"
           "                   (the compare view; --collective names a collective of A)\n"
           "  skewscope compare A... --vs B... [--format text|json|md] [--output PATH] [analyze's options]\n"
           "  skewscope cache info|clear                 the profile cache (snapshots of exports read before)\n"
           "  --no-cache (info, analyze, render, compare): read every export, keep no snapshot\n"
           "exit codes: 0 done, 1 other error, 2 usage error, 3 unreadable input\n";
}

namespace {

const char* const kCommands[] = {"info", "analyze", "render", "compare", "cache"};

// A finite number written out in full: no trailing text, no overflow, not NaN or infinity.
bool toDouble(const std::string& s, double& v) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
    errno = 0;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && errno == 0 && std::isfinite(v);
}

// A whole number within [lo, hi], written out in full.
bool toInt(const std::string& s, int64_t lo, int64_t hi, int64_t& v) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
    errno = 0;
    char* end = nullptr;
    long long x = std::strtoll(s.c_str(), &end, 10);
    if (!end || *end != '\0' || errno != 0 || x < lo || x > hi) return false;
    v = x;
    return true;
}

size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

bool isCommand(const std::string& word) {
    for (const char* c : kCommands)
        if (word == c) return true;
    return false;
}

std::string unknownCommandMessage(const std::string& word) {
    std::string best;
    size_t bestD = 3;  // suggest only close spellings
    for (const char* c : kCommands)
        if (size_t d = editDistance(word, c); d < bestD) bestD = d, best = c;
    if (!best.empty()) return "unknown command '" + word + "'; did you mean '" + best + "'?";
    return "unknown command '" + word + "' (and no file of that name); the commands are info, analyze, render, compare and cache";
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool parseViewerArgs(const std::vector<std::string>& args, std::vector<std::string>& a, std::vector<std::string>& b,
                     std::string& error) {
    bool afterVs = false;
    for (const auto& x : args) {
        if (x == "--vs") {
            if (afterVs) {
                error = "--vs takes the files after it once: skewscope A... --vs B...";
                return false;
            }
            afterVs = true;
            continue;
        }
        (afterVs ? b : a).push_back(x);
    }
    if (afterVs && (a.empty() || b.empty())) {
        error = "comparing needs the files of both captures: skewscope A... --vs B...";
        return false;
    }
    return true;
}

bool parseCommandLine(const std::vector<std::string>& args, CommandLine& out, std::string& error) {
    if (args.empty()) {
        error = "no command";
        return false;
    }
    const std::string& c = args[0];
    if (c == "help" || c == "--help" || c == "-h") {
        out.command = "help";
        return true;
    }
    if (c == "--version") {
        out.command = "version";
        return true;
    }
    if (!isCommand(c)) {
        error = unknownCommandMessage(c);
        return false;
    }
    out.command = c;
    if (c == "cache") {
        if (args.size() != 2 || (args[1] != "info" && args[1] != "clear")) {
            error = "cache takes info or clear";
            return false;
        }
        out.cacheAction = args[1];
        return true;
    }
    bool formatGiven = false, outputGiven = false, afterVs = false;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto need = [&](size_t n) {
            if (i + n >= args.size()) {
                error = a + " needs " + std::to_string(n) + (n == 1 ? " value" : " values");
                return false;
            }
            return true;
        };
        auto number = [&](const std::string& v, double& x, const char* what) {
            if (toDouble(v, x)) return true;
            error = a + " needs " + what + ", not '" + v + "'";
            return false;
        };
        if (a == "--help" || a == "-h") {
            out.command = "help";
            return true;
        }
        if (a == "--format") {
            if (!need(1)) return false;
            out.format = args[++i];
            formatGiven = true;
        } else if (a == "--no-cache") {
            out.noCache = true;
        } else if (a == "--vs" && (c == "compare" || c == "render")) {
            if (afterVs) {
                error = c + " takes --vs once: " + c + " A... --vs B...";
                return false;
            }
            afterVs = true;
        } else if (a == "--output" || a == "-o") {
            if (!need(1)) return false;
            out.output = args[++i];
            outputGiven = true;
        } else if (a == "--trim" && (c == "analyze" || c == "compare")) {
            if (!need(2)) return false;
            if (!number(args[i + 1], out.settings.trimStartS, "two numbers of seconds") ||
                !number(args[i + 2], out.settings.trimEndS, "two numbers of seconds"))
                return false;
            out.settings.hasTrim = true;
            i += 2;
        } else if (a == "--big-skew-ms" && (c == "analyze" || c == "compare")) {
            if (!need(1) || !number(args[++i], out.settings.bigSkewMs, "a number of milliseconds")) return false;
        } else if (a == "--step-regex" && (c == "analyze" || c == "compare")) {
            if (!need(1)) return false;
            out.settings.stepRegex = args[++i];
        } else if (a == "--anomaly-threshold" && (c == "analyze" || c == "compare")) {
            if (!need(1) || !number(args[++i], out.settings.anomalyThreshold, "a number")) return false;
        } else if (a == "--limit" && (c == "analyze" || c == "compare")) {
            if (!need(1)) return false;
            if (!toInt(args[++i], 0, INT64_MAX, out.settings.anomalyLimit)) {
                error = "--limit needs a whole number >= 0, not '" + args[i] + "'";
                return false;
            }
        } else if (a == "--collective" && c == "render") {
            if (!need(1)) return false;
            std::string v = args[++i];
            if (v == "worst") {  // the complete collective with the largest start skew
                out.collective = -1;
                continue;
            }
            int64_t g = 0, k = 0;
            auto colon = v.find(':');
            bool ok = colon == std::string::npos
                          ? toInt(v, 1, INT32_MAX, k)
                          : (toInt(v.substr(0, colon), 0, INT32_MAX, g) && toInt(v.substr(colon + 1), 1, INT32_MAX, k));
            if (!ok) {
                error = "--collective takes [G:]K with K >= 1 (1-based) and G >= 0, or worst; not '" + v + "'";
                return false;
            }
            out.group = int(g);
            out.collective = int(k);
        } else if (a == "--view" && c == "render") {
            if (!need(1)) return false;
            out.view = args[++i];
            if (out.view != "collective" && out.view != "timeline" && out.view != "stepmap" && out.view != "heatmap" && out.view != "compare") {
                error = "--view takes collective, timeline, stepmap, heatmap or compare; not '" + out.view + "'";
                return false;
            }
        } else if (a == "--range" && c == "render") {
            if (!need(2) || !number(args[i + 1], out.rangeStart, "two numbers of seconds") ||
                !number(args[i + 2], out.rangeEnd, "two numbers of seconds"))
                return false;
            if (out.rangeEnd <= out.rangeStart) {
                error = "--range needs START < END (seconds on the aligned base)";
                return false;
            }
            out.hasRange = true;
            i += 2;
        } else if (a == "--size" && c == "render") {
            if (!need(1)) return false;
            std::string v = args[++i];
            auto x = v.find('x');
            int64_t w = 0, h = 0;
            if (x == std::string::npos || !toInt(v.substr(0, x), 200, 10000, w) || !toInt(v.substr(x + 1), 150, 10000, h)) {
                error = "--size takes WxH, e.g. 1600x900 (200x150 to 10000x10000); not '" + v + "'";
                return false;
            }
            out.width = int(w);
            out.height = int(h);
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            error = "unknown option " + a + " for " + c;
            return false;
        } else {
            (afterVs ? out.filesB : out.files).push_back(a);
        }
    }
    if (c == "compare" && (out.files.empty() || out.filesB.empty())) {
        error = "compare needs the files of both captures: compare A... --vs B...";
        return false;
    }
    if (out.files.empty()) {
        error = c + " needs at least one export file";
        return false;
    }
    if (c == "info" && formatGiven && out.format != "text" && out.format != "json") {
        error = "info --format takes text or json";
        return false;
    }
    if (c == "analyze" && out.format != "text" && out.format != "json" && out.format != "md" && out.format != "csv") {
        error = "analyze --format takes text, json, md or csv";
        return false;
    }
    if (c == "compare" && out.format != "text" && out.format != "json" && out.format != "md") {
        error = "compare --format takes text, json or md";
        return false;
    }
    if (c == "analyze" || c == "compare") {
        AnalysisOptions checked;
        if (std::string e = makeAnalysisOptions(out.settings, checked); !e.empty()) {
            error = e;
            return false;
        }
    }
    if (c == "render") {
        if (afterVs != (out.view == "compare")) {
            error = afterVs ? "render A... --vs B... draws --view compare" : "--view compare needs both captures: render A... --vs B... --view compare";
            return false;
        }
        if (afterVs && out.filesB.empty()) {
            error = "render --vs needs the files of capture B after it";
            return false;
        }
        if (out.collective == 0 && out.view == "collective") {
            error = "render needs --collective [G:]K (or --view timeline|stepmap|heatmap)";
            return false;
        }
        if (out.hasRange && out.view != "timeline") {
            error = "--range sets the window of --view timeline";
            return false;
        }
        if (!outputGiven || out.output == "-") {
            error = "render needs --output PATH ending in .png, .svg or .pdf";
            return false;
        }
    }
    std::vector<std::string> inputs = out.files;
    inputs.insert(inputs.end(), out.filesB.begin(), out.filesB.end());
    if (out.output != "-")
        for (const auto& f : inputs)
            if (sameFile(out.output, f)) {
                error = "--output " + out.output + " is the input file " + f + "; refusing to overwrite an export";
                return false;
            }
    return true;
}

AnalysisOptions analysisOptions(const CommandLine& cl) {
    AnalysisOptions o;
    makeAnalysisOptions(cl.settings, o);  // checked by parseCommandLine
    return o;
}

std::unique_ptr<ProfileCache> commandLineCache(const CommandLine& cl) {
    if (cl.noCache) return nullptr;
    return std::make_unique<ProfileCache>();
}

void storeSnapshots(ProfileCache* cache, const Profile& p) {
    if (!cache) return;
    for (size_t f = 0; f < p.inputs.size(); ++f) {
        if (p.inputs[f].fromSnapshot || !p.inputs[f].identity.valid()) continue;
        std::string error;
        if (!cache->store(p, int(f), &error)) {
            std::fprintf(stderr, "skewscope: warning: %s; the next open reads the export again\n", error.c_str());
            return;  // once: the folder is the problem, not the file
        }
    }
}

static int runCache(const CommandLine& cl) {
    ProfileCache cache;
    if (cl.cacheAction == "clear") {
        uint64_t n = cache.clear();
        std::printf("removed %llu snapshot(s) from %s\n", (unsigned long long)n, cache.dir().c_str());
        return 0;
    }
    ProfileCache::Info i = cache.info();
    std::printf("profile cache: %s\n%llu snapshot(s), %.1f MB of %.0f MB (least recently used ones go first)\n", cache.dir().c_str(),
                (unsigned long long)i.entries, double(i.bytes) / 1e6, double(cache.maxBytes()) / 1e6);
    return 0;
}

static int runCompare(const CommandLine& cl) {
    auto cache = commandLineCache(cl);
    LoadOptions lo;
    lo.cache = cache.get();
    const AnalysisOptions o = analysisOptions(cl);
    Profile pa = loadProfile(cl.files, lo);
    Profile pb = loadProfile(cl.filesB, lo);
    for (const auto* p : {&pa, &pb})
        for (const auto& w : p->warnings) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
    Analysis aa = analyze(pa, o);
    Analysis ab = analyze(pb, o);
    for (const auto* a : {&aa, &ab})
        for (const auto& w : a->warnings) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
    Side A{&pa, &aa}, B{&pb, &ab};
    Comparison c = compareCaptures(A, B);
    std::string out = cl.format == "json" ? compareJson(A, B, c) : cl.format == "md" ? compareMarkdown(A, B, c) : compareText(A, B, c);
    writeOutput(cl.output, out);
    std::fflush(stdout);
    storeSnapshots(cache.get(), pa);
    storeSnapshots(cache.get(), pb);
    return 0;
}

int runHeadless(const CommandLine& cl) {
    if (cl.command == "cache") return runCache(cl);
    if (cl.command == "compare") {
        try {
            return runCompare(cl);
        } catch (const InputError& e) {
            std::fprintf(stderr, "skewscope: %s\n", e.what());
            return 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "skewscope: %s\n", e.what());
            return 1;
        }
    }
    try {
        auto cache = commandLineCache(cl);
        LoadOptions lo;
        lo.cache = cache.get();
        Profile p = loadProfile(cl.files, lo);
        for (const auto& w : p.warnings) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
        std::string out;
        if (cl.command == "info") {
            out = cl.format == "json" ? infoJson(p) : infoText(p);
        } else {
            AnalysisOptions o = analysisOptions(cl);
            Analysis a = analyze(p, o);
            for (const auto& w : a.warnings) std::fprintf(stderr, "skewscope: warning: %s\n", w.c_str());
            if (cl.format == "json") out = analysisJson(p, a);
            else if (cl.format == "md") out = analysisMarkdown(p, a);
            else if (cl.format == "csv") out = analysisCsv(p, a);
            else out = analysisText(p, a);
        }
        writeOutput(cl.output, out);
        std::fflush(stdout);
        storeSnapshots(cache.get(), p);  // after the output: the user has the report already
        return 0;
    } catch (const InputError& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "skewscope: %s\n", e.what());
        return 1;
    }
}

}  // namespace skew
