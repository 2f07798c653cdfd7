// Summaries (docs/analysis.md, "Summaries"): `skewscope summarize` writes one .skewsum per export;
// every command reads summaries and folders of them and reports what it reports from the exports
// (all but `inputs`); hostile summaries are refused with the file named, exit 3, never a crash.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cache/snapshot_format.h"
#include "cache/summary_file.h"
#include "gen_fixture.h"
#include "model/loader.h"
#include "test_util.h"
#include "util/errors.h"

using namespace testutil;
namespace fs = std::filesystem;

namespace {

skewgen::GenConfig perRank(int ranks) {
    skewgen::GenConfig cfg;
    cfg.ranks = ranks;
    cfg.perRankFiles = true;
    cfg.steps = 3;
    cfg.layers = 4;
    cfg.late = {{2, 3, 1, 30'000'000, skewgen::LateKind::Cpu}};
    return cfg;
}

// `skewscope summarize` of `files` into `dir`; asserts that it exits 0.
void summarize(const std::vector<std::string>& files, const std::string& dir, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"summarize"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"--output", dir});
    args.insert(args.end(), more.begin(), more.end());
    RunResult r = runSkewscope(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
}

std::string summaryOf(const std::string& dir, const std::string& file) { return dir + "/" + fs::path(file).filename().string() + ".skewsum"; }

// The JSON `command` writes for `files`, without its "inputs".
nlohmann::json withoutInputs(const std::string& command, const std::vector<std::string>& files, std::vector<std::string> more = {}) {
    std::vector<std::string> args = {command, "--format", "json"};
    args.insert(args.end(), more.begin(), more.end());
    args.insert(args.end(), files.begin(), files.end());
    RunResult r = runSkewscope(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j.contains("inputs"));
    j.erase("inputs");
    return j;
}

uint64_t bytesOf(const std::vector<std::string>& files) {
    uint64_t n = 0;
    for (const auto& f : files) n += fs::file_size(f);
    return n;
}

void flipByte(const std::string& path, uint64_t at) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(std::streamoff(at));
    char c = 0;
    f.get(c);
    f.seekp(std::streamoff(at));
    f.put(char(c ^ 0x5A));
}

skew::Profile loadWithSummaries(const std::vector<std::string>& paths) {
    skew::LoadOptions lo;
    lo.summaries = &skew::summaryFiles();
    return skew::loadProfile(paths, lo);
}

}  // namespace

TEST(Summaries, AnalyzeOfSummariesIsAnalyzeOfTheExports) {
    const auto& g = generated("summ8", perRank(8));
    const std::string dir = tempDir("summ-analyze");
    summarize(g.result.files, dir);
    std::vector<std::string> summaries;
    for (const auto& f : g.result.files) summaries.push_back(summaryOf(dir, f));
    const nlohmann::json fromExports = withoutInputs("analyze", g.result.files);
    EXPECT_EQ(withoutInputs("analyze", summaries), fromExports);
    EXPECT_EQ(withoutInputs("analyze", {dir}), fromExports);  // a folder: its summaries by name
    EXPECT_EQ(withoutInputs("info", {dir}), withoutInputs("info", g.result.files));
    // the planted late arriver is found from the summaries too: rank 1 at step 2's 3rd collective
    EXPECT_EQ(fromExports["groups"][0]["answers"]["big"]["late_ranks"], nlohmann::json::array({1}));
    // the ranks keep the exports' paths and labels
    EXPECT_EQ(fromExports["ranks"][1]["label"], "summ8_rank1");
    // render draws the same picture from them
    std::vector<std::string> fromFiles = {"render", "--view", "timeline", "--output", dir + "/exports.png"};
    fromFiles.insert(fromFiles.end(), g.result.files.begin(), g.result.files.end());
    ASSERT_EQ(runSkewscope(fromFiles).exitCode, 0);
    ASSERT_EQ(runSkewscope({"render", "--view", "timeline", "--output", dir + "/summaries.png", dir}).exitCode, 0);
    EXPECT_EQ(slurp(dir + "/summaries.png"), slurp(dir + "/exports.png"));
    // inputs say which summary each file came from
    RunResult r = runSkewscope({"info", "--format", "json", dir});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["inputs"].size(), 8u);
    EXPECT_EQ(j["inputs"][0]["path"], g.result.files[0]);
    EXPECT_EQ(j["inputs"][0]["summary"], summaryOf(dir, g.result.files[0]));
}

TEST(Summaries, SameReportWithClockErrorsTrimmedAndMissingRanks) {
    skewgen::GenConfig cfg = perRank(6);
    cfg.clockErrorNs = {0, 2'500'000, -1'800'000, 0, 700'000, -300'000};
    cfg.trimStartNs = 5'000'000;  // ranks lose kernels at the start and at the end
    cfg.trimEndNs = 200'000'000;
    cfg.missing = {{3, 5}};
    const auto& g = generated("summ-clocks", cfg);
    const std::string dir = tempDir("summ-clocks");
    summarize(g.result.files, dir);
    const nlohmann::json fromExports = withoutInputs("analyze", g.result.files);
    EXPECT_EQ(withoutInputs("analyze", {dir}), fromExports);
    // the clocks were corrected from the summaries as from the exports: rank 1's 2.5 ms error
    EXPECT_NE(fromExports["ranks"][1]["clock_offset_ns"], 0);
    // compare reads them too: summaries against their exports differ in nothing but inputs
    RunResult r = runSkewscope({"compare", "--format", "json", dir, "--vs", g.result.files[0], g.result.files[1], g.result.files[2],
                                g.result.files[3], g.result.files[4], g.result.files[5]});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto c = nlohmann::json::parse(r.out);
    c["a"].erase("inputs");
    c["b"].erase("inputs");
    EXPECT_EQ(c["a"], c["b"]);
}

TEST(Summaries, RealExportsGiveTheSameReport) {
    const auto exports = realExports();
    ASSERT_FALSE(exports.empty());
    const std::string dir = tempDir("summ-real");
    summarize(exports, dir);
    uint64_t summaryBytes = 0;
    for (const auto& f : exports) {
        const std::string s = summaryOf(dir, f);
        EXPECT_EQ(withoutInputs("analyze", {s}), withoutInputs("analyze", {f})) << f;
        summaryBytes += fs::file_size(s);
    }
    std::printf("real exports: summaries %llu bytes of the exports' %llu (%.1f%%)\n", (unsigned long long)summaryBytes,
                (unsigned long long)bytesOf(exports), 100.0 * double(summaryBytes) / double(bytesOf(exports)));
    EXPECT_LE(summaryBytes * 10, bytesOf(exports));
}

TEST(Summaries, AtMostATenthOfThePerRankExports) {
    skewgen::GenConfig cfg = perRank(4);
    cfg.steps = 20;
    cfg.timeOrdered = true;  // as nsys writes them
    const auto& g = generated("summ-size", cfg);
    const std::string dir = tempDir("summ-size");
    summarize(g.result.files, dir);
    uint64_t summaryBytes = 0;
    for (const auto& f : g.result.files) summaryBytes += fs::file_size(summaryOf(dir, f));
    const uint64_t exportBytes = bytesOf(g.result.files);
    std::printf("generated per-rank exports: summaries %llu bytes of the exports' %llu (%.1f%%)\n", (unsigned long long)summaryBytes,
                (unsigned long long)exportBytes, 100.0 * double(summaryBytes) / double(exportBytes));
    EXPECT_LE(summaryBytes * 10, exportBytes);
}

TEST(Summaries, TaskSharesCoverEveryFileOnceAndKeepWhatIsThere) {
    const auto& g = generated("summ8", perRank(8));
    const std::string dir = tempDir("summ-tasks");
    // 8 files in 3 shares: 0,3,6 / 1,4,7 / 2,5
    summarize(g.result.files, dir, {"--task", "1", "--tasks", "3"});
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(fs::exists(summaryOf(dir, g.result.files[i])), i % 3 == 1) << i;
    summarize(g.result.files, dir, {"--task", "0", "--tasks", "3"});
    summarize(g.result.files, dir, {"--task", "2", "--tasks", "3"});
    for (const auto& f : g.result.files) EXPECT_TRUE(fs::exists(summaryOf(dir, f))) << f;
    // again: every summary is of the same export, and kept as it is
    const auto before = fs::last_write_time(summaryOf(dir, g.result.files[4]));
    RunResult r = runSkewscope({"summarize", g.result.files[4], "--output", dir});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("kept"), std::string::npos) << r.out;
    EXPECT_EQ(fs::last_write_time(summaryOf(dir, g.result.files[4])), before);
    // usage errors: a task outside the shares, --task alone, no --output
    EXPECT_EQ(runSkewscope({"summarize", g.result.files[0], "--output", dir, "--task", "3", "--tasks", "3"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"summarize", g.result.files[0], "--output", dir, "--task", "0"}).exitCode, 2);
    EXPECT_EQ(runSkewscope({"summarize", g.result.files[0]}).exitCode, 2);
    // an export that cannot be read: exit 3, the others still summarised
    const std::string dir2 = tempDir("summ-tasks-bad");
    r = runSkewscope({"summarize", dir2 + "/missing.sqlite", g.result.files[0], "--output", dir2});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("missing.sqlite"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::exists(summaryOf(dir2, g.result.files[0])));
}

TEST(Summaries, HostileSummariesAreRefusedNamingTheFile) {
    const auto& g = generated("summ8", perRank(8));
    const std::string dir = tempDir("summ-hostile");
    summarize({g.result.files[0]}, dir);
    const std::string good = summaryOf(dir, g.result.files[0]);
    const uint64_t size = fs::file_size(good);
    auto refused = [&](const std::string& path, const std::string& why) {
        RunResult r = runSkewscope({"analyze", path});
        EXPECT_EQ(r.exitCode, 3) << why;
        EXPECT_NE(r.err.find(path + ": " + why), std::string::npos) << r.err;
    };
    const std::string version = dir + "/version.skewsum";
    fs::copy_file(good, version);
    flipByte(version, 8);  // the format version, right after the magic
    refused(version, "summary of another format version");
    // one of the version before (its snapshot in the format before): said so, with what to do
    const std::string older = dir + "/older.skewsum";
    fs::copy_file(good, older);
    {
        std::fstream f(older, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(8);
        const uint32_t previous = skew::kSummaryFormat - 1;
        f.write(reinterpret_cast<const char*>(&previous), sizeof previous);
    }
    refused(older, "summary of another format version (" + std::to_string(skew::kSummaryFormat - 1) + "; this skewscope reads version " +
                       std::to_string(skew::kSummaryFormat) + "): summarize the export again with this version");
    const std::string corrupted = dir + "/corrupted.skewsum";
    fs::copy_file(good, corrupted);
    flipByte(corrupted, size / 2);
    refused(corrupted, "corrupted summary (checksum)");
    const std::string truncated = dir + "/truncated.skewsum";
    fs::copy_file(good, truncated);
    fs::resize_file(truncated, size - 100);
    refused(truncated, "truncated summary");
    const std::string notOne = dir + "/text.skewsum";
    std::ofstream(notOne) << "hello";
    refused(notOne, "not a Skewscope summary");
}

TEST(Summaries, ASummaryBesideItsExportIsRefused) {
    const auto& g = generated("summ8", perRank(8));
    const std::string dir = tempDir("summ-mixed");
    summarize({g.result.files[0], g.result.files[1]}, dir);
    // given as files: the summary and its export
    RunResult r = runSkewscope({"analyze", summaryOf(dir, g.result.files[0]), g.result.files[0]});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("is the summary of " + g.result.files[0]), std::string::npos) << r.err;
    // two summaries of one export
    fs::copy_file(summaryOf(dir, g.result.files[0]), dir + "/again.skewsum");
    r = runSkewscope({"analyze", dir});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("are summaries of one export"), std::string::npos) << r.err;
    fs::remove(dir + "/again.skewsum");
    // a folder holding a summary and the export of the same rank
    fs::copy_file(g.result.files[1], dir + "/" + fs::path(g.result.files[1]).filename().string());
    r = runSkewscope({"analyze", dir});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find(dir + ": the folder holds both the export " + fs::path(g.result.files[1]).filename().string()), std::string::npos)
        << r.err;
    // a folder without summaries
    r = runSkewscope({"analyze", tempDir("summ-empty")});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("is a directory, not an Nsight Systems export, and holds no summaries (*.skewsum)"), std::string::npos) << r.err;
}

TEST(Summaries, FlippedBytesNeverCrash) {
    const auto& g = generated("summ8", perRank(8));
    const std::string dir = tempDir("summ-fuzz");
    summarize({g.result.files[2]}, dir);
    const std::string good = summaryOf(dir, g.result.files[2]);
    const uint64_t size = fs::file_size(good);
    const std::string bad = dir + "/bad.skewsum";
    int refusedCount = 0, positions = 0;
    // every byte of the header, then 300 positions spread over the rest
    std::vector<uint64_t> at;
    for (uint64_t i = 0; i < 64 && i < size; ++i) at.push_back(i);
    for (uint64_t k = 0; k < 300; ++k) at.push_back(64 + (size - 64) * k / 300);
    for (uint64_t pos : at) {
        fs::copy_file(good, bad, fs::copy_options::overwrite_existing);
        flipByte(bad, pos);
        ++positions;
        try {
            loadWithSummaries({bad});
        } catch (const skew::InputError& e) {
            ++refusedCount;
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
    // every flipped byte is caught: the checksum covers the whole file but the magic and itself
    EXPECT_EQ(refusedCount, positions);
}

TEST(Summaries, ASnapshotCutAnywhereIsRefusedWhenReadFromMemory) {
    // a summary's snapshot is read where it was decompressed, not through a file: every length is
    // still checked against the bytes there (ASan: no read past them), and a cut one is refused
    const auto& g = generated("summ8", perRank(8));
    const skew::Profile p = loadWithSummaries({g.result.files[3]});
    const std::string dir = tempDir("summ-memory");
    const std::string path = dir + "/snapshot";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    int err = 0;
    ASSERT_TRUE(skew::writeSnapshot(fd, p, 0, err, skew::snapshot::Columns::Compact)) << err;
    ::close(fd);
    const std::string bytes = slurp(path);
    ASSERT_GT(bytes.size(), 1000u);
    skew::FilePart whole;
    ASSERT_EQ(skew::readStoredSnapshot(bytes.data(), bytes.size(), whole, skew::snapshot::Columns::Compact), "");
    uint64_t kernels = 0;
    for (const auto& l : whole.lanes) kernels += l.lane.size();
    EXPECT_EQ(kernels, p.kernelCount());
    // every length up to 256 bytes (the header, the first fields), then 400 spread over the rest
    std::vector<size_t> cuts;
    for (size_t n = 0; n < 256; ++n) cuts.push_back(n);
    for (size_t k = 0; k < 400; ++k) cuts.push_back(256 + (bytes.size() - 256) * k / 400);
    for (size_t n : cuts) {
        const std::vector<char> cut(bytes.begin(), bytes.begin() + std::ptrdiff_t(n));  // its own allocation: ASan sees its end
        skew::FilePart part;
        EXPECT_NE(skew::readStoredSnapshot(cut.data(), cut.size(), part, skew::snapshot::Columns::Compact), "") << n << " bytes";
    }
}

