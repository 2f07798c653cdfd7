#pragma once
// The profile cache, the folder side: after a successful load, each export's part of the profile
// is kept as a snapshot (cache/snapshot_format.h) in the user's cache folder, never next to the
// input, and reopening the same file reads the snapshot instead of the export.
//
// A snapshot's file name is a hash of the export's canonical path; inside, the export's identity
// (util/file_identity.h) and the format version decide whether it still holds. A stale, truncated
// or corrupted snapshot is ignored (a debug line with SKEWSCOPE_DEBUG) and rebuilt. Writes go to a
// temporary file renamed into place (concurrent runs are safe); the folder has a size limit with
// least-recently-used eviction; a folder that cannot be written costs only the speed-up. Each
// file's snapshot stands alone, so the snapshots of a large job's per-rank files could be made on
// the machines that hold them and merged like parts of one load.
//
// The folder must be ours (docs/analysis.md, "Profile cache"): the shared fallback in $TMPDIR or
// /tmp is used only when it is a real folder owned by this user and writable by no one else (else
// no cache, and refused() says why); housekeeping (clear, eviction, a crashed writer's leftovers)
// deletes only files that begin with a snapshot's magic.

#include <cstdint>
#include <string>
#include <vector>

#include "model/file_part.h"
#include "model/profile.h"
#include "model/snapshot_store.h"

namespace skew {

class ProfileCache : public SnapshotStore {
public:
    // `dir` empty: $SKEWSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/skewscope (an absolute one: a
    // relative one is ignored, as the XDG spec says), else ~/.cache/skewscope, else
    // $TMPDIR/skewscope-cache-UID (/tmp without an absolute TMPDIR) when that is ours.
    // `maxBytes` 0: $SKEWSCOPE_CACHE_MAX_MB (a whole number of MB, 1 to kMaxCacheMb; anything
    // else is a warning and the default), else 4 GiB.
    explicit ProfileCache(std::string dir = {}, uint64_t maxBytes = 0);

    static constexpr uint64_t kMaxCacheMb = uint64_t(1) << 24;  // 16 TiB

    const std::string& dir() const { return dir_; }
    uint64_t maxBytes() const { return maxBytes_; }
    // Why the folder is not used, "" when it is: load and store then fail, and clear removes nothing.
    const std::string& refused() const { return refused_; }
    // What the settings got wrong, for the caller to say once.
    const std::vector<std::string>& warnings() const { return warnings_; }

    // Reads the snapshot of `id` into `part`; false (with the reason) when there is none or it is
    // stale, truncated or corrupted: `part` is then left as it was.
    bool load(const FileIdentity& id, FilePart& part, std::string* why = nullptr) override;

    // Writes the snapshot of file `file` of `p` (times put back on the file's own clock). False with
    // the reason when the cache folder cannot be written; evicts the least recently used snapshots
    // beyond the size limit.
    bool store(const Profile& p, int file, std::string* error = nullptr) override;

    struct Info {
        uint64_t entries = 0, bytes = 0;
    };
    Info info() const;
    struct Cleared {
        uint64_t removed = 0;
        std::vector<std::string> failed;  // "path: reason" of each snapshot (or the folder) not removed
    };
    // Removes every snapshot (and a crashed writer's leftovers): how many, and what could not be.
    Cleared clear();

private:
    std::string pathOf(const FileIdentity& id) const;
    void evict(const std::string& keep);

    std::string dir_;
    uint64_t maxBytes_;
    std::string refused_;
    std::vector<std::string> warnings_;
};

}  // namespace skew
