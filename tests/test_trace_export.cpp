// `skewscope export --format perfetto`: the Chrome trace JSON of docs/analysis.md (Hand-off to
// Perfetto) on the demo run, checked against the generator's truth and the export's own rows.

#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <set>
#include <tuple>

#include "analysis/analysis.h"
#include "gen_fixture.h"
#include "json_value.h"
#include "model/loader.h"
#include "report/trace_export.h"
#include "whatif_hand_profile.h"

using namespace testutil;
using testjson::Value;

namespace {

const Generated& demo() { return generated("demo", skewgen::demoConfig()); }
constexpr int64_t kBigNs = 20'000'000;  // the default big threshold

// "1234.567" (microseconds, at most three decimals) as whole nanoseconds, read from the number's
// text: no floating point between the file and the comparison.
int64_t nsOf(const Value& v) {
    const std::string& t = v.raw;
    EXPECT_EQ(v.type, Value::Number) << t;
    const bool neg = !t.empty() && t[0] == '-';
    const size_t dot = t.find('.');
    const std::string whole = t.substr(neg ? 1 : 0, dot == std::string::npos ? std::string::npos : dot - (neg ? 1 : 0));
    std::string frac = dot == std::string::npos ? "" : t.substr(dot + 1);
    EXPECT_LE(frac.size(), 3u) << "more than nanosecond precision: " << t;
    while (frac.size() < 3) frac += '0';
    const int64_t ns = std::stoll(whole) * 1000 + std::stoll(frac);
    return neg ? -ns : ns;
}

// The trace of a profile, written in-process (in small pieces: many joins) and parsed strictly.
struct Trace {
    Value root;
    std::vector<const Value*> events;
    std::vector<const Value*> phase(const std::string& ph) const {
        std::vector<const Value*> out;
        for (const Value* e : events)
            if ((*e)["ph"].str == ph) out.push_back(e);
        return out;
    }
};

Trace traceOf(skew::Profile& p, const skew::AnalysisOptions& o = {}) {
    const skew::Analysis a = skew::analyze(p, o);
    const skew::IdealSchedule ideal = skew::idealSchedule(p, a);
    std::string text;
    skew::writePerfettoTrace(p, a, &ideal, [&](std::string_view piece) { text += piece; }, 4096);
    Trace tr;
    tr.root = testjson::parse(text);
    for (const Value& e : tr.root["traceEvents"].arr) tr.events.push_back(&e);
    return tr;
}

const Trace& demoTrace() {
    static const Trace t = [] {
        skew::Profile p = skew::loadProfile({demo().path});
        return traceOf(p);
    }();
    return t;
}

// Config rank -> the trace's pid: the rank's id in the spec's order + 1 (docs/analysis.md: pid 0 is
// Perfetto's idle process).
std::vector<int> pidsByConfigRank(const skewgen::GenResult& r) {
    std::vector<int> idx(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) idx[size_t(r.specOrder[i])] = int(i) + 1;
    return idx;
}

using Key = std::tuple<int64_t, int64_t, int64_t>;  // pid, tid, ts in ns

std::map<Key, const Value*> kernelsByStart(const Trace& t) {
    std::map<Key, const Value*> out;
    for (const Value* e : t.phase("X"))
        if ((*e)["cat"].str == "kernel" || (*e)["cat"].str == "nccl") out[{(*e)["pid"].i64(), (*e)["tid"].i64(), nsOf((*e)["ts"])}] = e;
    return out;
}

}  // namespace

TEST(TraceExport, ProcessPerRankThreadPerStreamAndOneEventPerKernel) {
    const Trace& t = demoTrace();
    const auto& r = demo().result;
    const std::vector<int> pidOf = pidsByConfigRank(r);
    const skewgen::GenConfig cfg = skewgen::demoConfig();
    std::map<int64_t, std::string> processNames, sortIndex;
    std::map<std::pair<int64_t, int64_t>, std::string> threadNames;
    for (const Value* e : t.phase("M")) {
        const std::string& name = (*e)["name"].str;
        if (name == "process_name") processNames[(*e)["pid"].i64()] = (*e)["args"]["name"].str;
        if (name == "process_sort_index") sortIndex[(*e)["pid"].i64()] = (*e)["args"]["sort_index"].raw;
        if (name == "thread_name") threadNames[{(*e)["pid"].i64(), (*e)["tid"].i64()}] = (*e)["args"]["name"].str;
    }
    ASSERT_EQ(processNames.size(), size_t(2 * cfg.ranks));  // the captured ranks, then their ideal schedules
    for (int c = 0; c < cfg.ranks; ++c) {
        const int pid = pidOf[size_t(c)];
        EXPECT_EQ(processNames[pid], r.rankLabels[size_t(c)]) << "config rank " << c;
        EXPECT_EQ(sortIndex[pid], std::to_string(pid - 1));  // the rank's id
        EXPECT_EQ(processNames[pid + cfg.ranks], r.rankLabels[size_t(c)] + " (ideal)");
        EXPECT_EQ(sortIndex[pid + cfg.ranks], std::to_string(pid - 1 + cfg.ranks));
    }
    // every (device, stream) of the kernel table: its thread, named, with one X event per row
    std::map<std::pair<int64_t, int64_t>, int64_t> perThread;
    for (const Value* e : t.phase("X"))
        if ((*e)["cat"].str == "kernel" || (*e)["cat"].str == "nccl") ++perThread[{(*e)["pid"].i64(), (*e)["tid"].i64()}];
    std::map<int, int> configRankOfDevice;
    for (int c = 0; c < cfg.ranks; ++c) configRankOfDevice[cfg.devices[size_t(c)]] = c;
    // "device:stream:rows,..." of the kernel table
    std::stringstream table(sqlText(demo().path, "SELECT group_concat(deviceId || ':' || streamId || ':' || n) FROM "
                                                 "(SELECT deviceId, streamId, COUNT(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                                 "GROUP BY deviceId, streamId)"));
    int64_t rows = 0;
    size_t threads = 0;
    for (std::string item; std::getline(table, item, ',');) {
        int device = 0, stream = 0;
        long long n = 0;
        ASSERT_EQ(std::sscanf(item.c_str(), "%d:%d:%lld", &device, &stream, &n), 3) << item;
        ASSERT_TRUE(configRankOfDevice.count(device)) << item;
        rows += n;
        ++threads;
        const std::pair<int64_t, int64_t> thread{pidOf[size_t(configRankOfDevice[device])], stream};
        EXPECT_EQ(perThread[thread], n) << "device " << device << " stream " << stream;
        EXPECT_EQ(threadNames[thread], "stream " + std::to_string(stream));
    }
    EXPECT_EQ(perThread.size(), threads);
    EXPECT_EQ(uint64_t(rows), r.kernelRows);
    int64_t events = 0;
    for (const auto& [thread, n] : perThread) events += n;
    EXPECT_EQ(uint64_t(events), r.kernelRows);
    EXPECT_EQ(t.root["displayTimeUnit"].str, "ns");
    // the ideal schedule: every kernel again (the demo has steps and launches), on the ideal processes
    std::map<std::pair<int64_t, int64_t>, int64_t> idealPerThread;
    for (const Value* e : t.phase("X"))
        if ((*e)["cat"].str == "ideal") ++idealPerThread[{(*e)["pid"].i64() - cfg.ranks, (*e)["tid"].i64()}];
    EXPECT_EQ(idealPerThread, perThread);
}

// The ideal processes of the hand profile (whatif_hand_profile.h): each kernel where the ideal
// replay puts it, the times worked out by hand in test_whatif_schedule.cpp's first test.
TEST(TraceExport, IdealScheduleIsASecondSetOfProcesses) {
    using namespace whatifhand;
    skew::Profile p = handProfile();
    const Trace t = traceOf(p);
    std::map<int64_t, std::string> names;
    for (const Value* e : t.phase("M"))
        if ((*e)["name"].str == "process_name") names[(*e)["pid"].i64()] = (*e)["args"]["name"].str;
    EXPECT_EQ(names, (std::map<int64_t, std::string>{{1, "dev 0"}, {2, "dev 1"}, {3, "dev 0 (ideal)"}, {4, "dev 1 (ideal)"}}));
    // (pid, tid) -> [start, end] in us after T, in start order
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> spans;
    for (const Value* e : t.phase("X"))
        if ((*e)["cat"].str == "ideal") {
            const int64_t s = nsOf((*e)["ts"]), d = nsOf((*e)["dur"]);
            EXPECT_EQ((*e)["args"]["shift_ns"].type, Value::Number);
            spans[{(*e)["pid"].i64(), (*e)["tid"].i64()}].push_back({(s - T) / kUs, (s + d - T) / kUs});
        }
    for (auto& [thread, v] : spans) std::sort(v.begin(), v.end());
    using Spans = std::vector<std::pair<int64_t, int64_t>>;
    EXPECT_EQ(spans[std::make_pair(3, 7)], (Spans{{10, 110}, {111, 131}, {1010, 1110}, {1112, 1132}}));
    EXPECT_EQ(spans[std::make_pair(3, 56)], (Spans{{112, 212}, {1113, 1213}}));
    EXPECT_EQ(spans[std::make_pair(4, 7)], (Spans{{10, 110}, {111, 131}, {1010, 1110}, {1111, 1131}}));
    EXPECT_EQ(spans[std::make_pair(4, 56)], (Spans{{112, 212}, {1112, 1213}}));
    EXPECT_EQ(spans.size(), 4u);
    EXPECT_EQ(t.root["otherData"]["ideal_schedule"].str.rfind("processes 3 on", 0), 0u);
}

// Without launch rows there is no ideal scenario: no ideal processes, and the trace says why.
TEST(TraceExport, NoIdealScheduleWithoutLaunchRows) {
    whatifhand::Options o;
    o.launches = false;
    skew::Profile p = whatifhand::handProfile(o);
    const Trace t = traceOf(p);
    for (const Value* e : t.phase("X")) EXPECT_NE((*e)["cat"].str, "ideal");
    size_t processes = 0;
    for (const Value* e : t.phase("M")) processes += (*e)["name"].str == "process_name";
    EXPECT_EQ(processes, 2u);
    EXPECT_EQ(t.root["otherData"]["ideal_schedule"].str, "none: the exports have no launch rows (CUDA API trace)");
}

TEST(TraceExport, NcclKernelsCarryTheirCollectiveAtTheGeneratorsTimes) {
    const Trace& t = demoTrace();
    const auto& r = demo().result;
    const std::vector<int> pidOf = pidsByConfigRank(r);
    const auto kernels = kernelsByStart(t);
    std::map<std::pair<int, int>, const skewgen::TruthLate*> planted;
    for (const auto& l : r.late) planted[{l.group, l.index}] = &l;
    size_t ncclEvents = 0, members = 0;
    for (const Value* e : t.phase("X")) ncclEvents += (*e)["cat"].str == "nccl";
    std::set<std::pair<int64_t, int64_t>> collectives;
    for (const auto& tc : r.collectives) {
        SCOPED_TRACE("truth group " + std::to_string(tc.group) + " #" + std::to_string(tc.index));
        int64_t minStart = INT64_MAX, maxStart = INT64_MIN;
        for (const auto& m : tc.members) minStart = std::min(minStart, m.startNs), maxStart = std::max(maxStart, m.startNs);
        std::set<std::pair<int64_t, int64_t>> ids;
        int lateYes = 0;
        for (const auto& m : tc.members) {
            ++members;
            auto it = kernels.find({pidOf[size_t(m.rank)], m.stream, m.startNs});
            ASSERT_NE(it, kernels.end()) << "no event at the member's start, rank " << m.rank;
            const Value& e = *it->second;
            EXPECT_EQ(nsOf(e["dur"]), m.endNs - m.startNs);
            EXPECT_EQ(e["cat"].str, "nccl");
            const Value& args = e["args"];
            ids.insert({args["group"].i64(), args["index"].i64()});
            EXPECT_EQ(args["op"].str, tc.op);
            EXPECT_EQ(args["lateness_ns"].i64(), m.startNs - minStart);
            EXPECT_EQ(args["start_skew_ns"].i64(), maxStart - minStart);
            EXPECT_EQ(args["step"].i64(), tc.step);
            EXPECT_EQ(args["big"].b, maxStart - minStart > kBigNs);
            lateYes += args["late_arriver"].str == "yes";
            if (auto p = planted.find({tc.group, tc.index}); p != planted.end()) {
                const skewgen::TruthLate& l = *p->second;
                EXPECT_EQ(args["late_arriver"].str, m.rank == l.planted.rank ? "yes" : "no");
                EXPECT_EQ(args["cause"].str, l.planted.kind == skewgen::LateKind::Cpu ? "CPU launch" : "GPU dependency");
            }
        }
        EXPECT_EQ(ids.size(), 1u) << "the members name one collective";
        EXPECT_TRUE(collectives.insert(*ids.begin()).second) << "two truth collectives under one (group, index)";
        EXPECT_EQ(lateYes, 1);
    }
    EXPECT_EQ(ncclEvents, members);  // no NCCL kernel outside a collective in the demo
}

TEST(TraceExport, FlowsJoinTheLateArriversLaunchToItsKernel) {
    const Trace& t = demoTrace();
    const auto& r = demo().result;
    const std::vector<int> pidOf = pidsByConfigRank(r);
    std::map<std::pair<int64_t, int64_t>, std::string> threadNames;
    for (const Value* e : t.phase("M"))
        if ((*e)["name"].str == "thread_name") threadNames[{(*e)["pid"].i64(), (*e)["tid"].i64()}] = (*e)["args"]["name"].str;
    std::map<std::string, const Value*> starts, finishes;
    for (const Value* e : t.phase("s")) EXPECT_TRUE(starts.emplace((*e)["id"].raw, e).second) << "flow id used twice";
    for (const Value* e : t.phase("f")) EXPECT_TRUE(finishes.emplace((*e)["id"].raw, e).second) << "flow id used twice";
    ASSERT_EQ(starts.size(), finishes.size());
    for (const auto& [id, s] : starts) EXPECT_TRUE(finishes.count(id)) << id;
    ASSERT_FALSE(r.late.empty());
    for (const auto& l : r.late) {
        SCOPED_TRACE("planted at index " + std::to_string(l.index));
        const skewgen::TruthMember* late = nullptr;
        for (const auto& tc : r.collectives)
            if (tc.group == l.group && tc.index == l.index)
                for (const auto& m : tc.members)
                    if (m.rank == l.planted.rank) late = &m;
        ASSERT_TRUE(late);
        const int64_t pid = pidOf[size_t(late->rank)];
        // the flow's end lies in the late kernel, on its stream
        const Value* f = nullptr;
        for (const auto& [id, e] : finishes)
            if ((*e)["pid"].i64() == pid && (*e)["tid"].i64() == late->stream && nsOf((*e)["ts"]) >= late->startNs &&
                nsOf((*e)["ts"]) <= late->endNs)
                f = e;
        ASSERT_TRUE(f);
        EXPECT_EQ((*f)["bp"].str, "e");
        // its start lies in a launch call on the rank's CPU launches thread that ends where the truth's call ends
        const Value& s = *starts.at((*f)["id"].raw);
        EXPECT_EQ(s["pid"].i64(), pid);
        EXPECT_EQ(threadNames[std::make_pair(pid, s["tid"].i64())], "CPU launches");
        const int64_t sTs = nsOf(s["ts"]);
        const Value* call = nullptr;
        for (const Value* e : t.phase("X"))
            if ((*e)["cat"].str == "launch" && (*e)["pid"].i64() == pid && (*e)["tid"].i64() == s["tid"].i64() &&
                nsOf((*e)["ts"]) <= sTs && sTs <= nsOf((*e)["ts"]) + nsOf((*e)["dur"]))
                call = e;
        ASSERT_TRUE(call);
        EXPECT_EQ(nsOf((*call)["ts"]) + nsOf((*call)["dur"]), late->launchEndNs);
        EXPECT_EQ((*call)["args"]["launch_to_start_ns"].i64(), late->startNs - late->launchEndNs);
    }
}

TEST(TraceExport, BigCollectivesAreGlobalInstants) {
    const Trace& t = demoTrace();
    std::multiset<int64_t> expected;  // first member start of each collective over the threshold
    for (const auto& tc : demo().result.collectives) {
        int64_t minStart = INT64_MAX, maxStart = INT64_MIN;
        for (const auto& m : tc.members) minStart = std::min(minStart, m.startNs), maxStart = std::max(maxStart, m.startNs);
        if (maxStart - minStart > kBigNs) expected.insert(minStart);
    }
    ASSERT_EQ(expected.size(), demo().result.late.size());  // the planted ones, all over 20 ms
    std::multiset<int64_t> markers;
    for (const Value* e : t.phase("i")) {
        EXPECT_EQ((*e)["s"].str, "g");
        EXPECT_EQ((*e)["cat"].str, "big");
        markers.insert(nsOf((*e)["ts"]));
    }
    EXPECT_EQ(markers, expected);
}

// --trim: the kernels whose start is in the window, those of the whole run's trace there.
TEST(TraceExport, TrimKeepsTheWindowsKernels) {
    std::multiset<std::tuple<int64_t, int64_t, int64_t, int64_t>> all;  // pid, tid, ts, dur (ns)
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const Value* e : demoTrace().phase("X"))
        if ((*e)["cat"].str == "kernel" || (*e)["cat"].str == "nccl") {
            all.insert({(*e)["pid"].i64(), (*e)["tid"].i64(), nsOf((*e)["ts"]), nsOf((*e)["dur"])});
            first = std::min(first, nsOf((*e)["ts"])), last = std::max(last, nsOf((*e)["ts"]));
        }
    skew::AnalysisOptions o;
    o.hasTrim = true;
    o.trimStartNs = first + (last - first) / 3;
    o.trimEndNs = first + (last - first) / 2;
    skew::Profile p = skew::loadProfile({demo().path});
    const Trace t = traceOf(p, o);
    std::multiset<std::tuple<int64_t, int64_t, int64_t, int64_t>> kept, expected;
    for (const Value* e : t.phase("X"))
        if ((*e)["cat"].str == "kernel" || (*e)["cat"].str == "nccl")
            kept.insert({(*e)["pid"].i64(), (*e)["tid"].i64(), nsOf((*e)["ts"]), nsOf((*e)["dur"])});
    for (const auto& k : all)
        if (std::get<2>(k) >= o.trimStartNs && std::get<2>(k) < o.trimEndNs) expected.insert(k);
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(kept, expected);
}

TEST(TraceExport, CommandWritesTheFileAndNeverAPartialOne) {
    const std::string dir = tempDir("trace-export");
    const std::string out = dir + "/run.json";
    RunResult ok = runSkewscope({"export", demo().path, "--format", "perfetto", "--output", out, "--no-cache"});
    ASSERT_EQ(ok.exitCode, 0) << ok.err;
    const Value root = testjson::parse(slurp(out));
    EXPECT_EQ(root["traceEvents"].size(), demoTrace().events.size());

    // an output that is the input: refused, the export untouched
    const std::string before = slurp(demo().path);
    EXPECT_EQ(runSkewscope({"export", demo().path, "--output", demo().path}).exitCode, 2);
    EXPECT_EQ(slurp(demo().path), before);
    // usage errors
    EXPECT_EQ(runSkewscope({"export", demo().path, "--format", "csv", "--output", out}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"export", "--output", out}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"export", demo().path, "--view", "timeline"}).exitCode, 2);
    // an unreadable input: exit 3, the previous trace left whole, no temporary file beside it
    const std::string bad = dir + "/not-an-export.sqlite";
    { std::ofstream(bad) << "this is not SQLite\n"; }
    const std::string kept = slurp(out);
    RunResult r = runSkewscope({"export", bad, "--output", out, "--no-cache"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_EQ(slurp(out), kept);
    size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
    EXPECT_EQ(files, 2u) << "a temporary file was left";
}
