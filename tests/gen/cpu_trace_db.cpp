// The CPU-side tables of a generated export (see cpu_trace_db.h).

#include "cpu_trace_db.h"

namespace skewgen {
namespace detail {

const char* const kCpuTraceDdl = R"SQL(
CREATE TABLE OSRT_API (
    start                       INTEGER   NOT NULL,
    end                         INTEGER   NOT NULL,
    eventClass                  INTEGER   NOT NULL,
    globalTid                   INTEGER,
    nameId                      INTEGER   NOT NULL,
    returnValue                 INTEGER   NOT NULL,
    nestingLevel                INTEGER,
    callchainId                 INTEGER   NOT NULL
);
CREATE TABLE COMPOSITE_EVENTS (
    id                          INTEGER   NOT NULL   PRIMARY KEY,
    start                       INTEGER   NOT NULL,
    cpu                         INTEGER,
    threadState                 INTEGER,
    globalTid                   INTEGER,
    cpuCycles                   INTEGER   NOT NULL
);
CREATE TABLE SAMPLING_CALLCHAINS (
    id                          INTEGER   NOT NULL,
    symbol                      INTEGER   NOT NULL,
    module                      INTEGER   NOT NULL,
    kernelMode                  INTEGER,
    thumbCode                   INTEGER,
    unresolved                  INTEGER,
    specialEntry                INTEGER,
    originalIP                  INTEGER,
    unwindMethod                INTEGER,
    stackDepth                  INTEGER   NOT NULL,
    PRIMARY KEY (id, stackDepth)
);
)SQL";

namespace {

sqlite3_stmt* prepare(sqlite3* db, const std::string& path, const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
        throw std::runtime_error("skewgen: " + path + ": " + sqlite3_errmsg(db) + " in: " + sql);
    return s;
}

}  // namespace

CpuTraceTables::CpuTraceTables(sqlite3* db, const std::string& path) : db_(db), path_(path) {
    char* err = nullptr;
    if (sqlite3_exec(db, kCpuTraceDdl, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw std::runtime_error("skewgen: " + path + ": " + msg);
    }
    // eventClass 27: TRACE_PROCESS_EVENT_OS_RUNTIME; callchain 0: none recorded
    osrt_ = prepare(db, path, "INSERT INTO OSRT_API(start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, callchainId) "
                              "VALUES(?1, ?2, 27, ?3, ?4, 0, ?5, 0)");
    event_ = prepare(db, path, "INSERT INTO COMPOSITE_EVENTS(id, start, cpu, threadState, globalTid, cpuCycles) VALUES(?1, ?2, 3, 1, ?3, 1000000)");
    frame_ = prepare(db, path, "INSERT INTO SAMPLING_CALLCHAINS(id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry, "
                               "originalIP, unwindMethod, stackDepth) VALUES(?1, ?2, ?3, 0, 0, 0, 0, ?4, 1, ?5)");
}

CpuTraceTables::~CpuTraceTables() {
    for (sqlite3_stmt* s : {osrt_, event_, frame_})
        if (s) sqlite3_finalize(s);
}

void CpuTraceTables::run(sqlite3_stmt* s) {
    if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error("skewgen: " + path_ + ": " + sqlite3_errmsg(db_));
    sqlite3_reset(s);
}

void CpuTraceTables::osrt(int64_t start, int64_t end, uint64_t gtid, int64_t nameId, int nesting) {
    sqlite3_bind_int64(osrt_, 1, start);
    sqlite3_bind_int64(osrt_, 2, end);
    sqlite3_bind_int64(osrt_, 3, int64_t(gtid));
    sqlite3_bind_int64(osrt_, 4, nameId);
    sqlite3_bind_int64(osrt_, 5, nesting);
    run(osrt_);
}

void CpuTraceTables::sample(int64_t start, uint64_t gtid, int64_t topSymbol, int64_t callerSymbol, int64_t module) {
    const int64_t id = nextSample_++;
    sqlite3_bind_int64(event_, 1, id);
    sqlite3_bind_int64(event_, 2, start);
    sqlite3_bind_int64(event_, 3, int64_t(gtid));
    run(event_);
    const int64_t frames[2] = {topSymbol, callerSymbol};
    for (int depth = 0; depth < 2; ++depth) {
        sqlite3_bind_int64(frame_, 1, id);
        sqlite3_bind_int64(frame_, 2, frames[depth]);
        sqlite3_bind_int64(frame_, 3, module);
        sqlite3_bind_int64(frame_, 4, 0x400000 + id * 16 + depth);
        sqlite3_bind_int64(frame_, 5, depth);
        run(frame_);
    }
}

}  // namespace detail
}  // namespace skewgen
