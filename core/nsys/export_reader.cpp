#include "nsys/export_reader.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

#include "nsys/report_convert.h"
#include "util/regular_file.h"

namespace skew {
namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string resolveInput(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw InputError("cannot open " + path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputError(path + " is a directory, not an Nsight Systems export");
    if (!S_ISREG(st.st_mode)) throw InputError(path + " is not a regular file (a pipe, device or socket), not an Nsight Systems export");
    if (endsWith(path, ".nsys-rep") || endsWith(path, ".qdrep")) return convertReport(path);
    readHeader(path, uint64_t(st.st_size));
    return path;
}

SqliteHeader readHeader(const std::string& path, uint64_t fileSize) {
    if (fileSize == 0) throw InputError(path + " is empty (0 bytes), not an Nsight Systems export");
    std::string why;
    int fd = openRegularFile(path, why);  // a FIFO put there since the check: refused, not waited on
    if (fd < 0) throw InputError("cannot read " + path + ": " + why);
    unsigned char hdr[100] = {};
    ssize_t n = ::pread(fd, hdr, sizeof hdr, 0);
    ::close(fd);
    size_t got = n > 0 ? size_t(n) : 0;
    if (got < 16 || std::memcmp(hdr, "SQLite format 3", 16) != 0)
        throw InputError(path + " is not an SQLite database; expected an export made with `nsys export --type sqlite`");
    if (got < 100) throw InputError(path + " is truncated: " + std::to_string(fileSize) + " bytes, shorter than an SQLite header");
    uint64_t pageSize = (uint64_t(hdr[16]) << 8) | hdr[17];
    if (pageSize == 1) pageSize = 65536;
    uint64_t pages = (uint64_t(hdr[28]) << 24) | (uint64_t(hdr[29]) << 16) | (uint64_t(hdr[30]) << 8) | hdr[31];
    if (pages > 0 && pageSize * pages > fileSize)
        throw InputError(path + " is truncated: its header says " + std::to_string(pageSize * pages) +
                         " bytes but the file has " + std::to_string(fileSize));
    SqliteHeader h;
    h.wal = hdr[18] == 2 || hdr[19] == 2;  // file format write/read versions: 2 is WAL mode
    return h;
}

std::string sqliteProblem(sqlite3* db, int rc, const std::string& path) {
    const std::string said = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    switch (rc) {
    case SQLITE_READONLY_ROLLBACK:
        return path + " has an unfinished write (a hot journal, " + path +
               "-journal) that SQLite must roll back before anyone can read it; Skewscope opens exports read-only. "
               "Roll it back with `sqlite3 " + path + " 'PRAGMA quick_check'` where you may write, or export again";
    case SQLITE_READONLY_RECOVERY:
    case SQLITE_READONLY_CANTINIT:
    case SQLITE_READONLY_CANTLOCK:
        return path + " is in WAL mode and its WAL index cannot be opened read-only (folder not writable?); checkpoint it "
               "with `sqlite3 " + path + " 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE'` where you may write";
    }
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return path + " is locked by another process (SQLite: " + said +
               "); wait until the program writing it has finished, then try again";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return path + " is damaged or truncated (SQLite: " + said + ")";
    case SQLITE_IOERR: return "cannot read " + path + ": I/O error (SQLite: " + said + ")";
    case SQLITE_NOMEM: return "out of memory while reading " + path;
    case SQLITE_CANTOPEN: return "cannot open " + path + " (SQLite: " + said + ")";
    default: return path + ": cannot read (SQLite: " + said + ")";
    }
}

Query::Query(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr);
    if (rc != SQLITE_OK) throw InputError(sqliteProblem(db, sqlite3_extended_errcode(db), path));
}

Query::~Query() { sqlite3_finalize(stmt_); }

Query& Query::bind(int index, const std::string& text) {
    if (int rc = sqlite3_bind_text(stmt_, index, text.c_str(), int(text.size()), SQLITE_TRANSIENT); rc != SQLITE_OK)
        throw InputError(sqliteProblem(db_, rc, path_));
    return *this;
}

Query& Query::bind(int index, int64_t value) {
    if (int rc = sqlite3_bind_int64(stmt_, index, value); rc != SQLITE_OK) throw InputError(sqliteProblem(db_, rc, path_));
    return *this;
}

bool Query::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    stepFailed_ = true;
    throw InputError(sqliteProblem(db_, sqlite3_extended_errcode(db_), path_));
}

void Query::reset() {
    // after a failed step, sqlite3_reset returns that step's error (thrown by step() already) and
    // resets all the same; any other error is its own
    const int rc = sqlite3_reset(stmt_);
    const bool repeated = std::exchange(stepFailed_, false);
    if (rc != SQLITE_OK && !repeated) throw InputError(sqliteProblem(db_, sqlite3_extended_errcode(db_), path_));
}

bool Query::isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
bool Query::isInteger(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_INTEGER; }
int64_t Query::i64(int col) const { return sqlite3_column_int64(stmt_, col); }
std::string_view Query::text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    // NULL for a NULL value; for any other, SQLite could not make the text (out of memory)
    if (!t && sqlite3_column_type(stmt_, col) != SQLITE_NULL) throw InputError(sqliteProblem(db_, SQLITE_NOMEM, path_));
    if (!t) return {};
    return {reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

bool RowValues::isNull(int col) const { return sqlite3_value_type(v_[col]) == SQLITE_NULL; }
int64_t RowValues::i64(int col) const { return sqlite3_value_int64(v_[col]); }
std::string_view RowValues::text(int col) const {
    const unsigned char* t = sqlite3_value_text(v_[col]);
    if (!t) return {};
    return {reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_value_bytes(v_[col]))};
}
void RowValues::ints(int n, int64_t* values, Query::Kind* kinds) const {
    for (int c = 0; c < n; ++c) {
        int t = sqlite3_value_type(v_[c]);
        kinds[c] = t == SQLITE_INTEGER ? Query::kInt : t == SQLITE_NULL ? Query::kNull : Query::kOther;
        values[c] = t == SQLITE_NULL ? 0 : sqlite3_value_int64(v_[c]);
    }
}

namespace {
constexpr const char* kRowFunction = "skewscope_row";
}

RowScan::RowScan(sqlite3* db, const std::string& table, const std::string& columns, const std::string& path, const std::string& filter)
    : db_(db), path_(path) {
    // SQLITE_DIRECTONLY: SQL stored in the file (views, triggers) can never call it
    if (sqlite3_create_function_v2(db, kRowFunction, -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, this, &RowScan::rowFunction, nullptr,
                                   nullptr, nullptr) != SQLITE_OK)
        throw InputError(path + ": cannot read (SQLite: " + sqlite3_errmsg(db) + ")");
    // the function returns NULL: every row of the range is counted; under a filter, CASE calls it
    // only for the rows the filter holds for, and SQLite reads only the columns the filter names
    // of the others
    const std::string call = std::string(kRowFunction) + "(" + columns + ")";
    query_ = std::make_unique<Query>(db, "SELECT count(*) FROM " + table + " WHERE rowid >= ?1 AND rowid < ?2 AND " +
                                             (filter.empty() ? call : "CASE WHEN " + filter + " THEN " + call + " END") + " IS NULL",
                                     path);
}

RowScan::~RowScan() {
    query_.reset();
    // Unregistering fails only while another statement of the connection runs (SQLITE_BUSY), and a
    // destructor cannot throw. The function then still points here, but only a RowScan's own
    // statement calls it (SQLITE_DIRECTONLY), and the next RowScan registers it anew (its
    // constructor throws when it cannot), so a failure here is harmless and left unreported.
    [[maybe_unused]] const int rc =
        sqlite3_create_function_v2(db_, kRowFunction, -1, SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr, nullptr);
}

void RowScan::rowFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
    auto* self = static_cast<RowScan*>(sqlite3_user_data(ctx));
    try {
        self->call_(self->fn_, argv);  // no result: NULL, the row is not counted
    } catch (...) {
        // nothing may unwind through SQLite: the error stops the statement, run() rethrows
        self->error_ = std::current_exception();
        sqlite3_result_error(ctx, "stopped", -1);
    }
}

uint64_t RowScan::runScan(int64_t lo, int64_t hi) {
    error_ = nullptr;
    query_->reset();
    query_->bind(1, lo).bind(2, hi);
    uint64_t rows = 0;
    try {
        while (query_->step()) rows = uint64_t(query_->i64(0));
    } catch (const InputError&) {
        if (!error_) throw;
    }
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return rows;
}

namespace {

// "file:" URI of a path: everything but unreserved characters and '/' percent-encoded. Not
// immutable: a WAL export read with its -wal, whose WAL index (-shm) is opened read-only
// (readonly_shm): a reader would otherwise write its read marks into the -shm beside the input.
std::string fileUri(const std::string& path, bool immutable) {
    static const char* hex = "0123456789ABCDEF";
    std::string u = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') u += char(c);
        else u += '%', u += hex[c >> 4], u += hex[c & 15];
    }
    u += immutable ? "?immutable=1" : "?readonly_shm=1";
    return u;
}

off_t fileSize(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

}  // namespace

static int64_t mmapBytes() {
    // SKEWSCOPE_MMAP_MB overrides the memory map of each connection (0: none; for measurements)
    if (const char* e = std::getenv("SKEWSCOPE_MMAP_MB"); e && *e) return std::max<int64_t>(0, std::atoll(e)) << 20;
    return kDefaultMmapBytes;
}

Connection::Connection(const std::string& path, int64_t cacheKiB) : path_(path) {
    SqliteHeader header = readHeader(path, uint64_t(std::max<off_t>(fileSize(path), 0)));
    // SQLite opens the journal, WAL and WAL index beside the file without O_NONBLOCK: a FIFO there
    // would hang the read forever (docs/analysis.md, Loading)
    for (const char* side : {"-journal", "-wal", "-shm"})
        if (existsNotRegular(path + side))
            throw InputError(path + side + " is not a regular file (a pipe, device, socket or folder where SQLite keeps " +
                             (side == std::string("-journal") ? "its rollback journal" : "the WAL files") +
                             "); Skewscope does not read through it. Remove it, or copy the export elsewhere");
    // A WAL-mode file would make even a read-only connection create -wal and -shm files beside it.
    // Without pending WAL content, everything is in the main file: open it immutable (creates
    // nothing). With pending content the WAL index is needed: only when it already exists.
    bool immutable = false;
    if (header.wal) {
        off_t wal = fileSize(path + "-wal");
        if (wal <= 0) immutable = true;
        else if (fileSize(path + "-shm") < 0)
            throw InputError(path + " is in WAL mode with changes not yet checkpointed into it (" + path + "-wal, " +
                             std::to_string(wal) + " bytes); reading it would create " + path +
                             "-shm beside it. Checkpoint it first: sqlite3 " + path +
                             " 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE'");
    }
    int rc = sqlite3_open_v2(fileUri(path, immutable).c_str(), &db_,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqliteProblem(db_, sqlite3_extended_errcode(db_), path) : "cannot open " + path + ": out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(msg);
    }
    int rcs = sqlite3_extended_result_codes(db_, 1);
    if (rcs == SQLITE_OK) rcs = sqlite3_busy_timeout(db_, 1000);  // a writer holding the file briefly: wait, then say it is locked
    if (rcs != SQLITE_OK) {
        std::string msg = sqliteProblem(db_, rcs, path);
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(msg);
    }
    // Never trust SQL stored in the file (views, triggers, functions in the schema), never write.
    int trusted = 1, defensive = 0;
    bool configured = sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &trusted) == SQLITE_OK &&
                      sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, &defensive) == SQLITE_OK &&
                      sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr) == SQLITE_OK &&
                      trusted == 0 && defensive == 1;
    // the pragmas read the schema: a lock, a hot journal or damage shows up here first
    const std::string pragmas = "PRAGMA query_only=1; PRAGMA cache_size=-" + std::to_string(cacheKiB) +
                                "; PRAGMA mmap_size=" + std::to_string(mmapBytes()) + ";";
    int rcp = configured ? sqlite3_exec(db_, pragmas.c_str(), nullptr, nullptr, nullptr) : SQLITE_OK;
    if (!configured || rcp != SQLITE_OK) {
        std::string msg = !configured ? "cannot open " + path + " safely: SQLite refused a read-only setting (" +
                                            sqlite3_errmsg(db_) + ")"
                                      : sqliteProblem(db_, sqlite3_extended_errcode(db_), path);
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(msg);
    }
}

Connection::~Connection() { sqlite3_close(db_); }

ExportFile::ExportFile(const std::string& path) : path_(path), conn_(path) {
    sqlite3* db_ = conn_.db();
    {
        Query q(db_, "SELECT name FROM sqlite_master WHERE type='table'", path);
        while (q.step()) tables_.emplace_back(q.text(0));
    }
    std::string metaTable = hasTable("META_DATA_EXPORT") ? "META_DATA_EXPORT"
                            : hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA" : "";
    if (metaTable.empty() || !hasTable("StringIds"))
        throw InputError(path + " is an SQLite database but not an Nsight Systems export (no META_DATA_EXPORT and StringIds tables)");
    Query q(db_, "SELECT name, value FROM " + metaTable, path);
    while (q.step()) meta_.emplace_back(std::string(q.text(0)), std::string(q.text(1)));
    if (hasTable("TARGET_INFO_SESSION_START_TIME") && columns("TARGET_INFO_SESSION_START_TIME").count("utcEpochNs")) {
        Query st(db_, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME", path);
        // a wall-clock time from 1970 to about 2116: anything else cannot place the file
        if (st.step()) {
            if (st.isInteger(0) && st.i64(0) >= 0 && st.i64(0) <= kMaxUtcNs) {
                hasSessionStart_ = true;
                sessionStartUtcNs_ = st.i64(0);
            } else {
                sessionStartUnusable_ = true;
            }
        }
    }
}

ExportFile::~ExportFile() = default;

bool ExportFile::hasTable(const std::string& t) const {
    for (const auto& n : tables_)
        if (n == t) return true;
    return false;
}

const std::set<std::string>& ExportFile::columns(const std::string& table) {
    if (auto it = columns_.find(table); it != columns_.end()) return it->second;
    std::set<std::string> cols;
    if (hasTable(table)) {
        Query q(db(), "SELECT name FROM pragma_table_info(?1)", path_);
        q.bind(1, table);
        while (q.step()) cols.emplace(q.text(0));
    }
    return columns_.emplace(table, std::move(cols)).first->second;
}

std::string ExportFile::colOrNull(const std::string& table, const std::string& col) {
    return columns(table).count(col) ? col : "NULL";
}

int64_t ExportFile::estimatedRows(const std::string& table) { return rowidBounds(table).second; }

std::pair<int64_t, int64_t> ExportFile::rowidBounds(const std::string& table) {
    if (!hasTable(table)) return {0, 0};
    Query q(db(), rowidBoundsSql(table), path_);
    if (!q.step() || q.isNull(0)) return {0, 0};
    return {q.i64(0), q.i64(1)};
}

// min and max of the rowid as two subqueries: each is one seek in the table's B-tree. The plain
// "SELECT min(rowid), max(rowid)" is not: SQLite's min/max optimisation takes a single aggregate,
// and with two it scans the whole table (0.57 s per call on a 6-million-kernel export).
std::string rowidBoundsSql(const std::string& table) {
    const std::string t = "\"" + table + "\"";
    return "SELECT (SELECT min(rowid) FROM " + t + "), (SELECT max(rowid) FROM " + t + ")";
}

std::string ExportFile::meta(const std::string& name) const {
    for (const auto& [n, v] : meta_)
        if (n == name) return v;
    return {};
}

}  // namespace skew
