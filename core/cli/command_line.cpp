#include "cli/command_line.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <sys/stat.h>

namespace skew {

std::string usageText() {
    return "usage:\n"
           "  skewscope [FILE...]                       open the viewer\n"
           "  skewscope A... --vs B...                  open the viewer comparing capture A (before) with B (after)\n"
           "  skewscope info FILE... [--format text|json] [--output PATH]\n"
           "  skewscope analyze FILE... [--format text|json|md|csv] [--output PATH] [--trim S E]\n"
           "                    [--big-skew-ms X] [--step-regex R] [--anomaly-threshold X] [--limit N]\n"
           "                    [--table collectives|steps] (csv: one row per collective and rank, or per step)\n"
           "  skewscope render FILE... [--view collective|timeline|stepmap|heatmap|whatif] [--collective [G:]K|worst]\n"
           "                   [--range S E] [--ideal] --output shot.png|.svg|.pdf [--size WxH] [analyze's options]\n"
           "                   (--ideal: the timeline with the what-if's ideal schedule as ghost bars)\n"
           "  skewscope render A... --vs B... --view compare [--collective [G:]K|worst] --output F [--size WxH]\n"
           "                   [analyze's options] (the compare view; --collective names a collective of A)\n"
           "  skewscope compare A... --vs B... [--format text|json|md] [--output PATH] [analyze's options]\n"
           "  skewscope export FILE... [--format perfetto] [--output PATH] [analyze's options]\n"
           "                   (perfetto: Chrome trace JSON for ui.perfetto.dev or chrome://tracing; a process\n"
           "                   per rank, a thread per stream, NCCL kernels with their collective's facts)\n"
           "  skewscope summarize FILE... --output DIR [--task I --tasks N]\n"
           "                   one summary per export, DIR/<export's name>.skewsum (kept when it is of the same\n"
           "                   export); --task I --tasks N: only the files whose 0-based position modulo N is I\n"
           "                   (a Slurm array task's share: scripts/slurm/summarize.sh)\n"
           "  skewscope cache info|clear                 the profile cache (snapshots of exports read before)\n"
           "  FILE: an export (.sqlite, .nsys-rep), a summary (.skewsum) or a folder of summaries\n"
           "  --no-cache (info, analyze, render, compare, export): read every export, keep no snapshot\n"
           "exit codes: 0 done, 1 other error, 2 usage error, 3 unreadable input\n";
}

namespace {

const char* const kCommands[] = {"info", "analyze", "render", "compare", "export", "summarize", "cache"};

// A finite decimal number written out in full: no trailing text, no overflow, not NaN or infinity,
// not hexadecimal (strtod would read 0x10 as 16).
bool toDouble(const std::string& s, double& v) {
    if (s.empty() || s.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
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

// The image formats render and the viewer's exports write, by the output's suffix (any case).
bool hasImageSuffix(const std::string& path) {
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == "png" || ext == "svg" || ext == "pdf";
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
    return "unknown command '" + word + "' (and no file of that name); the commands are info, analyze, render, compare, export, summarize and cache";
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Qt's own command-line options (QApplication and QGuiApplication take them out of argv): the
// viewer passes them to Qt, with their value when they take one.
static int qtOptionValues(const std::string& x) {
    static const char* const withValue[] = {"-platform", "-platformpluginpath", "-platformtheme", "-plugin", "-qwindowgeometry",
                                            "-qwindowicon", "-qwindowtitle", "-geometry", "-display", "-style", "-stylesheet",
                                            "-session", "-name", "-title", "-qmljsdebugger"};
    static const char* const alone[] = {"-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"};
    for (const char* o : withValue)
        if (x == o) return 1;
    for (const char* o : alone)
        if (x == o) return 0;
    for (const char* o : withValue)  // -style=fusion and the like
        if (x.rfind(std::string(o) + "=", 0) == 0) return 0;
    return -1;
}

bool parseViewerArgs(const std::vector<std::string>& args, std::vector<std::string>& a, std::vector<std::string>& b,
                     std::string& error) {
    bool afterVs = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& x = args[i];
        if (x.size() > 1 && x[0] == '-' && x != "--vs") {
            const int values = qtOptionValues(x);
            if (values < 0) {
                error = "unknown option '" + x + "' (a file whose name starts with '-' is written ./" + x + ")";
                return false;
            }
            i += size_t(values);  // Qt's: QApplication reads it
            continue;
        }
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


namespace {

// One pass over a command's arguments. Each option belongs to the commands that take it; an option
// a command does not take is "unknown ... for <command>". After the pass, the command's checks.
class ArgParser {
public:
    ArgParser(const std::vector<std::string>& args, CommandLine& out, std::string& error) : args_(args), out_(out), error_(error) {}

    bool parse() {
        const std::string& c = out_.command;
        for (i_ = 1; i_ < args_.size(); ++i_) {
            const std::string& a = args_[i_];
            option_ = i_;
            if (a == "--help" || a == "-h") {
                out_.command = "help";
                return true;
            }
            Took t = commonOption(a);
            if (t == Took::No && (c == "analyze" || c == "compare" || c == "render" || c == "export")) t = analysisOption(a);
            if (t == Took::No && c == "render") t = renderOption(a);
            if (t == Took::No && c == "analyze") t = tableOption(a);
            if (t == Took::No && c == "summarize") t = taskOption(a);
            if (t == Took::Failed) return false;
            if (t == Took::Yes) continue;
            if (a.size() > 1 && a[0] == '-' && a != "-") return fail("unknown option " + a + " for " + c);
            (afterVs_ ? out_.filesB : out_.files).push_back(a);
        }
        return checkFiles() && checkFormat() && checkAnalysis() && checkRender() && checkSummarize() && checkOutput() &&
               checkImageType();
    }

private:
    enum class Took { Yes, No, Failed };

    Took failed(const std::string& message) {
        error_ = message;
        return Took::Failed;
    }
    bool fail(const std::string& message) {
        error_ = message;
        return false;
    }
    // The option at i_ has n values after it.
    bool need(size_t n) {
        if (i_ + n < args_.size()) return true;
        error_ = args_[option_] + " needs " + std::to_string(n) + (n == 1 ? " value" : " values");
        return false;
    }
    bool number(const std::string& v, double& x, const char* what) {
        if (toDouble(v, x)) return true;
        error_ = args_[option_] + " needs " + what + ", not '" + v + "'";
        return false;
    }
    // The next value of the option at i_, consumed.
    const std::string& value() { return args_[++i_]; }

    // Options of every command: --format, --output, --no-cache, --vs (compare, render).
    Took commonOption(const std::string& a) {
        const std::string& c = out_.command;
        if (a == "--format") {
            if (!need(1)) return Took::Failed;
            out_.format = value();
            formatGiven_ = true;
        } else if (a == "--output" || a == "-o") {
            if (!need(1)) return Took::Failed;
            out_.output = value();
            outputGiven_ = true;
            if (out_.output.empty()) return failed(args_[option_] + " needs a path (or - for standard output), not an empty one");
        } else if (a == "--no-cache") {
            out_.noCache = true;
        } else if (a == "--ideal" && c == "render") {
            out_.ideal = true;
        } else if (a == "--vs" && (c == "compare" || c == "render")) {
            if (afterVs_) return failed(c + " takes --vs once: " + c + " A... --vs B...");
            afterVs_ = true;
        } else {
            return Took::No;
        }
        return Took::Yes;
    }

    // the analysis settings of analyze, compare and render (the picture shows that analysis).
    Took analysisOption(const std::string& a) {
        AnalysisSettings& s = out_.settings;
        if (a == "--trim") {
            if (!need(2) || !number(args_[i_ + 1], s.trimStartS, "two numbers of seconds") ||
                !number(args_[i_ + 2], s.trimEndS, "two numbers of seconds"))
                return Took::Failed;
            s.hasTrim = true;
            i_ += 2;
        } else if (a == "--big-skew-ms") {
            if (!need(1) || !number(value(), s.bigSkewMs, "a number of milliseconds")) return Took::Failed;
        } else if (a == "--step-regex") {
            if (!need(1)) return Took::Failed;
            s.stepRegex = value();
        } else if (a == "--anomaly-threshold") {
            if (!need(1) || !number(value(), s.anomalyThreshold, "a number")) return Took::Failed;
        } else if (a == "--limit") {
            if (!need(1)) return Took::Failed;
            if (!toInt(value(), 0, INT64_MAX, s.anomalyLimit)) return failed("--limit needs a whole number >= 0, not '" + args_[i_] + "'");
        } else {
            return Took::No;
        }
        return Took::Yes;
    }

    // analyze --table: which table --format csv writes (one row per collective and rank, or per step).
    Took tableOption(const std::string& a) {
        if (a != "--table") return Took::No;
        if (!need(1)) return Took::Failed;
        out_.table = value();
        if (out_.table != "collectives" && out_.table != "steps")
            return failed("--table takes collectives or steps; not '" + out_.table + "'");
        tableGiven_ = true;
        return Took::Yes;
    }

    // summarize --task I --tasks N: an array task's share of the files.
    Took taskOption(const std::string& a) {
        if (a != "--task" && a != "--tasks") return Took::No;
        if (!need(1)) return Took::Failed;
        int64_t& v = a == "--task" ? out_.task : out_.tasks;
        if (!toInt(value(), a == "--task" ? 0 : 1, INT32_MAX, v))
            return failed(a + " needs a whole number" + (a == "--task" ? " >= 0" : " >= 1") + ", not '" + args_[i_] + "'");
        (a == "--task" ? taskGiven_ : tasksGiven_) = true;
        return Took::Yes;
    }

    bool checkSummarize() {
        if (out_.command != "summarize") return true;
        if (!outputGiven_ || out_.output == "-") return fail("summarize needs --output DIR, the folder the summaries go to");
        if (taskGiven_ != tasksGiven_) return fail("--task I and --tasks N go together (the files whose 0-based position modulo N is I)");
        if (out_.task >= out_.tasks)
            return fail("--task " + std::to_string(out_.task) + " is not one of --tasks " + std::to_string(out_.tasks) + " (0 to " +
                        std::to_string(out_.tasks - 1) + ")");
        return true;
    }

    // render's options: which view, which collective, the timeline's range, the image size.
    Took renderOption(const std::string& a) {
        if (a == "--collective") {
            if (!need(1)) return Took::Failed;
            return collective(value());
        }
        if (a == "--view") {
            if (!need(1)) return Took::Failed;
            out_.view = value();
            const std::string& v = out_.view;
            if (v != "collective" && v != "timeline" && v != "stepmap" && v != "heatmap" && v != "whatif" && v != "compare")
                return failed("--view takes collective, timeline, stepmap, heatmap, whatif or compare; not '" + v + "'");
        } else if (a == "--range") {
            if (!need(2) || !number(args_[i_ + 1], out_.rangeStart, "two numbers of seconds") ||
                !number(args_[i_ + 2], out_.rangeEnd, "two numbers of seconds"))
                return Took::Failed;
            if (out_.rangeEnd <= out_.rangeStart) return failed("--range needs START < END (seconds on the aligned base)");
            out_.hasRange = true;
            i_ += 2;
        } else if (a == "--size") {
            if (!need(1)) return Took::Failed;
            const std::string v = value();
            auto x = v.find('x');
            int64_t w = 0, h = 0;
            if (x == std::string::npos || !toInt(v.substr(0, x), 200, 10000, w) || !toInt(v.substr(x + 1), 150, 10000, h))
                return failed("--size takes WxH, e.g. 1600x900 (200x150 to 10000x10000); not '" + v + "'");
            out_.width = int(w);
            out_.height = int(h);
        } else {
            return Took::No;
        }
        return Took::Yes;
    }

    // --collective [G:]K (K 1-based) or worst (the complete collective with the largest start skew).
    Took collective(const std::string& v) {
        if (v == "worst") {
            out_.collective = -1;
            return Took::Yes;
        }
        int64_t g = 0, k = 0;
        auto colon = v.find(':');
        bool ok = colon == std::string::npos
                      ? toInt(v, 1, INT32_MAX, k)
                      : (toInt(v.substr(0, colon), 0, INT32_MAX, g) && toInt(v.substr(colon + 1), 1, INT32_MAX, k));
        if (!ok) return failed("--collective takes [G:]K with K >= 1 (1-based) and G >= 0, or worst; not '" + v + "'");
        out_.group = int(g);
        out_.collective = int(k);
        return Took::Yes;
    }

    bool checkFiles() {
        const std::string& c = out_.command;
        if (c == "compare" && (out_.files.empty() || out_.filesB.empty()))
            return fail("compare needs the files of both captures: compare A... --vs B...");
        if (out_.files.empty()) return fail(c + " needs at least one export file");
        return true;
    }

    bool checkFormat() {
        const std::string& c = out_.command;
        const std::string& f = out_.format;
        if (c == "info" && formatGiven_ && f != "text" && f != "json") return fail("info --format takes text or json");
        if (c == "analyze" && f != "text" && f != "json" && f != "md" && f != "csv") return fail("analyze --format takes text, json, md or csv");
        if (c == "summarize" && formatGiven_) return fail("summarize writes summaries only: it takes no --format");
        if (tableGiven_ && f != "csv") return fail("--table chooses the table of --format csv");
        if (c == "compare" && f != "text" && f != "json" && f != "md") return fail("compare --format takes text, json or md");
        if (c == "export" && !formatGiven_) out_.format = "perfetto";  // the only one, so the default
        if (c == "export" && out_.format != "perfetto") return fail("export --format takes perfetto");
        return true;
    }

    // render draws the analysis these settings ask for: refused as analyze refuses them
    bool checkAnalysis() {
        const std::string& c = out_.command;
        if (c != "analyze" && c != "compare" && c != "render" && c != "export") return true;
        AnalysisOptions checked;
        if (std::string e = makeAnalysisOptions(out_.settings, checked); !e.empty()) return fail(e);
        return true;
    }

    bool checkRender() {
        if (out_.command != "render") return true;
        if (afterVs_ != (out_.view == "compare"))
            return fail(afterVs_ ? "render A... --vs B... draws --view compare"
                                 : "--view compare needs both captures: render A... --vs B... --view compare");
        if (afterVs_ && out_.filesB.empty()) return fail("render --vs needs the files of capture B after it");
        if (out_.collective == 0 && out_.view == "collective")
            return fail("render needs --collective [G:]K (or --view timeline|stepmap|heatmap|whatif)");
        if (out_.hasRange && out_.view != "timeline") return fail("--range sets the window of --view timeline");
        if (out_.ideal && out_.view != "timeline") return fail("--ideal draws the what-if's ideal schedule on --view timeline");
        if (!outputGiven_ || out_.output == "-") return fail("render needs --output PATH ending in .png, .svg or .pdf");
        return true;
    }

    // after checkOutput: naming an export is the message that matters, whatever its suffix
    bool checkImageType() {
        if (out_.command == "render" && !hasImageSuffix(out_.output))
            return fail("unknown image type for " + out_.output + ": use .png, .svg or .pdf");
        return true;
    }

    // An --output that is one of the inputs (whatever the spelling) would destroy an export.
    bool checkOutput() {
        if (out_.output == "-") return true;
        std::vector<std::string> inputs = out_.files;
        inputs.insert(inputs.end(), out_.filesB.begin(), out_.filesB.end());
        for (const auto& f : inputs)
            if (sameFile(out_.output, f))
                return fail("--output " + out_.output + " is the input file " + f + "; refusing to overwrite an export");
        return true;
    }

    const std::vector<std::string>& args_;
    CommandLine& out_;
    std::string& error_;
    size_t i_ = 1;       // the argument being read
    size_t option_ = 1;  // the option whose values are being read
    bool formatGiven_ = false, outputGiven_ = false, afterVs_ = false, tableGiven_ = false, taskGiven_ = false, tasksGiven_ = false;
};

}  // namespace

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
    return ArgParser(args, out, error).parse();
}

AnalysisOptions analysisOptions(const CommandLine& cl) {
    AnalysisOptions o;
    // parseCommandLine refused bad settings; a command line that skipped it must not run on defaults
    if (std::string e = makeAnalysisOptions(cl.settings, o); !e.empty()) throw std::invalid_argument(e);
    return o;
}

}  // namespace skew
