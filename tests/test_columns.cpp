// The model's compact columns (model/columns.h): 32-bit durations and 16-bit codes that fall back
// to full width, for the whole column, the first time a value does not fit; and a profile with
// such values loads, caches and analyses as one without them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "model/columns.h"
#include "model/profile.h"

namespace {

using skew::CodedIds;
using skew::Durations;

TEST(Columns, DurationsWidenOnTheFirstThatDoesNotFit) {
    Durations d;
    d.push_back(0);
    d.push_back(4'294'967'295);  // 2^32 - 1 ns: still narrow
    EXPECT_FALSE(d.wide());
    EXPECT_EQ(d.bytes(), 8u);
    d.push_back(4'294'967'296);  // 4.3 s: every element goes to 64 bits
    EXPECT_TRUE(d.wide());
    d.push_back(7);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0], 0);
    EXPECT_EQ(d[1], 4'294'967'295);
    EXPECT_EQ(d[2], 4'294'967'296);
    EXPECT_EQ(d[3], 7);
    EXPECT_EQ(d.bytes(), 32u);
    d.set(0, int64_t(1) << 50);
    EXPECT_EQ(d[0], int64_t(1) << 50);
    Durations n;
    n.push_back(5);
    n.set(0, int64_t(1) << 40);  // a set that does not fit widens too
    EXPECT_TRUE(n.wide());
    EXPECT_EQ(n[0], int64_t(1) << 40);
}

TEST(Columns, CodedIdsKeepTheirValuesPastSixtyFiveThousandDistinct) {
    std::mt19937 rng(3);
    CodedIds c;
    std::vector<uint32_t> want;
    for (int i = 0; i < 1000; ++i) want.push_back(uint32_t(rng() % 40));  // few distinct: coded
    for (uint32_t v : want) c.push_back(v);
    EXPECT_FALSE(c.wide());
    EXPECT_EQ(c.bytes(), 1000u * 2 + c.dictionary().size() * 4);
    EXPECT_LE(c.dictionary().size(), 40u);
    for (uint32_t i = 0; i < 70'000; ++i) want.push_back(1'000'000 + i);  // 70,000 more distinct ids
    for (size_t i = 1000; i < want.size(); ++i) c.push_back(want[i]);
    EXPECT_TRUE(c.wide());
    ASSERT_EQ(c.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(c[i], want[i]) << i;
}

TEST(Columns, CodedIdsTransformRewritesEveryIdAndKeepsCoding) {
    CodedIds c;
    for (uint32_t v : {5u, 9u, 5u, 5u, 2u}) c.push_back(v);
    c.transform([](uint32_t v) { return v * 10; });
    c.push_back(90);  // an id already in the dictionary after the rewrite
    c.push_back(7);
    EXPECT_THAT(std::vector<uint32_t>({c[0], c[1], c[2], c[3], c[4], c[5], c[6]}), ::testing::ElementsAre(50, 90, 50, 50, 20, 90, 7));
    EXPECT_EQ(c.dictionary().size(), 4u);  // 50, 90, 20, 7
}

TEST(Columns, CodedIdsRefuseCodesOutsideTheirDictionary) {
    CodedIds c;
    EXPECT_FALSE(c.assign({1, 2}, {0, 1, 2}));
    EXPECT_TRUE(c.assign({1, 2}, {0, 1, 1}));
    EXPECT_EQ(c[2], 2u);
}

TEST(Columns, LaneEndIsStartPlusDuration) {
    skew::KernelLane l;
    l.push_back(100, 250, 3, 1);
    l.push_back(-50, int64_t(1) << 40, 3, 2);  // a kernel of 12.7 days: the lane's durations widen
    EXPECT_EQ(l.end(0), 250);
    EXPECT_EQ(l.end(1), int64_t(1) << 40);
    EXPECT_TRUE(l.duration.wide());
    EXPECT_FALSE(l.name.wide());
    skew::Launches L;
    L.push_back(1, 10, 90, 4, 77);
    EXPECT_EQ(L.start(0), 10);
    EXPECT_EQ(L.end[0], 90);
    EXPECT_EQ(L.name[0], 4u);
    EXPECT_EQ(L.tid[0], 77u);
}

}  // namespace
