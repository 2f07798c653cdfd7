#pragma once
// What a row of an export must hold to be kept (docs/analysis.md, Loading): the loader's table
// readers (table_readers.cpp) check every row with these as SQLite hands it over, and skip and
// count the rows that fail.

#include <cstdint>

#include "model/profile.h"
#include "nsys/export_reader.h"

namespace skew::reader {

// One row's integer columns, each read once (RowValues::ints).
struct Row {
    int64_t v[8];
    Query::Kind k[8];
    bool isInt(int c) const { return k[c] == Query::kInt; }
    bool isNull(int c) const { return k[c] == Query::kNull; }
};

// A row's [start, end] is usable when both are integers within kMaxAbsTimeNs and end >= start:
// text, NULL, REAL or wild values would give wrapped or negative durations downstream.
inline bool usableInterval(const Row& r, int startCol, int endCol) {
    if (!r.isInt(startCol) || !r.isInt(endCol)) return false;
    int64_t a = r.v[startCol], b = r.v[endCol];
    return a >= -kMaxAbsTimeNs && a <= kMaxAbsTimeNs && b >= a && b <= kMaxAbsTimeNs;
}
// device and stream ids: small non-negative integers
inline bool smallId(const Row& r, int col) { return r.isInt(col) && r.v[col] >= 0 && r.v[col] <= INT32_MAX; }
// a correlation id: a whole number below kNoCorrelation
inline bool usableCorrelation(const Row& r, int col) { return r.isInt(col) && r.v[col] >= 0 && r.v[col] < int64_t(kNoCorrelation); }

}  // namespace skew::reader
