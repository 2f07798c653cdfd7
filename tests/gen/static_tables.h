#pragma once
// The tables of an export that do not depend on the timeline: META_DATA_EXPORT, the session start,
// processes, thread names, CUDA streams and the enum tables; and small helpers on file names.

#include <cstdint>
#include <string>
#include <vector>

#include "export_db.h"

namespace skewgen {
namespace detail {

// The file name without folder and without ".sqlite".
std::string fileStem(const std::string& path);

// Writes the static tables of one file holding `ranks` (its session starting at `utcEpochNs`).
void writeStaticTables(Db& db, Layout layout, int64_t utcEpochNs, const std::string& stem,
                       const std::vector<const RankInfo*>& ranks);

}  // namespace detail
}  // namespace skewgen
