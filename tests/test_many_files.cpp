// Many files at once (issue 21): a cold open of 1,100 per-rank exports under an open-file limit far
// below their number reads them a window at a time (model/loader.h, openFileWindow) and finds
// every collective with every rank.

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <map>
#include <utility>

#include "gen_fixture.h"
#include "json_value.h"

using namespace testutil;

namespace {

constexpr int kFiles = 1100;

// The generator keeps every file it writes open: this process needs more than 1,100 descriptors
// (the hard limit allows it on every machine the suite runs on; the soft one may be 1024).
bool enoughDescriptorsToGenerate() {
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return false;
    const rlim_t want = kFiles + 256;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? want : std::min(rl.rlim_max, want);
        if (::setrlimit(RLIMIT_NOFILE, &rl) != 0) return false;
    }
    return rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want;
}

}  // namespace

TEST(ManyFiles, ThousandPerRankFilesLoadUnderALowOpenFileLimit) {
    ASSERT_TRUE(enoughDescriptorsToGenerate()) << "the hard RLIMIT_NOFILE is below " << kFiles + 256;
    skewgen::GenConfig cfg;
    cfg.ranks = kFiles;
    cfg.perRankFiles = true;
    cfg.steps = 1;
    cfg.layers = 1;
    cfg.extraKernelsPerCollective = 0;
    cfg.sendRecv = false;
    cfg.allReduce = true;
    const std::string dir = tempDir("many-files");
    const skewgen::GenResult truth = skewgen::generate(cfg, dir + "/job");
    ASSERT_EQ(truth.files.size(), size_t(kFiles));

    // soft and hard limit 256 (so that raising the soft limit cannot help): a quarter of the files
    // fit; the cache is on and cold (runCommand gives each run an empty one)
    std::vector<std::string> args = {"-c", "ulimit -n 256 && exec \"$0\" \"$@\"", binDir() + "/skewscope", "analyze",
                                      "--format", "json"};
    args.insert(args.end(), truth.files.begin(), truth.files.end());
    RunResult r = runCommand("/bin/sh", args);
    ASSERT_EQ(r.exitCode, 0) << r.err.substr(0, 2000);
    auto v = testjson::parse(r.out);
    EXPECT_EQ(v["inputs"].size(), size_t(kFiles));
    EXPECT_EQ(v["ranks"].size(), size_t(kFiles));

    // every collective of the generator's truth, each with all 1,100 ranks
    std::map<std::pair<int64_t, int64_t>, size_t> want, got;
    std::map<int64_t, int64_t> perGroup;
    for (const auto& c : truth.collectives) {
        want[{c.group, c.index}] = c.members.size();
        ++perGroup[c.group];
    }
    ASSERT_EQ(want.size(), 4u);  // 3 FSDP collectives (1 layer: AllGather forward, AllGather and ReduceScatter backward) + 1 AllReduce
    for (const auto& c : v["collectives"].arr) got[{c["group"].i64(), c["index"].i64()}] = c["members"].size();
    EXPECT_EQ(got, want);
    ASSERT_EQ(v["groups"].size(), perGroup.size());
    for (const auto& g : v["groups"].arr) {
        EXPECT_EQ(g["collectives"].i64(), perGroup[g["id"].i64()]);
        EXPECT_EQ(g["complete"].i64(), perGroup[g["id"].i64()]);
    }
}
