#include "cache/snapshot_columns.h"

#include <algorithm>
#include <atomic>

#include "util/parallel.h"

namespace skew::snapshot {

std::string readColumns(const Source& src, std::vector<Reader::Column>& cols, size_t threads) {
    std::sort(cols.begin(), cols.end(), [](const Reader::Column& a, const Reader::Column& b) { return a.bytes > b.bytes; });
    std::atomic<bool> truncated{false}, corrupted{false};
    parallelFor(cols.size(), threads, [&](size_t i) {
        if (truncated || corrupted) return;
        const Reader::Column& c = cols[i];
        std::vector<char> coded;
        const char* p = c.decode ? src.at(c.at, c.bytes) : nullptr;
        if (!p) {
            char* into = c.decode ? (coded.resize(size_t(c.bytes)), coded.data()) : c.resize();
            if (!src.read(into, size_t(c.bytes), c.at)) {
                truncated = true;
                return;
            }
            p = into;
        }
        Checksum sum;
        sum.update(p, size_t(c.bytes));
        if (sum.final() != c.checksum) corrupted = true;
        else if (c.decode && !c.decode(reinterpret_cast<const unsigned char*>(p), size_t(c.bytes))) truncated = true;
    });
    if (truncated) return "truncated or damaged snapshot";
    if (corrupted) return "corrupted snapshot (checksum)";
    return {};
}

}  // namespace skew::snapshot
