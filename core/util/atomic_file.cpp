#include "util/atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skew {
namespace {

[[noreturn]] void fail(const std::string& what, int err) {
    throw std::runtime_error(what + ": " + std::strerror(err));
}

void writeAll(int fd, std::string_view data, const std::string& path) {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot write " + path, errno);
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

// A symlink is written through (its target replaced atomically), not replaced by a regular file.
std::string resolveLink(const std::string& path) {
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return path;
    char buf[PATH_MAX];
    if (!::realpath(path.c_str(), buf)) return path;  // dangling: replace the link itself
    return buf;
}

}  // namespace

void writeOutput(const std::string& requested, std::string_view data) {
    if (requested == "-") {
        // stdout may be a full disk or a closed pipe too: say so instead of exiting 0
        std::fflush(stdout);
        writeAll(STDOUT_FILENO, data, "standard output");
        return;
    }
    const std::string path = resolveLink(requested);
    struct stat st {};
    bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw std::runtime_error("cannot write " + path + ": it is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        // A pipe, a device such as /dev/null, a socket: write into it, never replace it.
        int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) fail("cannot open " + path, errno);
        try {
            writeAll(fd, data, path);
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (::close(fd) != 0) fail("cannot write " + path, errno);
        return;
    }
    std::string dir = ".";
    if (auto slash = path.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path.substr(0, slash);
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    std::string tmpl = dir + "/." + base + ".tmpXXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) fail("cannot write " + path + " (no temporary file in " + dir + ")", errno);
    try {
        writeAll(fd, data, path);
        if (::fsync(fd) != 0) fail("cannot write " + path, errno);
        ::fchmod(fd, exists ? (st.st_mode & 07777) : 0644);
        int rc = ::close(fd);
        fd = -1;
        if (rc != 0) fail("cannot write " + path, errno);
    } catch (...) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmpl.c_str());
        throw;
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        int e = errno;
        ::unlink(tmpl.c_str());
        fail("cannot replace " + path, e);
    }
}

}  // namespace skew
