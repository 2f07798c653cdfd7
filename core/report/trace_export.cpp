// The Chrome trace event JSON of a run (docs/analysis.md, Hand-off to Perfetto): metadata, then
// lane by lane the kernels' complete events (formatted on the pool, appended in order), the ideal
// schedule's, then the big collectives' markers.
#include "report/trace_export.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>
#include <vector>

#include "report/analysis_report.h"
#include "report/answers_report.h"
#include "util/json.h"
#include "util/stage_clock.h"

namespace skew {
namespace {

// Writes ns as microseconds with three decimals ("1234.567", "-0.005"): the trace format's unit,
// exact to the nanosecond.
void micros(JsonWriter& w, std::string_view key, int64_t ns) {
    char buf[32];
    char* p = buf;
    uint64_t m = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (ns < 0) *p++ = '-';
    p = std::to_chars(p, buf + sizeof buf, m / 1000).ptr;
    *p++ = '.';
    const unsigned frac = unsigned(m % 1000);
    *p++ = char('0' + frac / 100);
    *p++ = char('0' + frac / 10 % 10);
    *p++ = char('0' + frac % 10);
    w.key(key).raw(std::string_view(buf, size_t(p - buf)));
}

// A kernel of a lane that is a member of a collective.
struct MemberKernel {
    uint32_t kernel = 0;
    uint32_t collective = 0;  // index into Analysis::collectives
    uint32_t slot = 0;        // in its group
};

// A rank's process id: its id + 1, since Perfetto takes pid 0 for the kernel's idle process
// ("swapper") and advises synthetic traces to start at 1 (google/perfetto issues 394, 560).
int pidOf(int rank) { return rank + 1; }

// The CPU launches thread of a rank: a thread id past its streams'.
int32_t launchThread(const Rank& r) {
    int32_t t = 0;
    for (const auto& l : r.lanes) t = std::max(t, l.stream + 1);
    return t;
}

class TraceWriter {
public:
    TraceWriter(const Profile& p, const Analysis& a, const IdealSchedule* ideal, JsonWriter& w)
        : p_(p), a_(a), ideal_(ideal && !ideal->empty() ? ideal : nullptr),
          noIdeal_(ideal_ ? "" : ideal ? ideal->why : "not computed"), w_(w) {
        for (const Group& g : a.groups)
            for (size_t s = 0; s < g.width(); ++s) slotsOf_[{g.lanes[s].rank, g.lanes[s].lane}].push_back({g.id, s});
        launchRanks_.assign(p.ranks.size(), false);
        for (const Collective& c : a.collectives)
            if (c.lateSlot >= 0 && lateLaunch(p, a, c)) launchRanks_[size_t(a.lateRank(c))] = true;
    }

    void write() {
        StageClock clock("export");  // SKEWSCOPE_TIMING=1
        w_.beginObject().field("displayTimeUnit", "ns");
        w_.key("otherData").beginObject().field("tool", "skewscope").field("version", SKEWSCOPE_VERSION)
            .field("time_base", "aligned (docs/analysis.md, Inputs); ts and dur in microseconds");
        w_.field("ideal_schedule", ideal_ ? std::string("processes ") + std::to_string(idealPid(0)) + " on: the what-if's ideal replay"
                                          : "none: " + noIdeal_);
        w_.endObject();
        w_.key("traceEvents").beginArray();
        for (const Rank& r : p_.ranks) metadata(r);
        for (const Rank& r : p_.ranks)
            for (size_t l = 0; l < r.lanes.size(); ++l) lane(r, int(l));
        clock.done("kernels");
        if (ideal_) {
            for (const Rank& r : p_.ranks) idealTracks(r);
            clock.done("ideal");
        }
        for (size_t ci = 0; ci < a_.collectives.size(); ++ci)
            if (a_.collectives[ci].big) bigMarker(a_.collectives[ci]);
        w_.endArray().endObject();
        clock.done("markers");
    }

private:
    void meta(int pid, const int32_t* tid, const char* name, const char* argKey, auto value) {
        w_.beginObject().field("ph", "M").field("pid", pid);
        if (tid) w_.field("tid", *tid);
        w_.field("name", name).key("args").beginObject().field(argKey, value).endObject().endObject();
    }

    // process_name (the reports' rank label), process_sort_index, and a named thread per stream and
    // for the CPU launches.
    void metadata(const Rank& r) {
        meta(pidOf(r.id), nullptr, "process_name", "name", rankLabel(p_, r.id));
        meta(pidOf(r.id), nullptr, "process_sort_index", "sort_index", r.id);
        for (const KernelLane& l : r.lanes) {
            meta(pidOf(r.id), &l.stream, "thread_name", "name", "stream " + std::to_string(l.stream));
            meta(pidOf(r.id), &l.stream, "thread_sort_index", "sort_index", l.stream);
        }
        if (launchRanks_[size_t(r.id)]) {
            const int32_t t = launchThread(r);
            meta(pidOf(r.id), &t, "thread_name", "name", "CPU launches");
            meta(pidOf(r.id), &t, "thread_sort_index", "sort_index", -1);
        }
    }

    // The collectives' members on lane (rank, lane), by kernel index.
    std::vector<MemberKernel> laneMembers(int rank, int lane) const {
        std::vector<MemberKernel> out;
        auto it = slotsOf_.find({rank, lane});
        if (it == slotsOf_.end()) return out;
        for (auto [gid, slot] : it->second) {
            const Group& g = a_.groups[size_t(gid)];
            for (uint32_t k = 0; k < g.count; ++k)
                if (uint32_t kernel = g.cells[size_t(k) * g.width() + slot]; kernel != kMissing)
                    out.push_back({kernel, g.firstCollective + k, uint32_t(slot)});
        }
        std::sort(out.begin(), out.end(), [](const MemberKernel& x, const MemberKernel& y) { return x.kernel < y.kernel; });
        return out;
    }

    void lane(const Rank& r, int laneIndex) {
        const KernelLane& l = r.lanes[size_t(laneIndex)];
        size_t lo = 0, hi = l.size();
        if (a_.options.hasTrim) {
            lo = size_t(std::lower_bound(l.start.begin(), l.start.end(), a_.options.trimStartNs) - l.start.begin());
            hi = size_t(std::lower_bound(l.start.begin(), l.start.end(), a_.options.trimEndNs) - l.start.begin());
            hi = std::max(lo, hi);
        }
        const std::vector<MemberKernel> members = laneMembers(r.id, laneIndex);
        const int32_t cpuTid = launchThread(r);
        w_.arrayItems(hi - lo, a_.options.threads, [&](JsonWriter& w, size_t i) {
            const uint32_t k = uint32_t(lo + i);
            auto m = std::lower_bound(members.begin(), members.end(), k, [](const MemberKernel& x, uint32_t v) { return x.kernel < v; });
            const MemberKernel* member = m != members.end() && m->kernel == k ? &*m : nullptr;
            kernelEvent(w, r, l, k, member);
            if (member) lateLaunchEvents(w, r, l, k, *member, cpuTid);
        }, 1024);
    }

    void kernelEvent(JsonWriter& w, const Rank& r, const KernelLane& l, uint32_t k, const MemberKernel* m) const {
        const StrId name = l.name[k];
        w.beginObject().field("ph", "X").field("pid", pidOf(r.id)).field("tid", l.stream);
        micros(w, "ts", l.start[k]);
        micros(w, "dur", l.duration[k]);
        w.field("name", p_.strings.str(name)).field("cat", p_.opOfName(name) == CollOp::NotNccl && !m ? "kernel" : "nccl");
        if (m) {
            const Collective& c = a_.collectives[m->collective];
            w.key("args").beginObject().field("group", c.group).field("index", c.index).field("op", opName(c.op))
                .field("lateness_ns", l.start[k] - c.minStart).field("late_arriver", int(m->slot) == c.lateSlot ? "yes" : "no")
                .field("start_skew_ns", c.startSkew()).field("big", c.big);
            if (c.lateSlot >= 0) w.field("cause", causeLabel(c.cause));
            if (c.step) w.field("step", c.step);
            w.endObject();
        }
        w.endObject();
    }

    // For the late arriver's kernel: its launch call on the rank's CPU launches thread, and a flow
    // from the call to the kernel (bound to the slices that enclose their midpoints).
    void lateLaunchEvents(JsonWriter& w, const Rank& r, const KernelLane& l, uint32_t k, const MemberKernel& m, int32_t cpuTid) const {
        const Collective& c = a_.collectives[m.collective];
        if (int(m.slot) != c.lateSlot || !l.hasLaunch(k)) return;
        const int64_t callStart = l.launchStart(k), callEnd = l.launchEnd(k);
        const uint64_t id = uint64_t(m.collective) + 1;
        w.beginObject().field("ph", "X").field("pid", pidOf(r.id)).field("tid", cpuTid);
        micros(w, "ts", callStart);
        micros(w, "dur", callEnd - callStart);
        w.field("name", p_.strings.str(l.launchApi[k])).field("cat", "launch");
        w.key("args").beginObject().field("group", c.group).field("index", c.index).field("thread", uint64_t(l.launchTid[k]))
            .field("launch_to_start_ns", l.start[k] - callEnd).endObject();
        w.endObject();
        w.beginObject().field("ph", "s").field("id", id).field("pid", pidOf(r.id)).field("tid", cpuTid).field("name", "late launch")
            .field("cat", "launch");
        micros(w, "ts", callStart + (callEnd - callStart) / 2);
        w.endObject();
        w.beginObject().field("ph", "f").field("bp", "e").field("id", id).field("pid", pidOf(r.id)).field("tid", l.stream)
            .field("name", "late launch").field("cat", "launch");
        micros(w, "ts", l.start[k] + l.duration[k] / 2);
        w.endObject();
    }

    // A big collective (start skew over the threshold): a global instant at its first member's start.
    void bigMarker(const Collective& c) {
        w_.beginObject().field("ph", "i").field("s", "g").field("name", "big: " + collectiveTitle(p_, a_, c)).field("cat", "big");
        micros(w_, "ts", c.minStart);
        w_.key("args").beginObject().field("group", c.group).field("index", c.index).field("start_skew_ns", c.startSkew());
        if (c.lateSlot >= 0) w_.field("late_arriver", rankLabel(p_, a_.lateRank(c))).field("cause", causeLabel(c.cause));
        w_.endObject().endObject();
    }

    // The ideal schedule's process of a rank: after every rank's own, in the same order.
    int idealPid(int rank) const { return pidOf(int(p_.ranks.size()) + rank); }

    // A rank's kernels where the ideal replay puts them: a process of their own ("dev 3 (ideal)"),
    // a thread per stream as the rank's, sorted after every captured rank.
    void idealTracks(const Rank& r) {
        const int pid = idealPid(r.id);
        meta(pid, nullptr, "process_name", "name", rankLabel(p_, r.id) + " (ideal)");
        meta(pid, nullptr, "process_sort_index", "sort_index", int(p_.ranks.size()) + r.id);
        for (size_t li = 0; li < r.lanes.size(); ++li) {
            const KernelLane& l = r.lanes[li];
            const ReplayLane& rl = ideal_->kernels.lane(r.id, int(li));
            if (rl.hi <= rl.lo) continue;
            meta(pid, &l.stream, "thread_name", "name", "stream " + std::to_string(l.stream));
            meta(pid, &l.stream, "thread_sort_index", "sort_index", l.stream);
            w_.arrayItems(rl.hi - rl.lo, a_.options.threads, [&](JsonWriter& w, size_t i) {
                const uint32_t k = rl.lo + uint32_t(i);
                const int64_t s = ideal_->start[rl.base + i], e = ideal_->end[rl.base + i];
                w.beginObject().field("ph", "X").field("pid", pid).field("tid", l.stream);
                micros(w, "ts", s);
                micros(w, "dur", e - s);
                w.field("name", p_.strings.str(l.name[k])).field("cat", "ideal").key("args").beginObject()
                    .field("shift_ns", s - l.start[k]).endObject().endObject();
            }, 1024);
        }
    }

    const Profile& p_;
    const Analysis& a_;
    const IdealSchedule* ideal_;  // null: no ideal tracks
    std::string noIdeal_;         // why not
    JsonWriter& w_;
    std::map<std::pair<int, int>, std::vector<std::pair<int, size_t>>> slotsOf_;  // (rank, lane) -> (group, slot)
    std::vector<bool> launchRanks_;  // per rank: a late arriver's launch to draw
};

}  // namespace

void writePerfettoTrace(const Profile& p, const Analysis& a, const IdealSchedule* ideal, const std::function<void(std::string_view)>& sink,
                        size_t chunk) {
    JsonWriter w(false);
    w.streamTo(sink, chunk);
    TraceWriter(p, a, ideal, w).write();
    w.flush();
    sink("\n");
}

}  // namespace skew
