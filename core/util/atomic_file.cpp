#include "util/atomic_file.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <random>
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

std::string octal(unsigned mode) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04o", mode);
    return buf;
}

// A new file `prefix` + 6 random characters, created as a new output is (0666 less the umask;
// mkstemp would make it 0600). Returns its descriptor (-1, errno set) and its name.
int createTemp(const std::string& prefix, std::string& name) {
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = prefix;
        for (int i = 0; i < 6; ++i) name += kChars[random() % (sizeof kChars - 1)];
        int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
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
    if (exists) {
        // a file made read-only (or one we may not write) is not replaced behind the user's back
        if ((st.st_mode & 0222) == 0 || ::access(path_.c_str(), W_OK) != 0)
            throw std::runtime_error("cannot write " + path_ + ": it exists and is read-only (mode " + octal(st.st_mode & 07777) +
                                     "); not replacing it. Make it writable or remove it first");
        keepMode_ = true;
        mode_ = st.st_mode & 07777;
    }
    std::string dir = ".";
    if (auto slash = path_.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path_.substr(0, slash);
    std::string base = path_.substr(path_.rfind('/') == std::string::npos ? 0 : path_.rfind('/') + 1);
    fd_ = createTemp(dir + "/." + base + ".tmp", temp_);
    if (fd_ < 0) fail("cannot write " + path_ + " (no temporary file in " + dir + ")", errno);
    onSignal_ = CleanupPath(temp_, CleanupKind::File);  // Ctrl-C while writing: no temporary file left
}

OutputFile::~OutputFile() {
    if (committed_ || stdout_) return;
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    onSignal_.release();
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
    if (keepMode_) ::fchmod(fd_, mode_t(mode_));  // a file replaced keeps its mode; a new one has the umask's
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) fail("cannot write " + path_, errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot replace " + path_, errno);
    onSignal_.release();
    committed_ = true;
}

void writeOutput(const std::string& path, std::string_view data) {
    OutputFile out(path);
    out.write(data);
    out.commit();
}

}  // namespace skew
