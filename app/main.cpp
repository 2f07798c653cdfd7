// skewscope: the GUI without a subcommand; `info`, `analyze`, `render` headless.
// Only argument parsing and wiring live here.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"

#ifdef SKEWSCOPE_WITH_UI
#include "gui_entry.h"
#endif

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && (args[0] == "info" || args[0] == "analyze" || args[0] == "render" || args[0] == "help" ||
                          args[0] == "--help" || args[0] == "-h" || args[0] == "--version")) {
        skew::CommandLine cl;
        std::string err;
        if (!skew::parseCommandLine(args, cl, err)) {
            std::fprintf(stderr, "skewscope: %s\n%s", err.c_str(), skew::usageText().c_str());
            return 2;
        }
        if (cl.command == "help") {
            std::fputs(skew::usageText().c_str(), stdout);
            return 0;
        }
        if (cl.command == "version") {
            std::printf("skewscope %s\n", SKEWSCOPE_VERSION);
            return 0;
        }
        if (cl.command == "render") {
#ifdef SKEWSCOPE_WITH_UI
            return skewui::runRender(argc, argv, cl);
#else
            std::fprintf(stderr, "skewscope: this build has no viewer; render is not available\n");
            return 1;
#endif
        }
        return skew::runHeadless(cl);
    }
#ifdef SKEWSCOPE_WITH_UI
    return skewui::runGui(argc, argv, args);
#else
    std::fprintf(stderr, "skewscope: this build has no viewer; use info or analyze\n");
    return 2;
#endif
}
