#include "model/summary_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "model/summary_source.h"
#include "util/errors.h"
#include "util/file_identity.h"

namespace skew {

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> summariesIn(const std::string& dir) {
    std::vector<std::string> names;
    std::set<std::string> others;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (endsWith(n, kSummarySuffix)) names.push_back(n);
        else others.insert(n);
    }
    if (ec) throw InputError(dir + ": the folder cannot be read (" + ec.message() + ")");
    std::sort(names.begin(), names.end());
    if (names.empty())
        throw InputError(dir + " is a directory, not an Nsight Systems export, and holds no summaries (*" + std::string(kSummarySuffix) + ")");
    for (const auto& n : names) {
        const std::string exportName = n.substr(0, n.size() - std::string(kSummarySuffix).size());
        if (others.count(exportName))
            throw InputError(dir + ": the folder holds both the export " + exportName + " and its summary " + n +
                             " (the same rank twice): open a folder of summaries only, or the exports");
    }
    std::vector<std::string> out;
    const std::string prefix = dir.empty() || dir.back() == '/' ? dir : dir + "/";
    for (const auto& n : names) out.push_back(prefix + n);
    return out;
}

}  // namespace

std::vector<std::string> expandSummaryFolders(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const auto& path : paths) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
            for (auto& s : summariesIn(path)) out.push_back(std::move(s));
        } else {
            out.push_back(path);
        }
    }
    return out;
}

void refuseSummaryBesideExport(const Profile& p) {
    bool anySummary = false;
    for (const auto& in : p.inputs) anySummary |= !in.summaryPath.empty();
    if (!anySummary) return;
    // an export is known by its canonical path, or (copied elsewhere) by its size and fingerprint
    std::map<std::string, size_t> byPath;
    std::map<std::pair<uint64_t, uint64_t>, size_t> byContent;
    auto refuse = [&](size_t a, size_t b) {
        const InputFile& x = p.inputs[a];
        const InputFile& y = p.inputs[b];
        if (x.summaryPath.empty() && y.summaryPath.empty()) return;  // two exports: the loader's own business
        const InputFile& s = x.summaryPath.empty() ? y : x;
        const InputFile& o = x.summaryPath.empty() ? x : y;
        if (o.summaryPath.empty())
            throw InputError(s.summaryPath + " is the summary of " + o.path + ", which is given too (the same rank twice): " +
                             "give the summaries or the exports");
        throw InputError(s.summaryPath + " and " + o.summaryPath + " are summaries of one export, " + s.path +
                         " (the same rank twice): give one of them");
    };
    for (size_t i = 0; i < p.inputs.size(); ++i) {
        const InputFile& in = p.inputs[i];
        const FileIdentity id = in.summaryPath.empty() && !in.identity.valid() ? identifyFile(in.path) : in.identity;
        if (!id.valid()) continue;
        if (auto [it, fresh] = byPath.emplace(id.canonicalPath, i); !fresh) refuse(it->second, i);
        if (auto [it, fresh] = byContent.emplace(std::make_pair(id.size, id.fingerprint), i); !fresh) refuse(it->second, i);
    }
}

}  // namespace skew
