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

OutputFile::OutputFile(const std::string& requested) {
    if (requested == "-") {
        // stdout may be a full disk or a closed pipe too: say so instead of exiting 0
        std::fflush(stdout);
        stdout_ = true;
        fd_ = STDOUT_FILENO;
        path_ = "standard output";
        return;
    }
    path_ = resolveLink(requested);
    struct stat st {};
    bool exists = ::stat(path_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw std::runtime_error("cannot write " + path_ + ": it is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        // A pipe, a device such as /dev/null, a socket: write into it, never replace it.
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) fail("cannot open " + path_, errno);
        return;
    }
    if (exists) mode_ = st.st_mode & 07777;
    std::string dir = ".";
    if (auto slash = path_.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path_.substr(0, slash);
    std::string base = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
    temp_ = dir + "/." + base + ".tmpXXXXXX";
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0) fail("cannot write " + path_ + " (no temporary file in " + dir + ")", errno);
}

OutputFile::~OutputFile() {
    if (committed_ || stdout_) return;
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::write(std::string_view data) { writeAll(fd_, data, path_); }

void OutputFile::commit() {
    if (stdout_) {
        committed_ = true;
        return;
    }
    if (temp_.empty()) {
        int rc = ::close(fd_);
        fd_ = -1;
        if (rc != 0) fail("cannot write " + path_, errno);
        committed_ = true;
        return;
    }
    if (::fsync(fd_) != 0) fail("cannot write " + path_, errno);
    ::fchmod(fd_, mode_t(mode_));
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) fail("cannot write " + path_, errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot replace " + path_, errno);
    committed_ = true;
}

void writeOutput(const std::string& path, std::string_view data) {
    OutputFile out(path);
    out.write(data);
    out.commit();
}

}  // namespace skew
