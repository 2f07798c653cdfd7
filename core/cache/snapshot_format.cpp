#include "cache/snapshot_format.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cache/snapshot_columns.h"
#include "model/lane_index.h"
#include "util/parallel.h"

namespace skew {
namespace {

using snapshot::Reader;
using snapshot::Writer;

constexpr char kMagic[8] = {'S', 'K', 'W', 'S', 'N', 'A', 'P', '\n'};
constexpr uint32_t kByteOrder = 0x01020304u;

// After the magic: this, then the export's canonical path (its length, its bytes), then the payload.
struct Header {
    uint32_t format = 0, byteOrder = 0;
    uint64_t payloadBytes = 0, checksum = 0;
    uint64_t size = 0, inode = 0, device = 0, fingerprint = 0;
    int64_t mtimeNs = 0, ctimeNs = 0;
    uint32_t changeCounter = 0, versionValidFor = 0;
    uint64_t walExists = 0, walSize = 0, walInode = 0, walFingerprint = 0;
    int64_t walMtimeNs = 0;
};

// The identity a header names (its path apart).
FileIdentity identityIn(const Header& h) {
    FileIdentity id;
    id.size = h.size, id.inode = h.inode, id.device = h.device, id.fingerprint = h.fingerprint;
    id.mtimeNs = h.mtimeNs, id.ctimeNs = h.ctimeNs;
    id.changeCounter = h.changeCounter, id.versionValidFor = h.versionValidFor;
    id.wal.exists = h.walExists != 0, id.wal.size = h.walSize, id.wal.inode = h.walInode, id.wal.fingerprint = h.walFingerprint;
    id.wal.mtimeNs = h.walMtimeNs;
    return id;
}

void putIdentity(Header& h, const FileIdentity& id) {
    h.size = id.size, h.inode = id.inode, h.device = id.device, h.fingerprint = id.fingerprint;
    h.mtimeNs = id.mtimeNs, h.ctimeNs = id.ctimeNs;
    h.changeCounter = id.changeCounter, h.versionValidFor = id.versionValidFor;
    h.walExists = id.wal.exists, h.walSize = id.wal.size, h.walInode = id.wal.inode, h.walFingerprint = id.wal.fingerprint;
    h.walMtimeNs = id.wal.mtimeNs;
}

// Which part of the key no longer matches, for the debug line.
std::string whatChanged(const FileIdentity& was, const FileIdentity& now) {
    if (was.wal != now.wal)
        return was.wal.exists != now.wal.exists ? "its write-ahead log (-wal) came or went" : "its write-ahead log (-wal) changed";
    if (was.size != now.size || was.inode != now.inode || was.device != now.device) return "another file or size";
    if (was.changeCounter != now.changeCounter || was.versionValidFor != now.versionValidFor)
        return "SQLite's change counter moved";
    if (was.mtimeNs != now.mtimeNs) return "modified";
    if (was.ctimeNs != now.ctimeNs) return "rewritten or its status changed (ctime)";
    return "its content changed (fingerprint)";
}

// ---- reading ------------------------------------------------------------------------------------

// A snapshot of this format, of the export `id` names (any export when null): "" (and where the
// payload starts, and the identity the header names) or why not.
std::string checkHeader(const snapshot::Source& src, const FileIdentity* id, Header& h, uint64_t& payloadAt, FileIdentity& stored) {
    char magic[8];
    uint32_t pathLen = 0;
    if (!src.read(magic, 8, 0) || std::memcmp(magic, kMagic, 8) != 0) return "not a snapshot (bad header)";
    if (!src.read(&h, sizeof h, 8) || !src.read(&pathLen, sizeof pathLen, 8 + sizeof h) || pathLen > PATH_MAX) return "truncated header";
    std::string cached(pathLen, '\0');
    if (!src.read(cached.data(), pathLen, 8 + sizeof h + sizeof pathLen)) return "truncated header";
    if (h.format != kSnapshotFormat || h.byteOrder != kByteOrder) return "snapshot of another format version";
    if (id && cached != id->canonicalPath) return "stale snapshot: the export changed since (another path)";
    FileIdentity was = identityIn(h);
    was.canonicalPath = cached;
    if (id && !(was == *id)) return "stale snapshot: the export changed since (" + whatChanged(was, *id) + ")";
    stored = was;
    payloadAt = uint64_t(8 + sizeof h + sizeof pathLen + pathLen);
    return {};
}

// The file's metadata, warnings and strings: "" or why not.
std::string readMeta(Reader& r, FilePart& part) {
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
    if (r.ok && part.strings.size() != strings) return "damaged string table";
    return {};
}

// Processes and lanes stay where they are while their columns are read (the column jobs point
// into them, and into the coded columns); they join the part afterwards.
struct Layout {
    std::vector<std::unique_ptr<Process>> procs;
    std::vector<std::unique_ptr<FilePart::KeyedLane>> lanes;
    std::deque<Reader::Coded> coded;  // (a deque: the column jobs point into its elements)
};

void readProcessesAndLanes(Reader& r, const FilePart& part, Layout& out) {
    auto readCoded = [&](CodedIds& target, bool strings) {
        out.coded.emplace_back();
        out.coded.back().target = &target;
        out.coded.back().strings = strings;
        r.coded(out.coded.back());
    };
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) {
        out.procs.push_back(std::make_unique<Process>());
        Process& pr = *out.procs.back();
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
    for (uint32_t n = r.pod<uint32_t>(); r.ok && n > 0; --n) {
        out.lanes.push_back(std::make_unique<FilePart::KeyedLane>());
        FilePart::KeyedLane& l = *out.lanes.back();
        l.globalPid = r.pod<uint64_t>();
        l.device = r.pod<int32_t>();
        l.lane.stream = r.pod<int32_t>();
        KernelLane& k = l.lane;
        r.vec(k.start), r.ints(k.duration), readCoded(k.name, true), r.vec(k.correlationId);
        r.ints(k.launchLead), r.ints(k.launchDuration), readCoded(k.launchApi, true), readCoded(k.launchTid, false);
    }
}

// Once the columns are read: the coded columns put together, every column's length checked, the
// processes and lanes moved into the part. False when something does not fit.
bool placeColumns(Layout& l, FilePart& part) {
    auto idsOk = [&](const std::vector<StrId>& v) {
        for (StrId s : v)
            if (s >= part.strings.size()) return false;
        return true;
    };
    bool ok = true;
    for (Reader::Coded& c : l.coded) {
        if (c.strings && !idsOk(c.dict)) ok = false;
        if (c.wide) c.target->assign(std::move(c.dict));
        else if (!c.target->assign(std::move(c.dict), std::move(c.codes))) ok = false;
    }
    for (auto& pp : l.procs) {
        const NvtxRanges& nv = pp->nvtx;
        const StreamWaits& w = pp->waits;
        const size_t nn = nv.start.size(), nw = w.start.size();
        if (nv.duration.size() != nn || nv.tid.size() != nn || nv.text.size() != nn || w.duration.size() != nw ||
            w.deviceIds.size() != nw || w.streamIds.size() != nw)
            ok = false;
        part.processes.push_back(std::move(*pp));
    }
    for (auto& lp : l.lanes) {
        const KernelLane& k = lp->lane;
        const size_t n = k.start.size();
        if (k.duration.size() != n || k.name.size() != n || k.correlationId.size() != n || k.launchLead.size() != n ||
            k.launchDuration.size() != n || k.launchApi.size() != n || k.launchTid.size() != n)
            ok = false;
        part.lanes.push_back(std::move(*lp));
    }
    return ok;
}

// What the loader computes from the rows: the ops of names, NCCL counts, the lane index.
void derive(FilePart& part) {
    part.nameOps.resize(part.strings.size());
    for (size_t i = 0; i < part.strings.size(); ++i) part.nameOps[i] = classifyKernelName(part.strings.str(StrId(i)));
    for (auto& pr : part.processes) buildIntervalIndex(pr.waits);
    for (auto& l : part.lanes) {
        l.lane.ncclKernels = 0;
        for (size_t k = 0; k < l.lane.size(); ++k) l.lane.ncclKernels += part.nameOps[l.lane.name[k]] != CollOp::NotNccl;
        buildLaneIndex(l.lane);
    }
}

// ---- writing ------------------------------------------------------------------------------------

// The file's share of the profile, with the strings it uses given ids of their own in order of
// first use (0: ""), names first: the columns of string ids as they go to the file.
struct FileShare {
    std::vector<const Process*> procs;
    std::vector<std::pair<const Rank*, const KernelLane*>> lanes;
    std::vector<StrId> used;  // the profile's id of local id i + 1
    std::vector<std::vector<StrId>> laneNames, launchApis, nvtxTexts;
    std::vector<std::map<uint32_t, uint32_t>> threads;
};

// A coded column's dictionary (or values, when wide) as stored.
const std::vector<uint32_t>& storedIds(const CodedIds& c) { return c.wide() ? c.wideValues() : c.dictionary(); }

FileShare shareOf(const Profile& p, int file) {
    FileShare s;
    std::unordered_map<StrId, uint32_t> local;
    auto use = [&](StrId id) {
        auto [it, fresh] = local.emplace(id, uint32_t(s.used.size() + 1));
        if (fresh) s.used.push_back(id);
        return it->second;
    };
    local.emplace(kNoString, 0);
    auto remapped = [&](const std::vector<StrId>& v) {
        std::vector<StrId> out(v.size());
        for (size_t i = 0; i < v.size(); ++i) out[i] = use(v[i]);
        return out;
    };
    for (const auto& pr : p.processes)
        if (pr.file == file) s.procs.push_back(&pr);
    for (const auto& r : p.ranks)
        if (r.file == file)
            for (const auto& l : r.lanes) s.lanes.emplace_back(&r, &l);
    for (const Process* pr : s.procs) {
        s.nvtxTexts.push_back(remapped(storedIds(pr->nvtx.text)));
        std::map<uint32_t, uint32_t> t;
        for (const auto& [tid, name] : pr->threadNames) t[tid] = use(name);
        s.threads.push_back(std::move(t));
    }
    for (const auto& [r, l] : s.lanes) {
        s.laneNames.push_back(remapped(storedIds(l->name)));
        s.launchApis.push_back(remapped(storedIds(l->launchApi)));
    }
    return s;
}

void writePayload(Writer& w, const Profile& p, const InputFile& in, const FileShare& s) {
    const int64_t off = in.alignNs;
    w.str(in.nsysVersion), w.str(in.schemaVersion);
    w.pod<uint8_t>(in.hasSessionStart), w.pod<int64_t>(in.sessionStartUtcNs);
    w.pod(uint32_t(in.tables.size()));
    for (const auto& t : in.tables) w.str(t);
    w.pod(in.kernelRows), w.pod(in.runtimeRows), w.pod(in.nvtxRanges), w.pod(in.syncRows);
    w.pod(uint32_t(in.featureRows.size()));
    for (const auto& [t, n] : in.featureRows) w.str(t), w.pod(n);
    w.pod(uint32_t(in.readWarnings.size()));
    for (const auto& str : in.readWarnings) w.str(str);
    w.pod(uint32_t(s.used.size() + 1));
    w.str("");
    for (StrId id : s.used) w.str(p.strings.str(id));
    w.pod(uint32_t(s.procs.size()));
    for (size_t i = 0; i < s.procs.size(); ++i) {
        const Process& pr = *s.procs[i];
        w.pod(pr.globalPid), w.pod(pr.pid), w.str(pr.name);
        w.pod(uint32_t(s.threads[i].size()));
        for (auto [tid, name] : s.threads[i]) w.pod(tid), w.pod(name);
        const NvtxRanges& nv = pr.nvtx;
        w.times(nv.start, off), w.ints(nv.duration), w.coded(nv.tid, storedIds(nv.tid)), w.coded(nv.text, s.nvtxTexts[i]);
        const StreamWaits& sw = pr.waits;
        w.times(sw.start, off), w.ints(sw.duration), w.coded(sw.deviceIds, storedIds(sw.deviceIds)), w.coded(sw.streamIds, storedIds(sw.streamIds));
    }
    w.pod(uint32_t(s.lanes.size()));
    for (size_t i = 0; i < s.lanes.size(); ++i) {
        const Rank& r = *s.lanes[i].first;
        const KernelLane& l = *s.lanes[i].second;
        w.pod(p.processes[size_t(r.process)].globalPid), w.pod(int32_t(r.device)), w.pod(int32_t(l.stream));
        w.times(l.start, off), w.ints(l.duration), w.coded(l.name, s.laneNames[i]), w.vec(l.correlationId);
        w.ints(l.launchLead), w.ints(l.launchDuration), w.coded(l.launchApi, s.launchApis[i]), w.coded(l.launchTid, storedIds(l.launchTid));
    }
}

}  // namespace

bool startsWithSnapshotMagic(int fd) {
    char magic[8];
    return ::pread(fd, magic, sizeof magic, 0) == ssize_t(sizeof magic) && std::memcmp(magic, kMagic, 8) == 0;
}

namespace {

std::string readPart(const snapshot::Source& src, const FileIdentity* expected, FilePart& out, snapshot::Columns columns) {
    Header h;
    uint64_t payloadAt = 0;
    FileIdentity id;
    if (std::string bad = checkHeader(src, expected, h, payloadAt, id); !bad.empty()) return bad;
    Reader r(src, payloadAt, h.payloadBytes, columns);
    FilePart part;
    if (std::string bad = readMeta(r, part); !bad.empty()) return bad;
    Layout layout;
    readProcessesAndLanes(r, part, layout);
    if (!r.ok || r.left() != 0) return "truncated or damaged snapshot";
    // every length and column checksum is vouched for before a column is sized
    if (r.sum.final() != h.checksum) return "corrupted snapshot (checksum)";
    if (std::string bad = snapshot::readColumns(src, r.columns, workerThreads()); !bad.empty()) return bad;
    if (!placeColumns(layout, part)) return "truncated or damaged snapshot";
    derive(part);
    part.input.identity = id;
    part.input.fromSnapshot = true;
    part.input.readWarnings = part.warnings;
    out = std::move(part);
    return {};
}

}  // namespace

std::string readSnapshot(int fd, const FileIdentity& id, FilePart& out) {
    return readPart(snapshot::Source::file(fd), &id, out, snapshot::Columns::Raw);
}

std::string readStoredSnapshot(const char* data, size_t size, FilePart& out, snapshot::Columns columns) {
    return readPart(snapshot::Source::memory(data, size), nullptr, out, columns);
}

bool writeSnapshot(int fd, const Profile& p, int file, int& error, snapshot::Columns columns) {
    const InputFile& in = p.inputs[size_t(file)];
    const FileShare share = shareOf(p, file);
    // the header first with a zero checksum and length, rewritten once the payload is written: a
    // snapshot whose write broke off never passes the checks
    Header h;
    h.format = kSnapshotFormat;
    h.byteOrder = kByteOrder;
    putIdentity(h, in.identity);
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
    Writer w(fd, columns);
    w.raw(header.data(), header.size());
    w.flush();  // the magic on disk first: a killed writer's leftover is recognisably the cache's
    writePayload(w, p, in, share);
    w.flush();
    struct stat st {};
    bool ok = w.ok && ::fstat(fd, &st) == 0;
    error = w.ok ? errno : w.error;
    if (ok) {
        h.payloadBytes = uint64_t(st.st_size) - header.size();
        h.checksum = w.sum.final();
        putHeader();
        ok = ::pwrite(fd, header.data(), header.size(), 0) == ssize_t(header.size());
        error = errno;
    }
    return ok;
}

}  // namespace skew
