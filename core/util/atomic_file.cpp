#include "util/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skew {
namespace {

void writeAll(int fd, std::string_view data, const std::string& what) {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("cannot write " + what + ": " + std::strerror(errno));
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

}  // namespace

void writeOutput(const std::string& path, std::string_view data) {
    if (path == "-") {
        std::fwrite(data.data(), 1, data.size(), stdout);
        std::fflush(stdout);
        return;
    }
    struct stat st {};
    bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw std::runtime_error(path + " is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        // A pipe, a device such as /dev/null, a socket: write into it, never replace it.
        int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
        try {
            writeAll(fd, data, path);
        } catch (...) {
            ::close(fd);
            throw;
        }
        ::close(fd);
        return;
    }
    std::string dir = ".";
    if (auto slash = path.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path.substr(0, slash);
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    std::string tmpl = dir + "/." + base + ".tmpXXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw std::runtime_error("cannot create a file in " + dir + ": " + std::strerror(errno));
    try {
        writeAll(fd, data, path);
        if (::fsync(fd) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        ::fchmod(fd, exists ? (st.st_mode & 07777) : 0644);
    } catch (...) {
        ::close(fd);
        ::unlink(tmpl.c_str());
        throw;
    }
    ::close(fd);
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        int e = errno;
        ::unlink(tmpl.c_str());
        throw std::runtime_error("cannot replace " + path + ": " + std::strerror(e));
    }
}

}  // namespace skew
