#pragma once
// Opening a file to read without ever waiting on it: a FIFO, a device or a socket at a path where a
// regular file is expected (an export, its journal, a snapshot) would block open() or read()
// forever. The path is opened non-blocking and its type checked on the open descriptor.

#include <string>

namespace skew {

// The descriptor of `path` opened read-only (O_CLOEXEC, blocking reads) when it is a regular file;
// -1 otherwise, with `why` saying what it is ("a pipe, device or socket", or strerror's words).
int openRegularFile(const std::string& path, std::string& why);

// True when `path` exists and is not a regular file (followed through symlinks): a FIFO, a device,
// a socket or a folder. A missing path is false.
bool existsNotRegular(const std::string& path);

}  // namespace skew
