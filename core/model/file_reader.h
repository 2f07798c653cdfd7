#pragma once
// Reading one export into a FilePart as tasks of the loader's TaskGraph: the small tables first
// (strings, processes, thread names), then the big ones split into row-id ranges, each range read
// on its own read-only connection (kernels, CUDA API rows, NVTX, stream waits), then per-table
// merges that put the ranges together in row-id order. The result is the same whatever the number
// of threads: the split depends on row counts only, and merges follow the ranges' order.
//
// Rows are checked as they are read (docs/analysis.md, Loading; model/read_checks.h): unusable
// times or ids are skipped and counted in one warning per table. Launch rows kept are the
// eventClass 0/1 rows of launch APIs (names with "Launch") whose process and correlation id
// launched a kernel of the file; filtering by name while reading and by kernel after means the two
// tables are read at the same time.
//
// The work is in files by job: this header's FileReader plans the tasks (file_reader.cpp); the
// tasks share a FileReader::State (file_reader_state.h) and read ranges (table_readers.cpp), merge
// them (part_merges.cpp) and join kernels to their launches (launch_join.cpp).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "model/file_part.h"
#include "util/task_graph.h"

namespace skew {

class ExportFile;

// Rows read so far over all files, shared by the reading tasks; a set `cancel` makes every task
// stop (throw Cancelled) at its next count.
class ReadProgress {
public:
    explicit ReadProgress(double totalRows) : total_(totalRows < 1 ? 1 : totalRows) {}
    void add(uint64_t rows);
    double fraction() const;
    std::atomic<bool> cancel{false};

private:
    double total_;
    std::atomic<uint64_t> done_{0};
};

constexpr uint64_t kProgressEvery = 1 << 16;  // rows between progress counts (and cancel checks)

// The tables a read goes over, whose rows the progress counts.
extern const char* const kReadTables[5];

class FileReader {
public:
    // `file` is the already opened (metadata) connection of `path`; `part.input` must be filled.
    FileReader(ExportFile& file, FilePart& part, ReadProgress& progress);
    ~FileReader();

    // Adds this file's tasks to `graph`; the FilePart is complete when they have all run.
    void plan(TaskGraph& graph);

private:
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace skew
