#include "nsys/thread_activity.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>

#include "nsys/export_reader.h"
#include "util/errors.h"

namespace skew {

namespace {

// SQLite calls this every few thousand steps of a scan; non-zero interrupts it.
int interruptWhenCancelled(void* flag) {
    return static_cast<const std::atomic<bool>*>(flag)->load(std::memory_order_relaxed) ? 1 : 0;
}

struct Reader {
    ExportFile& file;
    uint64_t tid;
    int64_t from, to;
    ThreadActivity& out;
    const std::atomic<bool>* cancel;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    // Runs `sql` (?1 thread, ?2 from, ?3 to; columns start, end, name) and adds each row as `kind`.
    void read(const std::string& sql, CpuEvent::Kind kind) {
        if (cancelled() || out.truncated) return;
        Query q(file.db(), sql, file.path());
        q.bind(1, int64_t(tid)).bind(2, from).bind(3, to);
        try {
            while (q.step()) {
                if (out.events.size() >= kMaxThreadEvents) {
                    out.truncated = true;
                    return;
                }
                CpuEvent e;
                e.kind = kind;
                e.start = q.i64(0);
                e.end = kind == CpuEvent::Sample ? e.start : std::max(e.start, q.i64(1));
                if (!q.isNull(2)) e.name = std::string(q.text(2));
                out.events.push_back(std::move(e));
            }
        } catch (const InputError&) {
            if (!cancelled()) throw;  // an interrupted scan: what was read is kept
        }
    }
};

bool hasColumns(ExportFile& f, const std::string& table, std::initializer_list<const char*> cols) {
    if (!f.hasTable(table)) return false;
    const std::set<std::string>& have = f.columns(table);
    for (const char* c : cols)
        if (!have.count(c)) return false;
    return true;
}

// Sorts v[from, end) by start (the scans return rows in rowid order, not always time order).
void sortByStart(std::vector<CpuEvent>& v, size_t from) {
    std::stable_sort(v.begin() + std::ptrdiff_t(from), v.end(), [](const CpuEvent& a, const CpuEvent& b) { return a.start < b.start; });
}

}  // namespace

std::string apiDisplayName(const std::string& name) {
    const size_t v = name.rfind("_v");
    if (v == std::string::npos || v + 2 >= name.size()) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
    return name.substr(0, v);
}

ThreadActivity readThreadActivity(const std::string& exportPath, uint64_t globalTid, int64_t from, int64_t to,
                                  const std::atomic<bool>* cancel) {
    ThreadActivity out;
    ExportFile file(exportPath);
    if (cancel) sqlite3_progress_handler(file.db(), 4096, interruptWhenCancelled, const_cast<std::atomic<bool>*>(cancel));
    Reader r{file, globalTid, from, to, out, cancel};
    const bool names = hasColumns(file, "StringIds", {"id", "value"});
    const std::string name = names ? "s.value" : "NULL";
    auto named = [&](const std::string& alias, const std::string& idColumn) {
        return names ? " LEFT JOIN StringIds s ON s.id = " + alias + "." + idColumn : std::string();
    };
    const std::string rt = "CUPTI_ACTIVITY_KIND_RUNTIME";
    out.hasCudaApi = hasColumns(file, rt, {"start", "end", "globalTid", "nameId"});
    if (out.hasCudaApi) {
        // eventClass 0/1: runtime and driver calls (67 repeats a launch as its backtrace)
        const std::string cls = file.columns(rt).count("eventClass") ? " AND (r.eventClass IS NULL OR r.eventClass IN (0, 1))" : "";
        r.read("SELECT r.start, r.end, " + name + " FROM " + rt + " r" + named("r", "nameId") +
                   " WHERE r.globalTid = ?1 AND r.start < ?3 AND r.end > ?2" + cls,
               CpuEvent::CudaApi);
        sortByStart(out.events, 0);
    }
    size_t mark = out.events.size();
    out.hasOsRuntime = hasColumns(file, "OSRT_API", {"start", "end", "globalTid", "nameId"});
    if (out.hasOsRuntime) {
        const std::string outer = file.columns("OSRT_API").count("nestingLevel") ? " AND (o.nestingLevel IS NULL OR o.nestingLevel = 0)" : "";
        r.read("SELECT o.start, o.end, " + name + " FROM OSRT_API o" + named("o", "nameId") +
                   " WHERE o.globalTid = ?1 AND o.start < ?3 AND o.end > ?2" + outer,
               CpuEvent::OsRuntime);
        sortByStart(out.events, mark);
    }
    mark = out.events.size();
    out.hasSamples = hasColumns(file, "COMPOSITE_EVENTS", {"id", "start", "globalTid"});
    if (out.hasSamples) {
        const bool stacks = hasColumns(file, "SAMPLING_CALLCHAINS", {"id", "symbol", "stackDepth"});
        const std::string top = stacks ? " LEFT JOIN SAMPLING_CALLCHAINS k ON k.id = c.id AND k.stackDepth = 0" + named("k", "symbol") : "";
        r.read("SELECT c.start, c.start, " + std::string(stacks ? name : "NULL") + " FROM COMPOSITE_EVENTS c" + top +
                   " WHERE c.globalTid = ?1 AND c.start >= ?2 AND c.start < ?3",
               CpuEvent::Sample);
    }
    sortByStart(out.events, mark);
    return out;
}

}  // namespace skew
