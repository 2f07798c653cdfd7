#include "cache/summary_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cache/snapshot_format.h"
#include "util/atomic_file.h"
#include "util/checksum.h"
#include "util/errors.h"
#include "util/regular_file.h"

namespace skew {
namespace {

constexpr char kMagic[8] = {'S', 'K', 'W', 'S', 'U', 'M', '\n', '\0'};
constexpr uint32_t kByteOrder = 0x01020304u;
constexpr int kZstdLevel = 9;
// a summary of a 4 GB export holds some hundred MB; a header that says more is damaged
constexpr uint64_t kMaxRawBytes = uint64_t(1) << 36;

// After the magic: this, then the export's path as given (pathBytes), then the zstd frame of the
// snapshot (bodyBytes, rawBytes once decompressed). The checksum covers all of it, itself as 0.
struct Header {
    uint32_t format = 0, byteOrder = 0;
    uint64_t rawBytes = 0, bodyBytes = 0, checksum = 0;
    uint32_t pathBytes = 0, reserved = 0;
};

uint64_t checksumOf(Header h, const char* rest, size_t n) {
    h.checksum = 0;
    Checksum sum;
    sum.update(&h, sizeof h);
    sum.update(rest, n);
    return sum.final();
}

// An anonymous in-memory file (the snapshot code reads and writes file descriptors).
int memoryFile() {
    int fd = ::memfd_create("skewsum", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error(std::string("cannot make an in-memory file (") + std::strerror(errno) + ")");
    return fd;
}

struct Fd {
    int fd;
    ~Fd() { ::close(fd); }
};

bool readWhole(int fd, std::vector<char>& out) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return false;
    out.resize(size_t(st.st_size));
    for (size_t got = 0; got < out.size();) {
        ssize_t r = ::pread(fd, out.data() + got, out.size() - got, off_t(got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += size_t(r);
    }
    return true;
}

// The snapshot inside the summary `bytes` decompressed into `part`: "" or why not.
std::string decode(const std::vector<char>& bytes, FilePart& part) {
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return "not a Skewscope summary (bad header)";
    Header h;
    if (bytes.size() < sizeof kMagic + sizeof h) return "truncated summary";
    std::memcpy(&h, bytes.data() + sizeof kMagic, sizeof h);
    if (h.byteOrder != kByteOrder || h.format != kSummaryFormat)
        return "summary of another format version (" + std::to_string(h.format) + "; this skewscope reads version " +
               std::to_string(kSummaryFormat) + "): summarize the export again with this version";
    const uint64_t at = sizeof kMagic + sizeof h;
    if (h.pathBytes > PATH_MAX || h.rawBytes > kMaxRawBytes) return "damaged summary (header)";
    if (h.bodyBytes > bytes.size()) return "truncated summary";  // (or a damaged length: the checksum cannot tell)
    const uint64_t whole = at + h.pathBytes + h.bodyBytes;
    if (bytes.size() < whole) return "truncated summary";
    if (bytes.size() > whole) return "damaged summary (bytes after its end)";
    if (checksumOf(h, bytes.data() + at, size_t(h.pathBytes + h.bodyBytes)) != h.checksum) return "corrupted summary (checksum)";
    const char* body = bytes.data() + at + h.pathBytes;
    if (ZSTD_getFrameContentSize(body, size_t(h.bodyBytes)) != h.rawBytes) return "damaged summary (its content's size)";
    const size_t rawBytes = size_t(h.rawBytes);
    std::unique_ptr<char[]> raw(new char[rawBytes]);  // (not zeroed first: zstd fills it)
    const size_t n = ZSTD_decompress(raw.get(), rawBytes, body, size_t(h.bodyBytes));
    if (ZSTD_isError(n) || n != rawBytes) return "damaged summary (does not decompress)";
    // read where it is: no in-memory file, no system call per field (324 a summary before)
    if (std::string bad = readStoredSnapshot(raw.get(), rawBytes, part, snapshot::Columns::Compact); !bad.empty())
        return "damaged summary (" + bad + ")";
    part.input.path.assign(bytes.data() + at, h.pathBytes);
    return {};
}

// The summary at `path` read into `part`: "" or why not.
std::string readSummaryFile(const std::string& path, FilePart& part) {
    std::string why;
    int fd = openRegularFile(path, why);
    if (fd < 0) return "cannot be read (" + why + ")";
    std::vector<char> bytes;
    const bool whole = readWhole(fd, bytes);
    ::close(fd);
    if (!whole) return std::string("cannot be read (") + std::strerror(errno ? errno : EIO) + ")";
    return decode(bytes, part);
}

}  // namespace

void writeSummary(const Profile& p, int file, const std::string& givenPath, const std::string& out) {
    Fd mem{memoryFile()};
    int err = 0;
    if (!writeSnapshot(mem.fd, p, file, err, snapshot::Columns::Compact))
        throw std::runtime_error("cannot summarize " + givenPath + " (" + std::strerror(err ? err : EIO) + ")");
    std::vector<char> raw;
    if (!readWhole(mem.fd, raw)) throw std::runtime_error("cannot summarize " + givenPath + " (" + std::strerror(errno) + ")");
    std::string bytes(sizeof kMagic + sizeof(Header) + givenPath.size() + ZSTD_compressBound(raw.size()), '\0');
    const size_t at = sizeof kMagic + sizeof(Header);
    const size_t n = ZSTD_compress(bytes.data() + at + givenPath.size(), bytes.size() - at - givenPath.size(), raw.data(), raw.size(),
                                   kZstdLevel);
    if (ZSTD_isError(n)) throw std::runtime_error("cannot summarize " + givenPath + " (zstd: " + ZSTD_getErrorName(n) + ")");
    bytes.resize(at + givenPath.size() + n);
    Header h;
    h.format = kSummaryFormat, h.byteOrder = kByteOrder;
    h.rawBytes = raw.size(), h.bodyBytes = n, h.pathBytes = uint32_t(givenPath.size());
    std::memcpy(bytes.data() + at, givenPath.data(), givenPath.size());
    h.checksum = checksumOf(h, bytes.data() + at, givenPath.size() + n);
    std::memcpy(bytes.data(), kMagic, sizeof kMagic);
    std::memcpy(bytes.data() + sizeof kMagic, &h, sizeof h);
    writeOutput(out, bytes);
}

bool holdsSummaryOf(const std::string& out, const FileIdentity& id) {
    FilePart part;
    return id.valid() && readSummaryFile(out, part).empty() && part.input.identity == id;
}

bool SummaryFiles::isSummary(const std::string& path) const {
    const std::string suffix = kSummarySuffix;
    if (path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) return true;
    std::string why;
    int fd = openRegularFile(path, why);
    if (fd < 0) return false;
    char magic[sizeof kMagic];
    const bool ours = ::pread(fd, magic, sizeof magic, 0) == ssize_t(sizeof magic) && std::memcmp(magic, kMagic, sizeof magic) == 0;
    ::close(fd);
    return ours;
}

void SummaryFiles::read(const std::string& path, FilePart& part) const {
    FilePart read;
    if (std::string bad = readSummaryFile(path, read); !bad.empty()) throw InputError(path + ": " + bad);
    read.input.summaryPath = path;
    part = std::move(read);
}

const SummaryReader& summaryFiles() {
    static const SummaryFiles files;
    return files;
}

}  // namespace skew
