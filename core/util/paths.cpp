#include "util/paths.h"

#include <filesystem>

namespace skew {

std::string fileStem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace skew
