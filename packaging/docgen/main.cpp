// skewscope-docgen man|bash|zsh VERSION: writes skewscope(1), the bash or the zsh completion to
// standard output, all from the text of skewscope --help (skew::usageText(), usage_model.h). Run
// by the build (packaging/docs.cmake); not installed.
#include <cstdio>
#include <string>

#include "renderers.h"

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "";
    const docgen::Usage usage = docgen::readUsage();
    std::string out;
    if (what == "man" && argc > 2) out = docgen::manPage(usage, argv[2]);
    else if (what == "bash") out = docgen::bashCompletion(usage);
    else if (what == "zsh") out = docgen::zshCompletion(usage);
    else {
        std::fprintf(stderr, "usage: skewscope-docgen man VERSION | bash | zsh\n");
        return 2;
    }
    std::fputs(out.c_str(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
