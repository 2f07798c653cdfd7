#pragma once
// The command-line contract of analysis-spec.md: parsing and the headless commands (info, analyze).

#include <cstdint>
#include <string>
#include <vector>

namespace skew {

struct CommandLine {
    std::string command;  // info, analyze, render, help, version
    std::vector<std::string> files;
    std::string format = "text";
    std::string output = "-";
    bool hasTrim = false;
    double trimStart = 0, trimEnd = 0;  // seconds on the aligned base
    double bigSkewMs = 20.0;
    std::string stepRegex;              // empty: the spec's default
    double anomalyThreshold = 3.0;
    int64_t limit = -1;                 // anomaly rows, -1: all
    int group = 0, collective = 0;      // render: [G:]K, K 1-based; -1: the worst (largest start skew)
    int width = 1600, height = 900;     // render --size
};

std::string usageText();
bool parseCommandLine(const std::vector<std::string>& args, CommandLine& out, std::string& error);

struct AnalysisOptions;
AnalysisOptions analysisOptions(const CommandLine& cl);

// Runs info/analyze; returns the exit code (0 ok, 1 other error, 2 usage, 3 unreadable input).
int runHeadless(const CommandLine& cl);

}  // namespace skew
