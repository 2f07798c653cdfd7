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

// Whether `path` is a regular file that begins with a snapshot's magic (its size and last use
// when it is): the only files housekeeping touches. Opened without following a link or waiting
// on a pipe; `openError`: the errno when it could not be opened to look.
bool isOurs(const std::string& path, struct stat* out = nullptr, int* openError = nullptr) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (openError) *openError = errno;
        return false;
    }
    struct stat st {};
    bool ours = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && startsWithSnapshotMagic(fd);
    ::close(fd);
    if (ours && out) *out = st;
    return ours;
}

// A writer's temporary file (".snapXXXXXX") left an hour ago: its writer crashed or was killed
// (a write takes seconds). Younger ones may be another process's write in progress: left alone.
bool isStaleTemporary(const std::string& dir, const std::string& n) {
    if (n.rfind(".snap", 0) != 0 || isSnapshotName(n)) return false;
    struct stat st {};
    return isOurs(dir + "/" + n, &st) && st.st_mtime + 3600 < ::time(nullptr);
}

std::vector<std::string> namesIn(const std::string& dir, int* error = nullptr) {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
        if (error) *error = errno;
        return names;
    }
    while (dirent* e = ::readdir(d)) names.push_back(e->d_name);
    ::closedir(d);
    return names;
}

// The shared fallback folder in $TMPDIR or /tmp, made if missing: "" when it is ours (a folder, not a link,
// owned by this user, writable by no one else), else why not. Anyone may create it first.
std::string fallbackProblem(const std::string& dir) {
    ::mkdir(dir.c_str(), 0700);
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return std::string("cannot be made (") + std::strerror(errno) + ")";
    if (S_ISLNK(st.st_mode)) return "is a symbolic link";
    if (!S_ISDIR(st.st_mode)) return "is not a folder";
    if (st.st_uid != ::geteuid())
        return "belongs to user " + std::to_string(st.st_uid) + ", not to you (user " + std::to_string(::geteuid()) + ")";
    if (st.st_mode & (S_IWGRP | S_IWOTH)) return "can be written by other users";
    return {};
}

// $SKEWSCOPE_CACHE_MAX_MB in bytes: digits only, 1 to kMaxCacheMb; 0 when unset, invalid or out of range.
uint64_t maxBytesFrom(const char* text) {
    const std::string t = text;
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return 0;
    const uint64_t mb = std::stoull(t);
    return mb >= 1 && mb <= ProfileCache::kMaxCacheMb ? mb << 20 : 0;
}

}  // namespace

ProfileCache::ProfileCache(std::string dir, uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {
    if (dir_.empty()) {
        const char* x = std::getenv("XDG_CACHE_HOME");
        if (const char* d = std::getenv("SKEWSCOPE_CACHE_DIR"); d && *d) dir_ = d;
        else if (x && *x == '/') dir_ = std::string(x) + "/skewscope";  // a relative one is ignored (XDG spec)
        else if (const char* h = std::getenv("HOME"); h && *h) dir_ = std::string(h) + "/.cache/skewscope";
        else {
            const char* t = std::getenv("TMPDIR");
            dir_ = std::string(t && *t == '/' ? t : "/tmp") + "/skewscope-cache-" + std::to_string(::getuid());
            if (std::string why = fallbackProblem(dir_); !why.empty())
                refused_ = "the profile cache folder " + dir_ + " " + why + ": no profile cache is used (set XDG_CACHE_HOME or " +
                           "SKEWSCOPE_CACHE_DIR to a folder of yours)";
        }
    }
    if (maxBytes_ == 0) {
        constexpr uint64_t kDefault = uint64_t(4) << 30;
        maxBytes_ = kDefault;
        if (const char* m = std::getenv("SKEWSCOPE_CACHE_MAX_MB"); m && *m) {
            if (uint64_t b = maxBytesFrom(m)) maxBytes_ = b;
            else
                warnings_.push_back(std::string("SKEWSCOPE_CACHE_MAX_MB=") + m + " is not a whole number of MB from 1 to " +
                                    std::to_string(kMaxCacheMb) + ": the default, " + std::to_string(kDefault >> 20) +
                                    " MB, is used");
        }
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
    if (!refused_.empty()) return fail(refused_);
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
    if (!refused_.empty()) {
        if (error) *error = refused_;
        return false;
    }
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
    if (!refused_.empty()) return i;
    for (const auto& n : namesIn(dir_)) {
        struct stat st {};
        if (isSnapshotName(n) && isOurs(dir_ + "/" + n, &st)) ++i.entries, i.bytes += uint64_t(st.st_size);
    }
    return i;
}

ProfileCache::Cleared ProfileCache::clear() {
    Cleared c;
    if (!refused_.empty()) return c;
    int err = 0;
    const std::vector<std::string> names = namesIn(dir_, &err);
    if (err && err != ENOENT) c.failed.push_back(dir_ + ": " + std::strerror(err));
    for (const auto& name : names) {
        const std::string path = dir_ + "/" + name;
        int openError = 0;
        const bool snapshot = isSnapshotName(name) && isOurs(path, nullptr, &openError);
        // a snapshot's name that cannot be read to check it is one: said (ELOOP: a link, not ours)
        if (openError && openError != ENOENT && openError != ELOOP)
            c.failed.push_back(path + ": cannot be read to check that it is a snapshot (" + std::strerror(openError) + ")");
        if (!snapshot && !isStaleTemporary(dir_, name)) continue;  // not ours: left alone
        if (::unlink(path.c_str()) != 0) {
            if (errno != ENOENT) c.failed.push_back(path + ": " + std::strerror(errno));  // ENOENT: another run's clear
        } else if (isSnapshotName(name)) {
            ++c.removed;
        }
    }
    return c;
}

void ProfileCache::evict(const std::string& keep) {
    struct Entry {
        std::string path;
        uint64_t bytes;
        int64_t used;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    for (const auto& n : namesIn(dir_)) {
        const std::string path = dir_ + "/" + n;
        // a crashed writer's leftovers count against nothing but the disk
        if (isStaleTemporary(dir_, n)) ::unlink(path.c_str());
        struct stat st {};
        if (!isSnapshotName(n) || !isOurs(path, &st)) continue;
        entries.push_back({path, uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec});
        total += uint64_t(st.st_size);
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : entries) {
        if (total <= maxBytes_) break;
        if (e.path == keep) continue;
        if (::unlink(e.path.c_str()) == 0) total -= e.bytes;
    }
}

}  // namespace skew
