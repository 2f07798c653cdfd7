#pragma once
// Names taken from paths, as reports and rank labels show them.

#include <string>

namespace skew {

// "run/rank0.sqlite" -> "rank0"
std::string fileStem(const std::string& path);
// "run/rank0.sqlite" -> "rank0.sqlite"
std::string fileName(const std::string& path);

}  // namespace skew
