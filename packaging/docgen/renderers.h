#pragma once
// The manual page and the shell completions rendered from docgen::Usage (the --help text read as
// data): man_page.cpp, completions.cpp; the texts they share are descriptions.cpp's.

#include <string>

#include "usage_model.h"

namespace docgen {

std::string manPage(const Usage& usage, const std::string& version);  // roff, skewscope(1)
std::string bashCompletion(const Usage& usage);
std::string zshCompletion(const Usage& usage);

// descriptions.cpp: what a command ("" the viewer) or option does, in a few words or in full; ""
// when it has no text there.
std::string commandText(const std::string& command, bool brief = false);
std::string optionText(const std::string& option, bool brief = false);

}  // namespace docgen
