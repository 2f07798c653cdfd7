#pragma once
// Which file was read, precisely enough to tell whether it changed since: the key of a file's
// snapshot in the profile cache. Here, below the model, because the loader records it in each
// InputFile (model/profile.h) and the cache (cache/) compares it; neither needs the other for it.

#include <cstdint>
#include <string>

namespace skew {

struct FileIdentity {
    std::string canonicalPath;
    uint64_t size = 0, inode = 0, device = 0;
    int64_t mtimeNs = 0;
    uint64_t fingerprint = 0;  // of the file's first and last 64 KiB (util/checksum.h)
    bool valid() const { return !canonicalPath.empty(); }
    bool operator==(const FileIdentity& o) const {
        return canonicalPath == o.canonicalPath && size == o.size && inode == o.inode && device == o.device && mtimeNs == o.mtimeNs &&
               fingerprint == o.fingerprint;
    }
};

// The identity of `path` (its canonical path, stat and fingerprint); invalid when it cannot be read.
FileIdentity identifyFile(const std::string& path);

}  // namespace skew
