#include "cache/snapshot_columns.h"

#include <algorithm>
#include <atomic>

#include "util/parallel.h"

namespace skew::snapshot {

std::string readColumns(int fd, std::vector<Reader::Column>& cols, size_t threads) {
    std::sort(cols.begin(), cols.end(), [](const Reader::Column& a, const Reader::Column& b) { return a.bytes > b.bytes; });
    std::atomic<bool> truncated{false}, corrupted{false};
    parallelFor(cols.size(), threads, [&](size_t i) {
        if (truncated || corrupted) return;
        const Reader::Column& c = cols[i];
        std::vector<char> coded;
        char* p = c.decode ? (coded.resize(size_t(c.bytes)), coded.data()) : c.resize();
        for (uint64_t got = 0; got < c.bytes;) {
            ssize_t r = ::pread(fd, p + got, size_t(c.bytes - got), off_t(c.at + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) {
                truncated = true;
                return;
            }
            got += uint64_t(r);
        }
        Checksum sum;
        sum.update(p, size_t(c.bytes));
        if (sum.final() != c.checksum) corrupted = true;
        else if (c.decode && !c.decode(reinterpret_cast<const unsigned char*>(p), coded.size())) truncated = true;
    });
    if (truncated) return "truncated or damaged snapshot";
    if (corrupted) return "corrupted snapshot (checksum)";
    return {};
}

}  // namespace skew::snapshot
