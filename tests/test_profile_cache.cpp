// The profile cache: a second open reads the snapshot and gives the same analysis; a changed
// export, a corrupted or truncated snapshot are detected and rebuilt; two writers at once; a cache
// folder that cannot be written costs one warning; --no-cache; cache info and clear; eviction.

#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <sqlite3.h>

#include "cache/profile_cache.h"
#include "cache/snapshot_format.h"
#include "gen_fixture.h"
#include "model/loader.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

struct CacheRun {
    std::string dir;  // the cache folder
    std::string env() const { return "SKEWSCOPE_DEBUG=1 SKEWSCOPE_CACHE_DIR=" + dir; }
    RunResult analyze(const std::vector<std::string>& files, const std::string& extraEnv = "") const {
        std::vector<std::string> args = {"analyze"};
        args.insert(args.end(), files.begin(), files.end());
        args.insert(args.end(), {"--format", "json"});
        return runSkewscope(args, env() + " " + extraEnv);
    }
    std::vector<fs::path> snapshots() const {
        std::vector<fs::path> out;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".snap") out.push_back(it->path());
        return out;
    }
};

// the JSON without the inputs' from_cache flags: what the analysis says
std::string analysisOf(const std::string& json) { return std::regex_replace(json, std::regex("\"from_cache\": (true|false)"), ""); }

std::string copyOf(const std::string& from, const std::string& dir, const std::string& name) {
    fs::copy_file(from, dir + "/" + name, fs::copy_options::overwrite_existing);
    return dir + "/" + name;
}

TEST(ProfileCache, SecondOpenReadsTheSnapshotWithTheSameAnalysis) {
    std::string dir = tempDir("cache-hit");
    CacheRun c{dir + "/cache"};
    const auto& demo = generated("demo", skewgen::demoConfig());
    auto prf = skewgen::demoConfig();
    prf.perRankFiles = true;
    prf.devices.clear();
    prf.clockErrorNs = {0, 3'000'000, 0, 0, -2'000'000, 0, 0};  // clocks get shifted: snapshots keep file times
    const auto& perRank = generated("demo-prf-cache", prf);
    for (const auto& files : std::vector<std::vector<std::string>>{{demo.path}, perRank.result.files,
                                                                  {realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"}}) {
        RunResult cold = c.analyze(files);
        ASSERT_EQ(cold.exitCode, 0) << cold.err;
        EXPECT_THAT(cold.out, HasSubstr("\"from_cache\": false"));
        EXPECT_THAT(cold.out, ::testing::Not(HasSubstr("\"from_cache\": true")));
        RunResult warm = c.analyze(files);
        ASSERT_EQ(warm.exitCode, 0) << warm.err;
        EXPECT_THAT(warm.out, ::testing::Not(HasSubstr("\"from_cache\": false")));
        EXPECT_TRUE(analysisOf(warm.out) == analysisOf(cold.out)) << files[0];
        auto withoutDebug = [](const std::string& err) { return std::regex_replace(err, std::regex("skewscope: debug: [^\n]*\n"), ""); };
        EXPECT_EQ(withoutDebug(warm.err), withoutDebug(cold.err));
        // and a report read without any cache agrees too
        RunResult none = runSkewscope({"analyze", files[0], "--format", "json", "--no-cache"});
        if (files.size() == 1) {
            EXPECT_TRUE(analysisOf(none.out) == analysisOf(cold.out));
        }
    }
    EXPECT_EQ(c.snapshots().size(), 1u + perRank.result.files.size() + 1u);  // one per file, never beside the input
    for (const auto& f : perRank.result.files)
        for (const auto& e : fs::directory_iterator(fs::path(f).parent_path())) EXPECT_NE(e.path().extension(), ".snap");
    fs::remove_all(dir);
}

// Values that do not fit the compact columns (a kernel and a launch call of over 4.3 s, so that
// their columns are 64-bit): the export and the snapshot give the same analysis, with the exact
// durations the rows hold.
TEST(ProfileCache, WideColumnsReadAsTheExportHoldsThem) {
    std::string dir = tempDir("cache-wide");
    CacheRun c{dir + "/cache"};
    const std::string path = copyOf(generated("demo", skewgen::demoConfig()).path, dir, "wide.sqlite");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    // the last kernel of the file (by start) runs 5 s longer; the first launch row 6 s
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + 5000000000 WHERE rowid = "
                           "(SELECT rowid FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start DESC LIMIT 1);"
                           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = start - 6000000000 WHERE rowid = "
                           "(SELECT r.rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.eventClass IN (0, 1) AND EXISTS "
                           "(SELECT 1 FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.correlationId = r.correlationId AND "
                           "k.globalPid = (r.globalTid & ~16777215)) ORDER BY r.rowid LIMIT 1);",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    const int64_t longest = sqlCount(path, "SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    ASSERT_GT(longest, int64_t(5'000'000'000));

    skew::Profile p = skew::loadProfile({path});
    int64_t got = 0;
    int wideLanes = 0;
    for (const auto& r : p.ranks)
        for (const auto& l : r.lanes) {
            wideLanes += l.duration.wide();
            for (size_t k = 0; k < l.size(); ++k) got = std::max(got, l.end(k) - l.start[k]);
        }
    EXPECT_EQ(got, longest);
    EXPECT_EQ(wideLanes, 1);
    int wideLaunches = 0;
    for (const auto& r : p.ranks)
        for (const auto& l : r.lanes) wideLaunches += l.launchDuration.wide();
    EXPECT_EQ(wideLaunches, 1);

    RunResult cold = c.analyze({path});
    ASSERT_EQ(cold.exitCode, 0) << cold.err;
    RunResult warm = c.analyze({path});
    ASSERT_EQ(warm.exitCode, 0) << warm.err;
    EXPECT_THAT(warm.out, HasSubstr("\"from_cache\": true"));
    EXPECT_TRUE(analysisOf(warm.out) == analysisOf(cold.out));
    fs::remove_all(dir);
}

TEST(ProfileCache, ChangedExportIsReadAgain) {
    std::string dir = tempDir("cache-stale");
    CacheRun c{dir + "/cache"};
    std::string file = copyOf(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", dir, "run.sqlite");
    ASSERT_EQ(c.analyze({file}).exitCode, 0);
    // rewritten with other content under the same name: another analysis, from the export
    copyOf(realDataDir() + "/nsysai-mfu_2gpu_after.sqlite", dir, "run.sqlite");
    RunResult after = c.analyze({file});
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_THAT(after.out, HasSubstr("\"from_cache\": false"));
    EXPECT_THAT(after.err, HasSubstr("stale snapshot"));
    RunResult direct = runSkewscope({"analyze", realDataDir() + "/nsysai-mfu_2gpu_after.sqlite", "--format", "json", "--no-cache"});
    EXPECT_EQ(std::regex_replace(analysisOf(after.out), std::regex(dir + "/run.sqlite"), "X"),
              std::regex_replace(analysisOf(direct.out), std::regex(realDataDir() + "/nsysai-mfu_2gpu_after.sqlite"), "X"));
    // touched (same bytes, new modification time): read again as well
    ASSERT_EQ(c.analyze({file}).exitCode, 0);
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
    RunResult touched = c.analyze({file});
    EXPECT_THAT(touched.out, HasSubstr("\"from_cache\": false"));
    EXPECT_THAT(touched.err, HasSubstr("stale snapshot"));
    fs::remove_all(dir);
}

TEST(ProfileCache, CorruptedAndTruncatedSnapshotsAreRebuilt) {
    std::string dir = tempDir("cache-corrupt");
    CacheRun c{dir + "/cache"};
    std::string file = copyOf(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", dir, "run.sqlite");
    RunResult cold = c.analyze({file});
    ASSERT_EQ(cold.exitCode, 0) << cold.err;
    ASSERT_EQ(c.snapshots().size(), 1u);
    fs::path snap = c.snapshots()[0];
    const auto size = fs::file_size(snap);
    struct Damage {
        std::string name, expected;
        std::function<void()> apply;
    };
    std::vector<Damage> damages = {
        {"a flipped byte in a column", "corrupted snapshot (checksum)",
         [&] {
             // the file ends with the last lane's correlation ids and then their 8-byte checksum: a
             // changed byte in the ids keeps the structure whole, so only the column's own
             // checksum can tell
             std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
             f.seekg(std::streamoff(size - 8 - 3));
             char b = 0;
             f.read(&b, 1);
             f.seekp(std::streamoff(size - 8 - 3));
             b = char(b ^ 0x5a);
             f.write(&b, 1);
         }},
        {"a flipped byte in a column's checksum", "corrupted snapshot (checksum)",
         [&] {
             // the payload's checksum covers the columns' checksums
             std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
             f.seekg(std::streamoff(size - 3));
             char b = 0;
             f.read(&b, 1);
             f.seekp(std::streamoff(size - 3));
             b = char(b ^ 0x5a);
             f.write(&b, 1);
         }},
        {"truncated", "truncated or damaged snapshot", [&] { fs::resize_file(snap, size / 2); }},
        {"a damaged header", "not a snapshot", [&] {
             std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
             f.write("XXXX", 4);
         }},
        {"a huge count", "truncated or damaged snapshot", [&] {
             // the first length after the header: the nsys version string
             std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
             std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
             size_t at = all.find("2026.2.1.210");
             ASSERT_NE(at, std::string::npos);
             f.seekp(std::streamoff(at - 4));
             uint32_t huge = 0xFFFFFFF0u;
             f.write(reinterpret_cast<const char*>(&huge), 4);
         }},
    };
    for (const auto& d : damages) {
        SCOPED_TRACE(d.name);
        ASSERT_EQ(c.snapshots().size(), 1u);
        d.apply();
        RunResult r = c.analyze({file});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.err, HasSubstr(d.expected)) << r.err;
        EXPECT_THAT(r.out, HasSubstr("\"from_cache\": false"));
        EXPECT_TRUE(analysisOf(r.out) == analysisOf(cold.out));
        // rebuilt: the next open reads it
        RunResult again = c.analyze({file});
        EXPECT_THAT(again.out, ::testing::Not(HasSubstr("\"from_cache\": false")));
    }
    fs::remove_all(dir);
}

// A snapshot written by another version of Skewscope (an older or a newer format: the u32 after the
// 8-byte magic) is ignored, with a debug line that says why, and rebuilt in the current format; the
// report is byte for byte the one read without any cache.
TEST(ProfileCache, SnapshotOfAnotherFormatVersionIsIgnoredAndRebuilt) {
    std::string dir = tempDir("cache-version");
    CacheRun c{dir + "/cache"};
    std::string file = copyOf(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", dir, "run.sqlite");
    const RunResult none = runSkewscope({"analyze", file, "--format", "json", "--no-cache"});
    ASSERT_EQ(none.exitCode, 0) << none.err;
    ASSERT_EQ(c.analyze({file}).exitCode, 0);
    ASSERT_EQ(c.snapshots().size(), 1u);
    const fs::path snap = c.snapshots()[0];
    auto formatOf = [&] {
        uint32_t v = 0;
        std::ifstream f(snap, std::ios::binary);
        f.seekg(8);
        f.read(reinterpret_cast<char*>(&v), 4);
        return v;
    };
    ASSERT_EQ(formatOf(), skew::kSnapshotFormat);
    for (uint32_t other : {skew::kSnapshotFormat - 1, skew::kSnapshotFormat + 1}) {
        SCOPED_TRACE(other);
        {
            std::fstream f(snap, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(8);
            f.write(reinterpret_cast<const char*>(&other), 4);
        }
        RunResult r = c.analyze({file});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.err, HasSubstr("skewscope: debug: profile cache: " + fs::canonical(file).string() +
                                     ": snapshot of another format version\n"));
        EXPECT_TRUE(r.out == none.out) << "the report differs from one read without the cache";
        EXPECT_EQ(formatOf(), skew::kSnapshotFormat);  // rebuilt in this version's format
        RunResult again = c.analyze({file});
        EXPECT_THAT(again.out, HasSubstr("\"from_cache\": true"));
        EXPECT_TRUE(analysisOf(again.out) == analysisOf(none.out));
    }
    EXPECT_EQ(c.snapshots().size(), 1u);
    fs::remove_all(dir);
}

TEST(ProfileCache, TwoWritersAtOnce) {
    std::string dir = tempDir("cache-race");
    CacheRun c{dir + "/cache"};
    const auto& demo = generated("demo", skewgen::demoConfig());
    RunResult a, b;
    std::thread t1([&] { a = c.analyze({demo.path}); });
    std::thread t2([&] { b = c.analyze({demo.path}); });
    t1.join();
    t2.join();
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    EXPECT_EQ(c.snapshots().size(), 1u);
    // no temporary file left, and the snapshot is whole
    for (const auto& e : fs::directory_iterator(c.dir)) EXPECT_EQ(e.path().extension(), ".snap") << e.path();
    RunResult warm = c.analyze({demo.path});
    EXPECT_THAT(warm.out, ::testing::Not(HasSubstr("\"from_cache\": false")));
    EXPECT_TRUE(analysisOf(warm.out) == analysisOf(a.out));
    fs::remove_all(dir);
}

TEST(ProfileCache, UnwritableCacheFolderCostsOneWarning) {
    const auto& demo = generated("demo", skewgen::demoConfig());
    // a cache folder under a regular file can never be created, whoever runs the test
    std::string dir = tempDir("cache-ro");
    std::ofstream(dir + "/file").put('x');
    RunResult r = runSkewscope({"analyze", demo.path, "--format", "json"}, "SKEWSCOPE_CACHE_DIR=" + dir + "/file/cache");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("warning: cannot write the profile cache in " + dir + "/file/cache"));
    EXPECT_THAT(r.err, HasSubstr("the next open reads the export again"));
    EXPECT_THAT(r.out, HasSubstr("\"collectives\""));
    fs::remove_all(dir);
}

TEST(ProfileCache, NoCacheInfoClearAndEviction) {
    std::string dir = tempDir("cache-admin");
    CacheRun c{dir + "/cache"};
    const auto& demo = generated("demo", skewgen::demoConfig());
    RunResult none = runSkewscope({"analyze", demo.path, "--no-cache"}, c.env());
    EXPECT_EQ(none.exitCode, 0);
    EXPECT_TRUE(c.snapshots().empty());
    ASSERT_EQ(c.analyze({demo.path}).exitCode, 0);
    ASSERT_EQ(c.snapshots().size(), 1u);
    const fs::path demoSnap = c.snapshots()[0];
    ASSERT_EQ(c.analyze({realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"}).exitCode, 0);
    ASSERT_EQ(c.snapshots().size(), 2u);
    const fs::path beforeSnap = c.snapshots()[0] == demoSnap ? c.snapshots()[1] : c.snapshots()[0];
    RunResult info = runSkewscope({"cache", "info"}, c.env());
    EXPECT_EQ(info.exitCode, 0);
    EXPECT_THAT(info.out, HasSubstr("profile cache: " + c.dir));
    EXPECT_THAT(info.out, HasSubstr("2 snapshot(s)"));
    // with a 1 MB limit, storing a third evicts the least recently used first: the 'before'
    // snapshot (the demo's was just used), then the demo's while still over the limit
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(c.analyze({demo.path}).exitCode, 0);  // used: now the most recent
    const uint64_t demoBytes = fs::file_size(demoSnap), beforeBytes = fs::file_size(beforeSnap);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    RunResult third = c.analyze({realDataDir() + "/nsysai-mfu_2gpu_after.sqlite"}, "SKEWSCOPE_CACHE_MAX_MB=1");
    ASSERT_EQ(third.exitCode, 0);
    std::vector<fs::path> left = c.snapshots();
    fs::path afterSnap;
    for (const auto& s : left)
        if (s != demoSnap && s != beforeSnap) afterSnap = s;
    ASSERT_FALSE(afterSnap.empty());
    uint64_t total = demoBytes + beforeBytes + fs::file_size(afterSnap);
    const uint64_t limit = 1 << 20;
    bool keepBefore = total <= limit;
    if (!keepBefore) total -= beforeBytes;
    bool keepDemo = total <= limit;
    EXPECT_EQ(fs::exists(beforeSnap), keepBefore);
    EXPECT_EQ(fs::exists(demoSnap), keepDemo);
    EXPECT_FALSE(keepBefore);  // the limit does evict here
    // a crashed writer's temporary file of two hours ago goes; another writer's of now stays
    const fs::path crashed = fs::path(c.dir) / ".snapAAAAAA", writing = fs::path(c.dir) / ".snapBBBBBB";
    std::ofstream(crashed) << "SKWSNAP\nhalf a snapshot";  // a writer writes the magic first
    std::ofstream(writing) << "a snapshot being written";
    fs::last_write_time(crashed, fs::file_time_type::clock::now() - std::chrono::hours(2));
    RunResult clear = runSkewscope({"cache", "clear"}, c.env());
    EXPECT_EQ(clear.exitCode, 0);
    EXPECT_THAT(clear.out, HasSubstr("removed"));
    EXPECT_TRUE(c.snapshots().empty());
    EXPECT_FALSE(fs::exists(crashed));
    EXPECT_TRUE(fs::exists(writing));
    EXPECT_EQ(runSkewscope({"cache", "purge"}, c.env()).exitCode, 2);
    fs::remove_all(dir);
}

}  // namespace
