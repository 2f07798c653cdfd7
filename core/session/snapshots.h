#pragma once
// Snapshots of freshly read exports: after a capture is shown (the viewer) or its output written
// (the command line), each file that was read from its export, not from its snapshot, is stored in
// the profile cache so that the next open is fast. One function for both clients.

#include <string>

#include "model/profile.h"

namespace skew {

class SnapshotStore;

// True when some file of `p` was read from its export and can be identified (it has a snapshot to store).
bool hasFreshFiles(const Profile& p);

// Stores the snapshot of every fresh file of `p` (none without a cache). Returns the first error,
// empty when all were stored: after one, the rest are not tried (the folder is the problem, not the file).
std::string storeFreshSnapshots(SnapshotStore* cache, const Profile& p);

}  // namespace skew
