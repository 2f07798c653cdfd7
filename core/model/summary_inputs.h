#pragma once
// The loader's inputs when summaries may be among them (model/summary_source.h): a folder stands
// for the summaries in it, sorted by name; a summary and the export it summarises are never read
// together (the same rank twice), nor two summaries of one export.

#include <string>
#include <vector>

#include "model/profile.h"

namespace skew {

// `paths` with each folder replaced by its *.skewsum files, sorted by name. Throws InputError for a
// folder without summaries, or one that holds an export beside its summary (X and X.skewsum).
std::vector<std::string> expandSummaryFolders(const std::vector<std::string>& paths);

// Throws InputError when an input read from a summary is the summary of another input's export, or
// of the same export as another summary.
void refuseSummaryBesideExport(const Profile& p);

}  // namespace skew
