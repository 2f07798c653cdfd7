#pragma once
// Writing outputs without ever replacing what is not ours: regular files (or new paths) are
// written to a temp file in the same folder and renamed; pipes and devices are written directly.
// A new file gets 0666 less the umask, a replaced one keeps its mode; an existing read-only file is
// an error, never replaced. SIGINT/SIGTERM while writing removes the temp file
// (util/interrupt_cleanup.h).

#include <string>
#include <string_view>

#include "util/interrupt_cleanup.h"

namespace skew {

// Writes `data` to `path`; "-" is stdout. Throws std::runtime_error with a clear message.
void writeOutput(const std::string& path, std::string_view data);

// The same, written piece by piece (a report too big to hold twice in memory): the pieces go to
// stdout, into a pipe or device, or into the temporary file that commit() syncs and renames over
// `path`. Destroyed without commit(), the temporary file is removed and `path` left as it was.
class OutputFile {
public:
    explicit OutputFile(const std::string& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view data);
    void commit();

private:
    std::string path_;  // what the user named (a symlink resolved)
    std::string temp_;  // empty: written directly (stdout, a pipe, a device)
    int fd_ = -1;
    bool stdout_ = false, committed_ = false;
    bool keepMode_ = false;  // replacing a file: it keeps mode_
    unsigned mode_ = 0644;
    CleanupPath onSignal_;   // the temp file, removed on SIGINT/SIGTERM
};

}  // namespace skew
