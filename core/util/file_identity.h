#pragma once
// Which file was read, precisely enough to tell whether it changed since: the key of a file's
// snapshot in the profile cache. Here, below the model, because the loader records it in each
// InputFile (model/profile.h) and the cache (cache/) compares it; neither needs the other for it.
//
// What the key covers (docs/analysis.md, "Profile cache"): the file's canonical path, size,
// inode, device, modification and status-change times (a rewrite that restores the modification
// time still moves the ctime), a fingerprint of its first and last 64 KiB, SQLite's own marks of a
// change in the database header (the file change counter, bytes 24..27, and the version-valid-for
// number, bytes 92..95), and the write-ahead log beside it ("-wal": whether it exists, its size,
// inode, modification time, and a fingerprint of its header - checkpoint sequence, salts,
// checksum - and of its last frame's header), where a WAL-mode export keeps commits the main file
// does not show. Not the -wal's ctime: SQLite running as root chowns the -wal to the database's
// owner on every open, a read included, which moves it.

#include <cstdint>
#include <string>

namespace skew {

struct FileIdentity {
    std::string canonicalPath;
    uint64_t size = 0, inode = 0, device = 0;
    int64_t mtimeNs = 0, ctimeNs = 0;
    uint64_t fingerprint = 0;  // of the file's first and last 64 KiB (util/checksum.h)
    // from the SQLite header (0 for a file that is not SQLite's: a .nsys-rep)
    uint32_t changeCounter = 0, versionValidFor = 0;
    // the write-ahead log, canonicalPath + "-wal"
    struct Wal {
        bool exists = false;
        uint64_t size = 0, inode = 0;
        int64_t mtimeNs = 0;
        uint64_t fingerprint = 0;  // of its 32-byte header and its last whole frame's 24-byte header
        bool operator==(const Wal&) const = default;
    } wal;
    bool valid() const { return !canonicalPath.empty(); }
    bool operator==(const FileIdentity&) const = default;
};

// The identity of `path` (its canonical path, stat, fingerprints and write-ahead log); invalid
// when it cannot be read.
FileIdentity identifyFile(const std::string& path);

}  // namespace skew
