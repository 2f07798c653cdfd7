#include "cache/profile_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>
#include <map>
#include <unordered_map>

#include "model/lane_index.h"
#include "util/checksum.h"
#include "util/parallel.h"

namespace skew {
namespace {

constexpr char kMagic[8] = {'S', 'K', 'W', 'S', 'N', 'A', 'P', '\n'};
constexpr uint32_t kByteOrder = 0x01020304u;
// Buffered writes to a file descriptor, summed into the checksum.
class Writer {
public:
    explicit Writer(int fd) : fd_(fd) {}
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
    static constexpr size_t kBuf = 1 << 20;
    int fd_;
    std::vector<char> buf_;
};

// Reads the payload from a file descriptor at its own position, summed into the checksum; every
// length is checked against what is left, so a damaged count cannot make it allocate wildly.
// Columns are not read here: each becomes a job (its length, where its data is, the data's
// checksum), run once the payload's checksum has vouched for every length (readColumns).
class Reader {
public:
    Reader(int fd, uint64_t at, uint64_t payload) : fd_(fd), pos_(at), left_(payload) {}
    bool bytes(void* p, size_t n) {
        if (!ok || n > left_) return ok = false;
        char* c = static_cast<char*>(p);
        size_t got = 0;
        while (got < n) {
            ssize_t r = ::pread(fd_, c + got, n - got, off_t(pos_ + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return ok = false;
            got += size_t(r);
        }
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
    };
    template <typename T>
    void vec(std::vector<T>& v) {
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
    int fd_;
    uint64_t pos_, left_;
};

// Reads the columns on up to `threads` threads, largest first: each sizes its column, reads it and
// checks its checksum (the zeroing page faults, the copies and the sums shared by the cores).
// "" when every column was read whole and matched, else why not.
std::string readColumns(int fd, std::vector<Reader::Column>& cols, size_t threads) {
    std::sort(cols.begin(), cols.end(), [](const Reader::Column& a, const Reader::Column& b) { return a.bytes > b.bytes; });
    std::atomic<bool> truncated{false}, corrupted{false};
    parallelFor(cols.size(), threads, [&](size_t i) {
        if (truncated || corrupted) return;
        const Reader::Column& c = cols[i];
        char* p = c.resize();
        for (uint64_t got = 0; got < c.bytes;) {
            ssize_t r = ::pread(fd, p + got, size_t(c.bytes - got), off_t(c.at + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) {
                truncated = true;
                return;
            }
            got += uint64_t(r);
        }
        Checksum sum;
        sum.update(p, size_t(c.bytes));
        if (sum.final() != c.checksum) corrupted = true;
    });
    if (truncated) return "truncated or damaged snapshot";
    if (corrupted) return "corrupted snapshot (checksum)";
    return {};
}

struct Header {
    uint32_t format = 0, byteOrder = 0;
    uint64_t payloadBytes = 0, checksum = 0;
    uint64_t size = 0, inode = 0, device = 0, fingerprint = 0;
    int64_t mtimeNs = 0;
};

bool readAll(int fd, void* p, size_t n) {
    char* c = static_cast<char*>(p);
    while (n > 0) {
        ssize_t r = ::read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        c += r, n -= size_t(r);
    }
    return true;
}

void debugLine(const std::string& s) {
    if (std::getenv("SKEWSCOPE_DEBUG")) std::fprintf(stderr, "skewscope: debug: %s\n", s.c_str());
}

std::string hex(uint64_t v) {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
    return b;
}

bool isSnapshotName(const std::string& n) { return n.size() > 5 && n.compare(n.size() - 5, 5, ".snap") == 0 && n[0] != '.'; }

// A writer's temporary file (".snapXXXXXX") left an hour ago: its writer crashed or was killed
// (a write takes seconds). Younger ones may be another process's write in progress: left alone.
bool isStaleTemporary(const std::string& dir, const std::string& n) {
    if (n.rfind(".snap", 0) != 0 || isSnapshotName(n)) return false;
    struct stat st {};
    return ::stat((dir + "/" + n).c_str(), &st) == 0 && st.st_mtime + 3600 < ::time(nullptr);
}

}  // namespace

ProfileCache::ProfileCache(std::string dir, uint64_t maxBytes) : dir_(std::move(dir)), maxBytes_(maxBytes) {
    if (dir_.empty()) {
        if (const char* d = std::getenv("SKEWSCOPE_CACHE_DIR"); d && *d) dir_ = d;
        else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir_ = std::string(x) + "/skewscope";
        else if (const char* h = std::getenv("HOME"); h && *h) dir_ = std::string(h) + "/.cache/skewscope";
        else dir_ = "/tmp/skewscope-cache-" + std::to_string(::getuid());
    }
    if (maxBytes_ == 0) {
        maxBytes_ = uint64_t(4) << 30;
        if (const char* m = std::getenv("SKEWSCOPE_CACHE_MAX_MB"); m && std::atoll(m) > 0) maxBytes_ = uint64_t(std::atoll(m)) << 20;
    }
}

std::string ProfileCache::pathOf(const FileIdentity& id) const {
    Checksum sum;
    sum.update(id.canonicalPath.data(), id.canonicalPath.size());
    return dir_ + "/" + hex(sum.final()) + ".snap";
}

bool ProfileCache::load(const FileIdentity& id, FilePart& out, std::string* why) {
    auto fail = [&](const std::string& reason) {
        debugLine("profile cache: " + id.canonicalPath + ": " + reason);
        if (why) *why = reason;
        return false;
    };
    if (!id.valid()) return fail("cannot identify the file");
    const std::string path = pathOf(id);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("no snapshot");
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    char magic[8];
    Header h;
    uint32_t pathLen = 0;
    if (!readAll(fd, magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return fail("not a snapshot (bad header)");
    if (!readAll(fd, &h, sizeof h) || !readAll(fd, &pathLen, sizeof pathLen) || pathLen > PATH_MAX) return fail("truncated header");
    std::string cached(pathLen, '\0');
    if (!readAll(fd, cached.data(), pathLen)) return fail("truncated header");
    if (h.format != kSnapshotFormat || h.byteOrder != kByteOrder) return fail("snapshot of another format version");
    if (cached != id.canonicalPath || h.size != id.size || h.inode != id.inode || h.device != id.device || h.mtimeNs != id.mtimeNs ||
        h.fingerprint != id.fingerprint)
        return fail("stale snapshot: the export changed since");
    Reader r(fd, uint64_t(8 + sizeof h + sizeof pathLen + pathLen), h.payloadBytes);
    FilePart part;
    InputFile& in = part.input;
    in.nsysVersion = r.str();
    in.schemaVersion = r.str();
    in.hasSessionStart = r.pod<uint8_t>() != 0;
    in.sessionStartUtcNs = r.pod<int64_t>();
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) in.tables.push_back(r.str());
    in.kernelRows = r.pod<uint64_t>();
    in.runtimeRows = r.pod<uint64_t>();
    in.nvtxRanges = r.pod<uint64_t>();
    in.syncRows = r.pod<uint64_t>();
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) {
        std::string t = r.str();
        in.featureRows[t] = r.pod<int64_t>();
    }
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) part.warnings.push_back(r.str());
    const uint32_t strings = r.pod<uint32_t>();
    for (uint32_t i = 0; r.ok && i < strings; ++i) part.strings.intern(r.str());
    // the table starts with "" at id 0, and so does a snapshot's list of distinct strings
    if (r.ok && part.strings.size() != strings) return fail("damaged string table");
    // processes and lanes stay where they are while their columns are read (the jobs point into
    // them); they join the part afterwards
    std::vector<std::unique_ptr<Process>> procs;
    std::deque<Reader::Coded> coded;  // (a deque: the column jobs point into its elements)
    auto readCoded = [&](CodedIds& target, bool strings) {
        coded.emplace_back();
        coded.back().target = &target;
        coded.back().strings = strings;
        r.coded(coded.back());
    };
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) {
        procs.push_back(std::make_unique<Process>());
        Process& pr = *procs.back();
        pr.globalPid = r.pod<uint64_t>();
        pr.pid = r.pod<uint32_t>();
        pr.name = r.str();
        for (uint32_t t = r.pod<uint32_t>(); r.ok && t > 0; --t) {
            uint32_t tid = r.pod<uint32_t>();
            StrId name = r.pod<uint32_t>();
            if (name >= part.strings.size()) r.ok = false;
            pr.threadNames[tid] = name;
        }
        NvtxRanges& nv = pr.nvtx;
        r.vec(nv.start), r.ints(nv.duration), readCoded(nv.tid, false), readCoded(nv.text, true);
        StreamWaits& w = pr.waits;
        r.vec(w.start), r.ints(w.duration), readCoded(w.deviceIds, false), readCoded(w.streamIds, false);
    }
    std::vector<std::unique_ptr<FilePart::Lane>> lanes;
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) {
        lanes.push_back(std::make_unique<FilePart::Lane>());
        FilePart::Lane& l = *lanes.back();
        l.globalPid = r.pod<uint64_t>();
        l.device = r.pod<int32_t>();
        l.lane.stream = r.pod<int32_t>();
        KernelLane& k = l.lane;
        r.vec(k.start), r.ints(k.duration), readCoded(k.name, true), r.vec(k.correlationId);
        r.ints(k.launchLead), r.ints(k.launchDuration), readCoded(k.launchApi, true), readCoded(k.launchTid, false);
    }
    if (!r.ok || r.left() != 0) return fail("truncated or damaged snapshot");
    // every length and column checksum is vouched for before a column is sized
    if (r.sum.final() != h.checksum) return fail("corrupted snapshot (checksum)");
    if (std::string bad = readColumns(fd, r.columns, workerThreads()); !bad.empty()) return fail(bad);
    auto idsOk = [&](const std::vector<StrId>& v) {
        for (StrId s : v)
            if (s >= part.strings.size()) return false;
        return true;
    };
    bool ok = true;
    for (Reader::Coded& c : coded) {
        if (c.strings && !idsOk(c.dict)) ok = false;
        if (c.wide) c.target->assign(std::move(c.dict));
        else if (!c.target->assign(std::move(c.dict), std::move(c.codes))) ok = false;
    }
    for (auto& pp : procs) {
        const NvtxRanges& nv = pp->nvtx;
        const StreamWaits& w = pp->waits;
        const size_t nn = nv.start.size(), nw = w.start.size();
        if (nv.duration.size() != nn || nv.tid.size() != nn || nv.text.size() != nn || w.duration.size() != nw ||
            w.deviceIds.size() != nw || w.streamIds.size() != nw)
            ok = false;
        part.processes.push_back(std::move(*pp));
    }
    for (auto& lp : lanes) {
        const KernelLane& k = lp->lane;
        const size_t n = k.start.size();
        if (k.duration.size() != n || k.name.size() != n || k.correlationId.size() != n || k.launchLead.size() != n ||
            k.launchDuration.size() != n || k.launchApi.size() != n || k.launchTid.size() != n)
            ok = false;
        part.lanes.push_back(std::move(*lp));
    }
    if (!ok) return fail("truncated or damaged snapshot");
    // what the loader computes from the rows: the ops of names, NCCL counts, the lane index
    part.nameOps.resize(part.strings.size());
    for (size_t i = 0; i < part.strings.size(); ++i) part.nameOps[i] = classifyKernelName(part.strings.str(StrId(i)));
    for (auto& pr : part.processes) buildIntervalIndex(pr.waits);
    for (auto& l : part.lanes) {
        l.lane.ncclKernels = 0;
        for (size_t k = 0; k < l.lane.size(); ++k) l.lane.ncclKernels += part.nameOps[l.lane.name[k]] != CollOp::NotNccl;
        buildLaneIndex(l.lane);
    }
    in.identity = id;
    in.fromSnapshot = true;
    in.readWarnings = part.warnings;
    out = std::move(part);
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // recently used
    return true;
}

bool ProfileCache::store(const Profile& p, int file, std::string* error) {
    const InputFile& in = p.inputs[size_t(file)];
    auto fail = [&](const std::string& what, int err) {
        if (error) *error = "cannot write the profile cache in " + dir_ + " (" + what + ": " + std::strerror(err) + ")";
        return false;
    };
    if (!in.identity.valid()) return fail("the export cannot be identified", EINVAL);
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return fail("mkdir", ec.value());
    std::string tmpl = dir_ + "/.snapXXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return fail("create", errno);
    // the strings this file uses, in order of first use
    std::unordered_map<StrId, uint32_t> local;
    std::vector<StrId> used;
    auto use = [&](StrId s) {
        auto [it, fresh] = local.emplace(s, uint32_t(used.size() + 1));
        if (fresh) used.push_back(s);
        return it->second;
    };
    local.emplace(kNoString, 0);
    auto remapped = [&](const std::vector<StrId>& v) {
        std::vector<StrId> out(v.size());
        for (size_t i = 0; i < v.size(); ++i) out[i] = use(v[i]);
        return out;
    };
    std::vector<const Process*> procs;
    for (const auto& pr : p.processes)
        if (pr.file == file) procs.push_back(&pr);
    std::vector<std::pair<const Rank*, const KernelLane*>> lanes;
    for (const auto& r : p.ranks)
        if (r.file == file)
            for (const auto& l : r.lanes) lanes.emplace_back(&r, &l);
    // names first (they fix the local ids), then the payload
    std::vector<std::vector<StrId>> laneNames, launchApis, nvtxTexts;
    std::vector<std::map<uint32_t, uint32_t>> threads;
    // a coded column's dictionary (or values, when wide) as stored
    auto storedIds = [](const CodedIds& c) { return c.wide() ? c.wideValues() : c.dictionary(); };
    for (const Process* pr : procs) {
        nvtxTexts.push_back(remapped(storedIds(pr->nvtx.text)));
        std::map<uint32_t, uint32_t> t;
        for (const auto& [tid, name] : pr->threadNames) t[tid] = use(name);
        threads.push_back(std::move(t));
    }
    for (const auto& [r, l] : lanes) {
        laneNames.push_back(remapped(storedIds(l->name)));
        launchApis.push_back(remapped(storedIds(l->launchApi)));
    }

    // the header first with a zero checksum and length, rewritten once the payload is written: a
    // snapshot whose write broke off never passes the checks
    Header h;
    h.format = kSnapshotFormat;
    h.byteOrder = kByteOrder;
    h.size = in.identity.size, h.inode = in.identity.inode, h.device = in.identity.device;
    h.mtimeNs = in.identity.mtimeNs, h.fingerprint = in.identity.fingerprint;
    const uint32_t pathLen = uint32_t(in.identity.canonicalPath.size());
    std::vector<char> header;
    auto putHeader = [&] {
        header.clear();
        header.insert(header.end(), kMagic, kMagic + 8);
        const char* hp = reinterpret_cast<const char*>(&h);
        header.insert(header.end(), hp, hp + sizeof h);
        const char* lp = reinterpret_cast<const char*>(&pathLen);
        header.insert(header.end(), lp, lp + sizeof pathLen);
        header.insert(header.end(), in.identity.canonicalPath.begin(), in.identity.canonicalPath.end());
    };
    putHeader();
    Writer w(fd);
    w.raw(header.data(), header.size());
    const int64_t off = in.alignNs;
    w.str(in.nsysVersion), w.str(in.schemaVersion);
    w.pod<uint8_t>(in.hasSessionStart), w.pod<int64_t>(in.sessionStartUtcNs);
    w.pod(uint32_t(in.tables.size()));
    for (const auto& t : in.tables) w.str(t);
    w.pod(in.kernelRows), w.pod(in.runtimeRows), w.pod(in.nvtxRanges), w.pod(in.syncRows);
    w.pod(uint32_t(in.featureRows.size()));
    for (const auto& [t, n] : in.featureRows) w.str(t), w.pod(n);
    w.pod(uint32_t(in.readWarnings.size()));
    for (const auto& s : in.readWarnings) w.str(s);
    w.pod(uint32_t(used.size() + 1));
    w.str("");
    for (StrId s : used) w.str(p.strings.str(s));
    w.pod(uint32_t(procs.size()));
    for (size_t i = 0; i < procs.size(); ++i) {
        const Process& pr = *procs[i];
        w.pod(pr.globalPid), w.pod(pr.pid), w.str(pr.name);
        w.pod(uint32_t(threads[i].size()));
        for (auto [tid, name] : threads[i]) w.pod(tid), w.pod(name);
        const NvtxRanges& nv = pr.nvtx;
        w.times(nv.start, off), w.ints(nv.duration), w.coded(nv.tid, storedIds(nv.tid)), w.coded(nv.text, nvtxTexts[i]);
        const StreamWaits& sw = pr.waits;
        w.times(sw.start, off), w.ints(sw.duration), w.coded(sw.deviceIds, storedIds(sw.deviceIds)), w.coded(sw.streamIds, storedIds(sw.streamIds));
    }
    w.pod(uint32_t(lanes.size()));
    for (size_t i = 0; i < lanes.size(); ++i) {
        const Rank& r = *lanes[i].first;
        const KernelLane& l = *lanes[i].second;
        w.pod(p.processes[size_t(r.process)].globalPid), w.pod(int32_t(r.device)), w.pod(int32_t(l.stream));
        w.times(l.start, off), w.ints(l.duration), w.coded(l.name, laneNames[i]), w.vec(l.correlationId);
        w.ints(l.launchLead), w.ints(l.launchDuration), w.coded(l.launchApi, launchApis[i]), w.coded(l.launchTid, storedIds(l.launchTid));
    }
    w.flush();
    struct stat st {};
    bool ok = w.ok && ::fstat(fd, &st) == 0;
    int err = w.ok ? errno : w.error;
    if (ok) {
        h.payloadBytes = uint64_t(st.st_size) - header.size();
        h.checksum = w.sum.final();
        putHeader();
        ok = ::pwrite(fd, header.data(), header.size(), 0) == ssize_t(header.size());
        err = errno;
    }
    if (::close(fd) != 0 && ok) ok = false, err = errno;
    const std::string path = pathOf(in.identity);
    if (ok && ::rename(tmpl.c_str(), path.c_str()) != 0) ok = false, err = errno;
    if (!ok) {
        ::unlink(tmpl.c_str());
        return fail("write", err ? err : EIO);
    }
    evict(path);
    return true;
}

ProfileCache::Info ProfileCache::info() const {
    Info i;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return i;
    while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (!isSnapshotName(n)) continue;
        struct stat st {};
        if (::stat((dir_ + "/" + n).c_str(), &st) == 0) ++i.entries, i.bytes += uint64_t(st.st_size);
    }
    ::closedir(d);
    return i;
}

uint64_t ProfileCache::clear() {
    uint64_t n = 0;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return 0;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) names.push_back(e->d_name);
    ::closedir(d);
    for (const auto& name : names)
        if ((isSnapshotName(name) || isStaleTemporary(dir_, name)) && ::unlink((dir_ + "/" + name).c_str()) == 0 && isSnapshotName(name)) ++n;
    return n;
}

void ProfileCache::evict(const std::string& keep) {
    struct Entry {
        std::string path;
        uint64_t bytes;
        int64_t used;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    DIR* d = ::opendir(dir_.c_str());
    if (!d) return;
    std::vector<std::string> stale;
    while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (isStaleTemporary(dir_, n)) stale.push_back(dir_ + "/" + n);
        if (!isSnapshotName(n)) continue;
        struct stat st {};
        std::string path = dir_ + "/" + n;
        if (::stat(path.c_str(), &st) != 0) continue;
        entries.push_back({path, uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec});
        total += uint64_t(st.st_size);
    }
    ::closedir(d);
    for (const auto& s : stale) ::unlink(s.c_str());  // a crashed writer's leftovers count against nothing but the disk
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : entries) {
        if (total <= maxBytes_) break;
        if (e.path == keep) continue;
        if (::unlink(e.path.c_str()) == 0) total -= e.bytes;
    }
}

}  // namespace skew
