// What each command and option does, in a few words (the zsh completion's menu) and in a sentence
// or two (the manual): --help gives only the synopsis. A command or option --help names without a
// text here still gets its entries (the manual then uses --help's own words).
#include <map>

#include "renderers.h"

namespace docgen {
namespace {

struct Text {
    const char* brief;
    const char* full;
};

const std::map<std::string, Text> kCommandText = {
    {"", {"open the viewer",
          "Opens the viewer on the files (or an empty window); with --vs, compares capture A (before a change) "
          "with capture B (after)."}},
    {"info", {"what is in the exports",
              "What is in the exports: the Nsight Systems version and schema, the processes, devices and kernels."}},
    {"analyze", {"the findings report",
                 "The findings: every NCCL collective matched across ranks, its start skew, the rank that arrived "
                 "last and why (its CPU launched the kernel late, or its GPU was still busy), the training steps, "
                 "the anomalies and the what-if (the steps without the late arrivals)."}},
    {"render", {"draw a view to PNG, SVG or PDF",
                "Draws a view offscreen exactly as the viewer exports it, to PNG, SVG or PDF."}},
    {"compare", {"capture A against capture B",
                 "Compares capture A (before a change) with capture B (after): what moved, and whether A's what-if "
                 "predicted B."}},
    {"export", {"the run as a Perfetto trace",
                "Writes the run as Chrome trace JSON, which ui.perfetto.dev and chrome://tracing open: a process "
                "per rank, a thread per stream, NCCL kernels with their collective, lateness, cause and step, flows "
                "from late arrivers' launches, big events as markers, and the what-if's ideal schedule."}},
    {"summarize", {"one summary per export, for the cluster",
                   "Writes one small summary (.skewsum) per export into DIR, for a job whose exports stay on the "
                   "cluster: made there (scripts/slurm/summarize.sh runs it as a Slurm job array), read on the "
                   "desktop by every command and the viewer as the exports would be."}},
    {"cache", {"the profile cache",
               "The profile cache, snapshots of exports read before: info shows where it is and what it holds, "
               "clear empties it."}},
};

const std::map<std::string, Text> kOptionText = {
    {"--format", {"the report format", "The report's format (the values each command takes are in the synopsis)."}},
    {"--output", {"the output file (- for standard output)",
                  "Where the report or picture goes: a file (written whole or not at all), or - for standard "
                  "output. render needs it; its suffix chooses the image type."}},
    {"--no-cache", {"read every export, keep no snapshot", "Reads every export from the file and keeps no snapshot of it."}},
    {"--vs", {"the files after it are capture B", "The files after it are capture B, those before it capture A."}},
    {"--trim", {"keep the kernels starting in [S, E) seconds",
                "Keeps the NCCL kernels that start in [S, E), seconds on the aligned time base."}},
    {"--big-skew-ms", {"the big start skew in ms",
                       "The start skew, in milliseconds, from which a collective counts as a big event (default 20)."}},
    {"--step-regex", {"the NVTX pattern of the training steps", "The pattern (RE2) of the NVTX ranges that mark training steps."}},
    {"--anomaly-threshold", {"times the mean duration of an anomaly",
                             "An NCCL kernel is an anomaly when it lasts more than this many times the mean of its "
                             "operation (default 3)."}},
    {"--limit", {"the anomaly rows listed", "Lists at most N anomaly rows (whole events); the counts are always of all."}},
    {"--table", {"the CSV table",
                 "Which table --format csv writes: one row per collective and rank, or one per step."}},
    {"--view", {"the view to draw", "Which view render draws (compare needs --vs)."}},
    {"--collective", {"the collective to draw",
                      "The collective to draw: K (1-based) of group G (default 0), or worst, the complete collective "
                      "with the largest start skew."}},
    {"--range", {"the timeline window in seconds", "The timeline's window, seconds on the aligned time base."}},
    {"--ideal", {"draw the ideal schedule", "Draws the what-if's ideal schedule on the timeline as ghost bars."}},
    {"--task", {"this task's share of the files", "Only the files whose 0-based position modulo N (--tasks) is I."}},
    {"--tasks", {"the number of shares", "The number of shares the files are split into (a Slurm array's tasks)."}},
    {"--size", {"the picture size in pixels", "The picture's size in pixels (default 1600x900)."}},
};

}  // namespace

std::string commandText(const std::string& command, bool brief) {
    auto t = kCommandText.find(command);
    return t == kCommandText.end() ? "" : brief ? t->second.brief : t->second.full;
}

std::string optionText(const std::string& option, bool brief) {
    auto t = kOptionText.find(option);
    return t == kOptionText.end() ? "" : brief ? t->second.brief : t->second.full;
}

}  // namespace docgen
