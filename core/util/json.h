#pragma once
// Minimal streaming JSON writer: keys in insertion order, integers exact, strings escaped.

#include <cstdint>
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
};

}  // namespace skew
