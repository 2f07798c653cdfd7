#include "util/file_identity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "util/checksum.h"

namespace skew {

namespace {
constexpr size_t kFingerprintBytes = 64 * 1024;
constexpr size_t kWalHeaderBytes = 32, kWalFrameHeaderBytes = 24;

int64_t nanoseconds(const struct timespec& t) {
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

uint32_t bigEndian32(const unsigned char* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

// The write-ahead log at `path`: its stat, and a fingerprint of its header (page size, checkpoint
// sequence, salts, checksum: a restarted log has new salts) and of the last whole frame's header
// (its salts and cumulative checksum: a commit appended since changes it).
FileIdentity::Wal identifyWal(const std::string& path) {
    FileIdentity::Wal w;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st {};
    if (fd < 0) {
        // absent is a state of its own; present but unreadable is keyed by its stat alone
        if (::stat(path.c_str(), &st) != 0) return w;
    } else if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return w;
    }
    w.exists = true;
    w.size = uint64_t(st.st_size), w.inode = uint64_t(st.st_ino);
    w.mtimeNs = nanoseconds(st.st_mtim);  // not its ctime: see file_identity.h
    if (fd < 0) return w;
    Checksum sum;
    unsigned char header[kWalHeaderBytes] = {};
    ssize_t n = S_ISREG(st.st_mode) ? ::pread(fd, header, sizeof header, 0) : 0;
    if (n > 0) sum.update(header, size_t(n));
    if (n == ssize_t(sizeof header)) {
        const uint64_t pageSize = bigEndian32(header + 8);
        const uint64_t frame = kWalFrameHeaderBytes + pageSize;
        if (pageSize >= 512 && w.size >= kWalHeaderBytes + frame) {
            const uint64_t frames = (w.size - kWalHeaderBytes) / frame;
            unsigned char last[kWalFrameHeaderBytes] = {};
            ssize_t m = ::pread(fd, last, sizeof last, off_t(kWalHeaderBytes + (frames - 1) * frame));
            if (m > 0) sum.update(last, size_t(m));
        }
    }
    ::close(fd);
    w.fingerprint = sum.final();
    return w;
}

}  // namespace

FileIdentity identifyFile(const std::string& path) {
    FileIdentity id;
    char buf[PATH_MAX];
    struct stat st {};
    if (!::realpath(path.c_str(), buf) || ::stat(buf, &st) != 0 || !S_ISREG(st.st_mode)) return id;
    int fd = ::open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return id;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return id;
    }
    Checksum sum;
    std::vector<char> chunk(kFingerprintBytes);
    ssize_t n = ::pread(fd, chunk.data(), chunk.size(), 0);
    if (n > 0) sum.update(chunk.data(), size_t(n));
    // SQLite's header: the file change counter and the version-valid-for number, big-endian
    if (n >= 100 && std::memcmp(chunk.data(), "SQLite format 3", 16) == 0) {
        const auto* h = reinterpret_cast<const unsigned char*>(chunk.data());
        id.changeCounter = bigEndian32(h + 24);
        id.versionValidFor = bigEndian32(h + 92);
    }
    if (uint64_t(st.st_size) > kFingerprintBytes) {
        n = ::pread(fd, chunk.data(), chunk.size(), std::max<off_t>(0, st.st_size - off_t(kFingerprintBytes)));
        if (n > 0) sum.update(chunk.data(), size_t(n));
    }
    ::close(fd);
    id.canonicalPath = buf;
    id.size = uint64_t(st.st_size);
    id.inode = uint64_t(st.st_ino);
    id.device = uint64_t(st.st_dev);
    id.mtimeNs = nanoseconds(st.st_mtim);
    id.ctimeNs = nanoseconds(st.st_ctim);
    id.fingerprint = sum.final();
    id.wal = identifyWal(id.canonicalPath + "-wal");
    return id;
}

}  // namespace skew
