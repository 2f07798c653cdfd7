#pragma once
// The headless commands of docs/analysis.md's command-line contract (info, analyze, render's
// loading, compare, export, cache); the arguments are parsed in cli/command_line.h.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "cli/command_line.h"

namespace skew {

// The profile cache the command line uses (null with --no-cache), and storing the snapshots of the
// files that were read from their exports: a folder that cannot be written gives one warning.
class ProfileCache;
std::unique_ptr<ProfileCache> commandLineCache(const CommandLine& cl);
void storeSnapshots(ProfileCache* cache, const Profile& p);

// Writes each warning to stderr as one "skewscope: warning: ..." line (every headless command and
// render say what they warned about the same way).
void printWarnings(const std::vector<std::string>& warnings);

// Runs summarize (cli/summarize.cpp): the exit code, as runHeadless's.
int runSummarize(const CommandLine& cl);

// Runs info/analyze/export (and compare, cache); returns the exit code (0 ok, 1 other error, 2 usage, 3 unreadable input).
int runHeadless(const CommandLine& cl);

}  // namespace skew
