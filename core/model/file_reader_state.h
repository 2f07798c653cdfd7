#pragma once
// Inside the loader's reading of one export (file_reader.h): the state its tasks share and the
// steps they run, one file per job: planning the tables (file_reader.cpp), reading row-id ranges
// (table_readers.cpp), merging them in row order (part_merges.cpp), and joining kernels to their
// launch rows (launch_join.cpp). Only those files include this.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/file_reader.h"
#include "model/read_pieces.h"
#include "nsys/export_reader.h"

namespace skew {

struct FileReader::State {
    ExportFile& file;
    FilePart& part;
    ReadProgress& prog;
    const std::string path;  // the file SQLite opens (a converted report's copy, or the input)

    // phase 1: strings, processes, thread names
    std::vector<StrId> strMap;
    std::unordered_map<int64_t, StrId> sparseStr;
    std::vector<uint8_t> isLaunchApi;  // per part string id
    // the runtime scan's filter: its rows whose nameId is a launch API's (readStrings); empty: no
    // filter (a file with more such ids than kMostLaunchIds: each row would test them all)
    std::string launchFilter;
    static constexpr size_t kMostLaunchIds = 8;
    std::unordered_map<uint64_t, std::string> procNames;
    std::unordered_map<uint64_t, StrId> threadNames;  // globalTid -> name
    // phase 2: pieces per range
    std::vector<reader::KernelPiece> kernels;
    std::vector<reader::RuntimePiece> runtime;
    reader::PiecePool<reader::KernelPiece> kernelPool;
    reader::PiecePool<reader::RuntimePiece> runtimePool;
    std::vector<reader::NvtxPiece> nvtx;
    std::vector<reader::SyncPiece> sync;
    std::vector<reader::Range> kernelRanges, runtimeRanges, nvtxRanges, syncRanges;
    std::vector<uint64_t> kernelRowsPerRange, runtimeRowsPerRange, nvtxRowsPerRange, syncRowsPerRange;  // rows read, per range
    std::vector<std::string> kernelWarnings, launchWarnings, nvtxWarnings, syncWarnings;  // one list per merge task
    bool kernelTable = false, runtimeTable = false, nvtxTable = false, syncTable = false, processesTable = false,
         threadNamesTable = false;
    std::string kernelSql, runtimeSql, nvtxSql, syncSql;  // the columns read by each table's RowScan
    std::string processesSql;
    // phase 3: merged, keyed by globalPid until processes are assembled
    std::vector<uint64_t> kernelPids;  // processes in order of first appearance in the kernel table
    std::unordered_map<uint64_t, Launches> launches;  // globalPid -> its launch rows, until joined to its kernels
    std::vector<uint64_t> nvtxPids, syncPids;
    std::unordered_map<uint64_t, NvtxRanges> nvtxMerged;
    std::unordered_map<uint64_t, StreamWaits> syncMerged;
    std::unordered_map<reader::LaneKey, uint32_t, reader::LaneKeyHash> laneOf;  // index in part.lanes
    uint64_t kernelRowsMerged = 0, kernelSkipped = 0, kernelBadCorrelation = 0;
    uint64_t runtimeRowsMerged = 0, skippedLaunches = 0;
    // the launch join: processes with kernels and their lanes; rows repeating a joined id, per shard
    static constexpr size_t kShards = 2;  // (4 on 2 cores: no faster, 16 MB more of sort scratch and join columns at once)
    std::vector<std::pair<uint64_t, std::vector<KernelLane*>>> joinOrder;
    uint64_t shardDuplicates[kShards] = {};

    State(ExportFile& f, FilePart& p, ReadProgress& pr) : file(f), part(p), prog(pr), path(f.path()) {}

    StrId str(int64_t localId) const {
        if (localId >= 0 && size_t(localId) < strMap.size()) return strMap[size_t(localId)];
        auto it = sparseStr.find(localId);
        return it == sparseStr.end() ? kNoString : it->second;
    }

    // planning (file_reader.cpp)
    bool readable(const std::string& t, std::initializer_list<const char*> required, bool essential);
    void warnSkipped(std::vector<std::string>& to, uint64_t count, const char* what, const std::string& table, const char* columns);
    static size_t growTo(size_t want, uint64_t merged, const std::vector<reader::Range>& ranges);
    std::vector<reader::Range> split(const std::string& table);
    void prepareTables();
    // phase 1 and 2: the tables read (table_readers.cpp)
    void readStrings();
    void readProcesses();
    void readThreadNames();
    void readKernels(size_t ri);
    void readRuntime(size_t ri);
    void readNvtx(size_t ri);
    void readSync(size_t ri);
    // phase 3: the ranges merged (part_merges.cpp)
    void mergeKernelRange(size_t ri);
    void kernelsMerged();
    void finishLanes(size_t shard);
    void mergeRuntimeRange(size_t ri);
    void mergeNvtx();
    void mergeSync();
    void assemble();
    // the launch join (launch_join.cpp)
    void launchesMerged();
    void joinShard(size_t shard);
    void finishLaunches();
};

}  // namespace skew
