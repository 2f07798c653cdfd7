// Reads skew::usageText() into docgen::Usage (usage_model.h says what is read and how).
#include "usage_model.h"

#include <regex>
#include <sstream>

#include "cli/command_line.h"

namespace docgen {
namespace {

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep)) out.push_back(part);
    return out;
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The literal words of a value list: "text|json" -> text, json; "[G:]K|worst" -> worst.
std::set<std::string> literals(const std::string& arg) {
    static const std::regex word("[a-z][a-z0-9]*");
    std::set<std::string> out;
    for (const std::string& p : split(arg, '|'))
        if (std::regex_match(p, word)) out.insert(p);
    return out;
}

// The options of one command's synopsis (parenthesised remarks dropped): "[--trim S E]" is
// --trim with the arguments S and E.
std::map<std::string, Option> optionsOf(const std::string& synopsis) {
    const std::string text = std::regex_replace(synopsis, std::regex("\\([^)]*\\)"), "");
    const std::vector<std::string> t = words(text);
    std::map<std::string, Option> out;
    for (size_t i = 0; i < t.size(); ++i) {
        const bool bracketed = t[i].rfind("[--", 0) == 0;
        std::string name = t[i].substr(bracketed ? 1 : 0);
        if (name.rfind("--", 0) != 0) continue;
        bool closed = bracketed && name.back() == ']';
        while (!name.empty() && name.back() == ']') name.pop_back();
        Option& o = out[name];
        o.name = name;
        for (size_t j = i + 1; j < t.size() && !closed; ++j) {
            const std::string& a = t[j];
            if (a[0] == '-' || a.rfind("[-", 0) == 0 || a.find('\'') != std::string::npos) break;
            closed = bracketed && a.back() == ']';
            std::string arg = a;
            while (!arg.empty() && arg.back() == ']') arg.pop_back();  // "[--task I --tasks N]": N
            if (o.args.size() < size_t(j - i)) o.args.push_back(arg);
            for (const std::string& v : literals(arg)) o.values.insert(v);
            if (!bracketed) break;  // an option outside brackets has one argument here
        }
    }
    return out;
}

// Whether the parser takes `option` for `command` (any complaint but "unknown option" means yes).
bool parserTakes(const std::string& command, const Option& option) {
    std::vector<std::string> args{command, "f.sqlite", option.name};
    for (size_t i = 0; i < option.args.size(); ++i) args.push_back("1");
    skew::CommandLine cl;
    std::string error;
    skew::parseCommandLine(args, cl, error);
    return error.rfind("unknown option " + option.name, 0) != 0;
}

}  // namespace

bool Option::takesDirectory() const {
    for (const std::string& a : args)
        if (a == "DIR") return true;
    return false;
}

bool Option::takesFiles() const {
    for (const std::string& a : args)
        if (a == "PATH" || a == "F" || a.find('.') != std::string::npos) return true;
    return false;
}

std::set<std::string> Usage::allOptions() const {
    std::set<std::string> out;
    for (const Command& c : commands)
        for (const auto& [name, o] : c.options) out.insert(name);
    return out;
}

namespace {

// The lines of --help: each command's synopsis entries, the notes, the exit codes.
void readLines(Usage& u, std::map<std::string, size_t>& index) {
    std::vector<std::string>* continued = nullptr;  // the synopsis or note a continuation line belongs to
    for (const std::string& line : split(skew::usageText(), '\n')) {
        const std::string text = trim(line);
        if (line.rfind("exit codes:", 0) == 0) {
            u.exitCodes = trim(line.substr(11));
        } else if (text.rfind("skewscope", 0) == 0 && line.rfind("  ", 0) == 0) {
            const std::vector<std::string> w = words(text);
            const std::string name = w.size() > 1 && skew::isCommand(w[1]) ? w[1] : "";
            if (!index.count(name)) {
                index[name] = u.commands.size();
                u.commands.push_back(Command{name, {}, "", {}, {}});
            }
            Command& c = u.commands[index[name]];
            const size_t gap = text.find("   ");  // the synopsis, then a summary after a wide gap
            c.synopsis.push_back(trim(text.substr(0, gap)));
            if (gap != std::string::npos && c.summary.empty()) c.summary = trim(text.substr(gap));
            if (!name.empty() && w.size() > 2 && w[2].find('|') != std::string::npos) c.words = literals(w[2]);
            continued = &c.synopsis;
        } else if (text.rfind("--", 0) == 0) {
            u.notes.push_back(text);
            continued = &u.notes;
        } else if (continued && line.rfind("   ", 0) == 0) {
            continued->back() += "\n    " + text;
        }
    }
}

// Each command's options: its own lines', its notes', and "[X's options]": X's own options, less
// those every command takes (--format, --output: X's values for them are X's); all as the parser
// takes them.
void assignOptions(Usage& u, const std::map<std::string, size_t>& index) {
    std::map<std::string, std::map<std::string, Option>> own;
    for (Command& c : u.commands) {
        std::string all;
        for (const std::string& s : c.synopsis) all += s + "\n";
        own[c.name] = optionsOf(all);
    }
    // a note: "--no-cache (info, analyze, render, compare): what it does", a flag of those commands
    for (const std::string& note : u.notes) {
        Option flag;
        flag.name = note.substr(0, note.find(' '));
        const size_t open = note.find('('), close = note.find(')');
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        for (const std::string& cmd : words(std::regex_replace(note.substr(open + 1, close - open - 1), std::regex("[^a-z]"), " ")))
            if (index.count(cmd)) own[cmd].emplace(flag.name, flag);
    }
    std::set<std::string> common;  // the options every command with options takes
    bool first = true;
    for (const Command& c : u.commands) {
        if (c.name.empty() || !c.words.empty()) continue;
        std::set<std::string> taken;
        for (const auto& [cmd, opts] : own)
            for (const auto& [name, o] : opts)
                if (parserTakes(c.name, o)) taken.insert(name);
        if (first) common = taken;
        std::set<std::string> both;
        for (const std::string& n : common)
            if (taken.count(n)) both.insert(n);
        common = both;
        first = false;
    }
    for (Command& c : u.commands) {
        c.options = own[c.name];
        std::string all;
        for (const std::string& s : c.synopsis) all += s + " ";
        std::smatch m;
        for (std::string rest = all; std::regex_search(rest, m, std::regex("\\[(\\w+)'s options\\]")); rest = m.suffix())
            for (const auto& [name, o] : own[m[1]])
                if (!common.count(name) && !c.options.count(name)) c.options.emplace(name, o);
        for (auto it = c.options.begin(); it != c.options.end();)
            it = c.name.empty() || parserTakes(c.name, it->second) ? std::next(it) : c.options.erase(it);
    }
}

}  // namespace

Usage readUsage() {
    Usage u;
    std::map<std::string, size_t> index;  // command -> its place in u.commands
    readLines(u, index);
    assignOptions(u, index);
    return u;
}

}  // namespace docgen
