#pragma once
// Converting an Nsight Systems report (.nsys-rep, .qdrep) to an SQLite export with `nsys export`,
// into a private scratch folder, never next to the report. `nsys` runs in its own process group
// with a time limit (SKEWSCOPE_NSYS_TIMEOUT_S, default kNsysTimeoutS); when it runs over, fails, or
// the run is interrupted (SIGINT/SIGTERM, util/interrupt_cleanup.h), it is stopped and the scratch
// folder removed.

#include <string>

namespace skew {

constexpr int kNsysTimeoutS = 1800;

// The time limit of one conversion: SKEWSCOPE_NSYS_TIMEOUT_S (whole seconds, 1 to 604800) or the
// default; throws InputError for a value that is not one.
int nsysTimeoutSeconds();

// Returns the path of the converted export, in a folder of its own (the caller removes it, with
// the file, once read). Throws InputError.
std::string convertReport(const std::string& path);

}  // namespace skew
