#include "cache/profile_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cache/snapshot_format.h"
#include "util/checksum.h"
#include "util/interrupt_cleanup.h"
#include "util/regular_file.h"

namespace skew {
namespace {

void debugLine(const std::string& s) {
    if (std::getenv("SKEWSCOPE_DEBUG")) std::fprintf(stderr, "skewscope: debug: %s\n", s.c_str());
}

std::string hex(uint64_t v) {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
    return b;
}

bool isSnapshotName(const std::string& n) { return n.size() > 5 && n.compare(n.size() - 5, 5, ".snap") == 0 && n[0] != '.'; }

// A writer's temporary file (".snapXXXXXX") left an hour ago: its writer crashed or was killed
// (a write takes seconds). Younger ones may be another process's write in progress: left alone.
bool isStaleTemporary(const std::string& dir, const std::string& n) {
    if (n.rfind(".snap", 0) != 0 || isSnapshotName(n)) return false;
    struct stat st {};
    return ::stat((dir + "/" + n).c_str(), &st) == 0 && st.st_mtime + 3600 < ::time(nullptr);
}

}  // namespace

ProfileCache::ProfileCache(std::string dir, uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {
    if (dir_.empty()) {
        if (const char* d = std::getenv("SKEWSCOPE_CACHE_DIR"); d && *d) dir_ = d;
        else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir_ = std::string(x) + "/skewscope";
        else if (const char* h = std::getenv("HOME"); h && *h) dir_ = std::string(h) + "/.cache/skewscope";
        else dir_ = "/tmp/skewscope-cache-" + std::to_string(::getuid());
    }
    if (maxBytes_ == 0) {
        maxBytes_ = uint64_t(4) << 30;
        if (const char* m = std::getenv("SKEWSCOPE_CACHE_MAX_MB"); m && std::atoll(m) > 0) maxBytes_ = uint64_t(std::atoll(m)) << 20;
    }
}

std::string ProfileCache::pathOf(const FileIdentity& id) const {
    Checksum sum;
    sum.update(id.canonicalPath.data(), id.canonicalPath.size());
    return dir_ + "/" + hex(sum.final()) + ".snap";
}

bool ProfileCache::load(const FileIdentity& id, FilePart& out, std::string* why) {
    auto fail = [&](const std::string& reason) {
        debugLine("profile cache: " + id.canonicalPath + ": " + reason);
        if (why) *why = reason;
        return false;
    };
    if (!id.valid()) return fail("cannot identify the file");
    const std::string path = pathOf(id);
    std::string notOpened;
    int fd = openRegularFile(path, notOpened);  // a FIFO planted there: refused, never waited on
    if (fd < 0) return fail(errno == ENOENT ? "no snapshot" : "snapshot not read: " + notOpened);
    const std::string bad = readSnapshot(fd, id, out);
    ::close(fd);
    if (!bad.empty()) return fail(bad);
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // recently used
    return true;
}

bool ProfileCache::store(const Profile& p, int file, std::string* error) {
    const InputFile& in = p.inputs[size_t(file)];
    auto fail = [&](const std::string& what, int err) {
        if (error) *error = "cannot write the profile cache in " + dir_ + " (" + what + ": " + std::strerror(err) + ")";
        return false;
    };
    if (!in.identity.valid()) return fail("the export cannot be identified", EINVAL);
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return fail("mkdir", ec.value());
    std::string tmpl = dir_ + "/.snapXXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return fail("create", errno);
    CleanupPath onSignal(tmpl, CleanupKind::File);  // Ctrl-C while writing: no temporary file left
    int err = 0;
    bool ok = writeSnapshot(fd, p, file, err);
    if (::close(fd) != 0 && ok) ok = false, err = errno;
    const std::string path = pathOf(in.identity);
    if (ok && ::rename(tmpl.c_str(), path.c_str()) != 0) ok = false, err = errno;
    if (!ok) {
        ::unlink(tmpl.c_str());
        return fail("write", err ? err : EIO);
    }
    evict(path);
    return true;
}

ProfileCache::Info ProfileCache::info() const {
    Info i;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return i;
    while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (!isSnapshotName(n)) continue;
        struct stat st {};
        if (::stat((dir_ + "/" + n).c_str(), &st) == 0) ++i.entries, i.bytes += uint64_t(st.st_size);
    }
    ::closedir(d);
    return i;
}

uint64_t ProfileCache::clear() {
    uint64_t n = 0;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return 0;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) names.push_back(e->d_name);
    ::closedir(d);
    for (const auto& name : names)
        if ((isSnapshotName(name) || isStaleTemporary(dir_, name)) && ::unlink((dir_ + "/" + name).c_str()) == 0 && isSnapshotName(name)) ++n;
    return n;
}

void ProfileCache::evict(const std::string& keep) {
    struct Entry {
        std::string path;
        uint64_t bytes;
        int64_t used;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return;
    std::vector<std::string> stale;
    while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (isStaleTemporary(dir_, n)) stale.push_back(dir_ + "/" + n);
        if (!isSnapshotName(n)) continue;
        struct stat st {};
        std::string path = dir_ + "/" + n;
        if (::stat(path.c_str(), &st) != 0) continue;
        entries.push_back({path, uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec});
        total += uint64_t(st.st_size);
    }
    ::closedir(d);
    for (const auto& s : stale) ::unlink(s.c_str());  // a crashed writer's leftovers count against nothing but the disk
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : entries) {
        if (total <= maxBytes_) break;
        if (e.path == keep) continue;
        if (::unlink(e.path.c_str()) == 0) total -= e.bytes;
    }
}

}  // namespace skew
