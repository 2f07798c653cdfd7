// `skewscope summarize FILE... --output DIR [--task I --tasks N]` (docs/analysis.md, "Summaries"):
// each export of the task's share read on its own and written as DIR/<its name>.skewsum
// (cache/summary_file.h); a summary already there of the same export is kept.

#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "cache/summary_file.h"
#include "cli/commands.h"
#include "model/loader.h"
#include "util/errors.h"
#include "util/file_identity.h"
#include "util/paths.h"

namespace skew {

namespace {

// Summarises one export into `out`; throws as loadProfile and writeSummary do.
void summarizeOne(const std::string& file, const std::string& out) {
    if (summaryFiles().isSummary(file)) throw InputError(file + ": a summary already, not an export");
    const FileIdentity id = identifyFile(file);
    if (!id.valid()) throw InputError(file + ": cannot be read (missing, or not a regular file)");
    if (holdsSummaryOf(out, id)) {
        std::printf("%s: kept (a summary of this export)\n", out.c_str());
        return;
    }
    Profile p = loadProfile({file});  // no profile cache: a cluster's tasks would fill the home folder
    printWarnings(p.warnings);
    p.inputs[0].identity = id;
    writeSummary(p, 0, file, out);
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(out, ec);
    std::printf("%s: %.1f MB (%.1f%% of the export's %.1f MB)\n", out.c_str(), double(bytes) / 1e6,
                id.size ? 100.0 * double(bytes) / double(id.size) : 0.0, double(id.size) / 1e6);
}

}  // namespace

int runSummarize(const CommandLine& cl) {
    // every task checks every name, so that all of them refuse the same command line
    std::map<std::string, std::string> names;
    for (const auto& f : cl.files) {
        const std::string name = fileName(f) + kSummarySuffix;
        if (auto [it, fresh] = names.emplace(name, f); !fresh && !(it->second == f)) {
            std::fprintf(stderr, "skewscope: %s and %s would both be summarised as %s: summarize them into separate folders\n",
                         it->second.c_str(), f.c_str(), name.c_str());
            return 2;
        }
    }
    std::error_code ec;
    std::filesystem::create_directories(cl.output, ec);
    if (ec || !std::filesystem::is_directory(cl.output)) {
        std::fprintf(stderr, "skewscope: cannot make the folder %s (%s)\n", cl.output.c_str(),
                     ec ? ec.message().c_str() : "a file of that name is there");
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < cl.files.size(); ++i) {
        if (int64_t(i % size_t(cl.tasks)) != cl.task) continue;
        const std::string& file = cl.files[i];
        try {
            summarizeOne(file, cl.output + "/" + fileName(file) + kSummarySuffix);
        } catch (const InputError& e) {
            std::fprintf(stderr, "skewscope: %s\n", e.what());
            if (rc == 0) rc = 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "skewscope: %s: %s\n", file.c_str(), e.what());
            rc = 1;
        }
    }
    std::fflush(stdout);
    return rc;
}

}  // namespace skew
