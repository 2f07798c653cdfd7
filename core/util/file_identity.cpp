#include "util/file_identity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

#include "util/checksum.h"

namespace skew {

namespace {
constexpr size_t kFingerprintBytes = 64 * 1024;
}

FileIdentity identifyFile(const std::string& path) {
    FileIdentity id;
    char buf[PATH_MAX];
    struct stat st {};
    if (!::realpath(path.c_str(), buf) || ::stat(buf, &st) != 0 || !S_ISREG(st.st_mode)) return id;
    int fd = ::open(buf, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return id;
    Checksum sum;
    std::vector<char> chunk(kFingerprintBytes);
    ssize_t n = ::pread(fd, chunk.data(), chunk.size(), 0);
    if (n > 0) sum.update(chunk.data(), size_t(n));
    if (uint64_t(st.st_size) > kFingerprintBytes) {
        n = ::pread(fd, chunk.data(), chunk.size(), std::max<off_t>(0, st.st_size - off_t(kFingerprintBytes)));
        if (n > 0) sum.update(chunk.data(), size_t(n));
    }
    ::close(fd);
    id.canonicalPath = buf;
    id.size = uint64_t(st.st_size);
    id.inode = uint64_t(st.st_ino);
    id.device = uint64_t(st.st_dev);
    id.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    id.fingerprint = sum.final();
    return id;
}

}  // namespace skew
