#pragma once
// Writing outputs without ever replacing what is not ours: regular files (or new paths) are
// written to a temp file in the same folder and renamed; pipes and devices are written directly.

#include <string>
#include <string_view>

namespace skew {

// Writes `data` to `path`; "-" is stdout. Throws std::runtime_error with a clear message.
void writeOutput(const std::string& path, std::string_view data);

}  // namespace skew
