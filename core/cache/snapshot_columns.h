#pragma once
// The columns of a profile snapshot on disk (cache/snapshot_format.h): buffered writes summed into
// the payload's checksum, each column written with its own; and the reading side, which checks
// every length against what is left and reads the columns themselves afterwards, in parallel.
// Columns are stored raw (the profile cache: read at the disk's speed) or compact (a summary,
// cache/summary_file.h: each value the zigzag varint of its difference from the one before).

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "model/columns.h"
#include "util/checksum.h"

namespace skew::snapshot {

enum class Columns { Raw, Compact };

// Compact columns: each value's difference from the one before (wrapping, on 64 bits), zigzagged
// and written as a varint. decodeDeltas is false when the bytes do not hold exactly `n` values.
template <typename T>
void encodeDeltas(const T* v, size_t n, int64_t off, std::string& out) {
    static_assert(std::is_integral_v<T>);
    uint64_t prev = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t x = uint64_t(int64_t(v[i]) - off);
        const int64_t d = int64_t(x - prev);
        prev = x;
        uint64_t z = (uint64_t(d) << 1) ^ uint64_t(d >> 63);
        while (z >= 0x80) out.push_back(char(uint8_t(z) | 0x80)), z >>= 7;
        out.push_back(char(z));
    }
}
template <typename T>
bool decodeDeltas(const unsigned char* p, size_t bytes, T* v, size_t n) {
    const unsigned char* end = p + bytes;
    uint64_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t z = 0;
        for (int shift = 0;; shift += 7) {
            if (p == end || shift > 63) return false;
            const uint8_t b = *p++;
            z |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) break;
        }
        acc += (z >> 1) ^ (~(z & 1) + 1);
        v[i] = T(int64_t(acc));
    }
    return p == end;
}

// Buffered writes to a file descriptor, summed into the checksum.
class Writer {
public:
    explicit Writer(int fd, Columns columns = Columns::Raw) : fd_(fd), columns_(columns) {}
    void bytes(const void* p, size_t n) {
        sum.update(p, n);
        raw(p, n);
    }
    void raw(const void* p, size_t n) {
        const char* c = static_cast<const char*>(p);
        while (n > 0 && ok) {
            if (buf_.size() + n <= kBuf) {
                buf_.insert(buf_.end(), c, c + n);
                return;
            }
            flush();
            if (n >= kBuf) {  // large columns go straight to the file
                ssize_t w = ::write(fd_, c, n);
                if (w <= 0) {
                    if (w < 0 && errno == EINTR) continue;
                    ok = false, error = errno ? errno : EIO;
                    return;
                }
                c += w, n -= size_t(w);
            }
        }
    }
    void flush() {
        size_t off = 0;
        while (off < buf_.size() && ok) {
            ssize_t w = ::write(fd_, buf_.data() + off, buf_.size() - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) ok = false, error = errno ? errno : EIO;
            else off += size_t(w);
        }
        buf_.clear();
    }
    template <typename T>
    void pod(T v) { bytes(&v, sizeof v); }
    void str(const std::string& s) {
        pod(uint32_t(s.size()));
        bytes(s.data(), s.size());
    }
    // A column: its length, its data, then the data's own checksum; the payload's checksum covers
    // the length and that checksum, so the columns can be read and checked in parallel.
    template <typename T>
    void vec(const std::vector<T>& v) {
        if (columns_ == Columns::Compact) return compact(v.data(), v.size(), 0);
        pod(uint64_t(v.size()));
        Checksum c;
        c.update(v.data(), v.size() * sizeof(T));
        raw(v.data(), v.size() * sizeof(T));
        pod(c.final());
    }
    // a compact integer column as stored: whether it is wide, then its values
    template <typename Narrow>
    void ints(const CompactInts<Narrow>& d) {
        pod<uint8_t>(d.wide());
        if (d.wide()) vec(d.wideValuesOnly());
        else vec(d.narrowValues());
    }
    // a coded id column: whether it is wide, then its values, or its dictionary and codes; `dict`
    // is the dictionary or the values as they go to the file (string ids: the snapshot's own)
    void coded(const CodedIds& c, const std::vector<uint32_t>& dict) {
        pod<uint8_t>(c.wide());
        vec(dict);
        if (!c.wide()) vec(c.codes());
    }
    // times put back on the file's own clock
    void times(const std::vector<int64_t>& v, int64_t off) {
        if (columns_ == Columns::Compact) return compact(v.data(), v.size(), off);
        pod(uint64_t(v.size()));
        Checksum c;
        std::vector<int64_t> chunk;
        for (size_t i = 0; i < v.size(); i += 65536) {
            size_t n = std::min<size_t>(65536, v.size() - i);
            chunk.assign(v.begin() + long(i), v.begin() + long(i + n));
            for (auto& t : chunk) t -= off;
            c.update(chunk.data(), n * sizeof(int64_t));
            raw(chunk.data(), n * sizeof(int64_t));
        }
        pod(c.final());
    }
    Checksum sum;
    bool ok = true;
    int error = 0;

private:
    // a compact column: its length, its coded bytes' length, the coded bytes, their checksum
    template <typename T>
    void compact(const T* v, size_t n, int64_t off) {
        std::string coded;
        encodeDeltas(v, n, off, coded);
        pod(uint64_t(n));
        pod(uint64_t(coded.size()));
        Checksum c;
        c.update(coded.data(), coded.size());
        raw(coded.data(), coded.size());
        pod(c.final());
    }
    static constexpr size_t kBuf = 1 << 20;
    int fd_;
    Columns columns_;
    std::vector<char> buf_;
};

// Where a snapshot is read from: a file descriptor (the profile cache's file), or bytes in memory
// (a summary's snapshot, decompressed: no system call per field).
struct Source {
    int fd = -1;
    const char* data = nullptr;  // when not null: the snapshot's `size` bytes
    uint64_t size = 0;
    static Source file(int fd) { return {fd, nullptr, 0}; }
    static Source memory(const char* p, uint64_t n) { return {-1, p, n}; }
    // the n bytes at `at` into p: false when they are not all there
    bool read(void* p, size_t n, uint64_t at) const {
        if (data) {
            if (at > size || n > size - at) return false;
            std::memcpy(p, data + at, n);
            return true;
        }
        char* c = static_cast<char*>(p);
        for (size_t got = 0; got < n;) {
            ssize_t r = ::pread(fd, c + got, n - got, off_t(at + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return false;
            got += size_t(r);
        }
        return true;
    }
    // the n bytes at `at` in memory, else null (read them)
    const char* at(uint64_t at, uint64_t n) const { return data && at <= size && n <= size - at ? data + at : nullptr; }
};

// Reads the payload from its source at its own position, summed into the checksum; every length
// is checked against what is left, so a damaged count cannot make it allocate wildly.
// Columns are not read here: each becomes a job (its length, where its data is, the data's
// checksum), run once the payload's checksum has vouched for every length (readColumns).
class Reader {
public:
    Reader(Source src, uint64_t at, uint64_t payload, Columns columns = Columns::Raw)
        : src_(src), pos_(at), left_(payload), columns_(columns) {}
    bool bytes(void* p, size_t n) {
        if (!ok || n > left_) return ok = false;
        if (!src_.read(p, n, pos_)) return ok = false;
        pos_ += n, left_ -= n;
        sum.update(p, n);
        return true;
    }
    template <typename T>
    T pod() {
        T v{};
        bytes(&v, sizeof v);
        return v;
    }
    std::string str() {
        uint32_t n = pod<uint32_t>();
        if (!ok || n > left_) {
            ok = false;
            return {};
        }
        std::string s(n, '\0');
        bytes(s.data(), n);
        return s;
    }
    struct Column {
        uint64_t at = 0, bytes = 0, checksum = 0;
        std::function<char*()> resize;  // sizes the destination, returns where its data goes
        // compact: decodes the column's bytes into the destination (false: they do not fit)
        std::function<bool(const unsigned char*, size_t)> decode;
    };
    template <typename T>
    void vec(std::vector<T>& v) {
        if (columns_ == Columns::Compact) return compact(v);
        uint64_t n = pod<uint64_t>();
        if (!ok || n > left_ / sizeof(T)) {
            ok = false;
            return;
        }
        Column c;
        c.at = pos_, c.bytes = n * sizeof(T);
        pos_ += c.bytes, left_ -= c.bytes;
        c.checksum = pod<uint64_t>();
        c.resize = [&v, n] {
            v.resize(size_t(n));
            return reinterpret_cast<char*>(v.data());
        };
        columns.push_back(std::move(c));
    }
    template <typename Narrow>
    void ints(CompactInts<Narrow>& d) {
        const uint8_t wide = pod<uint8_t>();
        if (wide > 1) ok = false;
        if (wide) d.assign(std::vector<int64_t>());
        d.visit([&](auto& v) { vec(v); });
    }
    // a coded column, read into `c` and put into its column once the data is in (CodedIds::assign)
    struct Coded {
        CodedIds* target = nullptr;
        bool strings = false;  // the ids are string ids (checked against the table)
        uint8_t wide = 0;
        std::vector<uint32_t> dict;  // or the values, when wide
        std::vector<uint16_t> codes;
    };
    void coded(Coded& c) {
        c.wide = pod<uint8_t>();
        if (c.wide > 1) ok = false;
        vec(c.dict);
        if (!c.wide) vec(c.codes);
    }
    Checksum sum;
    bool ok = true;
    std::vector<Column> columns;
    uint64_t left() const { return left_; }

private:
    // a compact column: every value takes a byte at least, so its length is bounded by its bytes
    template <typename T>
    void compact(std::vector<T>& v) {
        const uint64_t n = pod<uint64_t>(), bytes = pod<uint64_t>();
        if (!ok || bytes > left_ || n > bytes) {
            ok = false;
            return;
        }
        Column c;
        c.at = pos_, c.bytes = bytes;
        pos_ += bytes, left_ -= bytes;
        c.checksum = pod<uint64_t>();
        c.decode = [&v, n](const unsigned char* p, size_t b) {
            v.resize(size_t(n));
            return decodeDeltas(p, b, v.data(), size_t(n));
        };
        columns.push_back(std::move(c));
    }
    Source src_;
    uint64_t pos_, left_;
    Columns columns_;
};

// Reads the columns on up to `threads` threads, largest first: each sizes its column, reads it and
// checks its checksum (the zeroing page faults, the copies and the sums shared by the cores); a
// compact column in memory is checked and decoded where it is. "" when every column was read whole
// and matched, else why not.
std::string readColumns(const Source& src, std::vector<Reader::Column>& cols, size_t threads);

}  // namespace skew::snapshot
