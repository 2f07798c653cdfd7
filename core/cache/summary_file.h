#pragma once
// The summary file (.skewsum, docs/analysis.md "Summaries"): one export's part of a profile, as the
// profile cache's snapshot holds it (cache/snapshot_format.h) with compact columns (deltas as
// varints), compressed with zstd, behind a header of its own: the summary format version, the
// export's path as summarize was given it, the lengths and a checksum over all but the magic. Written
// atomically (util/atomic_file.h). Reading it implements the loader's SummaryReader.

#include <string>

#include "model/file_part.h"
#include "model/profile.h"
#include "model/summary_source.h"
#include "util/file_identity.h"

namespace skew {

// 2: its snapshot in format 6 (kSnapshotFormat): a summary of an older build says so by its own
// version, not as a damaged snapshot; 3: in format 7
constexpr uint32_t kSummaryFormat = 3;

// Writes the summary of file `file` of `p` (read from its export) to `out`, atomically; `givenPath`
// is the export's path as the user gave it. Throws std::runtime_error when it cannot be written.
void writeSummary(const Profile& p, int file, const std::string& givenPath, const std::string& out);

// Whether `out` holds a whole, valid summary of the export `id` names (then it is kept).
bool holdsSummaryOf(const std::string& out, const FileIdentity& id);

class SummaryFiles : public SummaryReader {
public:
    bool isSummary(const std::string& path) const override;
    void read(const std::string& path, FilePart& part) const override;
};

// The one reader every client hands the loader.
const SummaryReader& summaryFiles();

}  // namespace skew
