#pragma once
// The command line as --help states it (skew::usageText(), core/cli/command_line.cpp), read into
// data for the manual and the shell completions (packaging/docgen): each subcommand's synopsis
// lines, its options with their arguments and literal values, the exit codes. Which command takes
// which option is asked of the parser itself (skew::parseCommandLine), so "[analyze's options]"
// needs no reading.

#include <map>
#include <set>
#include <string>
#include <vector>

namespace docgen {

struct Option {
    std::string name;                      // --format
    std::vector<std::string> args;         // the metavariables or value lists of --help: "S", "E"; "text|json"
    std::set<std::string> values;          // literal values (text, json, ...; worst), of this command's lines
    bool takesFiles() const;               // an argument that is a path (PATH, F, shot.png|.svg|.pdf, B...)
    bool takesDirectory() const;           // an argument that is a folder (DIR)
};

struct Command {
    std::string name;                      // "" for the viewer (skewscope [FILE...])
    std::vector<std::string> synopsis;     // its entries in --help ("skewscope ..."), continuation lines after a \n
    std::string summary;                   // the words after the synopsis on its first line, if any
    std::map<std::string, Option> options; // by name, those the parser takes for this command
    std::set<std::string> words;           // literal words in place of files (cache: info, clear)
};

struct Usage {
    std::vector<Command> commands;         // in --help's order: the viewer first
    std::vector<std::string> notes;        // lines of --help about options of several commands (--no-cache ...)
    std::string exitCodes;                 // "0 done, 1 other error, ..."
    std::set<std::string> allOptions() const;
};

// Reads skew::usageText().
Usage readUsage();

}  // namespace docgen
