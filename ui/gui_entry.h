#pragma once
// Entry points of the Qt side, called by app/main.cpp.

#include <string>
#include <vector>

#include "cli/commands.h"

namespace skewui {

int runGui(int argc, char** argv, const std::vector<std::string>& files);
// `skewscope render`: the GUI's collective view drawn offscreen into PNG/SVG/PDF.
int runRender(int argc, char** argv, const skew::CommandLine& cl);

}  // namespace skewui
