#pragma once
// What an interrupted run must not leave behind: temporary files (an output or a snapshot being
// written), a scratch folder, a child process (`nsys export`). On SIGINT, SIGTERM or SIGHUP the
// handler stops the registered children (SIGKILL to their process group, then reaps them), removes
// the registered paths, newest first, then lets the signal's default action end the process (it
// dies of the signal, as without the handler). Everything the handler does is async-signal-safe:
// fixed slots, no allocation, no locks.
//
// The handlers are installed at the first registration, and only for signals whose disposition is
// the default one (a run under nohup keeps ignoring SIGHUP; a program's own handlers stay).

#include <sys/types.h>

#include <string>

namespace skew {

// How a registered path is removed: a file is unlinked; a folder has the files directly in it
// unlinked (and its empty subfolders removed), then is removed itself.
enum class CleanupKind { File, Folder };

// A registration; removing it (or destroying it) unregisters. Empty (0) when every slot was taken:
// the path is then simply not cleaned up on a signal.
class CleanupPath {
public:
    CleanupPath() = default;
    CleanupPath(const std::string& path, CleanupKind kind);
    ~CleanupPath() { release(); }
    CleanupPath(CleanupPath&& o) noexcept : slot_(o.slot_) { o.slot_ = -1; }
    CleanupPath& operator=(CleanupPath&& o) noexcept;
    CleanupPath(const CleanupPath&) = delete;
    CleanupPath& operator=(const CleanupPath&) = delete;
    void release();  // the path is no longer ours to remove (renamed into place, or removed)

private:
    int slot_ = -1;
};

// A child process group to kill on a signal, until released.
class CleanupChild {
public:
    explicit CleanupChild(pid_t processGroup);
    ~CleanupChild() { release(); }
    CleanupChild(const CleanupChild&) = delete;
    CleanupChild& operator=(const CleanupChild&) = delete;
    void release();

private:
    int slot_ = -1;
};

}  // namespace skew
