#pragma once
// The CPU-side tables of an export that recorded OS runtime calls and CPU samples (nsys --trace=osrt
// --sample=process-tree): OSRT_API, COMPOSITE_EVENTS and SAMPLING_CALLCHAINS, with the columns and
// types of the 2024.5 schema (../shared/data/schema; the 2026.2 captures there did not record them).
// Written only when GenConfig::cpuTrace asks: few rows, plain statements.

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace skewgen {
namespace detail {

extern const char* const kCpuTraceDdl;

class CpuTraceTables {
public:
    CpuTraceTables(sqlite3* db, const std::string& path);
    ~CpuTraceTables();
    CpuTraceTables(const CpuTraceTables&) = delete;
    CpuTraceTables& operator=(const CpuTraceTables&) = delete;

    // An OS runtime call; nesting 0 is an outermost call, 1 a call made inside another.
    void osrt(int64_t start, int64_t end, uint64_t gtid, int64_t nameId, int nesting);
    // A CPU sample whose call stack is `topSymbol` called from `callerSymbol` (both StringIds).
    void sample(int64_t start, uint64_t gtid, int64_t topSymbol, int64_t callerSymbol, int64_t module);

private:
    void run(sqlite3_stmt* s);
    sqlite3* db_;
    std::string path_;
    sqlite3_stmt *osrt_ = nullptr, *event_ = nullptr, *frame_ = nullptr;
    int64_t nextSample_ = 1;
};

}  // namespace detail
}  // namespace skewgen
