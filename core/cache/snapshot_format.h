#pragma once
// The profile cache's snapshot format: one export's part of a profile (model/file_part.h: its
// lanes, processes, strings, metadata; times on the file's own clock) as a binary file. A header
// names the export it was made from (util/file_identity.h: path, size, inode, device, times,
// fingerprints, SQLite's change counter, the -wal file) and the format version; the payload
// carries a checksum over everything but the columns' data, and each column its own (covered by
// the payload's), so columns are read and checked in parallel (cache/snapshot_columns.h). Where
// snapshots are kept is profile_cache.h's.

#include <cstdint>
#include <string>

#include "cache/snapshot_columns.h"
#include "model/file_part.h"
#include "model/profile.h"
#include "util/file_identity.h"

namespace skew {

constexpr uint32_t kSnapshotFormat = 7;  // 2: NVTX ranges without their domain; 3: columns carry their own checksums (read in
                                         // parallel); 4: compact columns (32-bit durations, 16-bit codes), launches in the kernels' lanes;
                                         // 5: the key covers ctime, SQLite's change counter and the -wal file;
                                         // 6: unusable launch rows counted among launch calls only (the runtime scan's filter);
                                         // 7: a launch row whose name id is not an integer names no launch call

// Writes the snapshot of file `file` of `p` (times put back on the file's own clock) into `fd`,
// an empty file open for writing, its columns raw (the cache) or compact (a summary). False with
// the errno of what failed.
bool writeSnapshot(int fd, const Profile& p, int file, int& error, snapshot::Columns columns = snapshot::Columns::Raw);

// Reads the snapshot in `fd` into `part` when it is one of the export `id` names: "" when it was
// whole and valid, else why not ("stale snapshot: ...", "corrupted snapshot (checksum)", ...),
// `part` then left as it was.
std::string readSnapshot(int fd, const FileIdentity& id, FilePart& part);

// Reads the snapshot in the `size` bytes at `data` into `part` whatever export it names (a
// summary's, decompressed; made elsewhere: part.input.identity is then the one it names): "" or
// why not, as readSnapshot.
std::string readStoredSnapshot(const char* data, size_t size, FilePart& part, snapshot::Columns columns);

// Whether the file in `fd` begins with a snapshot's magic: a file the cache wrote (or was
// writing), the only kind its housekeeping deletes.
bool startsWithSnapshotMagic(int fd);

}  // namespace skew
