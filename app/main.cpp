// skewscope: the GUI without a subcommand; `info`, `analyze`, `render` headless.
// Only argument parsing and wiring live here.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "build_version.h"
#include "cli/commands.h"

#ifdef SKEWSCOPE_WITH_UI
#include "gui_entry.h"
#endif

namespace {

// A command's exit code, made 1 when what it printed did not reach standard output (a full disk,
// a closed pipe): `skewscope --help >/dev/full` must not exit 0, whatever the command.
int checkedStdout(int rc) {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return rc;
    const int err = errno ? errno : EIO;
    std::fprintf(stderr, "skewscope: cannot write standard output: %s\n", std::strerror(err));
    return rc == 0 ? 1 : rc;
}

// A subcommand (or help, --version): parsed, then run.
int runCommand(int argc, char** argv, const std::vector<std::string>& args) {
    skew::CommandLine cl;
    std::string err;
    if (!skew::parseCommandLine(args, cl, err)) {
        std::fprintf(stderr, "skewscope: %s\n(skewscope --help shows the usage)\n", err.c_str());
        return 2;
    }
    if (cl.command == "help") {
        std::fputs(skew::usageText().c_str(), stdout);
        return 0;
    }
    if (cl.command == "version") {
        // the project version, and git describe when built from a checkout (app/build_version.cmake)
        if (*SKEWSCOPE_BUILD_VERSION)
            std::printf("skewscope %s (git %s)\n", SKEWSCOPE_VERSION, SKEWSCOPE_BUILD_VERSION);
        else
            std::printf("skewscope %s\n", SKEWSCOPE_VERSION);
        return 0;
    }
    if (cl.command == "render") {
#ifdef SKEWSCOPE_WITH_UI
        return skewui::runRender(argc, argv, cl);
#else
        (void)argc, (void)argv;
        std::fprintf(stderr, "skewscope: this build has no viewer; render is not available\n");
        return 1;
#endif
    }
    return skew::runHeadless(cl);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    // a first word that is neither a command nor a file is a mistyped command, not a file to open
    if (!args.empty() && !skew::isCommand(args[0]) && args[0][0] != '-' && args[0] != "help" &&
        args[0].find_first_of("/.") == std::string::npos && ::access(args[0].c_str(), F_OK) != 0) {
        std::fprintf(stderr, "skewscope: %s\n(skewscope --help shows the usage)\n", skew::unknownCommandMessage(args[0]).c_str());
        return 2;
    }
    if (!args.empty() && (skew::isCommand(args[0]) || args[0] == "help" || args[0] == "--help" || args[0] == "-h" ||
                          args[0] == "--version"))
        return checkedStdout(runCommand(argc, argv, args));
    std::vector<std::string> filesA, filesB;  // `skewscope A... --vs B...`: the viewer comparing them
    std::string err;
    if (!skew::parseViewerArgs(args, filesA, filesB, err)) {
        std::fprintf(stderr, "skewscope: %s\n(skewscope --help shows the usage)\n", err.c_str());
        return 2;
    }
#ifdef SKEWSCOPE_WITH_UI
    return skewui::runGui(argc, argv, filesA, filesB);
#else
    std::fprintf(stderr, "skewscope: this build has no viewer; use info or analyze\n");
    return 2;
#endif
}
