#pragma once
// One export file being written: its connection, the DDL of its layout, the row writers of the
// kernel, runtime, synchronization and NVTX tables, the string table; and the rows' shapes
// (a kernel row, a rank's identity in its file).

#include <sqlite3.h>

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "batch_insert.h"
#include "cpu_trace_db.h"
#include "gen_common.h"
#include "generator.h"
#include "kernel_kinds.h"
#include "schema_ddl.h"

namespace skewgen {
namespace detail {

struct KRow {
    int64_t start, end;  // file clock
    int32_t kind;
    int32_t stream;
    uint32_t corr;
    int64_t gridId;
};

struct RankInfo {
    int idx = 0, file = 0, pid = 0, device = 0, context = 1;
    uint64_t gpid = 0, gtidMain = 0, gtidOther = 0;
    int streams[3] = {kFsdpStream, kAllReduceStreamBase, kSendRecvStream};
    int64_t shift = 0;     // utcEpochNs(file) - min utcEpochNs
    int64_t clockErr = 0;  // host clock error of the file
};

class Db {
public:
    Db(const std::string& path, Layout layout, const std::vector<Kind>& kinds)
        : path_(path), layout_(layout), kinds_(kinds) {
        std::remove(path.c_str());
        std::remove((path + "-journal").c_str());
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK) {
            std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
            throw std::runtime_error("skewgen: cannot create " + path + ": " + msg);
        }
        // One connection per file, used by one thread: no mutexes (SQLITE_OPEN_NOMUTEX), no journal.
        exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
             "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384;");
        if (layout == Layout::V2026_2) {
            exec(kDdl_V2026);
        } else {
            exec(kDdl_V2024);
            exec(kDdl_V2024_NVTX);
        }
        exec("BEGIN");
        const bool v26 = layout == Layout::V2026_2;
        str_ = prepare("INSERT INTO StringIds(id, value) VALUES(?1, ?2)");
        // Columns left out are NULL (graphNodeId, qmd*, graphId, sharedMemoryRequestedPercentage).
        kernel_.init(db_, path_,
                     std::string("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, ") +
                         (v26 ? "greenContextId, " : "") +
                         "streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, "
                         "cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                         "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, "
                         "sharedMemoryExecuted, sharedMemoryLimitConfig" +
                         (v26 ? ", clusterX, clusterY, clusterZ, clusterSchedulingPolicy, maxPotentialClusterSize, "
                                "maxActiveClusters, tensorSizeMinusOneElements"
                              : "") +
                         ") VALUES ",
                     std::string("(?, ?, ?, ?, ") + (v26 ? "0, " : "") +
                         "?, ?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?" +
                         (v26 ? ", ?, ?, ?, ?, ?, ?, '[]'" : "") + ")",
                     v26 ? 29 : 23, 32);
        runtime_.init(db_, path_,
                      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass, globalTid, correlationId, "
                      "nameId, returnValue, callchainId) VALUES ",
                      "(?, ?, ?, ?, ?, ?, 0, ?)", 7, 64);
        sync_.init(db_, path_,
                   std::string("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start, end, deviceId, contextId, ") +
                       (v26 ? "greenContextId, " : "") + "streamId, correlationId, globalPid, syncType, eventId" +
                       (v26 ? ", eventSyncId" : "") + ") VALUES ",
                   std::string("(?, ?, ?, ?, ") + (v26 ? "0, " : "") + "?, ?, ?, ?, ?" + (v26 ? ", ?" : "") + ")",
                   v26 ? 10 : 9, 64);
        nvtx_.init(db_, path_,
                   "INSERT INTO NVTX_EVENTS(start, end, eventType, globalTid, textId, domainId) VALUES ",
                   "(?, ?, ?, ?, ?, ?)", 6, 64);
        nvtxText_ = prepare(
            "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, textId, domainId) "
            "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        for (const Kind& k : kinds) {
            kindName.push_back(intern(k.name));
            kindShort.push_back(intern(k.shortName));
            kindMangled.push_back(intern(k.mangled));
        }
        sLaunchKernel = intern("cudaLaunchKernel_v7000");
        sLaunchKernelEx = intern("cuLaunchKernelEx");
        sBtLaunchKernel = intern("cudaLaunchKernel");
        sBtLaunchKernelEx = intern("cuLaunchKernelEx");  // backtrace rows: API name without version suffix
        sStreamWait = intern("cudaStreamWaitEvent_v3020");
        sStreamSync = intern("cudaStreamSynchronize_v3020");
        sEventQuery = intern("cudaEventQuery_v3020");
        for (int op = 0; op < 4; ++op) sNvtxNccl[op] = intern(kNvtxNcclNames[op]);
    }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    ~Db() {
        closeStatements();
        if (db_) sqlite3_close(db_);
        if (!committed_) std::remove(path_.c_str());
    }

    void exec(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : "unknown error";
            sqlite3_free(err);
            throw std::runtime_error("skewgen: " + path_ + ": " + msg);
        }
    }
    void exec(const std::string& sql) { exec(sql.c_str()); }

    int64_t intern(const std::string& v) {
        auto it = strings_.find(v);
        if (it != strings_.end()) return it->second;
        const int64_t id = int64_t(strings_.size()) + 1;
        strings_.emplace(v, id);
        sqlite3_bind_int64(str_, 1, id);
        sqlite3_bind_text(str_, 2, v.data(), int(v.size()), SQLITE_TRANSIENT);
        step(str_);
        return id;
    }

    void kernel(const RankInfo& r, const KRow& k) {
        const size_t ki = size_t(k.kind);
        const Kind& kind = kinds_[ki];
        if (layout_ == Layout::V2026_2)
            kernel_.add({k.start, k.end, r.device, r.context, k.stream, k.corr, int64_t(r.gpid), kindName[ki],
                         kindShort[ki], kindMangled[ki], kind.regs, kind.gx, kind.gy, kind.gz, kind.bx, kind.by,
                         kind.bz, kind.staticSmem, kind.dynSmem, kind.localTotal, k.gridId, kind.smemExecuted,
                         kind.limitConfig, kind.cx, kind.cy, kind.cz, kind.cpolicy, kind.cmaxPot, kind.cmaxActive});
        else
            kernel_.add({k.start, k.end, r.device, r.context, k.stream, k.corr, int64_t(r.gpid), kindName[ki],
                         kindShort[ki], kindMangled[ki], kind.regs, kind.gx, kind.gy, kind.gz, kind.bx, kind.by,
                         kind.bz, kind.staticSmem, kind.dynSmem, kind.localTotal, k.gridId, kind.smemExecuted,
                         kind.limitConfig});
        ++kernelRows;
        noteTime(k.end);
    }

    void runtime(int64_t start, int64_t end, int eventClass, uint64_t gtid, uint32_t corr, int64_t nameId,
                 int64_t callchain = kNoValue) {
        runtime_.add({start, end, eventClass, int64_t(gtid), corr, nameId, callchain});
        ++runtimeRows;
        noteTime(end);
    }

    void sync(int64_t start, int64_t end, const RankInfo& r, int stream, uint32_t corr, int syncType,
              int64_t eventId, int64_t eventSyncId) {
        if (layout_ == Layout::V2026_2)
            sync_.add({start, end, r.device, r.context, stream, corr, int64_t(r.gpid), syncType, eventId, eventSyncId});
        else
            sync_.add({start, end, r.device, r.context, stream, corr, int64_t(r.gpid), syncType, eventId});
        ++syncRows;
        noteTime(end);
    }

    // NVTX row without inline text (registered string textId, or a domain row). end/textId kNoValue: NULL.
    void nvtx(int64_t start, int64_t end, int eventType, uint64_t gtid, int64_t textId, int domainId) {
        nvtx_.add({start, end, eventType, int64_t(gtid), textId, domainId});
        ++nvtxRows;
        noteTime(end == kNoValue ? start : end);
    }

    // NVTX row with inline text. end kNoValue: NULL.
    void nvtxText(int64_t start, int64_t end, int eventType, const std::string& text, uint64_t gtid, int domainId) {
        sqlite3_stmt* s = nvtxText_;
        sqlite3_bind_int64(s, 1, start);
        if (end == kNoValue)
            sqlite3_bind_null(s, 2);
        else
            sqlite3_bind_int64(s, 2, end);
        sqlite3_bind_int64(s, 3, eventType);
        sqlite3_bind_text(s, 4, text.data(), int(text.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(s, 5, int64_t(gtid));
        sqlite3_bind_null(s, 6);
        sqlite3_bind_int64(s, 7, domainId);
        step(s);
        ++nvtxRows;
        noteTime(end == kNoValue ? start : end);
    }

    // Each table's rows from now on held per step and written in start order (flushStep).
    void setTimeOrdered() {
        for (BatchInsert* b : {&kernel_, &runtime_, &sync_, &nvtx_}) b->setOrdered(true);
    }
    void flushStep() {
        for (BatchInsert* b : {&kernel_, &runtime_, &sync_, &nvtx_}) b->flushOrdered();
    }

    void commit() {
        kernel_.flush();
        runtime_.flush();
        sync_.flush();
        nvtx_.flush();
        exec("COMMIT");
        closeStatements();
        if (sqlite3_close(db_) != SQLITE_OK) throw std::runtime_error("skewgen: cannot close " + path_);
        db_ = nullptr;
        committed_ = true;
    }

    int64_t maxTime() const { return maxTime_; }

    // The CPU-side tables (OSRT_API, COMPOSITE_EVENTS, SAMPLING_CALLCHAINS): created by enableCpuTrace.
    void enableCpuTrace() { cpuTrace_ = std::make_unique<CpuTraceTables>(db_, path_); }
    CpuTraceTables* cpuTrace() const { return cpuTrace_.get(); }

    std::vector<int64_t> kindName, kindShort, kindMangled;
    int64_t sLaunchKernel = 0, sLaunchKernelEx = 0, sBtLaunchKernel = 0, sBtLaunchKernelEx = 0, sStreamWait = 0,
            sStreamSync = 0, sEventQuery = 0;
    int64_t sNvtxNccl[4] = {0, 0, 0, 0};
    uint64_t kernelRows = 0, runtimeRows = 0, nvtxRows = 0, syncRows = 0;

private:
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error("skewgen: " + path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql);
        return s;
    }
    void step(sqlite3_stmt* s) {
        if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error("skewgen: " + path_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }
    void closeStatements() {
        kernel_.finalize();
        runtime_.finalize();
        sync_.finalize();
        nvtx_.finalize();
        cpuTrace_.reset();
        for (sqlite3_stmt** s : {&str_, &nvtxText_}) {
            if (*s) sqlite3_finalize(*s);
            *s = nullptr;
        }
    }
    void noteTime(int64_t t) { maxTime_ = std::max(maxTime_, t); }

    std::string path_;
    Layout layout_;
    const std::vector<Kind>& kinds_;
    sqlite3* db_ = nullptr;
    sqlite3_stmt *str_ = nullptr, *nvtxText_ = nullptr;
    BatchInsert kernel_, runtime_, sync_, nvtx_;
    std::unique_ptr<CpuTraceTables> cpuTrace_;
    std::unordered_map<std::string, int64_t> strings_;
    int64_t maxTime_ = 0;
    bool committed_ = false;
};

}  // namespace detail
}  // namespace skewgen
