#pragma once
// Opening one Nsight Systems SQLite export safely (read-only, trusted_schema off, no SQL from the
// file is ever run) and reading its tables: a query (Query), or a row-id range handed row by row to
// a callback from inside SQLite (RowScan; the loader reads each big table as several such ranges,
// each on its own connection), columns looked up by name.

#include <cstdint>
#include <functional>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "util/errors.h"

struct sqlite3;
struct sqlite3_stmt;
struct sqlite3_value;
struct sqlite3_context;

namespace skew {

// A prepared statement with column lookup; each call throws InputError when SQLite fails.
class Query {
public:
    Query(sqlite3* db, const std::string& sql, const std::string& path);
    ~Query();
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    Query& bind(int index, const std::string& text);  // 1-based, as in SQLite
    Query& bind(int index, int64_t value);
    bool step();
    void reset();  // to step again from the start (bindings kept)
    bool isNull(int col) const;
    bool isInteger(int col) const;  // stored as an integer (not text, real, blob or NULL)
    int64_t i64(int col) const;
    std::string_view text(int col) const;
    // How a value is stored: an integer (kInt), NULL (kNull) or something else (kOther).
    enum Kind : uint8_t { kInt, kNull, kOther };

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    std::string path_;
    bool stepFailed_ = false;  // the last step threw: reset() then returns that error again
};

// One row of a RowScan: its columns' values, valid while the callback runs.
class RowValues {
public:
    explicit RowValues(sqlite3_value** v) : v_(v) {}
    bool isNull(int col) const;
    int64_t i64(int col) const;  // as Query::i64 gives it
    std::string_view text(int col) const;
    // Columns 0..n-1, each looked at once: its value as i64() gives it (NULL: 0) and its kind.
    // The loader's row loops use it instead of several calls per column.
    void ints(int n, int64_t* values, Query::Kind* kinds) const;

private:
    sqlite3_value** v_;
};

// A scan of the rows lo <= rowid < hi of one table in which SQLite hands each row to a callback
// from inside its own loop: the columns are the arguments of an application function in the
// WHERE clause (registered on the connection, callable from our SQL only), so no row is returned
// and no column is fetched through the statement. About a third less work per row than stepping a
// SELECT and fetching its columns (a 6M-row kernel scan: 1.24 s against 1.8 s). One RowScan at a
// time per connection. An exception the callback throws stops the scan and comes out of run();
// a read error throws InputError. With a `filter` (an SQL condition on the table's columns), only
// the rows it holds for reach the callback: SQLite decodes the other columns of the rest not at
// all (the runtime table's calls that launch nothing).
class RowScan {
public:
    RowScan(sqlite3* db, const std::string& table, const std::string& columns, const std::string& path, const std::string& filter = {});
    ~RowScan();
    RowScan(const RowScan&) = delete;
    RowScan& operator=(const RowScan&) = delete;

    // onRow(const RowValues&) for each row of [lo, hi) (that the filter holds for), in rowid order;
    // returns the number of rows in [lo, hi), filtered out or not.
    template <class F>
    uint64_t run(int64_t lo, int64_t hi, F&& onRow) {
        call_ = [](void* f, sqlite3_value** v) { (*static_cast<std::remove_reference_t<F>*>(f))(RowValues(v)); };
        fn_ = const_cast<void*>(static_cast<const void*>(&onRow));  // (a const callable too)
        return runScan(lo, hi);
    }

private:
    static void rowFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv);
    uint64_t runScan(int64_t lo, int64_t hi);
    sqlite3* db_;
    std::string path_;
    std::unique_ptr<Query> query_;
    void (*call_)(void*, sqlite3_value**) = nullptr;
    void* fn_ = nullptr;
    std::exception_ptr error_;
};

// The memory map each connection asks SQLite for (see docs/analysis.md, Loading): none, since a
// map made loading only 2-3% faster and put the export's pages in the resident size users see
// (1.7 GB instead of 0.42 GB on a 1 GB export); SKEWSCOPE_MMAP_MB sets one, for measurements.
constexpr int64_t kDefaultMmapBytes = 0;

// A read-only connection to an export with the safety settings (read-only, trusted_schema off,
// defensive, query_only, no checkpoint on close; WAL exports opened immutable), closed on
// destruction. Throws InputError with one clear line.
class Connection {
public:
    explicit Connection(const std::string& path, int64_t cacheKiB = 2048);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    sqlite3* db() const { return db_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

class ExportFile {
public:
    // Validates and opens `path`; throws InputError with one clear line.
    explicit ExportFile(const std::string& path);
    ~ExportFile();
    ExportFile(const ExportFile&) = delete;
    ExportFile& operator=(const ExportFile&) = delete;

    const std::string& path() const { return path_; }
    const std::vector<std::string>& tables() const { return tables_; }
    bool hasTable(const std::string& t) const;
    const std::set<std::string>& columns(const std::string& table);  // empty when no such table
    // "col" when the table has it, else "NULL" (so optional columns read as absent)
    std::string colOrNull(const std::string& table, const std::string& col);
    // Estimated row count (max rowid), O(log n): for progress and splitting.
    int64_t estimatedRows(const std::string& table);
    // The smallest and largest rowid of a table ({0, 0} when empty or absent), O(log n).
    std::pair<int64_t, int64_t> rowidBounds(const std::string& table);

    std::string meta(const std::string& name) const;  // META_DATA_EXPORT / EXPORT_META_DATA value
    bool hasSessionStart() const { return hasSessionStart_; }
    int64_t sessionStartUtcNs() const { return sessionStartUtcNs_; }
    // a session start row whose utcEpochNs is not an integer from 1970 to about 2116 (treated as none)
    bool sessionStartUnusable() const { return sessionStartUnusable_; }

    sqlite3* db() const { return conn_.db(); }

private:
    std::string path_;
    Connection conn_;
    std::vector<std::string> tables_;
    std::map<std::string, std::set<std::string>> columns_;
    std::vector<std::pair<std::string, std::string>> meta_;
    bool hasSessionStart_ = false;
    int64_t sessionStartUtcNs_ = 0;
    bool sessionStartUnusable_ = false;
};

// Session starts outside [0, kMaxUtcNs] (1970 to about 2116) are treated as absent: they cannot place
// the file on the wall clock, and keeping them bounded keeps every aligned time within int64.
constexpr int64_t kMaxUtcNs = int64_t(1) << 62;

struct SqliteHeader {
    bool wal = false;  // the file is in WAL mode
};
// Checks the first 100 bytes (SQLite magic, size the header claims); throws InputError.
SqliteHeader readHeader(const std::string& path, uint64_t fileSize);

// One line that says what went wrong, from an SQLite (extended) result code.
std::string sqliteProblem(sqlite3* db, int rc, const std::string& path);

// Checks a path before SQLite sees it; converts .nsys-rep with `nsys export` when nsys is on PATH.
// Returns the path of the SQLite export to open. Throws InputError.
std::string resolveInput(const std::string& path);

// The SQL of ExportFile::rowidBounds: the smallest and largest rowid of `table` by two seeks (its
// query plan searches the table's B-tree and never scans it).
std::string rowidBoundsSql(const std::string& table);

}  // namespace skew
