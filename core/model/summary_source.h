#pragma once
// Summaries: one export's part of a profile made where the export is (`skewscope summarize`, a
// Slurm job array) and read where the user looks, instead of the export (docs/analysis.md,
// "Summaries"). The loader reads a summary through this interface (LoadOptions::summaries); the
// summary file (cache/summary_file.h) implements it, so the model knows no file format of it.

#include <string>

#include "model/file_part.h"

namespace skew {

// A summary's file name: the export's file name and this.
inline constexpr const char* kSummarySuffix = ".skewsum";

class SummaryReader {
public:
    virtual ~SummaryReader() = default;
    // Whether `path` names a summary (its name, or its first bytes), not an export.
    virtual bool isSummary(const std::string& path) const = 0;
    // Reads the summary at `path` into `part`: the export's part as it was read where the export is,
    // part.input.path the export's path as summarize was given it, part.input.identity the export's.
    // Throws InputError naming `path` when it cannot be read (another format version, truncated,
    // corrupted).
    virtual void read(const std::string& path, FilePart& part) const = 0;
};

}  // namespace skew
