#include "model/loader.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <map>
#include <set>
#include <thread>
#include <type_traits>

#include "model/file_reader.h"
#include "model/lane_index.h"
#include "model/snapshot_store.h"
#include "model/summary_inputs.h"
#include "model/summary_source.h"
#include "nsys/export_reader.h"
#include "nsys/global_ids.h"
#include "util/errors.h"
#include "util/file_identity.h"
#include "util/interrupt_cleanup.h"
#include "util/parallel.h"
#include "util/paths.h"
#include "util/release_memory.h"
#include "util/task_graph.h"

namespace skew {
namespace {

// Moves one file's part into the profile: its strings are interned into the profile's table and
// every string id of the part is rewritten; its lanes are returned for the rank assembly.
void mergePart(Profile& p, FilePart&& part, int file, std::vector<FilePart::KeyedLane>& lanes) {
    std::vector<StrId> map;
    const bool identity = p.strings.size() == 1;  // the first part: take its table as it is
    if (identity) {
        p.strings = std::move(part.strings);
    } else {
        map.resize(part.strings.size());
        for (size_t i = 0; i < map.size(); ++i) map[i] = p.strings.intern(part.strings.str(StrId(i)));
    }
    auto remap = [&](auto& v) {
        if (identity) return;
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, CodedIds>) {
            v.transform([&](StrId id) { return map[id]; });
        } else {
            for (auto& id : v) id = map[id];
        }
    };
    if (p.nameOps.size() < p.strings.size()) p.nameOps.resize(p.strings.size(), CollOp::NotNccl);
    for (size_t i = 0; i < part.nameOps.size(); ++i)
        if (part.nameOps[i] != CollOp::NotNccl) p.nameOps[identity ? i : map[i]] = part.nameOps[i];
    for (auto& pr : part.processes) {
        pr.file = file;
        remap(pr.nvtx.text);
        if (!identity)
            for (auto& [tid, name] : pr.threadNames) name = map[name];
        p.processes.push_back(std::move(pr));
    }
    for (auto& l : part.lanes) {
        remap(l.lane.name);
        remap(l.lane.launchApi);
        lanes.push_back(std::move(l));
    }
    for (auto& w : part.warnings) p.warnings.push_back(std::move(w));
}

// Puts file `file` on the aligned time base: adds `off` to every time of it.
void alignFile(Profile& p, int file, std::vector<FilePart::KeyedLane>& lanes, int64_t off) {
    if (off == 0) return;
    for (auto& l : lanes) shiftTimes(l.lane, off);
    for (auto& pr : p.processes)
        if (pr.file == file) shiftTimes(pr, off);
}

struct RankBuild {
    int file;
    uint64_t globalPid;
    int device;
    std::vector<KernelLane> lanes;
};

// A node file whose devices skip an id (8 GPUs, device 0 not captured): say so, since the
// collectives then lack a rank that took part in them.
void warnMissingDevices(Profile& p) {
    for (size_t fi = 0; fi < p.inputs.size(); ++fi) {
        std::vector<int> devs;
        for (const auto& r : p.ranks)
            if (r.file == int(fi)) devs.push_back(r.device);
        std::string w = describeMissingDevices(devs);
        if (w.empty()) continue;
        p.warnings.push_back(p.inputs[fi].path + ": " + w);
        if (w.rfind("no kernels on", 0) == 0) p.inputs[fi].missingDevices = w;
    }
}

// Exports converted from .nsys-rep into a private temp folder: removed once read (or on error).
// On Ctrl-C they go too (util/interrupt_cleanup.h).
struct Converted {
    std::vector<std::string> paths;
    std::vector<CleanupPath> onSignal;  // released after the folders are removed
    void add(const std::string& path) {
        paths.push_back(path);
        onSignal.emplace_back(std::filesystem::path(path).parent_path().string(), CleanupKind::Folder);
    }
    ~Converted() {
        std::error_code ec;
        for (const auto& c : paths) std::filesystem::remove_all(std::filesystem::path(c).parent_path(), ec);
    }
};

// The ranks from the lanes of every file: one per (file, process, device), in the spec's order.
void buildRanks(Profile& p, std::vector<std::vector<FilePart::KeyedLane>>& lanesPerFile) {
    std::vector<RankBuild> builds;
    for (size_t fi = 0; fi < lanesPerFile.size(); ++fi)
        for (auto& l : lanesPerFile[fi]) {
            auto it = std::find_if(builds.begin(), builds.end(), [&](const RankBuild& b) {
                return b.file == int(fi) && b.globalPid == l.globalPid && b.device == l.device;
            });
            if (it == builds.end()) {
                builds.push_back({int(fi), l.globalPid, l.device, {}});
                it = builds.end() - 1;
            }
            it->lanes.push_back(std::move(l.lane));
        }
    std::sort(builds.begin(), builds.end(), [&](const RankBuild& a, const RankBuild& b) {
        const auto& pa = p.inputs[size_t(a.file)].path;
        const auto& pb = p.inputs[size_t(b.file)].path;
        std::string ba = fileName(pa), bb = fileName(pb);
        if (ba != bb) return ba < bb;
        if (pa != pb) return pa < pb;
        if (a.device != b.device) return a.device < b.device;
        return pidOf(a.globalPid) < pidOf(b.globalPid);
    });
    bool anyKernel = false;
    for (auto& b : builds) {
        Rank r;
        r.id = int(p.ranks.size());
        r.file = b.file;
        r.device = b.device;
        r.pid = pidOf(b.globalPid);
        for (size_t i = 0; i < p.processes.size(); ++i)
            if (p.processes[i].file == b.file && p.processes[i].globalPid == b.globalPid) r.process = int(i);
        r.lanes = std::move(b.lanes);
        std::sort(r.lanes.begin(), r.lanes.end(), [](const KernelLane& x, const KernelLane& y) { return x.stream < y.stream; });
        for (const auto& l : r.lanes) {
            if (l.size() == 0) continue;
            int64_t lo = l.start.front(), hi = l.blockMaxEnd.back();  // the last block's prefix maximum: the lane's latest end
            if (!anyKernel || lo < p.timeStart) p.timeStart = lo;
            if (!anyKernel || hi > p.timeEnd) p.timeEnd = hi;
            anyKernel = true;
        }
        p.ranks.push_back(std::move(r));
    }
}

}  // namespace

void assignRankLabels(Profile& p) {
    std::set<int> files;
    std::set<int> devices;
    std::vector<int> ranksPerFile(p.inputs.size(), 0);
    for (const auto& r : p.ranks) {
        files.insert(r.file);
        devices.insert(r.device);
        ++ranksPerFile[size_t(r.file)];
    }
    bool oneFileUniqueDevices = files.size() == 1 && devices.size() == p.ranks.size();
    bool oneRankPerFile = std::all_of(p.ranks.begin(), p.ranks.end(), [&](const Rank& r) { return ranksPerFile[size_t(r.file)] == 1; });
    for (auto& r : p.ranks) {
        std::string stem = fileStem(p.inputs[size_t(r.file)].path);
        if (oneFileUniqueDevices) r.label = "dev " + std::to_string(r.device);
        else if (oneRankPerFile) r.label = stem;
        else r.label = stem + "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device);
    }
    // Distinct files with the same stem (a/rank0.sqlite, b/rank0.sqlite): every rank whose label
    // would be shared is named by its file's path instead.
    std::map<std::string, int> uses;
    for (const auto& r : p.ranks) ++uses[r.label];
    for (auto& r : p.ranks)
        if (uses[r.label] > 1)
            r.label = p.inputs[size_t(r.file)].path + (oneRankPerFile ? "" : "/pid " + std::to_string(r.pid) + "/dev " + std::to_string(r.device));
}

std::string describeMissingDevices(const std::vector<int>& present) {
    std::set<int> devs(present.begin(), present.end());
    if (devs.size() < 2) return {};
    // ranges between the ids present: their number is bounded by the ranks, never by an id's value
    std::vector<std::pair<int64_t, int64_t>> gaps;
    uint64_t missing = 0;
    int64_t expect = 0;
    for (int d : devs) {
        if (d > expect) {
            gaps.emplace_back(expect, d - 1);
            missing += uint64_t(d - expect);
        }
        expect = int64_t(d) + 1;
    }
    if (gaps.empty()) return {};
    std::string list;
    for (size_t i = 0; i < gaps.size() && i < 4; ++i) {
        auto [a, b] = gaps[i];
        list += (list.empty() ? "" : ", ") + std::to_string(a) + (a == b ? "" : (b == a + 1 ? ", " : "-") + std::to_string(b));
    }
    if (gaps.size() > 4) list += ", ...";
    int top = *devs.rbegin();
    if (top >= 1024)  // no node has that many GPUs: an odd id, not uncaptured devices
        return "device ids up to " + std::to_string(top) + " (" + std::to_string(missing) +
               " ids in between without kernels): unusual device ids, not checked for missing devices";
    return "no kernels on device(s) " + list + " of the node's " + std::to_string(top + 1) +
           " (not captured, or idle): collectives there lack those ranks";
}

namespace {

// The files to read, in order: each input opened (or found in the cache, then it has no
// ExportFile), what its metadata says recorded in p.inputs. The same file twice (or a symlink to
// one already given) is read once.
struct OpenedInputs {
    Converted converted;                              // .nsys-rep inputs converted to SQLite
    std::vector<std::string> resolved;                // per input: the SQLite file to read; empty when read from a snapshot
    std::vector<std::unique_ptr<ExportFile>> files;   // per input; null when read from a snapshot or closed (see window)
    std::vector<double> rows;                         // per input: the rows reading it goes over (for the progress)
    std::vector<FilePart> parts;                      // per input
    size_t window = 1;                                // exports open at once at most (openFileWindow)
    size_t open = 0;                                  // exports open now
};

}  // namespace

size_t openFileWindow(size_t threads) {
    uint64_t soft = uint64_t(1) << 20;
    if (rlimit rl{}; ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) soft = rl.rlim_cur;
    // kept free: stdio, the libraries', the snapshot and output files (32); one connection per
    // reading task (a task of each thread at once, each possibly with a WAL file's -wal and -shm)
    const int64_t room = int64_t(std::min<uint64_t>(soft, 1 << 20)) - 32 - 3 * int64_t(threads);
    // each export open: its connection, and the -wal and -shm files of a WAL export
    return size_t(std::clamp<int64_t>(room / 3, 1, kMaxOpenExports));
}

namespace {

// Opens `fi`'s export (again, when the window closed it after its metadata were read).
ExportFile& openExport(OpenedInputs& o, size_t fi) {
    if (!o.files[fi]) {
        o.files[fi] = std::make_unique<ExportFile>(o.resolved[fi]);
        ++o.open;
    }
    return *o.files[fi];
}

void closeExport(OpenedInputs& o, size_t fi) {
    if (!o.files[fi]) return;
    o.files[fi].reset();
    --o.open;
}

// The summaries among `paths` read on every core (a thousand ranks' summaries are the whole load):
// per path, its part when it is a summary. Throws the first path's error, in path order.
std::vector<std::unique_ptr<FilePart>> readSummaries(const std::vector<std::string>& paths, const SummaryReader* reader) {
    std::vector<std::unique_ptr<FilePart>> parts(paths.size());
    if (!reader) return parts;
    std::vector<size_t> which;
    for (size_t i = 0; i < paths.size(); ++i)
        if (reader->isSummary(paths[i])) which.push_back(i);
    std::vector<std::exception_ptr> errors(paths.size());
    parallelFor(which.size(), workerThreads(), [&](size_t k) {
        const size_t i = which[k];
        try {
            auto part = std::make_unique<FilePart>();
            reader->read(paths[i], *part);
            parts[i] = std::move(part);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    return parts;
}

void openInputs(Profile& p, const std::vector<std::string>& paths, const LoadOptions& options, OpenedInputs& o) {
    std::vector<std::pair<dev_t, ino_t>> seen;
    o.parts.reserve(paths.size());  // parts are big: never copied by growth
    std::vector<std::unique_ptr<FilePart>> summaries = readSummaries(paths, options.summaries);
    for (size_t pi = 0; pi < paths.size(); ++pi) {
        const std::string& path = paths[pi];
        if (summaries[pi]) {
            o.parts.push_back(std::move(*summaries[pi]));
            summaries[pi].reset();
            p.inputs.push_back(o.parts.back().input);
            o.resolved.emplace_back();
            o.files.emplace_back();
            o.rows.push_back(0);
            continue;
        }
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) {
            std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
            auto dup = std::find(seen.begin(), seen.end(), id);
            if (dup != seen.end()) {
                const std::string& first = p.inputs[size_t(dup - seen.begin())].path;
                p.warnings.push_back(path == first ? path + " is given twice: it is read once"
                                                   : path + " is the same file as " + first + ": it is read once");
                continue;
            }
            seen.push_back(id);
        } else {
            seen.push_back({0, 0});
        }
        o.parts.emplace_back();
        if (options.cache) {
            FileIdentity id = identifyFile(path);
            if (options.cache->load(id, o.parts.back())) {
                o.parts.back().input.path = path;
                p.inputs.push_back(o.parts.back().input);
                o.resolved.emplace_back();
                o.files.emplace_back();
                o.rows.push_back(0);
                continue;
            }
            o.parts.back().input.identity = id;
        }
        std::string resolved = resolveInput(path);
        if (resolved != path) o.converted.add(resolved);
        o.resolved.push_back(resolved);
        o.files.emplace_back();
        ExportFile& f = openExport(o, o.files.size() - 1);
        InputFile in;
        in.path = path;
        in.identity = o.parts.back().input.identity;
        in.nsysVersion = f.meta("EXPORT_PRODUCT_VERSION");
        in.schemaVersion = f.meta("EXPORT_SCHEMA_VERSION");
        in.hasSessionStart = f.hasSessionStart();
        in.sessionStartUtcNs = f.sessionStartUtcNs();
        if (f.sessionStartUnusable())
            o.parts.back().warnings.push_back(path + ": its session start (TARGET_INFO_SESSION_START_TIME.utcEpochNs) is not a time from 1970 to 2116; "
                                              "read as if the file had none");
        in.tables = f.tables();
        std::sort(in.tables.begin(), in.tables.end());
        for (const char* t : kCaptureFeatureTables)
            if (f.hasTable(t)) in.featureRows[t] = f.estimatedRows(t);
        double rows = 0;
        for (const char* t : kReadTables) rows += double(f.estimatedRows(t));
        o.rows.push_back(rows);
        p.inputs.push_back(std::move(in));
        // past the window, an export is opened again when its turn to be read comes
        if (o.open > o.window) closeExport(o, o.files.size() - 1);
    }
}

// Aligned base: ns since the earliest session start among the files.
void alignInputs(Profile& p) {
    int64_t minUtc = 0;
    bool any = false;
    for (const auto& in : p.inputs)
        if (in.hasSessionStart && (!any || in.sessionStartUtcNs < minUtc)) minUtc = in.sessionStartUtcNs, any = true;
    for (auto& in : p.inputs) {
        if (in.hasSessionStart) in.alignNs = in.sessionStartUtcNs - minUtc;
        else if (p.inputs.size() > 1)
            p.warnings.push_back(in.path + ": no session start time (TARGET_INFO_SESSION_START_TIME); its clock is not aligned with the other files");
    }
}

// Every file not taken from its snapshot read as tasks of one graph per window of files
// (file_reader.h): tables split into row-id ranges, kernel and API rows at the same time, on up to
// one thread per core. At most o.window exports are open at once, so that a thousand per-rank files
// stay within the open-file limit. Closes every connection.
void readExports(const Profile& p, const LoadOptions& options, OpenedInputs& o) {
    double totalRows = 0;
    for (double r : o.rows) totalRows += r;
    ReadProgress prog(totalRows);
    if (options.progress && !options.progress("reading", 0.0)) throw Cancelled();
    auto poll = [&] { return !options.progress || options.progress("reading", prog.fraction()); };
    for (size_t first = 0; first < o.files.size();) {
        std::vector<size_t> batch;
        for (; first < o.files.size() && batch.size() < o.window; ++first)
            if (!o.resolved[first].empty()) batch.push_back(first);
        if (batch.empty()) break;
        std::vector<std::unique_ptr<FileReader>> readers;
        TaskGraph graph;
        for (size_t fi : batch) {
            o.parts[fi].input = p.inputs[fi];
            readers.push_back(std::make_unique<FileReader>(openExport(o, fi), o.parts[fi], prog));
            readers.back()->plan(graph);
        }
        graph.run(workerThreads(), prog.cancel, poll);
        readers.clear();
        for (size_t fi : batch) closeExport(o, fi);
    }
    if (!poll()) throw Cancelled();  // the last of the reading, also when it took less than one poll
    o.files.clear();
}

}  // namespace

Profile loadProfile(const std::vector<std::string>& given, const LoadOptions& options) {
    Profile p;
    OpenedInputs o;  // its parts close before `converted` removes anything
    o.window = openFileWindow(workerThreads());
    const std::vector<std::string> paths = options.summaries ? expandSummaryFolders(given) : given;
    openInputs(p, paths, options, o);
    if (options.summaries) refuseSummaryBesideExport(p);
    alignInputs(p);
    readExports(p, options, o);

    std::vector<std::vector<FilePart::KeyedLane>> lanesPerFile(o.parts.size());
    for (size_t fi = 0; fi < o.parts.size(); ++fi) {
        InputFile& in = p.inputs[fi];
        const InputFile& read = o.parts[fi].input;
        in.kernelRows = read.kernelRows;
        in.runtimeRows = read.runtimeRows;
        in.nvtxRanges = read.nvtxRanges;
        in.syncRows = read.syncRows;
        in.readWarnings = o.parts[fi].warnings;
        mergePart(p, std::move(o.parts[fi]), int(fi), lanesPerFile[fi]);
        alignFile(p, int(fi), lanesPerFile[fi], in.alignNs);
    }
    std::vector<FilePart>().swap(o.parts);
    buildRanks(p, lanesPerFile);
    if (p.nameOps.size() < p.strings.size()) p.nameOps.resize(p.strings.size(), CollOp::NotNccl);
    assignRankLabels(p);
    if (options.progress && !options.progress("done", 1.0)) throw Cancelled();
    warnMissingDevices(p);
    // the growth of the column vectors left freed blocks behind: give them back to the system
    releaseFreedMemory();
    return p;
}

}  // namespace skew
