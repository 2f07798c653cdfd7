#pragma once
// The two errors every layer may throw or catch: input that cannot be read (the command line's
// exit code 3) and a cancelled load or analysis. Here, at the bottom, so that nothing has to
// include the export reader (nsys/) to catch them.

#include <stdexcept>

namespace skew {

// Input that cannot be read: missing, not SQLite, not an export, truncated. CLI exit code 3.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown by a load or an analysis whose progress callback asked to stop.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace skew
