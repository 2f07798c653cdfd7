#include "report/format.h"

#include <charconv>
#include <clocale>
#include <cstdarg>
#include <cstdio>

#include <locale.h>

namespace skew {

// Numbers never follow the user's locale (the viewer's QApplication sets it from the environment,
// and a report must read the same everywhere): a decimal point, no grouping, as in the C locale.
namespace {

// `v` with `digits` decimals, as printf's %.Nf writes it in the C locale, then `unit`.
std::string fixed(double v, int digits, const char* unit) {
    char buf[64];
    auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits).ptr;
    return std::string(buf, end) + unit;
}

// The C locale, for printf-style formatting on this thread whatever the process's locale.
locale_t cLocale() {
    static const locale_t c = newlocale(LC_ALL_MASK, "C", locale_t(0));
    return c;
}

}  // namespace

std::string formatDuration(int64_t ns) {
    double a = ns < 0 ? -double(ns) : double(ns);
    if (a >= 1e9) return fixed(double(ns) / 1e9, 3, " s");
    if (a >= 1e6) return fixed(double(ns) / 1e6, 2, " ms");
    if (a >= 1e3) return fixed(double(ns) / 1e3, 1, " us");
    return std::to_string(ns) + " ns";
}

std::string formatShare(double fraction) { return strprintf("%.1f%%", fraction * 100.0); }

std::string strprintf(const char* f, ...) {
    const locale_t before = uselocale(cLocale());  // this thread only
    va_list ap;
    va_start(ap, f);
    va_list ap2;
    va_copy(ap2, ap);
    int n = std::vsnprintf(nullptr, 0, f, ap);
    va_end(ap);
    std::string out(size_t(n > 0 ? n : 0), '\0');
    std::vsnprintf(out.data(), out.size() + 1, f, ap2);
    va_end(ap2);
    uselocale(before);
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
