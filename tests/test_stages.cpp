// Unit tests of the analysis stages on tiny hand-built profiles: the lane interval index against
// brute force, the why stage at its window edges, steps (nested, inferred, none), group statistics
// (ends that do not cluster, NCCL-only time under a window), unmatched lanes, the answers'
// verdicts and big-event positions, the chi-square tail against closed forms, cancel, the clock
// refinement of several files, and the capture advice's option spellings per Nsight Systems release.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <cmath>
#include <map>
#include <memory>
#include <random>

#include "advice_texts.h"
#include "analysis/analysis.h"
#include "analysis/capture_advice.h"
#include "analysis/clocks.h"
#include "analysis/grouping.h"
#include "analysis/steps.h"
#include "analysis/why.h"
#include "chi_square_oracle.h"
#include "json_value.h"
#include "model/lane_index.h"
#include "model/nvtx_index.h"
#include "nsys/export_reader.h"
#include "profile_builder.h"
#include "report/analysis_report.h"
#include "report/answers_report.h"
#include "util/json.h"

using namespace testutil;
using skew::Analysis;
using skew::Collective;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

constexpr int64_t kUs = 1'000, kMs = 1'000'000;
constexpr int64_t T = 1'000 * kMs;  // times around 1 s: nothing near zero
const std::string AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string RS = "ncclDevKernel_ReduceScatter_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

// ---- string table -----------------------------------------------------------------------------

TEST(StringTable, CopiesFindTheirOwnStringsAfterTheOriginalIsGone) {
    // long strings (beyond the small-string buffer) live on the heap of the table that made them
    const std::string a(100, 'a'), b(100, 'b');
    auto original = std::make_unique<skew::StringTable>();
    ASSERT_EQ(original->intern(a), 1u);
    ASSERT_EQ(original->intern(b), 2u);
    skew::StringTable copy(*original);
    skew::StringTable assigned;
    assigned = *original;
    original.reset();
    for (skew::StringTable* t : {&copy, &assigned}) {
        EXPECT_EQ(t->intern(b), 2u);
        EXPECT_EQ(t->intern(a), 1u);
        EXPECT_EQ(t->intern("c"), 3u);
        EXPECT_EQ(t->str(2), b);
    }
}

// ---- lane index -----------------------------------------------------------------------------

TEST(LaneIndex, OverlapAndLatestEndMatchBruteForceOnOverlappingLanes) {
    std::mt19937_64 rng(42);
    for (int trial = 0; trial < 40; ++trial) {
        skew::KernelLane l;
        int64_t t = 0;
        const int n = 1 + int(rng() % 300);
        for (int i = 0; i < n; ++i) {
            t += int64_t(rng() % 50);
            // mostly short kernels, some very long ones: ends are not monotonic
            int64_t d = rng() % 10 == 0 ? int64_t(rng() % 5000) : int64_t(rng() % 40);
            l.push_back(t, t + d, 0, 0);
        }
        skew::buildLaneIndex(l);
        size_t blockHint = 0;  // forEachOverlapping's hint, carried from query to query (in any order)
        for (int q = 0; q < 200; ++q) {
            int64_t a = int64_t(rng() % uint64_t(t + 100)) - 50, b = a + int64_t(rng() % 300);
            if (q >= 100) a = int64_t(q - 100) * (t + 100) / 100 - 50, b = a + int64_t(rng() % 300);  // then in time order
            std::vector<size_t> got, from, want;
            skew::forEachOverlapping(l, a, b, [&](size_t i) { got.push_back(i); });
            skew::forEachOverlapping(l, a, b, [&](size_t i) { from.push_back(i); }, &blockHint);
            for (size_t i = 0; i < l.size(); ++i)
                if (l.start[i] < b && l.end(i) > a) want.push_back(i);
            ASSERT_EQ(got, want) << "trial " << trial << " [" << a << ", " << b << ")";
            ASSERT_EQ(from, want) << "trial " << trial << " [" << a << ", " << b << ") from a hint";
            int64_t skip = rng() % 4 == 0 ? int64_t(rng() % uint64_t(n)) : -1;
            int64_t best = -1;
            for (size_t i = 0; i < l.size(); ++i)
                if (int64_t(i) != skip && l.end(i) >= a && l.end(i) <= b && (best < 0 || l.end(i) >= l.end(size_t(best)))) best = int64_t(i);
            size_t hint = size_t(rng() % uint64_t(n + 1));
            ASSERT_EQ(skew::latestEndIn(l, a, b, skip, q % 2 ? &hint : nullptr), best) << "trial " << trial;
        }
    }
}

TEST(LaneIndex, GallopFindsUpperBoundFromAnyHint) {
    std::vector<int64_t> v = {1, 3, 3, 3, 7, 9, 9, 12};
    for (size_t hint = 0; hint <= v.size() + 2; ++hint)
        for (int64_t x = 0; x <= 13; ++x)
            EXPECT_EQ(skew::gallopUpper(v, hint, x), size_t(std::upper_bound(v.begin(), v.end(), x) - v.begin())) << hint << " " << x;
}

// ---- why -----------------------------------------------------------------------------------

// Two ranks, one AllGather each on stream 56: rank 0 starts at T, rank 1 at T + late; both end
// together. Rank 0's launch is early; `extra` adds what the test is about on rank 1.
Analysis twoRanks(int64_t late, const std::function<void(ProfileBuilder&)>& extra, skew::Profile* out = nullptr) {
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    b.kernel(0, 56, T, T + late + 100 * kUs, AG, 1).launch(0, 1, T - 60 * kUs, T - 50 * kUs);
    b.kernel(1, 56, T + late, T + late + 100 * kUs, AG, 1);
    extra(b);
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    if (out) *out = std::move(p);
    return a;
}

const Collective& only(const Analysis& a) {
    EXPECT_EQ(a.collectives.size(), 1u);
    return a.collectives.at(0);
}

TEST(Why, PredecessorWindowEdges) {
    const int64_t late = 5 * kMs, s = T + late;
    auto withPred = [&](int64_t end) {
        return twoRanks(late, [&](ProfileBuilder& b) {
            b.launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
            b.kernel(1, 7, end - 300 * kUs, end, "elementwise_kernel");
        });
    };
    // ends exactly 100 us before the start: in; 1 ns earlier: out
    EXPECT_EQ(only(withPred(s - skew::kPredBeforeNs)).predGapNs, 100 * kUs);
    EXPECT_EQ(only(withPred(s - skew::kPredBeforeNs - 1)).predLane, -1);
    // ends exactly 2 us after the start: in; 1 ns later: out
    EXPECT_EQ(only(withPred(s + skew::kPredAfterNs)).predGapNs, -2 * kUs);
    EXPECT_EQ(only(withPred(s + skew::kPredAfterNs + 1)).predLane, -1);
    EXPECT_EQ(only(withPred(s - skew::kPredBeforeNs)).cause, skew::Cause::GpuDependency);
    EXPECT_EQ(only(withPred(s - skew::kPredBeforeNs - 1)).cause, skew::Cause::GpuOther);
}

TEST(Why, TiesPreferAnotherStreamAndSameStreamIsNamed) {
    const int64_t late = 3 * kMs, s = T + late;
    skew::Profile p;
    Analysis tie = twoRanks(late, [&](ProfileBuilder& b) {
        b.launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
        b.kernel(1, 56, s - 200 * kUs, s - 1500, "elementwise_kernel");
        b.kernel(1, 7, s - 300 * kUs, s - 1500, "nvjet_tst_gemm");
    }, &p);
    const Collective& c = only(tie);
    ASSERT_GE(c.predLane, 0);
    EXPECT_FALSE(c.predSameStream);
    EXPECT_EQ(p.ranks[1].lanes[size_t(c.predLane)].stream, 7);
    EXPECT_TRUE(c.predIsGemm);
    EXPECT_EQ(skew::predecessorText(p, c, p.ranks[1].lanes[size_t(c.predLane)]), "started 1.5 us after GEMM nvjet_tst_gemm on stream 7");
    Analysis same = twoRanks(late, [&](ProfileBuilder& b) {
        b.launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
        b.kernel(1, 56, s - 200 * kUs, s - 1500, "elementwise_kernel");
        b.kernel(1, 7, s - 300 * kUs, s - 2000, "nvjet_tst_gemm");  // ends earlier
    }, &p);
    const Collective& d = only(same);
    EXPECT_TRUE(d.predSameStream);
    EXPECT_EQ(skew::predecessorText(p, d, p.ranks[1].lanes[size_t(d.predLane)]),
              "queued behind elementwise_kernel on its own stream 56 (started 1.5 us after it)");
    EXPECT_THAT(skew::analysisJson(p, same), HasSubstr("\"same_stream\": true"));
}

TEST(Report, StreamedJsonIsTheSameTextInPieces) {
    skew::Profile p;
    const Analysis a = twoRanks(4 * kMs, [](ProfileBuilder& b) { b.launch(1, 1, T - 1 * kMs, T - 1 * kMs + 5 * kUs); }, &p);
    const std::string whole = skew::analysisJson(p, a);
    std::vector<std::string> pieces;
    skew::writeAnalysisJson(p, a, [&](std::string_view s) { pieces.emplace_back(s); }, 256);
    std::string joined;
    for (const auto& s : pieces) joined += s;
    EXPECT_EQ(joined, whole);
    EXPECT_GT(pieces.size(), whole.size() / 512);  // handed over as it was written, not at the end
    for (size_t i = 0; i + 2 < pieces.size(); ++i) EXPECT_LT(pieces[i].size(), 256u + 1024u);
}

// Array items formatted in runs on several threads (the collectives of a big report) give the
// text of the items written one after another: pretty and compact, inside an object after other
// fields, with or without an item before them, streamed in pieces or whole.
TEST(Report, ArrayItemsInParallelRunsAreTheSameText) {
    auto item = [](skew::JsonWriter& w, size_t i) {
        w.beginObject().field("i", uint64_t(i)).key("odd").value(i % 2 == 1);
        if (i % 3 == 0) w.key("list").beginArray().value("a\"b").value(int64_t(i) - 7).endArray();
        w.endObject();
    };
    for (bool pretty : {true, false}) {
        for (bool itemBefore : {true, false}) {
            auto document = [&](bool parallel, size_t threads, size_t run, std::vector<std::string>* pieces) {
                skew::JsonWriter w(pretty);
                if (pieces) w.streamTo([pieces](std::string_view s) { pieces->emplace_back(s); }, 100);
                w.beginObject().field("before", 1).key("items").beginArray();
                if (itemBefore) item(w, 1000);  // an item already in the array
                if (parallel) w.arrayItems(1000, threads, item, run);
                else
                    for (size_t i = 0; i < 1000; ++i) item(w, i);
                w.endArray().field("after", 2).endObject();
                if (pieces) w.flush();
                return w.str();
            };
            const std::string plain = document(false, 1, 1, nullptr);
            ASSERT_GT(plain.size(), 20000u);
            for (size_t threads : {1, 2, 3})
                for (size_t run : {1, 7, 256, 5000}) {
                    EXPECT_EQ(document(true, threads, run, nullptr), plain) << threads << " threads, runs of " << run;
                    std::vector<std::string> pieces;
                    document(true, threads, run, &pieces);
                    std::string joined;
                    for (const auto& s : pieces) joined += s;
                    EXPECT_EQ(joined, plain) << threads << " threads, runs of " << run << ", streamed";
                    for (size_t i = 0; i + 1 < pieces.size(); ++i) EXPECT_LT(pieces[i].size(), 100u + 200u) << i;
                }
        }
    }
}

// The tests read JSON strictly: what a lenient reader let through (raw control characters, bytes
// that are not UTF-8, a \u escape taken as one byte, trailing text) is an error.
TEST(Report, TestsReadJsonStrictly) {
    EXPECT_EQ(testjson::parse("{\"a\": \"\\u00e9\\ud83d\\ude00\"}")["a"].str, "\xC3\xA9\xF0\x9F\x98\x80");
    EXPECT_EQ(testjson::parse("[1, 18446744073709551615, -2.5e3]")[1].raw, "18446744073709551615");
    EXPECT_EQ(testjson::parse("[1, 18446744073709551615, -2.5e3]")[2].raw, "-2.5e3");
    for (const char* bad : {"\"a\x01" "b\"", "\"a\xFF" "b\"", "\"\xC0\xAF\"", "\"\\ud800\"", "[1,]", "{} x", "[0,545]x", "01"})
        EXPECT_THROW(testjson::parse(bad), std::runtime_error) << bad;
}

// Kernel names and NVTX texts are bytes from the export: the JSON carries them as UTF-8, each
// maximal subpart of an ill-formed sequence replaced by one U+FFFD, control characters escaped.
TEST(Report, JsonStringsAreUtf8WithEachIllFormedSequenceReplaced) {
    const std::string R = "\xEF\xBF\xBD";  // U+FFFD
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},  // kept byte for byte
        {"a\xFF" "b", "a" + R + "b"},
        {"\xE2\x82x", R + "x"},                       // a sequence cut short: one replacement
        {"\xF0\x9F\x98", R},                          // ... also at the end
        {"\xC0\xAF", R + R},                          // an overlong '/'
        {"\xED\xA0\x80", R + R + R},                  // a surrogate
        {"\xF4\x90\x80\x80", R + R + R + R},          // above U+10FFFF
        {"\x80\xBF", R + R},                          // continuation bytes alone
        {"\xF8\x88\x80\x80\x80", R + R + R + R + R},  // five-byte forms are not UTF-8
    };
    for (const auto& [in, text] : cases) {
        std::string json;
        skew::JsonWriter::escape(json, in);
        EXPECT_EQ(json, "\"" + text + "\"");
        EXPECT_EQ(testjson::parse(json).str, text);
    }
    std::string json;
    skew::JsonWriter::escape(json, std::string("q\"b\\n\n\r\t\x01\x1f\x7f", 11) + std::string(1, '\0'));
    EXPECT_EQ(json, "\"q\\\"b\\\\n\\n\\r\\t\\u0001\\u001f\x7f\\u0000\"");
    EXPECT_EQ(testjson::parse(json).str, std::string("q\"b\\n\n\r\t\x01\x1f\x7f", 11) + std::string(1, '\0'));
}

// The escape passes over eight plain bytes at a time: every character that needs a look is found
// wherever it falls in or across those words, and plain bytes next to the special ones in value
// (0x20, '!', '#', '[', ']', 0x7F) are copied as they are.
TEST(Report, JsonEscapeFindsSpecialBytesAtEveryPositionOfALongString) {
    const std::string R = "\xEF\xBF\xBD";  // U+FFFD
    const std::vector<std::pair<std::string, std::string>> specials = {
        {"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {std::string(1, '\0'), "\\u0000"}, {"\x1f", "\\u001f"},
        {"\xC3\xA9", "\xC3\xA9"}, {"\xFF", R}, {"\xE2\x82", R},
    };
    for (const auto& [special, escaped] : specials)
        for (size_t at = 0; at <= 24; ++at)
            for (const char fill : {'a', ' ', '!', '#', '[', ']', '\x7f'}) {
                const std::string in = std::string(at, fill) + special + std::string(24 - at, fill);
                std::string json;
                skew::JsonWriter::escape(json, in);
                EXPECT_EQ(json, "\"" + std::string(at, fill) + escaped + std::string(24 - at, fill) + "\"") << at << " " << int(fill);
            }
    const std::string plain = " !#[]~\x7f" "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string json;
    skew::JsonWriter::escape(json, plain);
    EXPECT_EQ(json, "\"" + plain + "\"");
}

// A CSV field with a line break is quoted, a carriage return too (RFC 4180): else a name holding
// "\r" splits its row for readers that end lines at CR.
TEST(Report, CsvQuotesFieldsWithALineBreak) {
    for (const std::string& name : {AG + "\rtail", AG + "\ntail", AG + ",tail", AG + "\"tail"}) {
        ProfileBuilder b;
        b.rank(0);
        b.rank(1);
        b.kernel(0, 56, T, T + 3 * kMs, name, 1).kernel(1, 56, T + 2 * kMs, T + 3 * kMs, name, 1);
        skew::Profile p = b.build();
        const std::string csv = skew::analysisCsv(p, skew::analyze(p));
        std::string quoted = "\"";
        for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        quoted += "\"";
        EXPECT_THAT(csv, HasSubstr("," + quoted + ",")) << name;
        EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3 + (name.find('\n') != std::string::npos ? 2 : 0)) << name;
    }
}

TEST(Why, CausesAndLatenessSplit) {
    const int64_t late = 4 * kMs, s = T + late;
    // no launch row: unknown, all lateness counted on the GPU
    const Analysis none = twoRanks(late, [](ProfileBuilder&) {});
    const Collective& u = only(none);
    EXPECT_EQ(u.cause, skew::Cause::Unknown);
    EXPECT_FALSE(u.launched);
    EXPECT_EQ(u.gpuNs, late);
    // the launch call ended 3.99 ms after the first arrival: CPU
    Analysis cpu = twoRanks(late, [&](ProfileBuilder& b) { b.launch(1, 1, s - 30 * kUs, s - 10 * kUs); });
    EXPECT_EQ(only(cpu).cause, skew::Cause::CpuLaunch);
    EXPECT_EQ(only(cpu).cpuNs, late - 10 * kUs);
    EXPECT_EQ(only(cpu).gpuNs, 10 * kUs);
    EXPECT_EQ(only(cpu).launchToStartNs, 10 * kUs);
    // launched early, nothing ran before it on that GPU: gpu_other
    Analysis other = twoRanks(late, [&](ProfileBuilder& b) { b.launch(1, 1, T - 1 * kMs, T - 1 * kMs + 5 * kUs); });
    EXPECT_EQ(only(other).cause, skew::Cause::GpuOther);
    EXPECT_EQ(only(other).cpuNs, 0);
    EXPECT_EQ(only(other).launchToStartNs, late + 1 * kMs - 5 * kUs);
    // the CPU part is exactly half: cpu_launch (at least half)
    Analysis half = twoRanks(late, [&](ProfileBuilder& b) {
        b.launch(1, 1, T, T + late / 2);
        b.kernel(1, 7, s - 50 * kUs, s - kUs, "gemm");
    });
    EXPECT_EQ(only(half).cause, skew::Cause::CpuLaunch);
}

// A cause says why the late arriver was late: when every member starts at once nobody was late,
// so the cause is unknown even with a launch row (a launch row and lateness: decided as above),
// and the advice does not count it among the late arrivers without a launch row.
TEST(Why, NobodyLateHasNoCause) {
    auto withLaunches = [](int64_t late) {
        ProfileBuilder b;
        b.rank(0);
        b.rank(1);
        b.kernel(0, 56, T, T + late + 100 * kUs, AG, 1).launch(0, 1, T - 60 * kUs, T - 50 * kUs);
        b.kernel(1, 56, T + late, T + late + 100 * kUs, AG, 1).launch(1, 1, T - 30 * kUs, T - 10 * kUs);
        skew::Profile p = b.build();
        p.inputs[0].runtimeRows = 2;  // the launch rows, as the loader counts them
        Analysis a = skew::analyze(p);
        for (const auto& advice : a.advice) EXPECT_NE(advice.id, "no_launch_rows") << advice.evidence;
        return a;
    };
    const Analysis together = withLaunches(0);
    EXPECT_EQ(only(together).latenessNs, 0);
    EXPECT_TRUE(only(together).launched);
    EXPECT_EQ(only(together).cause, skew::Cause::Unknown);
    const Analysis oneNs = withLaunches(1);
    EXPECT_EQ(only(oneNs).latenessNs, 1);
    EXPECT_EQ(only(oneNs).cause, skew::Cause::GpuOther);  // launched 10 us before the first arrival
}

TEST(Why, StreamWaitsInTheirWindowOnTheirStream) {
    const int64_t late = 2 * kMs, s = T + late;
    skew::Profile p;
    Analysis a = twoRanks(late, [&](ProfileBuilder& b) {
        b.launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
        b.wait(1, 56, s - 600 * kUs, s - 400 * kUs);              // counted, the latest
        b.wait(1, 56, s - 900 * kUs, s - skew::kWaitWindowNs);     // ends exactly 1 ms before: counted
        b.wait(1, 56, s - 3 * kMs, s - skew::kWaitWindowNs - 1);   // ends before the window
        b.wait(1, 7, s - 500 * kUs, s - 300 * kUs);               // another stream
        b.wait(1, 56, s + 1 * kUs, s + 3 * kUs);                   // ends after start + 2 us
    }, &p);
    const Collective& c = only(a);
    EXPECT_EQ(c.waitCount, 2u);
    ASSERT_GE(c.waitIndex, 0);
    EXPECT_EQ(p.processes[size_t(p.ranks[1].process)].waits.end(size_t(c.waitIndex)), s - 400 * kUs);
}

// Waits overlap: a long wait that began 20 ms before the start and ended in the window is found
// behind a hundred short waits of other streams that started after it, as a scan of every wait says.
TEST(Why, StreamWaitsFoundThroughTheirIntervalIndex) {
    const int64_t late = 2 * kMs, s = T + late;
    skew::Profile p;
    Analysis a = twoRanks(late, [&](ProfileBuilder& b) {
        b.launch(1, 1, T - 2 * kMs, T - 2 * kMs + 10 * kUs);
        b.wait(1, 56, s - 20 * kMs, s - 700 * kUs);  // long: starts long before the window, ends in it
        for (int i = 0; i < 100; ++i) b.wait(1, 7 + i % 3, s - 19 * kMs + i * 150 * kUs, s - 19 * kMs + i * 150 * kUs + 10 * kUs);
        b.wait(1, 56, s - 900 * kUs, s - 800 * kUs);
    }, &p);
    const Collective& c = only(a);
    const auto& w = p.processes[size_t(p.ranks[1].process)].waits;
    uint32_t want = 0;
    int64_t latest = INT64_MIN;
    for (size_t i = 0; i < w.size(); ++i)
        if (w.stream(i) == 56 && w.end(i) >= s - skew::kWaitWindowNs && w.end(i) <= s + 2 * kUs) ++want, latest = std::max(latest, w.end(i));
    EXPECT_EQ(want, 2u);
    EXPECT_EQ(c.waitCount, want);
    ASSERT_GE(c.waitIndex, 0);
    EXPECT_EQ(w.end(size_t(c.waitIndex)), latest);
    EXPECT_EQ(latest, s - 700 * kUs);
}

// ---- steps ---------------------------------------------------------------------------------

TEST(Steps, OpPeriod) {
    using skew::CollOp;
    EXPECT_EQ(skew::opPeriod({CollOp::AllGather, CollOp::AllGather, CollOp::ReduceScatter, CollOp::AllGather, CollOp::AllGather,
                              CollOp::ReduceScatter}),
              3u);
    EXPECT_EQ(skew::opPeriod({CollOp::SendRecv, CollOp::SendRecv, CollOp::SendRecv}), 0u);  // one op: no steps
    EXPECT_EQ(skew::opPeriod({CollOp::AllGather, CollOp::ReduceScatter, CollOp::AllGather}), 0u);  // fewer than two repetitions
    EXPECT_EQ(skew::opPeriod({CollOp::AllGather}), 0u);
    EXPECT_EQ(skew::opPeriod({}), 0u);
}

// n collectives of alternating ops (or one op) over 2 ranks, 10 ms apart; rank 1 always 50 us late.
ProfileBuilder alternating(int n, bool oneOp) {
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    for (int c = 0; c < n; ++c) {
        const std::string& name = oneOp || c % 2 == 0 ? AG : RS;
        int64_t t0 = T + c * 10 * kMs;
        b.kernel(0, 56, t0, t0 + 200 * kUs, name);
        b.kernel(1, 56, t0 + 50 * kUs, t0 + 200 * kUs, name);
    }
    return b;
}

TEST(Steps, NestedNvtxStepRangesUseTheOutermost) {
    ProfileBuilder b = alternating(6, false);
    for (int r = 0; r < 2; ++r) {
        b.nvtx(r, T - kMs, T + 30 * kMs - kUs, "iteration 1");
        b.nvtx(r, T - kUs, T + 15 * kMs, "step 1a");  // matches too, but nested: ignored
        b.nvtx(r, T + 30 * kMs - 500, T + 60 * kMs, "iteration 2");
    }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].stepsSource, skew::StepSource::Nvtx);
    EXPECT_EQ(a.groups[0].stepCount, 2u);
    std::vector<uint32_t> steps, positions;
    for (const auto& c : a.collectives) steps.push_back(c.step), positions.push_back(c.positionInStep);
    EXPECT_THAT(steps, ElementsAre(1, 1, 1, 2, 2, 2));
    EXPECT_THAT(positions, ElementsAre(1, 2, 3, 1, 2, 3));
    EXPECT_EQ(a.collectives[0].offsetInStepNs, kMs);
    EXPECT_EQ(a.collectives[4].offsetInStepNs, 40 * kMs - 30 * kMs + 500);
}

TEST(Steps, InferredAndNone) {
    skew::Profile p = alternating(6, false).build();
    Analysis a = skew::analyze(p);
    EXPECT_EQ(a.groups[0].stepsSource, skew::StepSource::Inferred);
    EXPECT_EQ(a.groups[0].inferredPeriod, 2u);
    EXPECT_EQ(a.groups[0].stepCount, 3u);
    EXPECT_EQ(a.collectives[3].step, 2u);
    EXPECT_EQ(a.collectives[3].positionInStep, 2u);
    EXPECT_EQ(a.collectives[3].offsetInStepNs, 10 * kMs);
    skew::Profile q = alternating(6, true).build();
    Analysis one = skew::analyze(q);
    EXPECT_EQ(one.groups[0].stepsSource, skew::StepSource::None);
    EXPECT_EQ(one.groups[0].stepCount, 0u);
    for (const auto& c : one.collectives) EXPECT_EQ(c.step, 0u);
    EXPECT_THAT(skew::analysisText(q, one), HasSubstr("Steps: none found"));
}

// ---- group statistics, grouping ----------------------------------------------------------------

TEST(GroupStats, EndsThatDoNotClusterAreNamed) {
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    for (int c = 0; c < 4; ++c) {
        int64_t t0 = T + c * 10 * kMs;
        b.kernel(0, 56, t0, t0 + 1 * kMs, AG);
        b.kernel(1, 56, t0 + 20 * kUs, t0 + 1 * kMs + 500 * kUs, AG);  // ends 500 us apart, starts 20 us
    }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const auto& g = a.groups[0];
    EXPECT_EQ(g.complete, 4u);
    EXPECT_FALSE(skew::endsCluster(g));
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Warn);
    EXPECT_THAT(g.validation.messages, ::testing::Contains(HasSubstr("end times do not cluster (end skew p50 500000 ns")));
}

TEST(GroupStats, NcclOnlyTimeCountsKernelsStartingInTheWindow) {
    auto build = [] {
        ProfileBuilder b;
        b.rank(0);
        b.rank(1);
        for (int r = 0; r < 2; ++r) {
            b.kernel(r, 56, T, T + 100 * kUs, AG);
            b.kernel(r, 7, T - 50 * kUs, T + 30 * kUs, "gemm_a");         // starts before the window
            b.kernel(r, 7, T + 40 * kUs, T + 60 * kUs, "elementwise");    // inside
            b.kernel(r, 8, T + 50 * kUs, T + 70 * kUs, "elementwise");    // overlaps the one above
        }
        return b.build();
    };
    skew::Profile p = build();
    Analysis all = skew::analyze(p);
    EXPECT_EQ(all.groups[0].perRank[0].ncclKernelNs, 100 * kUs);
    EXPECT_EQ(all.groups[0].perRank[0].ncclOnlyNs, 100 * kUs - 30 * kUs - 30 * kUs);  // [T, T+30) and [T+40, T+70)
    skew::Profile q = build();
    skew::AnalysisOptions o;
    o.hasTrim = true;
    o.trimStartNs = T - 10 * kUs;
    o.trimEndNs = T + kMs;
    Analysis trimmed = skew::analyze(q, o);
    EXPECT_EQ(trimmed.groups[0].perRank[0].ncclOnlyNs, 100 * kUs - 30 * kUs);
}

TEST(Grouping, LaneWithoutPartnersIsReported) {
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    for (int c = 0; c < 3; ++c) {
        int64_t t0 = T + c * 10 * kMs;
        b.kernel(0, 56, t0, t0 + kMs, AG).kernel(1, 56, t0 + 10 * kUs, t0 + kMs, AG);
        b.kernel(1, 60, t0 + 2 * kMs, t0 + 3 * kMs, "ncclDevKernel_Broadcast_RING_LL(x)");
    }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    EXPECT_EQ(a.groups.size(), 1u);
    ASSERT_EQ(a.unmatched.size(), 1u);
    EXPECT_EQ(a.unmatched[0].rank, 1);
    EXPECT_EQ(a.unmatched[0].kernels, 3u);
    EXPECT_THAT(a.unmatched[0].reason, HasSubstr("(stream 60)"));
}

// A kernel whose name carries no op takes the op of the innermost NCCL-domain NVTX range that
// encloses its launch on the launching thread (docs/analysis.md, Matching); the
// search walks back over at most 8 of that thread's NCCL ranges that start at or before the launch
// (core/analysis/grouping.cpp): an enclosing range with 7 others after it is found, with 8 it is not.
TEST(Grouping, OpOfAGenericKernelFromTheNvtxRangeWithinEightRangesBack) {
    const std::string generic = "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)";
    for (int between : {0, 7, 8}) {
        SCOPED_TRACE(std::to_string(between) + " NCCL ranges between the enclosing one and the launch");
        ProfileBuilder b;
        b.rank(0);
        b.nvtx(0, T, T + 10 * kMs, "ncclAllGather");  // encloses the launch below
        for (int i = 0; i < between; ++i) b.nvtx(0, T + (i + 1) * 10 * kUs, T + (i + 1) * 10 * kUs + kUs, "ncclReduceScatter");
        b.nvtx(0, T + 500 * kUs, T + 501 * kUs, "forward");  // not an NCCL range: not counted
        b.nvtx(0, T + 5 * kMs, T + 6 * kMs, "ncclBroadcast", 2);  // another thread: not counted
        b.launch(0, 7, T + 1 * kMs, T + 1 * kMs + 5 * kUs);
        b.kernel(0, 56, T + 2 * kMs, T + 3 * kMs, generic, 7);
        skew::Profile p = b.build();
        ASSERT_EQ(p.opOfName(p.ranks[0].lanes[0].name[0]), skew::CollOp::Unknown);  // the name gives none
        ASSERT_TRUE(p.ranks[0].lanes[0].hasLaunch(0));
        skew::KernelOps ops(p);
        EXPECT_EQ(ops(p.ranks[0], p.ranks[0].lanes[0], 0), between < 8 ? skew::CollOp::AllGather : skew::CollOp::Unknown);
    }
}

TEST(Pipeline, CancelStopsTheAnalysis) {
    skew::Profile p = alternating(6, false).build();
    skew::AnalysisOptions o;
    int calls = 0;
    o.progress = [&](double) { return ++calls < 2; };
    EXPECT_THROW(skew::analyze(p, o), skew::Cancelled);
    EXPECT_EQ(calls, 2);
    skew::Profile q = alternating(2, false).build();
    o.stepRegex = "(unclosed";
    EXPECT_THROW(skew::analyze(q, o), std::invalid_argument);
}

// ---- answers -------------------------------------------------------------------------------

TEST(Answers, ChiSquareTailMatchesClosedForms) {
    for (int dof : {1, 2, 3, 6, 7})
        for (double x : {0.01, 0.5, 3.841458820694124, 14.0, 40.0, 120.0})
            EXPECT_NEAR(skew::chiSquareUpperTail(x, dof), chi2TailClosedForm(x, dof), 1e-12 + 1e-9 * chi2TailClosedForm(x, dof)) << dof << " " << x;
    EXPECT_NEAR(skew::chiSquareUpperTail(3.841458820694124, 1), 0.05, 1e-12);
    EXPECT_DOUBLE_EQ(skew::chiSquareUpperTail(0, 3), 1.0);
}

// Three ranks, 12 collectives; `offsets[c][r]` is rank r's start after the collective's base; no
// steps (one op), no big events.
Analysis threeRanks(const std::vector<std::array<int64_t, 3>>& offsets, skew::Profile& p) {
    ProfileBuilder b;
    for (int r = 0; r < 3; ++r) b.rank(r);
    for (size_t c = 0; c < offsets.size(); ++c) {
        int64_t t0 = T + int64_t(c) * 10 * kMs;
        for (int r = 0; r < 3; ++r) b.kernel(r, 56, t0 + offsets[c][size_t(r)], t0 + 2 * kMs, AG);
    }
    p = b.build();
    return skew::analyze(p);
}

TEST(Answers, PersistentSlowRank) {
    std::vector<std::array<int64_t, 3>> off;
    for (int c = 0; c < 10; ++c) off.push_back({0, 5 * kUs, 1 * kMs});   // rank 2 last by 1 ms
    for (int c = 0; c < 2; ++c) off.push_back({10 * kUs, 0, 5 * kUs});  // rank 0 last by 10 us
    skew::Profile p;
    Analysis a = threeRanks(off, p);
    const skew::Answers& ans = a.groups[0].answers;
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);
    EXPECT_EQ(ans.topRank, 2);
    EXPECT_EQ(ans.topLastCount, 10u);
    EXPECT_EQ(ans.considered, 12u);
    EXPECT_DOUBLE_EQ(ans.lastShare, 10.0 / 12.0);
    // last counts {2, 0, 10}, expected 4 each: chi2 = (4 + 16 + 36) / 4 = 14, two degrees of freedom
    EXPECT_DOUBLE_EQ(ans.chi2, 14.0);
    EXPECT_NEAR(ans.chi2P, std::exp(-7.0), 1e-15);
    // lateness: rank 2 1 ms (10x) and 5 us (2x); rank 0 10 us (2x); rank 1 5 us (10x)
    EXPECT_EQ(ans.meanExclBigMaxRank, 2);
    EXPECT_EQ(ans.meanExclBigMaxNs, std::llround((10.0 * kMs + 2 * 5 * kUs) / 12));
    EXPECT_EQ(ans.meanExclBigMinRank, 0);
    EXPECT_EQ(ans.meanExclBigMinNs, std::llround(2 * 10.0 * kUs / 12));
    EXPECT_THAT(skew::analysisJson(p, a), HasSubstr("\"verdict\": \"persistent\",\n          \"rank\": 2,"));
    // 12 collectives: the verdict stands, and says it rests on few
    EXPECT_THAT(skew::answerSentences(p, a, a.groups[0]).same,
                HasSubstr("persistent (thin evidence: only 12 collectives). dev 2 was last in 10 of 12"));
}

TEST(Answers, OftenLastByLittle) {
    std::vector<std::array<int64_t, 3>> off;
    for (int c = 0; c < 10; ++c) off.push_back({0, 14 * kUs, 20 * kUs});  // rank 2 last, by 6 us over rank 1
    for (int c = 0; c < 2; ++c) off.push_back({25 * kUs, 14 * kUs, 0});
    skew::Profile p;
    Analysis a = threeRanks(off, p);
    const skew::Answers& ans = a.groups[0].answers;
    // rank 2's mean lateness (16.7 us) is under twice the others' median ((4.2 + 14) / 2 = 9.1 us)
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::OftenLastSmall);
    EXPECT_EQ(ans.topRank, 2);
    EXPECT_NEAR(ans.chi2P, std::exp(-7.0), 1e-15);
    // the median of the others' (rounded) mean lateness: (4167 + 14000) / 2
    EXPECT_EQ(ans.othersMedianExclBigNs, std::llround((double(std::llround(25.0 * kUs * 2 / 12)) + 14.0 * kUs) / 2));
    EXPECT_THAT(skew::analysisJson(p, a), HasSubstr("\"verdict\": \"often_last_small\",\n          \"rank\": 2,"));
}

TEST(Answers, RotatingHasNoRank) {
    std::vector<std::array<int64_t, 3>> off;
    for (int c = 0; c < 12; ++c) {
        std::array<int64_t, 3> o{0, 0, 0};
        o[size_t(c % 3)] = 30 * kUs;
        o[size_t((c + 1) % 3)] = 10 * kUs;
        off.push_back(o);
    }
    skew::Profile p;
    Analysis a = threeRanks(off, p);
    const skew::Answers& ans = a.groups[0].answers;
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Rotating);
    EXPECT_DOUBLE_EQ(ans.chi2, 0.0);
    EXPECT_DOUBLE_EQ(ans.chi2P, 1.0);
    EXPECT_EQ(ans.topRank, 0);  // ties: the first in rank order
    EXPECT_DOUBLE_EQ(ans.lastShare, 4.0 / 12.0);
    EXPECT_THAT(skew::analysisJson(p, a), HasSubstr("\"verdict\": \"rotating\",\n          \"rank\": null,"));
}

// A big event planted at `pos` of `step` on `rank`: GPU (launched early, started behind a GEMM on
// stream 7) or CPU (launched late).
struct PlantedBig {
    int step, pos, rank;
    int64_t late;
    bool gpu;
};

// Three NVTX steps of four collectives (AllGather), 3 ranks, with `bigs` planted; rank 2 last by
// 20 us elsewhere.
skew::Profile threeSteps(const std::vector<PlantedBig>& bigs) {
    ProfileBuilder b;
    for (int r = 0; r < 3; ++r) b.rank(r);
    uint32_t corr = 1;
    for (int s = 1; s <= 3; ++s) {
        const int64_t S = T + (s - 1) * 400 * kMs;
        for (int r = 0; r < 3; ++r) b.nvtx(r, S, S + 390 * kMs, "ProfilerStep#" + std::to_string(s));
        for (int pos = 1; pos <= 4; ++pos) {
            const int64_t base = S + pos * 80 * kMs;
            for (int r = 0; r < 3; ++r) {
                int64_t start = base + r * 10 * kUs;  // rank 2 last by 20 us when nothing is planted
                const PlantedBig* big = nullptr;
                for (const PlantedBig& x : bigs)
                    if (x.step == s && x.pos == pos && x.rank == r) big = &x;
                if (big) start = base + big->late;
                b.kernel(r, 56, start, base + 35 * kMs, AG, corr);
                if (big && !big->gpu) b.launch(r, corr, start - 30 * kUs, start - 8 * kUs);
                else b.launch(r, corr, base - 2 * kMs, base - 2 * kMs + 10 * kUs);
                if (big && big->gpu) b.kernel(r, 7, base, start - 1500, "nvjet_gemm");
                ++corr;
            }
        }
    }
    return b.build();
}

// Big events: step 1 position 2 (rank 1, 25 ms, GPU), step 3 position 2 (rank 2, 30 ms, GPU) and
// step 2 position 4 (rank 0, 22 ms, CPU).
TEST(Answers, BigEventsAtARecurringPositionRotateAndTheirCauses) {
    skew::Profile p = threeSteps({{1, 2, 1, 25 * kMs, true}, {2, 4, 0, 22 * kMs, false}, {3, 2, 2, 30 * kMs, true}});
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const skew::Answers& ans = a.groups[0].answers;
    ASSERT_EQ(ans.big.size(), 3u);
    EXPECT_THAT(ans.bigLateRanks, ElementsAre(1, 0, 2));  // collective order
    ASSERT_EQ(ans.positions.size(), 1u);
    EXPECT_EQ(ans.positions[0].position, 2u);
    EXPECT_THAT(ans.positions[0].steps, ElementsAre(1, 3));
    EXPECT_THAT(ans.positions[0].lateRanks, ElementsAre(1, 2));
    EXPECT_EQ(ans.positions[0].offsetMedianNs, 160 * kMs);  // both start 160 ms into their step
    EXPECT_TRUE(ans.bigRotate);
    EXPECT_EQ(ans.bigCauses[size_t(skew::Cause::CpuLaunch)], 1u);
    EXPECT_EQ(ans.bigCauses[size_t(skew::Cause::GpuDependency)], 2u);
    ASSERT_TRUE(ans.hasGpuGap);
    EXPECT_EQ(ans.gpuGapMinNs, 25 * kMs + 2 * kMs - 10 * kUs);
    EXPECT_EQ(ans.gpuGapMaxNs, 30 * kMs + 2 * kMs - 10 * kUs);
    ASSERT_EQ(ans.predecessors.size(), 1u);
    EXPECT_EQ(p.strings.str(ans.predecessors[0].name), "nvjet_gemm");
    EXPECT_EQ(ans.predecessors[0].stream, 7);
    EXPECT_EQ(ans.predecessors[0].count, 2u);
    // the rest (9 collectives): rank 2 late by 20 us each time, launched long before: all GPU
    EXPECT_EQ(ans.restCpuNs, 0);
    EXPECT_EQ(ans.restGpuNs, 9 * 20 * kUs);
    EXPECT_EQ(ans.verdict, skew::WhoVerdict::Persistent);  // rank 2 last in all 9 by 20 us against 10 us
    // three steps, three big events, no rank missing: only the small number of other collectives
    EXPECT_THAT(ans.caveats, ElementsAre("only 9 collectives that are not big: the chi-square test is weak"));
    skew::AnswerSentences s = skew::answerSentences(p, a, a.groups[0]);
    EXPECT_THAT(s.where, HasSubstr("position 2 in steps 1, 3 (late: dev 1, dev 2; median offset +160.00 ms)"));
    EXPECT_THAT(s.where, HasSubstr("They rotate: 3 ranks among 3 big events"));
    EXPECT_THAT(s.cpuGpu, HasSubstr("of the 3 big collectives, CPU launch 1, GPU dependency 2, GPU other 0, Unknown 0."));
    // gaps: 25 (30) ms late + 2 ms launched ahead - 10 us launch call; the GEMM on stream 7, the NCCL kernels' on 56
    EXPECT_THAT(s.cpuGpu, HasSubstr("The 2 GPU dependency ones started 26.99 ms to 31.99 ms after their launch call ended, behind "
                                    "GEMM nvjet_gemm on stream 7 in 2 of them (another stream than the NCCL kernel's: a "
                                    "cross-stream dependency or contention)."));
    // the rest: 9 collectives, rank 2 late by 20 us, launched 2 ms ahead: GPU, behind nothing
    EXPECT_THAT(s.cpuGpu, HasSubstr("The rest (9 collectives that are not big): CPU launch 0, GPU dependency 0, GPU other 9, "
                                    "Unknown 0; the late arrivers' lateness: 0 ns from late CPU launches, 180.0 us from the GPU (0.0% CPU)."));
    // links for the viewer: the big collectives' mentions point at them
    skew::MarkdownOptions mo;
    mo.links = true;
    EXPECT_THAT(skew::analysisMarkdown(p, a, mo), HasSubstr("[#2 AllGather: dev 1 +25.00 ms](skewscope://collective/0/2)"));
    std::string json = skew::analysisJson(p, a);
    EXPECT_THAT(json, HasSubstr("\"big_rotate\": true"));
    EXPECT_THAT(json, HasSubstr("\"offset_ns_median\": 160000000"));
}

TEST(Answers, ThinEvidenceIsSaid) {
    skew::Profile p = alternating(4, false).build();  // inferred: 2 steps, no big events
    Analysis a = skew::analyze(p);
    EXPECT_THAT(a.groups[0].answers.caveats, ::testing::Contains(HasSubstr("only 2 steps")));
    EXPECT_THAT(a.groups[0].answers.caveats, ::testing::Contains(HasSubstr("only 4 collectives that are not big")));
    EXPECT_THAT(skew::answerSentences(p, a, a.groups[0]).caveats, HasSubstr("Thin evidence: "));
}

// Fewer than 3 big events: said, whatever else holds (three steps, 10 or 11 collectives that are not big).
TEST(Answers, FewBigEventsAreSaid) {
    {
        skew::Profile p = threeSteps({{1, 2, 1, 25 * kMs, true}, {3, 2, 2, 30 * kMs, true}});
        Analysis a = skew::analyze(p);
        const skew::Answers& ans = a.groups[0].answers;
        ASSERT_EQ(ans.big.size(), 2u);
        EXPECT_EQ(ans.considered, 10u);
        EXPECT_THAT(ans.caveats, ElementsAre("only 2 big events: whether they rotate, and their causes, rest on little"));
        EXPECT_EQ(skew::answerSentences(p, a, a.groups[0]).caveats,
                  "Thin evidence: only 2 big events: whether they rotate, and their causes, rest on little.");
    }
    skew::Profile p = threeSteps({{2, 4, 0, 22 * kMs, false}});
    Analysis a = skew::analyze(p);
    EXPECT_THAT(a.groups[0].answers.caveats, ElementsAre("only 1 big event: whether they rotate, and their causes, rest on little"));
}

}  // namespace

namespace {

// The NVTX ranges around a moment, by the index, against a scan of every range: nested push/pop
// ranges on several threads, and start/end ranges that overlap without nesting.
TEST(NvtxIndex, EnclosingMatchesAScan) {
    std::mt19937_64 rng(7);
    skew::NvtxRanges r;
    struct R {
        int64_t s, e;
        uint32_t tid;
    };
    std::vector<R> all;
    for (uint32_t tid : {1u, 2u}) {
        // nested: a stack of open ranges
        int64_t t = 0;
        std::vector<int64_t> open;
        for (int i = 0; i < 400; ++i) {
            t += int64_t(rng() % 50) + 1;
            if (!open.empty() && rng() % 2) {
                all.push_back({open.back(), t, tid});
                open.pop_back();
            } else {
                open.push_back(t);
            }
        }
        while (!open.empty()) all.push_back({open.back(), t + 10, tid}), open.pop_back();
    }
    for (int i = 0; i < 100; ++i) {  // thread 3: overlapping, not nested
        int64_t s = int64_t(rng() % 10000);
        all.push_back({s, s + int64_t(rng() % 800), 3});
    }
    std::stable_sort(all.begin(), all.end(), [](const R& a, const R& b) { return a.s < b.s; });
    for (const R& x : all) r.push_back(x.s, x.e, x.tid, 0);
    skew::NvtxIndex index(r);
    for (int q = 0; q < 2000; ++q) {
        uint32_t tid = 1 + uint32_t(rng() % 3);
        int64_t t0 = int64_t(rng() % 11000), t1 = t0 + int64_t(rng() % 30);
        std::vector<uint32_t> want;
        for (uint32_t i = 0; i < r.size(); ++i)
            if (r.tid[i] == tid && r.start[i] <= t0 && r.end(i) >= t1) want.push_back(i);
        ASSERT_EQ(index.enclosing(tid, t0, t1), want) << "tid " << tid << " [" << t0 << ", " << t1 << "]";
    }
}

}  // namespace

namespace {

// Alignment and validation: a rank that lacks one collective in the middle gets a partial
// collective there, named as a sequence mismatch; a rank whose lane starts later is aligned by time.
TEST(Alignment, MissingKernelMakesAPartialCollectiveNamedAsMismatch) {
    ProfileBuilder b;
    for (int r = 0; r < 3; ++r) b.rank(r);
    for (int c = 0; c < 8; ++c) {
        const int64_t t0 = T + c * 10 * kMs;
        const std::string& op = c % 2 ? RS : AG;
        for (int r = 0; r < 3; ++r) {
            if (r == 1 && c == 4) continue;  // dev 1 lacks collective 5
            if (r == 2 && c < 2) continue;   // dev 2's capture starts two collectives later
            b.kernel(r, 56, t0 + r * 20 * kUs, t0 + 2 * kMs + r * 3 * kUs, op);
        }
    }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const auto& g = a.groups[0];
    EXPECT_EQ(g.count, 8u);
    EXPECT_EQ(g.complete, 5u);
    EXPECT_EQ(g.validation.status, skew::ValidationStatus::Warn);
    EXPECT_EQ(g.validation.sequenceMismatches, 1u);
    ASSERT_EQ(g.validation.partial.size(), 3u);
    EXPECT_EQ(g.validation.partial[2].index, 5u);
    EXPECT_THAT(g.validation.partial[2].missingRanks, ElementsAre(1));
    EXPECT_EQ(g.lanes[0].droppedLeading, 2u);  // dev 0's first two have no partner on dev 2
    EXPECT_THAT(g.validation.messages, ::testing::Contains("collective 5 (AllGather): missing on dev 1"));
    // the answers say so: three positions lack a rank (two on dev 2, one on dev 1)
    EXPECT_THAT(g.answers.caveats, ::testing::Contains("3 collectives lack a rank and are left out"));
    // the collectives line up by position: the 6th has every rank, starting 20 us apart
    const Collective& sixth = a.collectives[5];
    EXPECT_TRUE(sixth.complete);
    EXPECT_EQ(sixth.startSkew(), 40 * kUs);
    EXPECT_EQ(a.lateRank(sixth), 2);
}

// Alignment that finds no shift: two lanes with the same ops (so they group, 80% alike) in another
// order (alternating on dev 0, in two blocks on dev 1) agree at no shift on 90% of their ops. The
// group names it, rank and reference (docs/analysis.md, Matching), and the lane is merged by end
// time alone: its kernels pair only where the ops happen to agree.
TEST(Alignment, LaneWhoseOpsLineUpAtNoShiftIsNamed) {
    ProfileBuilder b;
    for (int r = 0; r < 2; ++r) b.rank(r);
    const int n = 20;
    for (int c = 0; c < n; ++c) {
        const int64_t t0 = T + c * 10 * kMs;
        b.kernel(0, 56, t0, t0 + 2 * kMs, c % 2 ? RS : AG);
        b.kernel(1, 56, t0 + 10 * kUs, t0 + 2 * kMs + 5 * kUs, c < n / 2 ? AG : RS);
    }
    b.kernel(0, 56, T + n * 10 * kMs, T + n * 10 * kMs + 2 * kMs, AG);  // dev 0 has one more: the reference
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    const auto& g = a.groups[0];
    ASSERT_EQ(g.width(), 2u);
    EXPECT_THAT(g.validation.messages, ::testing::Contains("dev 1: op sequence does not line up with dev 0"));
    // end times 5 us apart: same-op kernels of one moment pair, the others stand alone. Dev 0
    // alternates AG RS; dev 1 runs 10 AG then 10 RS: they agree at even c < 10 and odd c >= 10
    uint32_t pairs = 0;
    for (int c = 0; c < n; ++c) pairs += (c < n / 2) == (c % 2 == 0);
    EXPECT_EQ(g.complete, pairs);
    EXPECT_EQ(g.count, uint32_t(n + 1 + (n - int(pairs))));
}

// Per-collective numbers on exact inputs: skews, excess, big, late and early arriver.
// The match tolerance of a lane is min(max(100 us, 8 x MAD + 50 us), 45% of the reference's median
// end spacing): with collectives 4e17 ns apart (a hand-built profile, beyond the loader's bounds)
// 45% of the spacing is computed without overflow, so a kernel 70 us off its rank's offset still
// matches (overflowed, the tolerance fell to 50 us and the collective split in two).
TEST(Alignment, ToleranceOfWidelySpacedCollectivesDoesNotOverflow) {
    const int64_t spacing = 400'000'000'000'000'000, first = -1'600'000'000'000'000'000;
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    for (int c = 0; c < 8; ++c) {
        const int64_t end = first + c * spacing;
        const int64_t off = 1 * kMs + (c == 3 ? 70 * kUs : 0);
        b.kernel(0, 56, end - 100 * kUs, end, AG);
        b.kernel(1, 56, end + off - 100 * kUs, end + off, AG);
    }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].count, 8u);
    EXPECT_EQ(a.groups[0].complete, 8u);
    EXPECT_EQ(a.groups[0].validation.sequenceMismatches, 0u);
}

// The other bound, 8 x MAD + 50 us, with a MAD past int64 / 8: three clusters of three collectives
// (1 ms apart, clusters 2e18 ns apart), the second rank's clusters off by -1.2e18, 0 and +1.2e18 ns.
// The middle cluster lines up; its middle kernel, 200 us off, is within 45% of the median spacing
// (450 us) and must match (overflowed, the bound fell to 100 us and it did not).
TEST(Alignment, ToleranceWithAHugeSpreadOfOffsetsDoesNotOverflow) {
    const int64_t cluster = 2'000'000'000'000'000'000, spread = 1'200'000'000'000'000'000;
    ProfileBuilder b;
    b.rank(0);
    b.rank(1);
    for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k) {
            const int64_t end = (c - 1) * cluster + k * kMs;
            const int64_t off = (c - 1) * spread + (c == 1 && k == 1 ? 200 * kUs : 0);
            b.kernel(0, 56, end - 100 * kUs, end, AG);
            b.kernel(1, 56, end + off - 100 * kUs, end + off, AG);
        }
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.groups.size(), 1u);
    int64_t middle = -1;  // the collective of rank 0's fifth kernel
    for (size_t c = 0; c < a.collectives.size(); ++c)
        if (a.collectives[c].minStart <= 1 * kMs - 100 * kUs && a.collectives[c].maxEnd >= 1 * kMs) middle = int64_t(c);
    ASSERT_GE(middle, 0);
    EXPECT_TRUE(a.collectives[size_t(middle)].complete);
}

TEST(Collectives, SkewsExcessAndBigFromTheMembers) {
    ProfileBuilder b;
    for (int r = 0; r < 3; ++r) b.rank(r);
    // starts 0, 30 ms, 10 us; ends 40 ms, 40.01 ms, 40.02 ms
    b.kernel(0, 56, T, T + 40 * kMs, AG).kernel(1, 56, T + 30 * kMs, T + 40 * kMs + 10 * kUs, AG).kernel(2, 56, T + 10 * kUs, T + 40 * kMs + 20 * kUs, AG);
    b.kernel(0, 56, T + 100 * kMs, T + 102 * kMs, AG).kernel(1, 56, T + 100 * kMs, T + 102 * kMs, AG).kernel(2, 56, T + 100 * kMs, T + 102 * kMs, AG);
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.collectives.size(), 2u);
    const Collective& c = a.collectives[0];
    EXPECT_EQ(c.startSkew(), 30 * kMs);
    EXPECT_EQ(c.endSkew(), 20 * kUs);
    // durations 40 ms, 10.01 ms, 40.01 ms: excess = sum - 3 x min
    EXPECT_EQ(c.excessNs, (40 * kMs + 10 * kMs + 10 * kUs + 40 * kMs + 10 * kUs) - 3 * (10 * kMs + 10 * kUs));
    EXPECT_TRUE(c.big);
    EXPECT_EQ(a.lateRank(c), 1);
    EXPECT_EQ(a.earlyRank(c), 0);
    // a tie: every rank starts together; late and early are the first in rank order
    const Collective& tie = a.collectives[1];
    EXPECT_EQ(tie.startSkew(), 0);
    EXPECT_EQ(a.lateRank(tie), 0);
    EXPECT_EQ(a.earlyRank(tie), 0);
    EXPECT_FALSE(tie.big);
    const auto& g = a.groups[0];
    EXPECT_EQ(g.cost.bigCount, 1u);
    EXPECT_EQ(g.cost.excessNs, c.excessNs);
    EXPECT_EQ(g.perRank[1].lastCount, 1u);
    EXPECT_EQ(g.perRank[0].lastCount, 1u);
}

// Members of a collective and their lateness (start - the earliest start), found by slot or by kernel.
TEST(Collectives, MembersAndTheirLatenessByKernel) {
    ProfileBuilder b;
    for (int r = 0; r < 3; ++r) b.rank(r);
    b.kernel(0, 56, T, T + 40 * kMs, AG).kernel(1, 56, T + 30 * kMs, T + 41 * kMs, AG).kernel(2, 56, T + 10 * kUs, T + 42 * kMs, AG);
    b.kernel(0, 56, T + 100 * kMs, T + 102 * kMs, AG).kernel(1, 56, T + 100 * kMs + 7 * kUs, T + 102 * kMs, AG);
    b.kernel(2, 56, T + 100 * kMs + 3 * kUs, T + 102 * kMs, AG);
    skew::Profile p = b.build();
    Analysis a = skew::analyze(p);
    ASSERT_EQ(a.collectives.size(), 2u);
    const Collective& c = a.collectives[0];
    std::vector<int64_t> lateness;
    for (const skew::Member& m : skew::members(p, a, c)) lateness.push_back(m.latenessNs);
    EXPECT_THAT(lateness, ElementsAre(0, 30 * kMs, 10 * kUs));
    // each rank has one lane (index 0); kernel 0 is its member of the first collective, kernel 1 of the second
    auto m = skew::memberOfKernel(p, a, c, 1, 0, 0);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->rank, 1);
    EXPECT_EQ(m->startNs, T + 30 * kMs);
    EXPECT_EQ(m->latenessNs, 30 * kMs);
    EXPECT_EQ(int(m->slot), c.lateSlot);
    EXPECT_FALSE(skew::memberOfKernel(p, a, c, 1, 0, 1).has_value());
    auto second = skew::memberOfKernel(p, a, a.collectives[1], 2, 0, 1);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->latenessNs, 3 * kUs);
}

// Anomalies: rows over 3x their op's mean duration, grouped into events; the limit keeps whole events.
TEST(Anomalies, RowsAndEventsOverTheOpMean) {
    ProfileBuilder b;
    for (int r = 0; r < 2; ++r) b.rank(r);
    for (int c = 0; c < 10; ++c) {
        const int64_t t0 = T + c * 100 * kMs;
        const int64_t d0 = c == 3 ? 60 * kMs : 1 * kMs, d1 = c == 3 || c == 7 ? 60 * kMs : 1 * kMs;
        b.kernel(0, 56, t0, t0 + d0, AG).kernel(1, 56, t0 + d0 - d1 + kUs, t0 + d0 + kUs, AG);
    }
    skew::Profile p = b.build();
    // mean = (3 x 60 ms + 17 x 1 ms) / 20 = 9.85 ms; 3x = 29.55 ms: the three 60 ms rows
    skew::AnalysisOptions o;
    Analysis a = skew::analyze(p, o);
    EXPECT_EQ(a.anomalies.rows, 3u);
    EXPECT_EQ(a.anomalies.events, 2u);
    ASSERT_EQ(a.anomalies.items.size(), 2u);
    EXPECT_EQ(a.anomalies.items[0].rows.size(), 2u);
    EXPECT_EQ(a.collectives[a.anomalies.items[1].collective].index, 8u);
    skew::Profile q = p;
    o.anomalyLimit = 1;  // the first event has two rows: it does not fit, nothing is listed
    Analysis limited = skew::analyze(q, o);
    EXPECT_EQ(limited.anomalies.rows, 3u);
    EXPECT_TRUE(limited.anomalies.items.empty());
}

// ---- clocks: per-file offsets from collective ends ----------------------------------------------

// Three ranks, five collectives: ranks 0 and 1 in file 0 end each collective together; rank 2 is
// the only rank of file 1, whose clock is ahead by `ahead`, and ends 1000 + jitter ns after them.
// The group is built by hand, as alignment would leave it (collective c is kernel c of each lane).
struct TwoFiles {
    skew::Profile p;
    Analysis a;
};
const int64_t kJitter[5] = {0, 100, -100, 300, 50};
TwoFiles twoFiles(int64_t ahead) {
    ProfileBuilder b;
    for (int d = 0; d < 3; ++d) b.rank(d);
    for (int c = 0; c < 5; ++c) {
        const int64_t start = T + c * kMs, end = start + 200 * kUs;
        b.kernel(0, 7, start, end, AG).kernel(1, 7, start, end, AG);
        b.kernel(2, 7, start + ahead + 30 * kUs, end + ahead + 1000 + kJitter[c], AG, uint32_t(10 + c));
    }
    b.launch(2, 10, T + ahead - 10 * kUs, T + ahead - 5 * kUs);
    b.nvtx(2, T + ahead - 20 * kUs, T + ahead + 5 * kMs, "step 1");
    b.wait(2, 7, T + ahead, T + ahead + 1000);
    TwoFiles f;
    f.p = b.build();
    skew::InputFile second;
    second.path = "node1.sqlite";
    f.p.inputs.push_back(second);
    f.p.ranks[2].file = 1;
    f.p.processes[size_t(f.p.ranks[2].process)].file = 1;
    skew::Group g;
    for (int r = 0; r < 3; ++r) {
        skew::GroupSlot gl;
        gl.rank = r;
        gl.kernels = {0, 1, 2, 3, 4};
        g.lanes.push_back(gl);
    }
    for (uint32_t c = 0; c < 5; ++c) g.cells.insert(g.cells.end(), {c, c, c});
    g.count = g.complete = 5;
    f.a.groups.push_back(g);
    f.a.clocks.assign(3, {});
    return f;
}

TEST(Clocks, AFileAheadIsShiftedBackByTheMedianOfItsEndResiduals) {
    const int64_t ahead = 5 * kMs;
    TwoFiles f = twoFiles(ahead);
    const skew::Profile before = f.p;
    skew::AnalysisOptions o;  // applies offsets of 50 us and more
    ASSERT_TRUE(skew::refineClocks(f.p, f.a, o));
    // file 1's end residuals are ahead + 1000 + {0, 100, -100, 300, 50}: median ahead + 1050
    const int64_t shift = -(ahead + 1050);
    EXPECT_EQ(f.a.clocks[0].estimateNs, 0);
    EXPECT_EQ(f.a.clocks[1].estimateNs, 0);
    EXPECT_EQ(f.a.clocks[2].estimateNs, shift);
    EXPECT_EQ(f.p.ranks[2].clockOffsetNs, shift);
    EXPECT_EQ(f.p.ranks[0].clockOffsetNs, 0);
    EXPECT_EQ(f.p.inputs[1].alignNs, shift);
    EXPECT_EQ(f.p.inputs[0].alignNs, 0);
    // every time of file 1 moved by the shift, nothing of file 0
    const auto& l2 = f.p.ranks[2].lanes[0];
    const auto& was = before.ranks[2].lanes[0];
    for (size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(l2.start[k], was.start[k] + shift);
        EXPECT_EQ(l2.end(k), was.end(k) + shift);
        EXPECT_EQ(f.p.ranks[0].lanes[0].end(k), before.ranks[0].lanes[0].end(k));
    }
    const auto& pr = f.p.processes[size_t(f.p.ranks[2].process)];
    EXPECT_EQ(l2.launchStart(0), T + ahead - 10 * kUs + shift);
    EXPECT_EQ(pr.nvtx.end(0), T + ahead + 5 * kMs + shift);
    EXPECT_EQ(pr.waits.start[0], T + ahead + shift);
    ASSERT_EQ(f.a.warnings.size(), 1u);
    EXPECT_EQ(f.a.warnings[0], "clock of " + f.p.ranks[2].label +
                                   " shifted by -5001050 ns so that collective ends line up (per-file host clock offset)");

    // after the shift rank 2 ends {-50, 50, -150, 250, 0} ns from the others: p90 of the magnitudes
    // {0, 50, 50, 150, 250} by linear interpolation at 3.6 is 150 + 0.6 * 100 = 210
    skew::measureClockResiduals(f.p, f.a);
    EXPECT_EQ(f.a.clocks[2].offsetNs, shift);
    EXPECT_EQ(f.a.clocks[2].residualP90Ns, 210);
    EXPECT_EQ(f.a.clocks[0].offsetNs, 0);
    EXPECT_EQ(f.a.clocks[0].residualP90Ns, 0);
}

TEST(Clocks, AnOffsetUnderTheThresholdIsEstimatedButNotApplied) {
    TwoFiles f = twoFiles(20 * kUs);
    const skew::Profile before = f.p;
    skew::AnalysisOptions o;
    EXPECT_FALSE(skew::refineClocks(f.p, f.a, o));
    EXPECT_EQ(f.a.clocks[2].estimateNs, -(20 * kUs + 1050));  // 21.05 us, under 50 us
    EXPECT_EQ(f.p.ranks[2].clockOffsetNs, 0);
    EXPECT_EQ(f.p.inputs[1].alignNs, 0);
    EXPECT_EQ(f.p.ranks[2].lanes[0].start, before.ranks[2].lanes[0].start);
    EXPECT_EQ(f.p.ranks[2].lanes[0].end(0), before.ranks[2].lanes[0].end(0));
    EXPECT_TRUE(f.a.warnings.empty());
    // the same offset is applied once the threshold is under it
    o.clockOffsetMinNs = 20 * kUs;
    EXPECT_TRUE(skew::refineClocks(f.p, f.a, o));
    EXPECT_EQ(f.p.ranks[2].clockOffsetNs, -(20 * kUs + 1050));
}

// The first rank's file without a complete collective: dev 0 (file 0) shares group 0 only with
// dev 1's stream 8, where dev 1 lacks every collective; group 1 runs on dev 1 (file 1) and on dev 2
// and dev 3 (file 2), and dev 1 ends `ahead` + jitter after the other two. No file is then the
// reference (docs/analysis.md: offsets are relative to the first rank's file):
// each file's offset is its negated median residual against the collectives' median ends (the
// upper middle one), so file 2 (two of the three ranks, the median) keeps its clock, file 1 is
// shifted back by its median residual, and file 0, with nothing to estimate from, keeps its clock.
TEST(Clocks, FirstFileWithoutACompleteCollectiveLeavesTheMedianAsReference) {
    const int64_t ahead = 3 * kMs;
    ProfileBuilder b;
    for (int d = 0; d < 4; ++d) b.rank(d);
    for (int c = 0; c < 5; ++c) {
        const int64_t start = T + c * kMs, end = start + 200 * kUs;
        b.kernel(0, 8, start, end, AG);  // group 0: dev 0 alone
        b.kernel(2, 7, start, end, RS).kernel(3, 7, start, end, RS);
        b.kernel(1, 7, start + ahead, end + ahead + kJitter[c], RS);
    }
    b.kernel(1, 8, T + 100 * kMs, T + 101 * kMs, AG);  // dev 1's stream 8: none of group 0's collectives
    skew::Profile p = b.build();
    skew::InputFile f1, f2;
    f1.path = "node1.sqlite";
    f2.path = "node2.sqlite";
    p.inputs.push_back(f1);
    p.inputs.push_back(f2);
    for (int r = 1; r < 4; ++r) {
        const int file = r == 1 ? 1 : 2;
        p.ranks[size_t(r)].file = file;
        p.processes[size_t(p.ranks[size_t(r)].process)].file = file;
    }
    const skew::Profile before = p;
    // the groups as alignment would leave them: group 0 every collective partial (dev 1 lacks it)
    Analysis a;
    skew::Group g0;
    for (int r : {0, 1}) {
        skew::GroupSlot gl;
        gl.rank = r;
        gl.lane = r;  // dev 0's stream 8, dev 1's stream 8 (its lanes: 7, 8)
        g0.lanes.push_back(gl);
    }
    for (uint32_t c = 0; c < 5; ++c) g0.cells.insert(g0.cells.end(), {c, skew::kMissing});
    g0.count = 5;
    skew::Group g1;
    for (int r : {1, 2, 3}) {
        skew::GroupSlot gl;
        gl.rank = r;
        gl.lane = 0;
        gl.kernels = {0, 1, 2, 3, 4};
        g1.lanes.push_back(gl);
    }
    for (uint32_t c = 0; c < 5; ++c) g1.cells.insert(g1.cells.end(), {c, c, c});
    g1.count = g1.complete = 5;
    a.groups = {g0, g1};
    a.clocks.assign(4, {});
    ASSERT_EQ(p.ranks[1].lanes.size(), 2u);
    ASSERT_EQ(p.ranks[1].lanes[1].stream, 8);
    ASSERT_TRUE(skew::refineClocks(p, a, skew::AnalysisOptions{}));
    // file 1's residuals: ahead + {0, 100, -100, 300, 50}, median ahead + 50
    const int64_t shift = -(ahead + 50);
    EXPECT_EQ(a.clocks[0].estimateNs, 0);
    EXPECT_EQ(a.clocks[1].estimateNs, shift);
    EXPECT_EQ(a.clocks[2].estimateNs, 0);
    EXPECT_EQ(a.clocks[3].estimateNs, 0);
    EXPECT_EQ(p.ranks[0].clockOffsetNs, 0);
    EXPECT_EQ(p.ranks[1].clockOffsetNs, shift);
    EXPECT_EQ(p.ranks[2].clockOffsetNs, 0);
    EXPECT_EQ(p.inputs[0].alignNs, 0);
    EXPECT_EQ(p.inputs[1].alignNs, shift);
    EXPECT_EQ(p.inputs[2].alignNs, 0);
    for (size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(p.ranks[1].lanes[0].end(k), before.ranks[1].lanes[0].end(k) + shift);
        EXPECT_EQ(p.ranks[0].lanes[0].end(k), before.ranks[0].lanes[0].end(k));
        EXPECT_EQ(p.ranks[2].lanes[0].end(k), before.ranks[2].lanes[0].end(k));
    }
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_EQ(a.warnings[0], "clock of dev 1 shifted by -3000050 ns so that collective ends line up (per-file host clock offset)");
}

// ---- capture advice: option spellings per Nsight Systems release -------------------------------

// The advice of a profile whose files carry `versions`, on an analysis with one cpu_launch and one
// gpu_dependency late arriver, a device missing in the first file, and none of the feature tables:
// the four rules that name Nsight Systems options all fire.
std::map<std::string, std::string> adviceFor(const std::vector<std::string>& versions) {
    skew::Profile p;
    for (const auto& v : versions) {
        skew::InputFile in;
        in.path = "node" + std::to_string(p.inputs.size()) + ".sqlite";
        in.nsysVersion = v;
        p.inputs.push_back(in);
    }
    p.inputs[0].missingDevices = "no kernels on device(s) 3 of the node's 4";
    Analysis a;
    for (auto cause : {skew::Cause::CpuLaunch, skew::Cause::GpuDependency}) {
        Collective c;
        c.complete = true;
        c.cause = cause;
        a.collectives.push_back(c);
    }
    std::map<std::string, std::string> byId;
    for (const auto& ad : skew::captureAdvice(p, a)) byId[ad.id] = ad.advice;
    return byId;
}

using namespace testutil::advice;

TEST(CaptureAdvice, ReleaseOfTheExportVersionText) {
    EXPECT_EQ(skew::parseNsysRelease("2024.5.1.113"), (skew::NsysRelease{2024, 5}));
    EXPECT_EQ(skew::parseNsysRelease("2026.2.1.210"), (skew::NsysRelease{2026, 2}));
    EXPECT_EQ(skew::parseNsysRelease("2022.2.1.31"), (skew::NsysRelease{2022, 2}));
    EXPECT_EQ(skew::parseNsysRelease("2025.6"), (skew::NsysRelease{2025, 6}));
    EXPECT_EQ(skew::parseNsysRelease("2021.12.0"), (skew::NsysRelease{2021, 12}));
    EXPECT_EQ(skew::parseNsysRelease(""), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("unknown"), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("2024"), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("2024."), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("2024.5a"), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("20245.1"), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("1999.1"), std::nullopt);
    EXPECT_EQ(skew::parseNsysRelease("2024.-1"), std::nullopt);
    EXPECT_LT((skew::NsysRelease{2024, 6}), (skew::NsysRelease{2024, 7}));
    EXPECT_LT((skew::NsysRelease{2023, 12}), (skew::NsysRelease{2024, 1}));
}

TEST(CaptureAdvice, OptionsAreSpelledForTheExportsRelease) {
    // two files of one release: the release is known
    auto newest = adviceFor({"2026.2.1.210", "2026.2.1.210"});
    EXPECT_EQ(newest["missing_devices"], kDevices + " and --cuda-trace-scope" + spelledFor("2026.2.1.210"));
    EXPECT_EQ(newest["no_cpu_sampling"], kSampling + "--sample=process-tree" + kSamplingRest + spelledFor("2026.2.1.210"));
    EXPECT_EQ(newest["no_stream_waits"], kWaits);
    EXPECT_EQ(newest["no_gpu_metrics"], kMetrics);

    // 2024.5: before --cuda-trace-scope (new in 2025.6), after --sample=process-tree (2022.1)
    auto mid = adviceFor({"2024.5.1.113"});
    EXPECT_EQ(mid["missing_devices"], kDevices + spelledFor("2024.5.1.113"));
    EXPECT_EQ(mid["no_cpu_sampling"], kSampling + "--sample=process-tree" + kSamplingRest + spelledFor("2024.5.1.113"));
    EXPECT_EQ(mid["no_stream_waits"], kWaits);
    EXPECT_EQ(mid["no_gpu_metrics"], kMetrics);

    // the boundaries: --cuda-trace-scope from 2025.6; --sample=cpu in the 2021.4 guide, process-tree
    // in the 2022.1 one, and 2021.5 (between them, not checked) gets both
    EXPECT_EQ(adviceFor({"2025.5.1.1"})["missing_devices"], kDevices + spelledFor("2025.5.1.1"));
    EXPECT_EQ(adviceFor({"2025.6.1.190"})["missing_devices"], kDevices + " and --cuda-trace-scope" + spelledFor("2025.6.1.190"));
    EXPECT_EQ(adviceFor({"2022.1.3.3"})["no_cpu_sampling"], kSampling + "--sample=process-tree" + kSamplingRest + spelledFor("2022.1.3.3"));
    EXPECT_EQ(adviceFor({"2021.4.1.73"})["no_cpu_sampling"], kSampling + "--sample=cpu" + kSamplingRest + spelledFor("2021.4.1.73"));
    EXPECT_EQ(adviceFor({"2021.5.2.53"})["no_cpu_sampling"],
              kSampling + kSampleBoth + kSamplingRest + ".");

    // GPU metrics and event trace: the same text whatever the release
    for (const char* v : {"2021.4.1.73", "2023.4.1.97", "2024.7.1.84", "2025.6.1.190", "2026.2.1.210"}) {
        auto byId = adviceFor({v});
        EXPECT_EQ(byId["no_gpu_metrics"], kMetrics) << v;
        EXPECT_EQ(byId["no_stream_waits"], kWaits) << v;
    }
}

TEST(CaptureAdvice, UnknownOrMixedReleasesNameBothSpellings) {
    // files from two releases, an unreadable version, no version: both spellings with their releases
    for (const auto& versions : std::vector<std::vector<std::string>>{
             {"2024.5.1.113", "2026.2.1.210"}, {"custom build"}, {""}, {"2026.2.1.210", ""}}) {
        auto byId = adviceFor(versions);
        EXPECT_EQ(byId["missing_devices"], kDevices + kTraceScopeBoth);
        EXPECT_EQ(byId["no_cpu_sampling"],
                  kSampling + kSampleBoth + kSamplingRest + ".");
        EXPECT_EQ(byId["no_stream_waits"], kWaits);
        EXPECT_EQ(byId["no_gpu_metrics"], kMetrics);
    }
}

}  // namespace
