#include "cli/commands.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "model/loader.h"
#include "nsys/export_reader.h"
#include "analysis/analysis.h"
#include "report/analysis_report.h"
#include "report/info_report.h"
#include "util/atomic_file.h"

namespace skew {

std::string usageText() {
    return "usage:\n"
           "  skewscope [FILE...]                       open the viewer\n"
           "  skewscope info FILE... [--format text|json] [--output PATH]\n"
           "  skewscope analyze FILE... [--format text|json|md|csv] [--output PATH] [--trim S E]\n"
           "                    [--big-skew-ms X] [--step-regex R] [--anomaly-threshold X] [--limit N]\n"
           "  skewscope render FILE... --collective [G:]K|worst --output shot.png|.svg|.pdf [--size WxH]\n"
           "exit codes: 0 done, 1 other error, 2 usage error, 3 unreadable input\n";
}

static bool toDouble(const std::string& s, double& v) {
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0';
}

static bool toInt(const std::string& s, int64_t& v) {
    char* end = nullptr;
    v = std::strtoll(s.c_str(), &end, 10);
    return !s.empty() && end && *end == '\0';
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
    out.command = c;
    bool formatGiven = false, outputGiven = false;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto need = [&](size_t n) {
            if (i + n >= args.size()) {
                error = a + " needs " + std::to_string(n) + (n == 1 ? " value" : " values");
                return false;
            }
            return true;
        };
        if (a == "--help" || a == "-h") {
            out.command = "help";
            return true;
        }
        if (a == "--format") {
            if (!need(1)) return false;
            out.format = args[++i];
            formatGiven = true;
        } else if (a == "--output" || a == "-o") {
            if (!need(1)) return false;
            out.output = args[++i];
            outputGiven = true;
        } else if (a == "--trim" && c == "analyze") {
            if (!need(2)) return false;
            if (!toDouble(args[i + 1], out.trimStart) || !toDouble(args[i + 2], out.trimEnd) || out.trimEnd <= out.trimStart) {
                error = "--trim needs two numbers of seconds, START < END";
                return false;
            }
            out.hasTrim = true;
            i += 2;
        } else if (a == "--big-skew-ms" && c == "analyze") {
            if (!need(1)) return false;
            if (!toDouble(args[++i], out.bigSkewMs) || out.bigSkewMs < 0) {
                error = "--big-skew-ms needs a number of milliseconds >= 0";
                return false;
            }
        } else if (a == "--step-regex" && c == "analyze") {
            if (!need(1)) return false;
            out.stepRegex = args[++i];
            try {
                std::regex re(out.stepRegex, std::regex::ECMAScript | std::regex::icase);
            } catch (const std::regex_error& e) {
                error = "--step-regex is not a valid regular expression: " + std::string(e.what());
                return false;
            }
        } else if (a == "--anomaly-threshold" && c == "analyze") {
            if (!need(1)) return false;
            if (!toDouble(args[++i], out.anomalyThreshold) || out.anomalyThreshold <= 0) {
                error = "--anomaly-threshold needs a number > 0";
                return false;
            }
        } else if (a == "--limit" && c == "analyze") {
            if (!need(1)) return false;
            if (!toInt(args[++i], out.limit) || out.limit < 0) {
                error = "--limit needs a whole number >= 0";
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
            bool ok = colon == std::string::npos ? toInt(v, k) : (toInt(v.substr(0, colon), g) && toInt(v.substr(colon + 1), k));
            if (!ok || g < 0 || k < 1) {
                error = "--collective takes [G:]K with K >= 1 (1-based) and G >= 0, or worst";
                return false;
            }
            out.group = int(g);
            out.collective = int(k);
        } else if (a == "--size" && c == "render") {
            if (!need(1)) return false;
            std::string v = args[++i];
            auto x = v.find('x');
            int64_t w = 0, h = 0;
            if (x == std::string::npos || !toInt(v.substr(0, x), w) || !toInt(v.substr(x + 1), h) || w < 200 || h < 150 ||
                w > 10000 || h > 10000) {
                error = "--size takes WxH, e.g. 1600x900 (200x150 to 10000x10000)";
                return false;
            }
            out.width = int(w);
            out.height = int(h);
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            error = "unknown option " + a + " for " + c;
            return false;
        } else {
            out.files.push_back(a);
        }
    }
    if (c != "info" && c != "analyze" && c != "render") {
        error = "unknown command " + c;
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
    if (c == "render") {
        if (out.collective == 0) {
            error = "render needs --collective [G:]K";
            return false;
        }
        if (!outputGiven || out.output == "-") {
            error = "render needs --output PATH ending in .png, .svg or .pdf";
            return false;
        }
    }
    return true;
}

AnalysisOptions analysisOptions(const CommandLine& cl) {
    AnalysisOptions o;
    o.hasTrim = cl.hasTrim;
    o.trimStartNs = int64_t(std::llround(cl.trimStart * 1e9));
    o.trimEndNs = int64_t(std::llround(cl.trimEnd * 1e9));
    o.bigSkewNs = int64_t(std::llround(cl.bigSkewMs * 1e6));
    o.stepRegex = cl.stepRegex;
    o.anomalyThreshold = cl.anomalyThreshold;
    o.anomalyLimit = cl.limit;
    return o;
}

int runHeadless(const CommandLine& cl) {
    try {
        Profile p = loadProfile(cl.files);
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
