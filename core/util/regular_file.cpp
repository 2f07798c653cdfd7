#include "util/regular_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace skew {

int openRegularFile(const std::string& path, std::string& why) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        why = std::strerror(errno);
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        why = S_ISDIR(st.st_mode) ? "a directory" : "not a regular file (a pipe, device or socket)";
        ::close(fd);
        return -1;
    }
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

bool existsNotRegular(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;  // (a dangling link: SQLite finds nothing there either)
    return !S_ISREG(st.st_mode);
}

}  // namespace skew
