// The profile cache never serves a stale result (docs/analysis.md, "Profile cache"): a commit
// that sits in a WAL export's -wal file, a rewrite of the middle of the file that keeps its size,
// inode, modification time and first and last 64 KiB, and SQLite's change counter are all in the
// key; reading a WAL export leaves the export, its -wal and its -shm as they were.
//
// The truth a changed export is compared with is the same change made to a plain copy (rollback
// journal, no -wal) read without any cache: it does not depend on the cache or on WAL reading.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <sqlite3.h>

#include "test_util.h"
#include "util/file_identity.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// Device 1's kernels 5 ms later: the skew of every collective changes.
const char* const kShiftDevice1 =
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start + 5000000, end = end + 5000000 WHERE deviceId = 1";
const char* const kShiftBack =
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start - 5000000, end = end - 5000000 WHERE deviceId = 1";

std::string realCopy(const std::string& dir, const std::string& name) {
    std::string p = dir + "/" + name;
    fs::copy_file(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", p, fs::copy_options::overwrite_existing);
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    return p;
}

// Runs `sql` on `path` with a writer of its own; `keepWal`: the writer leaves its -wal as it is on
// close (no checkpoint), as a program that is still writing, or crashed, would. Returns the rows changed.
int writeSql(const std::string& path, const std::string& sql, bool keepWal = false) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    if (keepWal) {
        EXPECT_EQ(sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr), SQLITE_OK);
        EXPECT_EQ(sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0", nullptr, nullptr, nullptr), SQLITE_OK);
    }
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    int changed = sqlite3_changes(db);
    sqlite3_close(db);
    return changed;
}

struct Cache {
    std::string dir;
    RunResult analyze(const std::string& file) const {
        return runSkewscope({"analyze", file, "--format", "json"}, "SKEWSCOPE_DEBUG=1 SKEWSCOPE_CACHE_DIR=" + dir);
    }
};

// What an analysis says, without the inputs' from_cache flags and with `path` written as X.
std::string analysisOf(const std::string& json, const std::string& path) {
    std::string s = std::regex_replace(json, std::regex("\"from_cache\": (true|false)"), "");
    std::string out;
    for (size_t at = 0;;) {
        size_t hit = s.find(path, at);
        out += s.substr(at, hit == std::string::npos ? std::string::npos : hit - at);
        if (hit == std::string::npos) return out;
        out += "X";
        at = hit + path.size();
    }
}

// The analysis of `truth` read without any cache, its path written as X.
std::string truthOf(const std::string& truth) {
    RunResult r = runSkewscope({"analyze", truth, "--format", "json", "--no-cache"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return analysisOf(r.out, truth);
}

int64_t nanoseconds(const struct timespec& t) {
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

TEST(ProfileCacheKey, CommitInTheWalOfAWalExportIsRead) {
    std::string dir = tempDir("key-wal");
    Cache c{dir + "/cache"};
    const std::string file = realCopy(dir, "w.sqlite");
    const std::string truth = realCopy(dir, "truth.sqlite");
    const std::string original = truthOf(file);
    writeSql(file, "PRAGMA journal_mode=WAL");  // a clean close: no -wal, the file stays in WAL mode
    ASSERT_FALSE(fs::exists(file + "-wal"));
    RunResult cold = c.analyze(file);
    ASSERT_EQ(cold.exitCode, 0) << cold.err;
    ASSERT_EQ(analysisOf(cold.out, file), original);
    ASSERT_THAT(c.analyze(file).out, HasSubstr("\"from_cache\": true"));

    // a commit that stays in w.sqlite-wal: the main file keeps every byte and its times
    const std::string mainBefore = slurp(file);
    struct stat before {};
    ASSERT_EQ(::stat(file.c_str(), &before), 0);
    const int shifted = writeSql(file, kShiftDevice1, true);
    EXPECT_EQ(shifted, 2017);  // device 1's kernels in this export (counted with the sqlite3 shell)
    EXPECT_EQ(writeSql(truth, kShiftDevice1), shifted);
    ASSERT_TRUE(fs::exists(file + "-wal"));
    struct stat after {};
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    ASSERT_TRUE(slurp(file) == mainBefore);
    ASSERT_EQ(nanoseconds(after.st_mtim), nanoseconds(before.st_mtim));
    const std::string walBefore = slurp(file + "-wal"), shmBefore = slurp(file + "-shm");
    ASSERT_FALSE(shmBefore.empty());
    const std::string expected = truthOf(truth);
    ASSERT_NE(expected, original);  // the change shows in the analysis

    RunResult stale = c.analyze(file);
    ASSERT_EQ(stale.exitCode, 0) << stale.err;
    EXPECT_THAT(stale.out, HasSubstr("\"from_cache\": false"));
    EXPECT_THAT(stale.err, HasSubstr("stale snapshot: the export changed since (its write-ahead log (-wal) came or went)"));
    EXPECT_TRUE(analysisOf(stale.out, file) == expected) << "the commit in the -wal was not read";
    RunResult warm = c.analyze(file);
    EXPECT_THAT(warm.out, HasSubstr("\"from_cache\": true"));
    EXPECT_TRUE(analysisOf(warm.out, file) == expected);
    // reading changed neither the export nor its -wal nor its WAL index (-shm)
    EXPECT_TRUE(slurp(file) == mainBefore);
    EXPECT_TRUE(slurp(file + "-wal") == walBefore);
    EXPECT_TRUE(slurp(file + "-shm") == shmBefore) << "the read wrote into the -shm beside the export";

    // a second commit appended to the same -wal puts the kernels back: the first analysis again
    writeSql(file, kShiftBack, true);
    RunResult back = c.analyze(file);
    EXPECT_THAT(back.out, HasSubstr("\"from_cache\": false"));
    EXPECT_THAT(back.err, HasSubstr("stale snapshot: the export changed since (its write-ahead log (-wal) changed)"));
    EXPECT_TRUE(analysisOf(back.out, file) == original);
    EXPECT_TRUE(slurp(file) == mainBefore);
    // a WAL index left zeroed (a writer killed while writing it): read from the -wal itself, and
    // the -shm is left as it was
    const std::string zeros(32768, '\0');
    { std::ofstream(file + "-shm", std::ios::binary | std::ios::trunc) << zeros; }
    RunResult zeroed = runSkewscope({"analyze", file, "--format", "json", "--no-cache"});
    EXPECT_EQ(zeroed.exitCode, 0) << zeroed.err;
    EXPECT_TRUE(analysisOf(zeroed.out, file) == original);
    EXPECT_TRUE(slurp(file + "-shm") == zeros);
    fs::remove_all(dir);
}

// The review's case: the middle of the file rewritten in place (another export's pages written
// over it) keeping its size, inode, first and last 64 KiB, and the modification time put back.
TEST(ProfileCacheKey, MiddleOfFileRewrittenInPlaceWithItsTimeRestoredIsReadAgain) {
    std::string dir = tempDir("key-inplace");
    Cache c{dir + "/cache"};
    const std::string file = realCopy(dir, "run.sqlite");
    const std::string truth = realCopy(dir, "truth.sqlite");
    const std::string original = truthOf(file);
    RunResult cold = c.analyze(file);
    ASSERT_EQ(cold.exitCode, 0) << cold.err;
    ASSERT_THAT(c.analyze(file).out, HasSubstr("\"from_cache\": true"));

    ASSERT_EQ(writeSql(truth, kShiftDevice1), 2017);
    const std::string a = slurp(file), b = slurp(truth);
    ASSERT_EQ(a.size(), b.size());
    const size_t keep = 64 * 1024;
    ASSERT_GT(a.size(), 4 * keep);
    // outside the middle the two differ only in the header's change counter (24..27), its
    // version-valid-for (92..95) and SQLite's version (96..99): the middle alone carries the change
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i] && (i < keep || i >= a.size() - keep)) {
            ASSERT_TRUE((i >= 24 && i < 28) || (i >= 92 && i < 100)) << "byte " << i;
        }
    }
    struct stat before {};
    ASSERT_EQ(::stat(file.c_str(), &before), 0);
    int fd = ::open(file.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    const size_t middle = a.size() - 2 * keep;
    ASSERT_EQ(::pwrite(fd, b.data() + keep, middle, off_t(keep)), ssize_t(middle));
    ::close(fd);
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
    struct stat after {};
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    ASSERT_EQ(after.st_size, before.st_size);
    ASSERT_EQ(after.st_ino, before.st_ino);
    ASSERT_EQ(nanoseconds(after.st_mtim), nanoseconds(before.st_mtim));
    const std::string rewritten = slurp(file);
    ASSERT_TRUE(rewritten.compare(0, keep, a, 0, keep) == 0 &&
                rewritten.compare(a.size() - keep, keep, a, a.size() - keep, keep) == 0);
    const std::string expected = truthOf(truth);
    ASSERT_NE(expected, original);

    RunResult r = c.analyze(file);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("\"from_cache\": false"));
    EXPECT_THAT(r.err, HasSubstr("stale snapshot: the export changed since (rewritten or its status changed (ctime))"));
    EXPECT_TRUE(analysisOf(r.out, file) == expected) << "the stale snapshot was served";
    fs::remove_all(dir);
}

// SQLite's own marks of a change: the change counter (header bytes 24..27) and the
// version-valid-for number (92..95), big-endian, read into the identity; a commit by SQLite moves
// the counter, and the identity with it.
TEST(ProfileCacheKey, IdentityHoldsSqlitesChangeCounterAndTheWalState) {
    std::string dir = tempDir("key-counter");
    const std::string file = realCopy(dir, "run.sqlite");
    {
        int fd = ::open(file.c_str(), O_WRONLY);
        ASSERT_GE(fd, 0);
        const unsigned char counter[4] = {0x12, 0x34, 0x56, 0x78}, valid[4] = {0x00, 0x00, 0x01, 0x02};
        ASSERT_EQ(::pwrite(fd, counter, 4, 24), 4);
        ASSERT_EQ(::pwrite(fd, valid, 4, 92), 4);
        ::close(fd);
    }
    skew::FileIdentity id = skew::identifyFile(file);
    ASSERT_TRUE(id.valid());
    EXPECT_EQ(id.changeCounter, 0x12345678u);
    EXPECT_EQ(id.versionValidFor, 0x102u);
    EXPECT_FALSE(id.wal.exists);
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(id.ctimeNs, nanoseconds(st.st_ctim));
    // a commit in rollback-journal mode: the counter goes up by one, and SQLite sets version-valid-for to it
    writeSql(file, kShiftDevice1);
    skew::FileIdentity next = skew::identifyFile(file);
    EXPECT_EQ(next.changeCounter, 0x12345679u);
    EXPECT_EQ(next.versionValidFor, 0x12345679u);
    EXPECT_FALSE(next == id);
    // a -wal beside it: its stat is in the identity
    { std::ofstream(file + "-wal") << std::string(100, 'w'); }
    skew::FileIdentity withWal = skew::identifyFile(file);
    ASSERT_EQ(::stat((file + "-wal").c_str(), &st), 0);
    EXPECT_TRUE(withWal.wal.exists);
    EXPECT_EQ(withWal.wal.size, 100u);
    EXPECT_EQ(withWal.wal.inode, uint64_t(st.st_ino));
    EXPECT_EQ(withWal.wal.mtimeNs, nanoseconds(st.st_mtim));
    EXPECT_FALSE(withWal == next);
    // a file SQLite did not write: no counter
    { std::ofstream(dir + "/capture.nsys-rep") << std::string(200, 'r'); }
    skew::FileIdentity rep = skew::identifyFile(dir + "/capture.nsys-rep");
    EXPECT_TRUE(rep.valid());
    EXPECT_EQ(rep.changeCounter, 0u);
    EXPECT_EQ(rep.versionValidFor, 0u);
    fs::remove_all(dir);
}

}  // namespace
