#include "util/json.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

#include <cmath>

#include "util/parallel.h"

namespace skew {

namespace {

// The length of the well-formed UTF-8 sequence that starts at s[i] (Unicode's table 3-7: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0 when it is ill-formed; then
// `maximal` is the length of its maximal subpart (the lead byte and the continuation bytes that
// could still have begun a well-formed sequence).
size_t utf8Length(std::string_view s, size_t i, size_t& maximal) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) n = 3;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    size_t k = 1;
    for (; n && k < n && i + k < s.size(); ++k) {
        const unsigned char x = static_cast<unsigned char>(s[i + k]);
        if (x < (k == 1 ? lo : 0x80) || x > (k == 1 ? hi : 0xBF)) break;
    }
    if (n && k == n) return n;
    maximal = k;
    return 0;
}

// Whether one of the 8 bytes at p is below 0x20, '"', '\\' or above 0x7F (each test exact for the
// word as a whole: a byte's borrow reaches only bytes above it, and then a lower byte is flagged too).
inline bool needsLook(const char* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    constexpr uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    auto zeroByte = [](uint64_t v) { return (v - ones) & ~v & high; };
    const uint64_t control = (x - ones * 0x20) & ~x & high;  // a byte below 0x20 (x's high bits excluded)
    return (control | zeroByte(x ^ (ones * '"')) | zeroByte(x ^ (ones * '\\')) | (x & high)) != 0;
}

}  // namespace

// Kernel names, NVTX texts and paths come from the export as bytes, not always UTF-8, and JSON
// text must be. Each maximal subpart of an ill-formed sequence becomes one U+FFFD (the "substitution
// of maximal subparts" Unicode recommends, which browsers and Python's decoder follow): "\xE2\x82"
// before an 'x' is one replacement, "\xFF\xFE" two. Well-formed text is copied byte for byte.
// Control characters (U+0000 to U+001F) are escaped, as JSON requires; '"' and '\\' too.
// Eight bytes at a time are passed over while none of them needs a look (the report's kernel
// names and keys are plain ASCII: a byte loop over them was 3% of a cold `analyze --format json`).
void JsonWriter::escape(std::string& out, std::string_view s) {
    out.push_back('"');
    size_t plain = 0;  // start of the run of characters written as they are
    for (size_t i = 0; i < s.size(); ++i) {
        while (i + 8 <= s.size() && !needsLook(s.data() + i)) i += 8;
        if (i == s.size()) break;
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            size_t maximal = 0;
            if (const size_t n = utf8Length(s, i, maximal)) {
                i += n - 1;
                continue;
            }
            out.append(s.data() + plain, i - plain);
            out += "\xEF\xBF\xBD";  // U+FFFD
            i += maximal - 1;
            plain = i + 1;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: {
            static const char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        }
    }
    out.append(s.data() + plain, s.size() - plain);
    out.push_back('"');
}

void JsonWriter::newline() {
    if (!pretty_) return;
    out_.push_back('\n');
    out_.append(hasItems_.size() * 2, ' ');
}

void JsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!hasItems_.empty()) {
        if (hasItems_.back()) out_.push_back(',');
        hasItems_.back() = true;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    out_.push_back('{');
    hasItems_.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
    bool had = hasItems_.back();
    hasItems_.pop_back();
    if (had) newline();
    out_.push_back(bracket);
    if (sink_ && out_.size() >= chunk_) flush();
    return *this;
}

JsonWriter& JsonWriter::endObject() { return close('}'); }

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    out_.push_back('[');
    hasItems_.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endArray() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view k) {
    beforeValue();
    escape(out_, k);
    out_ += pretty_ ? ": " : ":";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    beforeValue();
    escape(out_, s);
    return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
    beforeValue();
    char buf[24];
    out_.append(buf, size_t(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
    return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
    beforeValue();
    char buf[24];
    out_.append(buf, size_t(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    beforeValue();
    if (!std::isfinite(v)) {
        out_ += "null";
        return *this;
    }
    // %.6g as the C locale writes it, whatever the process's locale (a decimal comma is not JSON)
    char buf[32];
    out_.append(buf, size_t(std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6).ptr - buf));
    return *this;
}

void JsonWriter::arrayItems(size_t n, size_t threads, const std::function<void(JsonWriter&, size_t)>& f, size_t run) {
    threads = threadsOr(threads);
    run = std::max<size_t>(run, 1);
    const size_t runs = (n + run - 1) / run, perRound = threads * 2;
    std::vector<std::string> texts(perRound);
    for (size_t first = 0; first < runs; first += perRound) {
        const size_t count = std::min(perRound, runs - first);
        parallelFor(count, threads, [&](size_t k) {
            JsonWriter sub(pretty_);
            sub.hasItems_ = hasItems_;  // the same depth; after the first run, items came before
            sub.hasItems_.back() = hasItems_.back() || first + k > 0;
            sub.out_ = std::move(texts[k]);
            sub.out_.clear();
            for (size_t i = (first + k) * run, end = std::min(n, i + run); i < end; ++i) f(sub, i);
            texts[k] = std::move(sub.out_);
        });
        for (size_t k = 0; k < count; ++k) {
            out_ += texts[k];
            if (!sink_ || out_.size() < chunk_) continue;
            size_t at = 0;  // handed on in pieces of `chunk` bytes, as the rest of the text
            for (; out_.size() - at >= chunk_; at += chunk_) sink_(std::string_view(out_).substr(at, chunk_));
            out_.erase(0, at);
        }
    }
    if (n > 0) hasItems_.back() = true;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
    beforeValue();
    while (!json.empty() && (json.back() == '\n' || json.back() == ' ')) json.remove_suffix(1);
    out_ += json;
    return *this;
}

JsonWriter& JsonWriter::value(bool v) {
    beforeValue();
    out_ += v ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    out_ += "null";
    return *this;
}

}  // namespace skew
