#pragma once
// Entry points of the Qt side, called by app/main.cpp.

#include <string>
#include <vector>

#include "cli/commands.h"

namespace skewui {

class MainWindow;

// What the viewer's command line asks of the window: `files` opened, or with `filesB` too, capture
// `files` (A) compared with `filesB` (B) (MainWindow::openComparison); nothing without files.
void openFromCommandLine(MainWindow& w, const std::vector<std::string>& files, const std::vector<std::string>& filesB);

// QApplication sets the process's locale from the environment (setlocale(LC_ALL, "")); numbers
// must not follow it (a picture reading "54,97 ms", a JSON report with 0,545). Called right after
// QApplication is made: LC_NUMERIC stays "C" for every printf-style path, QLocale's default is the C
// locale with its ',' grouping (axis ticks, counts), and LC_MESSAGES stays "C" so that a system error inside Skewscope's
// English messages reads as info and analyze print it ("File too large" in any language).
void keepCNumbersAndMessages();

// The viewer, opening `files`; with `filesB` too, comparing capture `files` (A) with `filesB` (B).
int runGui(int argc, char** argv, const std::vector<std::string>& files, const std::vector<std::string>& filesB = {});
// `skewscope render`: a view of the GUI drawn offscreen into PNG/SVG/PDF (the compare view with --vs).
int runRender(int argc, char** argv, const skew::CommandLine& cl);

}  // namespace skewui
