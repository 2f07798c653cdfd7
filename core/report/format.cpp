#include "report/format.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace skew {

std::string formatDuration(int64_t ns) {
    char buf[64];
    double a = ns < 0 ? -double(ns) : double(ns);
    if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.3f s", double(ns) / 1e9);
    else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.2f ms", double(ns) / 1e6);
    else if (a >= 1e3) std::snprintf(buf, sizeof buf, "%.1f us", double(ns) / 1e3);
    else std::snprintf(buf, sizeof buf, "%" PRId64 " ns", ns);
    return buf;
}

std::string formatShare(double fraction) { return strprintf("%.1f%%", fraction * 100.0); }

std::string strprintf(const char* f, ...) {
    va_list ap;
    va_start(ap, f);
    va_list ap2;
    va_copy(ap2, ap);
    int n = std::vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string out(size_t(n > 0 ? n : 0), '\0');
    std::vsnprintf(out.data(), out.size() + 1, f, ap2);
    va_end(ap2);
    return out;
}

std::string kernelBaseName(const std::string& n) {
    std::string s = n;
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    size_t cut = s.find_first_of("(<");
    if (cut != std::string::npos && cut > 0) s.resize(cut);
    return s;
}

std::string shortKernelName(const std::string& n) {
    std::string s = kernelBaseName(n);
    if (s.size() > 70) s = s.substr(0, 67) + "...";
    return s;
}

}  // namespace skew
