#pragma once
// Formatting shared by every report and the viewer: durations, printf into a string, kernel names
// shortened for prose.

#include <cstdint>
#include <string>

namespace skew {

// Each formats as the C locale does (a decimal point, no grouping), whatever the process's locale.
std::string formatDuration(int64_t ns);  // "12.3 us", "4.56 ms", "1.200 s", "850 ns"
std::string formatShare(double fraction);  // "54.4%"
std::string strprintf(const char* format, ...) __attribute__((format(printf, 1, 2)));
// "at::native::elementwise_kernel" of "void at::native::elementwise_kernel<128, 2, ...>(int, ...)":
// up to the first '(' or '<', without "void ", whole however long (a view elides it to its room).
std::string kernelBaseName(const std::string& name);
// kernelBaseName at most 70 characters: for sentences (reports, why-lines).
std::string shortKernelName(const std::string& name);

}  // namespace skew
