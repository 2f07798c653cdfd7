// The profile cache's folder must be ours (docs/analysis.md, "Profile cache"): the shared
// fallback folder (no HOME, no XDG_CACHE_HOME) is used only when it is a folder owned by this user
// that no one else may write, else no cache and one warning; a relative XDG_CACHE_HOME is ignored;
// housekeeping removes only files that begin with a snapshot's magic; `cache clear` says what it
// could not remove and exits 1; SKEWSCOPE_CACHE_MAX_MB is a whole number of MB or a warning.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>

#include "gen_fixture.h"
#include "test_util.h"

using namespace testutil;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kNobody = 65534;

// Runs skewscope as user 65534 when this process is root (root ignores folder permissions),
// through setpriv (util-linux, installed by scripts/setup-deps.sh); else as this user.
RunResult runSkewscopeUnprivileged(const std::vector<std::string>& args, const std::string& env) {
    if (::geteuid() != 0) return runSkewscope(args, env);
    EXPECT_EQ(std::system("command -v setpriv >/dev/null 2>&1"), 0)
        << "setpriv (util-linux) is missing: run scripts/setup-deps.sh";
    std::vector<std::string> all = {"--reuid=65534", "--regid=65534", "--clear-groups", binDir() + "/skewscope"};
    all.insert(all.end(), args.begin(), args.end());
    return runCommand("setpriv", all, env);
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::vector<fs::path> snapshotsIn(const std::string& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".snap" && !fs::is_symlink(it->symlink_status())) out.push_back(it->path());
    return out;
}

std::string copyOf(const std::string& from, const std::string& to) {
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return to;
}

TEST(ProfileCacheFolder, FallbackFolderThatIsNotOursIsNotUsedWithOneWarning) {
    std::string dir = tempDir("cache-fallback");
    const std::string tmp = dir + "/tmp";
    fs::create_directories(tmp);
    const std::string fallback = tmp + "/skewscope-cache-" + std::to_string(::getuid());
    const std::string env = "HOME= XDG_CACHE_HOME= SKEWSCOPE_CACHE_DIR= SKEWSCOPE_DEBUG=1 TMPDIR=" + tmp;
    const std::string victim = copyOf(realDataDir() + "/nsysai-mfu_2gpu_before.sqlite", dir + "/victim.sqlite");
    const std::string other = copyOf(realDataDir() + "/nsysai-mfu_2gpu_after.sqlite", dir + "/other.sqlite");

    // made by us: private, and used
    RunResult first = runSkewscope({"analyze", victim, "--format", "json"}, env);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    EXPECT_THAT(withoutWhatIfWarning(first.err), ::testing::Not(HasSubstr("warning")));
    struct stat st {};
    ASSERT_EQ(::lstat(fallback.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_EQ(st.st_uid, ::geteuid());
    ASSERT_EQ(snapshotsIn(fallback).size(), 1u);
    const fs::path planted = snapshotsIn(fallback)[0];
    EXPECT_THAT(runSkewscope({"analyze", victim, "--format", "json"}, env).out, HasSubstr("\"from_cache\": true"));

    // the same folder, as another user could have made it beforehand (with a snapshot in it that
    // would be read): writable by others; as root also owned by another user (writable by none)
    struct Case {
        std::string name, reason;
        std::function<void()> apply;
    };
    std::vector<Case> cases = {
        {"writable by others", "can be written by other users", [&] { fs::permissions(fallback, fs::perms::all); }}};
    if (::geteuid() == 0)
        cases.push_back({"another user's", "belongs to user 65534, not to you (user 0)", [&] {
                             fs::permissions(fallback,
                                             fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                                 fs::perms::others_read | fs::perms::others_exec,
                                             fs::perm_options::replace);
                             ASSERT_EQ(::chown(fallback.c_str(), kNobody, kNobody), 0);
                             ASSERT_EQ(::chown(planted.c_str(), kNobody, kNobody), 0);
                         }});
    for (const Case& k : cases) {
        SCOPED_TRACE(k.name);
        k.apply();
        const std::string warning =
            "skewscope: warning: the profile cache folder " + fallback + " " + k.reason +
            ": no profile cache is used (set XDG_CACHE_HOME or SKEWSCOPE_CACHE_DIR to a folder of yours)\n";
        RunResult r = runSkewscope({"analyze", victim, "--format", "json"}, env);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.out, HasSubstr("\"from_cache\": false"));  // the snapshot there is not read
        EXPECT_EQ(count(r.err, warning), 1u) << r.err;
        EXPECT_EQ(count(withoutWhatIfWarning(r.err), "warning"), 1u) << r.err;
        // two loads in one run: still one warning, and nothing written there
        RunResult cmp = runSkewscope({"compare", victim, "--vs", other}, env);
        EXPECT_EQ(cmp.exitCode, 0) << cmp.err;
        EXPECT_EQ(count(cmp.err, warning), 1u) << cmp.err;
        EXPECT_EQ(snapshotsIn(fallback).size(), 1u);
        RunResult clear = runSkewscope({"cache", "clear"}, env);
        EXPECT_EQ(clear.exitCode, 1);
        EXPECT_EQ(count(clear.err, warning), 1u) << clear.err;
        EXPECT_TRUE(fs::exists(planted));
    }

    // a symbolic link to a folder of ours: not used either
    const std::string elsewhere = dir + "/elsewhere";
    fs::create_directories(elsewhere);
    fs::permissions(elsewhere, fs::perms::owner_all, fs::perm_options::replace);
    fs::remove_all(fallback);
    fs::create_directory_symlink(elsewhere, fallback);
    RunResult linked = runSkewscope({"analyze", victim, "--format", "json"}, env);
    EXPECT_EQ(linked.exitCode, 0) << linked.err;
    EXPECT_EQ(count(linked.err,
                    "skewscope: warning: the profile cache folder " + fallback + " is a symbolic link: no profile cache is used"),
              1u)
        << linked.err;
    EXPECT_TRUE(fs::is_empty(elsewhere));
    fs::remove_all(dir);
}

TEST(ProfileCacheFolder, RelativeXdgCacheHomeIsIgnored) {
    std::string dir = tempDir("cache-xdg");
    RunResult rel = runSkewscope({"cache", "info"}, "SKEWSCOPE_CACHE_DIR= XDG_CACHE_HOME=relative/cache HOME=" + dir + "/home");
    EXPECT_EQ(rel.exitCode, 0) << rel.err;
    EXPECT_THAT(rel.out, HasSubstr("profile cache: " + dir + "/home/.cache/skewscope\n"));
    RunResult abs = runSkewscope({"cache", "info"}, "SKEWSCOPE_CACHE_DIR= XDG_CACHE_HOME=" + dir + "/xdg HOME=" + dir + "/home");
    EXPECT_THAT(abs.out, HasSubstr("profile cache: " + dir + "/xdg/skewscope\n"));
    fs::remove_all(dir);
}

// Files in the cache folder that the cache did not write: a snapshot's name without its magic,
// a link, an old temporary-looking file; none of them is removed by eviction or `cache clear`.
TEST(ProfileCacheFolder, HousekeepingRemovesOnlyItsOwnFiles) {
    std::string dir = tempDir("cache-foreign");
    const std::string cache = dir + "/cache";
    const std::string env = "SKEWSCOPE_CACHE_DIR=" + cache;
    const auto& demo = generated("demo", skewgen::demoConfig());
    ASSERT_EQ(runSkewscope({"analyze", demo.path}, env).exitCode, 0);
    ASSERT_EQ(snapshotsIn(cache).size(), 1u);
    const auto twoHoursAgo = fs::file_time_type::clock::now() - std::chrono::hours(2);
    const std::string notes = cache + "/home.snap", big = cache + "/big.snap", odd = cache + "/.snapDDDDDD";
    const std::string crashed = cache + "/.snapEEEEEE", link = cache + "/link.snap", outside = dir + "/outside.txt";
    std::ofstream(notes) << "my notes";
    std::ofstream(big) << std::string(3 << 20, 'b');  // the least recently used by far, and over the limit alone
    std::ofstream(odd) << "not a snapshot";
    std::ofstream(crashed) << std::string("SKWSNAP\n") + "half a snapshot";  // a crashed writer's: the magic first
    std::ofstream(outside) << "keep me";
    fs::create_symlink(outside, link);
    for (const auto& f : {big, odd, crashed}) fs::last_write_time(f, twoHoursAgo);

    // storing another snapshot with a 1 MB limit evicts (ours only) and removes the crashed writer's file
    RunResult store =
        runSkewscope({"analyze", realDataDir() + "/nsysai-mfu_2gpu_before.sqlite"}, env + " SKEWSCOPE_CACHE_MAX_MB=1");
    ASSERT_EQ(store.exitCode, 0) << store.err;
    EXPECT_FALSE(fs::exists(crashed));
    for (const auto& f : {notes, big, odd, outside}) EXPECT_TRUE(fs::exists(f)) << f;
    EXPECT_TRUE(fs::is_symlink(link));
    size_t ours = 0;
    for (const auto& s : snapshotsIn(cache)) ours += slurp(s.string()).rfind("SKWSNAP\n", 0) == 0;
    EXPECT_GE(ours, 1u);  // the one just stored stays

    RunResult clear = runSkewscope({"cache", "clear"}, env);
    EXPECT_EQ(clear.exitCode, 0) << clear.err;
    EXPECT_THAT(clear.out, HasSubstr("removed " + std::to_string(ours) + " snapshot(s) from " + cache));
    for (const auto& f : {notes, big, odd, outside}) EXPECT_TRUE(fs::exists(f)) << f;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(slurp(notes), "my notes");
    EXPECT_EQ(slurp(outside), "keep me");
    EXPECT_EQ(snapshotsIn(cache).size(), 2u);  // home.snap and big.snap
    fs::remove_all(dir);
}

TEST(ProfileCacheFolder, ClearSaysWhatItCouldNotRemoveAndFails) {
    std::string dir = tempDir("cache-clear-ro");
    fs::permissions(dir, fs::perms::all);  // traversable for the unprivileged user
    const std::string cache = dir + "/cache";
    const std::string env = "SKEWSCOPE_CACHE_DIR=" + cache;
    ASSERT_EQ(runSkewscope({"analyze", generated("demo", skewgen::demoConfig()).path}, env).exitCode, 0);
    ASSERT_EQ(snapshotsIn(cache).size(), 1u);
    const fs::path snap = snapshotsIn(cache)[0];
    if (::geteuid() == 0) {  // the user the clear runs as owns the folder and the snapshot
        ASSERT_EQ(::chown(cache.c_str(), kNobody, kNobody), 0);
        ASSERT_EQ(::chown(snap.c_str(), kNobody, kNobody), 0);
    }
    fs::permissions(cache, fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
    RunResult r = runSkewscopeUnprivileged({"cache", "clear"}, env);
    fs::permissions(cache, fs::perms::owner_all, fs::perm_options::replace);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("removed 0 snapshot(s) from " + cache));
    EXPECT_THAT(r.err, HasSubstr("skewscope: cannot remove " + snap.string() + ": Permission denied\n"));
    EXPECT_TRUE(fs::exists(snap));
    fs::remove_all(dir);
}

TEST(ProfileCacheFolder, CacheMaxMbIsAWholeNumberOfMbOrAWarning) {
    std::string dir = tempDir("cache-max");
    const std::string base = "SKEWSCOPE_CACHE_DIR=" + dir + "/cache SKEWSCOPE_CACHE_MAX_MB=";
    // accepted: N MB = N * 2^20 bytes, printed in MB of 10^6 bytes
    for (auto [value, shown] : std::vector<std::pair<std::string, std::string>>{
             {"1", "of 1 MB"}, {"100", "of 105 MB"}, {"16777216", "of 17592186 MB"}}) {
        RunResult r = runSkewscope({"cache", "info"}, base + value);
        EXPECT_EQ(r.exitCode, 0);
        EXPECT_THAT(r.out, HasSubstr(shown)) << value;
        EXPECT_EQ(r.err, "") << value;
    }
    // refused: a warning, and the default of 4 GiB (4295 MB of 10^6 bytes)
    for (std::string value : {"17592186044416", "1e3", "0", "-5", "12abc", "' 5'", "16777217", "0x10", "+3"}) {
        RunResult r = runSkewscope({"cache", "info"}, base + value);
        EXPECT_EQ(r.exitCode, 0);
        EXPECT_THAT(r.out, HasSubstr("of 4295 MB")) << value;
        const std::string shown = value == "' 5'" ? " 5" : value;
        EXPECT_EQ(r.err, "skewscope: warning: SKEWSCOPE_CACHE_MAX_MB=" + shown +
                             " is not a whole number of MB from 1 to 16777216: the default, 4096 MB, is used\n")
            << value;
    }
    fs::remove_all(dir);
}

}  // namespace
