// core/session: the viewer's warning lines built from a hand-made session (exact text), and the
// snapshots of freshly read files stored once, the first error returned.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cache/profile_cache.h"
#include "gen_fixture.h"
#include "session/session.h"
#include "session/snapshots.h"
#include "session/warnings.h"

using namespace skew;
using namespace testutil;
namespace fs = std::filesystem;

namespace {

TEST(Session, WarningsOfOneCaptureInTheirOrder) {
    Session s;
    s.profile.warnings = {"device 0 was not captured"};
    s.analysis.warnings = {"no NVTX steps"};
    Rank r;
    r.label = "node/pid 7/dev 1";
    r.lanes.resize(2);
    r.lanes[1].stream = 13;
    s.profile.ranks.push_back(r);
    Group ok, warn, error;
    ok.id = 0;
    warn.id = 1, warn.count = 5, warn.complete = 3;
    warn.validation.status = skew::ValidationStatus::Warn;
    warn.validation.messages = {"2 collectives miss a rank", "second message"};
    error.id = 2, error.count = 4, error.complete = 0;
    error.validation.status = skew::ValidationStatus::Error;
    s.analysis.groups = {ok, warn, error};
    s.analysis.unmatched.push_back(UnmatchedLane{0, 1, 9, "its op sequence matches no other rank"});
    EXPECT_EQ(sessionWarnings(s), (std::vector<std::string>{"device 0 was not captured", "no NVTX steps",
                                                            "group 1 matching warn: 3 of 5 collectives complete - 2 collectives miss a rank",
                                                            "group 2 matching error: 0 of 4 collectives complete",
                                                            "node/pid 7/dev 1 stream 13: its op sequence matches no other rank"}));
    EXPECT_TRUE(sessionWarnings(Session()).empty());
}

TEST(Session, WarningsOfAComparisonNameTheirSide) {
    auto a = std::make_shared<Session>(), b = std::make_shared<Session>();
    a->profile.warnings = {"pa"};
    a->analysis.warnings = {"aa"};
    b->analysis.warnings = {"ab1", "ab2"};
    // a group that did not validate is the viewer's single-capture warning, not the comparison's
    b->analysis.groups.resize(1);
    b->analysis.groups[0].validation.status = skew::ValidationStatus::Warn;
    CompareSession c;
    c.a = a, c.b = b;
    EXPECT_EQ(comparisonWarnings(c), (std::vector<std::string>{"A: pa", "A: aa", "B: ab1", "B: ab2"}));
}

// The viewer and the command line store the snapshots of the files they read from the exports:
// once stored, the next load reads them and has nothing to store.
TEST(Session, FreshFilesAreStoredOnceThenReadFromTheirSnapshots) {
    const auto& demo = generated("demo", skewgen::demoConfig());
    const std::string dir = tempDir("session-snapshots");
    ProfileCache cache(dir + "/cache");
    auto cold = loadSession({demo.path}, {}, {}, &cache);
    ASSERT_FALSE(cold->profile.inputs[0].fromSnapshot);
    EXPECT_TRUE(hasFreshFiles(cold->profile));
    EXPECT_EQ(storeFreshSnapshots(nullptr, cold->profile), "");  // no cache: nothing to do, no error
    EXPECT_EQ(storeFreshSnapshots(&cache, cold->profile), "");
    auto warm = loadSession({demo.path}, {}, {}, &cache);
    EXPECT_TRUE(warm->profile.inputs[0].fromSnapshot);
    EXPECT_FALSE(hasFreshFiles(warm->profile));
    EXPECT_EQ(warm->analysis.collectives.size(), cold->analysis.collectives.size());
    // without a cache the files are not identified: none to store
    EXPECT_FALSE(hasFreshFiles(loadSession({demo.path}, {}, {})->profile));
    // a folder that cannot be made: the error, once
    std::ofstream(dir + "/file").put('x');
    ProfileCache blocked(dir + "/file/cache");
    const std::string error = storeFreshSnapshots(&blocked, cold->profile);
    EXPECT_NE(error.find("cannot write the profile cache in " + dir + "/file/cache"), std::string::npos) << error;
    fs::remove_all(dir);
}

}  // namespace
