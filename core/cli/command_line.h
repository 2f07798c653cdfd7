#pragma once
// The command line of docs/analysis.md parsed and checked: which command, its files, its options.
// Nothing is loaded or run here (cli/commands.h runs the headless commands).

#include <string>
#include <vector>

#include "analysis/analysis.h"

namespace skew {

struct CommandLine {
    std::string command;  // info, analyze, render, compare, export, summarize, cache, help, version
    std::vector<std::string> files;
    std::vector<std::string> filesB;  // compare: the files after --vs
    std::string format = "text";  // export: perfetto
    std::string output = "-";
    std::string table = "collectives";  // analyze --format csv --table collectives|steps
    AnalysisSettings settings;          // --trim, --big-skew-ms, --step-regex, --anomaly-threshold, --limit
    int group = 0, collective = 0;      // render: [G:]K, K 1-based; -1: the worst (largest start skew)
    int width = 1600, height = 900;     // render --size
    bool noCache = false;               // --no-cache: neither read nor write profile snapshots
    std::string cacheAction;            // cache info | clear
    std::string view = "collective";    // render --view collective|timeline|stepmap|heatmap|whatif|compare (compare needs --vs)
    int64_t task = 0, tasks = 1;        // summarize --task I --tasks N: the files whose 0-based position modulo N is I
    bool hasRange = false;              // render --range S E: the timeline's window
    double rangeStart = 0, rangeEnd = 0;  // seconds on the aligned base
    bool ideal = false;                 // render --view timeline --ideal: the what-if's ideal schedule as ghost bars
};

// The subcommands, and whether `word` (a first argument that is not a file) names one.
bool isCommand(const std::string& word);
// "unknown command 'analyse'; did you mean 'analyze'?" for a word that is not a command.
std::string unknownCommandMessage(const std::string& word);

std::string usageText();
// Parses and checks the arguments: numbers strictly (finite, in range, whole string), and an
// --output that names one of the inputs (same file, whatever the spelling) is refused.
bool parseCommandLine(const std::vector<std::string>& args, CommandLine& out, std::string& error);

// The options of the settings parseCommandLine checked; std::invalid_argument for settings it would refuse.
AnalysisOptions analysisOptions(const CommandLine& cl);

// True when both paths name one existing file (same device and inode, e.g. through a symlink).
bool sameFile(const std::string& a, const std::string& b);

// The viewer's arguments: `skewscope FILE...` opens files, `skewscope A... --vs B...` compares two
// captures. Splits at --vs (B stays empty without it); false with a message for --vs given twice or
// with no file on one side.
bool parseViewerArgs(const std::vector<std::string>& args, std::vector<std::string>& a, std::vector<std::string>& b,
                     std::string& error);

}  // namespace skew
