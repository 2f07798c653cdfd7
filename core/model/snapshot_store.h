#pragma once
// Where snapshots of files read before are kept: the loader asks it for each file's part before
// reading the export (LoadOptions::cache), and a client that loaded a file from its export hands
// the file back to it. The profile cache (cache/profile_cache.h) is the one implementation; the
// model knows only this interface, so the cache sits above the model and not beside it.

#include <string>

#include "model/file_part.h"
#include "model/profile.h"
#include "util/file_identity.h"

namespace skew {

class SnapshotStore {
public:
    virtual ~SnapshotStore() = default;

    // Reads the snapshot of the file `id` names into `part`; false (with the reason) when there is
    // none or it is stale, truncated or corrupted: `part` is then left as it was.
    virtual bool load(const FileIdentity& id, FilePart& part, std::string* why = nullptr) = 0;

    // Keeps file `file` of `p` (times put back on the file's own clock) for the next load; false
    // with the reason when it cannot.
    virtual bool store(const Profile& p, int file, std::string* error = nullptr) = 0;
};

}  // namespace skew
