#pragma once
// Minimal streaming JSON writer: keys in insertion order, integers exact, strings escaped.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace skew {

class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(int64_t v);
    JsonWriter& value(uint64_t v);
    JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
    JsonWriter& value(long long v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(unsigned long long v) { return value(static_cast<uint64_t>(v)); }
    JsonWriter& value(double v);
    JsonWriter& value(bool v);
    JsonWriter& null();
    JsonWriter& raw(std::string_view json);  // a value already written as JSON (a whole document)

    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

    // The items of the array being written (after beginArray), item i written by f(w, i) into a
    // writer of its own: runs of `run` items formatted on up to `threads` threads (0: every core;
    // util/parallel.h), a round of a few runs at a time, appended in order. The text is exactly
    // that of the items written one after another, and memory stays at a few runs' worth.
    void arrayItems(size_t n, size_t threads, const std::function<void(JsonWriter&, size_t)>& f, size_t run = 256);

    // Streaming: the text goes to `sink` in pieces of about `chunk` bytes (at the end of an object
    // or array) instead of being held whole; flush() sends what is left.
    void streamTo(std::function<void(std::string_view)> sink, size_t chunk = size_t(1) << 20) {
        sink_ = std::move(sink);
        chunk_ = chunk;
    }
    void flush() {
        if (sink_ && !out_.empty()) sink_(out_);
        out_.clear();
    }

    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }

    static void escape(std::string& out, std::string_view s);

private:
    void beforeValue();
    JsonWriter& close(char bracket);
    void newline();

    std::string out_;
    bool pretty_;
    std::vector<bool> hasItems_;  // per open container
    bool afterKey_ = false;
    std::function<void(std::string_view)> sink_;
    size_t chunk_ = 0;
};

}  // namespace skew
