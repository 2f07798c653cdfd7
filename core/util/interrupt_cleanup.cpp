#include "util/interrupt_cleanup.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <mutex>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace skew {
namespace {

// A slot is Free, being Written by its registrant, Ready for the handler, or Taken by the handler
// (which then owns it: the process is about to die).
enum SlotState : int { kFree, kWriting, kReady, kTaken };

constexpr int kPathSlots = 64, kChildSlots = 8;

struct PathSlot {
    std::atomic<int> state{kFree};
    CleanupKind kind = CleanupKind::File;
    char path[PATH_MAX] = {};
};
struct ChildSlot {
    std::atomic<int> state{kFree};
    pid_t group = 0;
};

PathSlot paths[kPathSlots];
ChildSlot children[kChildSlots];
std::atomic<unsigned> order{0};  // registration order, newest removed first
unsigned pathOrder[kPathSlots];

const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The files directly in `dir` unlinked, its empty subfolders removed, then `dir` (raw system
// calls: opendir and readdir are not async-signal-safe).
void removeFolder(const char* dir) {
    int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        alignas(8) char buf[4096];
        long n;
        while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct Entry {
                    ino64_t ino;
                    off64_t next;
                    unsigned short len;
                    unsigned char type;
                    char name[1];
                };
                const Entry* e = reinterpret_cast<const Entry*>(buf + off);
                off += e->len;
                if (std::strcmp(e->name, ".") == 0 || std::strcmp(e->name, "..") == 0) continue;
                if (::unlinkat(fd, e->name, 0) != 0) ::unlinkat(fd, e->name, AT_REMOVEDIR);
            }
        }
        ::close(fd);
    }
    ::rmdir(dir);
}

void onSignal(int sig) {
    const int savedErrno = errno;
    for (auto& c : children) {
        int ready = kReady;
        if (!c.state.compare_exchange_strong(ready, kTaken)) continue;
        ::kill(-c.group, SIGKILL);
        int status = 0;
        while (::waitpid(c.group, &status, 0) < 0 && errno == EINTR) {
        }
    }
    // newest first: the files in a folder go before the folder
    for (unsigned pass = 0; pass < kPathSlots; ++pass) {
        int newest = -1;
        for (int i = 0; i < kPathSlots; ++i)
            if (paths[i].state.load() == kReady && (newest < 0 || pathOrder[i] > pathOrder[newest])) newest = i;
        if (newest < 0) break;
        int ready = kReady;
        if (!paths[newest].state.compare_exchange_strong(ready, kTaken)) continue;
        if (paths[newest].kind == CleanupKind::Folder) removeFolder(paths[newest].path);
        else ::unlink(paths[newest].path);
    }
    errno = savedErrno;
    // the default action, once this handler returns (the signal is blocked while it runs)
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void installHandlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int sig : kSignals) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
            struct sigaction sa {};
            sa.sa_handler = onSignal;
            sigemptyset(&sa.sa_mask);
            for (int other : kSignals) sigaddset(&sa.sa_mask, other);  // one cleanup at a time
            ::sigaction(sig, &sa, nullptr);
        }
    });
}

template <class Slot, size_t N>
int claim(Slot (&slots)[N]) {
    installHandlers();
    for (size_t i = 0; i < N; ++i) {
        int freeState = kFree;
        if (slots[i].state.compare_exchange_strong(freeState, kWriting)) return int(i);
    }
    return -1;
}

template <class Slot, size_t N>
void unclaim(Slot (&slots)[N], int& slot) {
    if (slot < 0) return;
    int ready = kReady;
    // (Taken: the handler is removing it and the process ends; leave it be)
    slots[slot].state.compare_exchange_strong(ready, kFree);
    slot = -1;
}

}  // namespace

CleanupPath::CleanupPath(const std::string& path, CleanupKind kind) {
    if (path.size() >= PATH_MAX) return;
    slot_ = claim(paths);
    if (slot_ < 0) return;
    PathSlot& s = paths[slot_];
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.kind = kind;
    pathOrder[slot_] = order.fetch_add(1);
    s.state.store(kReady);
}

CleanupPath& CleanupPath::operator=(CleanupPath&& o) noexcept {
    if (this != &o) {
        release();
        slot_ = o.slot_;
        o.slot_ = -1;
    }
    return *this;
}

void CleanupPath::release() { unclaim(paths, slot_); }

CleanupChild::CleanupChild(pid_t processGroup) {
    if (processGroup <= 0) return;
    slot_ = claim(children);
    if (slot_ < 0) return;
    children[slot_].group = processGroup;
    children[slot_].state.store(kReady);
}

void CleanupChild::release() { unclaim(children, slot_); }

}  // namespace skew
