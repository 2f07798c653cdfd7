#include "session/snapshots.h"

#include "model/snapshot_store.h"

namespace skew {

static bool isFresh(const InputFile& in) { return !in.fromSnapshot && in.identity.valid(); }

bool hasFreshFiles(const Profile& p) {
    for (const auto& in : p.inputs)
        if (isFresh(in)) return true;
    return false;
}

std::string storeFreshSnapshots(SnapshotStore* cache, const Profile& p) {
    if (!cache) return {};
    for (size_t f = 0; f < p.inputs.size(); ++f) {
        if (!isFresh(p.inputs[f])) continue;
        std::string error;
        if (!cache->store(p, int(f), &error)) return error;
    }
    return {};
}

}  // namespace skew
