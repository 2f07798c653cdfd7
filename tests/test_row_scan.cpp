// RowScan (nsys/export_reader.h): the loader's row loop inside SQLite, on a small hand-made file:
// the rows of a rowid range in order with their values and kinds as sqlite3_column_* gives them,
// a second run of the same scan, a filter handing on only its rows (every row counted), an
// exception from the callback stopping the scan and coming out of run(), and the row function out
// of reach of SQL stored in the file. SQLite's failures, in a
// Query and in the tests' own SQL helpers, are errors.

#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>

#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "nsys/export_reader.h"
#include "test_util.h"

namespace {

struct Seen {
    int64_t rowid;
    std::vector<int64_t> values;
    std::vector<skew::Query::Kind> kinds;
    std::string text;
};

// A table t(id INTEGER PRIMARY KEY, a, b, c) of 10 rows: a = 10 * id, b of every kind, c text,
// written with the SQLite C API; and a view that calls the row function.
std::string makeFile() {
    const std::string path = testutil::tempDir("rowscan") + "/t.sqlite";
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const char* sql =
        "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b, c TEXT);"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) "
        "INSERT INTO t SELECT i, 10 * i, CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN i WHEN 2 THEN 'x' || i ELSE i + 0.5 END, 'r' || i FROM n;"
        "CREATE VIEW v AS SELECT skewscope_row(a) FROM t;";
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
    return path;
}

std::vector<Seen> scan(skew::RowScan& s, int64_t lo, int64_t hi) {
    std::vector<Seen> out;
    s.run(lo, hi, [&](const skew::RowValues& row) {
        Seen x;
        x.values.resize(3);
        x.kinds.resize(3);
        row.ints(3, x.values.data(), x.kinds.data());
        x.rowid = x.values[0];
        x.text = std::string(row.text(3));
        out.push_back(std::move(x));
    });
    return out;
}

TEST(RowScan, RowsOfTheRangeInOrderWithTheirKinds) {
    const std::string path = makeFile();
    skew::Connection c(path);
    skew::RowScan s(c.db(), "t", "id, a, b, c", path);
    std::vector<Seen> rows = scan(s, 3, 8);  // rowids 3..7
    ASSERT_EQ(rows.size(), 5u);
    for (size_t i = 0; i < rows.size(); ++i) {
        const int64_t id = int64_t(i) + 3;
        EXPECT_EQ(rows[i].rowid, id);
        EXPECT_EQ(rows[i].values[1], 10 * id);
        EXPECT_EQ(rows[i].kinds[1], skew::Query::kInt);
        EXPECT_EQ(rows[i].text, "r" + std::to_string(id));
    }
    // b: 3 -> 3.5 (REAL, read as 3), 4 -> NULL (0), 5 -> 5, 6 -> 'x6' (TEXT, read as 0), 7 -> 7.5
    EXPECT_EQ(rows[0].kinds[2], skew::Query::kOther);
    EXPECT_EQ(rows[0].values[2], 3);
    EXPECT_EQ(rows[1].kinds[2], skew::Query::kNull);
    EXPECT_EQ(rows[1].values[2], 0);
    EXPECT_EQ(rows[2].kinds[2], skew::Query::kInt);
    EXPECT_EQ(rows[2].values[2], 5);
    EXPECT_EQ(rows[3].kinds[2], skew::Query::kOther);
    EXPECT_EQ(rows[3].values[2], 0);
    EXPECT_EQ(rows[4].kinds[2], skew::Query::kOther);
    EXPECT_EQ(rows[4].values[2], 7);
    // the same scan again, over another range
    std::vector<Seen> again = scan(s, 9, 100);
    ASSERT_EQ(again.size(), 2u);
    EXPECT_EQ(again[0].rowid, 9);
    EXPECT_EQ(again[1].rowid, 10);
}

TEST(RowScan, AnExceptionFromTheCallbackStopsTheScan) {
    const std::string path = makeFile();
    skew::Connection c(path);
    skew::RowScan s(c.db(), "t", "id", path);
    int calls = 0;
    EXPECT_THROW(s.run(1, 11,
                       [&](const skew::RowValues& row) {
                           ++calls;
                           if (row.i64(0) == 4) throw skew::Cancelled();
                       }),
                 skew::Cancelled);
    EXPECT_EQ(calls, 4);
    // and the scan can run again afterwards (with a named const callable this time)
    calls = 0;
    const auto count = [&](const skew::RowValues&) { ++calls; };
    s.run(1, 11, count);
    EXPECT_EQ(calls, 10);
}

TEST(RowScan, AFilterHandsOnItsRowsOnlyAndEveryRowOfTheRangeIsCounted) {
    const std::string path = makeFile();
    skew::Connection c(path);
    std::vector<int64_t> ids;
    const auto seen = [&](const skew::RowValues& row) { ids.push_back(row.i64(0)); };
    {  // (one RowScan at a time on a connection)
        skew::RowScan all(c.db(), "t", "id, a, b, c", path);
        EXPECT_EQ(all.run(3, 8, seen), 5u);  // rowids 3..7, each to the callback
        EXPECT_EQ(ids, (std::vector<int64_t>{3, 4, 5, 6, 7}));
    }
    ids.clear();
    {
        skew::RowScan some(c.db(), "t", "id, a", path, "a = 30 OR a = 70 OR a = 90");
        EXPECT_EQ(some.run(1, 11, seen), 10u);
        EXPECT_EQ(ids, (std::vector<int64_t>{3, 7, 9}));
        ids.clear();
        EXPECT_EQ(some.run(4, 9, seen), 5u);  // rowids 4..8: only 7 holds
        EXPECT_EQ(ids, (std::vector<int64_t>{7}));
    }
    ids.clear();
    {
        skew::RowScan none(c.db(), "t", "id", path, "0");
        EXPECT_EQ(none.run(1, 11, seen), 10u);
        EXPECT_TRUE(ids.empty());
    }
}

TEST(RowScan, SqlStoredInTheFileCannotCallTheRowFunction) {
    const std::string path = makeFile();
    skew::Connection c(path);
    skew::RowScan s(c.db(), "t", "id", path);  // the function is registered now
    sqlite3_stmt* st = nullptr;
    const int rc = sqlite3_prepare_v2(c.db(), "SELECT * FROM v", -1, &st, nullptr);
    const int step = rc == SQLITE_OK ? sqlite3_step(st) : rc;
    sqlite3_finalize(st);
    EXPECT_NE(step, SQLITE_ROW);
    EXPECT_NE(std::string(sqlite3_errmsg(c.db())).find("unsafe use of skewscope_row"), std::string::npos) << sqlite3_errmsg(c.db());
}

// A binding SQLite refuses is an InputError with sqliteProblem's message, as a failed step is; a
// reset after a failed step (which returns that step's error again) is not a failure of its own.
TEST(RowScan, SqliteFailuresOfAQueryAreInputErrors) {
    const std::string path = makeFile();
    skew::Connection c(path);
    skew::Query q(c.db(), "SELECT a FROM t WHERE id = ?1", path);
    for (bool text : {false, true}) {
        try {
            text ? q.bind(2, std::string("x")) : q.bind(2, int64_t(1));  // the statement has one parameter
            ADD_FAILURE() << "no error";
        } catch (const skew::InputError& e) {
            EXPECT_EQ(std::string(e.what()), path + ": cannot read (SQLite: column index out of range)");
        }
    }
    q.bind(1, int64_t(3));
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.i64(0), 30);
    skew::Query bad(c.db(), "SELECT abs(-9223372036854775807 - 1)", path);  // integer overflow: a step error
    EXPECT_THROW(bad.step(), skew::InputError);
    EXPECT_NO_THROW(bad.reset());
}

// The tests' SQL helpers fail the test, with SQLite's message, for a file that does not open or SQL
// that fails, instead of answering "no row".
TEST(TestHelpers, SqlFailuresFailTheTest) {
    static std::string path;
    path = makeFile();
    EXPECT_EQ(testutil::sqlCount(path, "SELECT a FROM t WHERE id = 2"), 20);
    EXPECT_EQ(testutil::sqlText(path, "SELECT c FROM t WHERE id = 2"), "r2");
    EXPECT_EQ(testutil::sqlCount(path, "SELECT a FROM t WHERE id = 99"), -1);  // no row: not a failure
    EXPECT_NONFATAL_FAILURE(testutil::sqlCount(path + ".missing", "SELECT 1"), "cannot open");
    EXPECT_NONFATAL_FAILURE(testutil::sqlCount(path, "SELECT nope FROM t"), "no such column: nope");
    EXPECT_NONFATAL_FAILURE(testutil::sqlText(path, "SELECT c FROM missing"), "no such table: missing");
}

}  // namespace
