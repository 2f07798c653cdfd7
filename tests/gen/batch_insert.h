#pragma once
// Buffered multi-row INSERT of integer rows into one table of an export (optionally held and
// written in start order).

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen_common.h"

namespace skewgen {
namespace detail {

// Multi-row INSERT of integer rows: `rowsPerBatch` rows per statement execution (much faster than
// one row per sqlite3_step), single-row statement for the remainder. kNoValue binds NULL.
class BatchInsert {
public:
    void init(sqlite3* db, const std::string& path, const std::string& head, const std::string& rowValues,
              int params, int rowsPerBatch) {
        db_ = db;
        path_ = &path;
        params_ = params;
        rows_ = rowsPerBatch;
        std::string many = head;
        for (int i = 0; i < rowsPerBatch; ++i) many += (i ? ", " : "") + rowValues;
        one_ = prepare(head + rowValues);
        many_ = prepare(many);
        buf_.reserve(size_t(params) * size_t(rowsPerBatch));
    }
    ~BatchInsert() { finalize(); }
    void finalize() {
        if (one_) sqlite3_finalize(one_);
        if (many_) sqlite3_finalize(many_);
        one_ = many_ = nullptr;
    }
    // Rows held until flushOrdered(), then written in order of their first value (the start).
    void setOrdered(bool on) { ordered_ = on; }
    // Appends one row of `params` values.
    void add(std::initializer_list<int64_t> values) {
        if (ordered_) {
            pending_.insert(pending_.end(), values.begin(), values.end());
            return;
        }
        append(values.begin());
    }
    // The held rows, sorted by start (stable), written.
    void flushOrdered() {
        const size_t n = pending_.size() / size_t(params_);
        std::vector<size_t> order(n);
        for (size_t i = 0; i < n; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return pending_[a * size_t(params_)] < pending_[b * size_t(params_)]; });
        for (size_t i : order) append(pending_.data() + i * size_t(params_));
        pending_.clear();
    }
    void flush() {
        flushOrdered();
        for (size_t i = 0; i < buf_.size(); i += size_t(params_)) bindAll(one_, buf_.data() + i, params_);
        buf_.clear();
    }

private:
    void append(const int64_t* values) {
        buf_.insert(buf_.end(), values, values + params_);
        if (buf_.size() == size_t(params_) * size_t(rows_)) {
            bindAll(many_, buf_.data(), params_ * rows_);
            buf_.clear();
        }
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error("skewgen: " + *path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql.substr(0, 200));
        return s;
    }
    void bindAll(sqlite3_stmt* s, const int64_t* v, int n) {
        for (int i = 0; i < n; ++i) {
            if (v[i] == kNoValue)
                sqlite3_bind_null(s, i + 1);
            else
                sqlite3_bind_int64(s, i + 1, v[i]);
        }
        if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error("skewgen: " + *path_ + ": " + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }

    sqlite3* db_ = nullptr;
    const std::string* path_ = nullptr;
    int params_ = 0, rows_ = 0;
    sqlite3_stmt *one_ = nullptr, *many_ = nullptr;
    std::vector<int64_t> buf_;
    bool ordered_ = false;
    std::vector<int64_t> pending_;
};

}  // namespace detail
}  // namespace skewgen
