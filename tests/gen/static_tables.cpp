// The static tables of an export (see static_tables.h).

#include "static_tables.h"

#include <ctime>
#include <utility>

#include "schema_enums.h"

namespace skewgen {
namespace detail {

namespace {

std::string utcString(int64_t epochNs) {
    std::time_t secs = std::time_t(epochNs / 1'000'000'000LL);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

std::string sqlQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += '\'';
        out += c;
    }
    return out + "'";
}

}  // namespace

std::string fileStem(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::string ext = ".sqlite";
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        name.resize(name.size() - ext.size());
    return name;
}

void writeStaticTables(Db& db, Layout layout, int64_t utcEpochNs, const std::string& stem,
                       const std::vector<const RankInfo*>& ranks) {
    const bool v26 = layout == Layout::V2026_2;
    const char* version = v26 ? "2026.2.1.210" : "2024.5.1.113";
    const char* schema = v26 ? "3.25.0" : "3.13.2";
    const std::pair<const char*, std::string> meta[] = {
        {"EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"},
        {"EXPORT_PRODUCT_VERSION", version},
        {"EXPORT_PRODUCT_DATE", v26 ? "2026.2" : "2024.5"},
        {"EXPORT_SCHEMA_VERSION", schema},
        {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
        {"EXPORT_SCHEMA_VERSION_MINOR", v26 ? "25" : "13"},
        {"EXPORT_SCHEMA_VERSION_MICRO", v26 ? "0" : "2"},
        {"EXPORT_PLATFORM", "linux-desktop"},
        {"EXPORT_ARCH", "x64"},
        {"EXPORT_PARAM_INPUT_FILE", stem + ".nsys-rep"},
        {"EXPORT_PARAM_OUTPUT_FILE", stem + ".sqlite"},
        {"EXPORT_PARAM_LAZY", "true"},
        {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
        {"EXPORT_PARAM_TIME_SHIFT", "0"},
        {"DERIVED_BY", "skewgen (synthetic export, Skewscope tests/gen)"},
    };
    std::string sql;
    for (const auto& m : meta)
        sql += "INSERT INTO META_DATA_EXPORT(name, value) VALUES(" + sqlQuote(m.first) + ", " + sqlQuote(m.second) +
               ");\n";
    const std::string t = sqlQuote(utcString(utcEpochNs));
    sql += "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(" + std::to_string(utcEpochNs) + ", " + t + ", " + t +
           (v26 ? ", " + std::to_string(kFileBase - ranks.front()->shift) : std::string()) + ");\n";
    // A launcher process without GPU work, then the ranks' processes.
    const int launcherPid = 900;
    const uint64_t launcherGpid = (1ULL << 48) | (uint64_t(launcherPid) << 24);
    sql += "INSERT INTO PROCESSES VALUES(" + std::to_string(launcherGpid) + ", " + std::to_string(launcherPid) +
           ", 'torchrun');\n";
    const int64_t sTorchrun = db.intern("torchrun");
    const int64_t sPython = db.intern("python3");
    const int64_t sWatchdog = db.intern("pt_nccl_watchdg");
    sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sTorchrun) + ", 20, " +
           std::to_string(launcherGpid | uint64_t(launcherPid)) + ");\n";
    for (const RankInfo* r : ranks) {
        sql += "INSERT INTO PROCESSES VALUES(" + std::to_string(r->gpid) + ", " + std::to_string(r->pid) +
               ", 'python3');\n";
        sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sPython) + ", 20, " + std::to_string(r->gtidMain) +
               ");\n";
        sql += "INSERT INTO ThreadNames VALUES(" + std::to_string(sWatchdog) + ", 20, " +
               std::to_string(r->gtidOther) + ");\n";
        const int streams[] = {kComputeStream, r->streams[0], r->streams[1], r->streams[2]};
        const int64_t prio[] = {0, 4294967295LL, 4294967295LL, 4294967295LL};
        for (int i = 0; i < 4; ++i)
            sql += "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES(" + std::to_string(streams[i]) + ", 0, 1, " +
                   std::to_string(r->pid) + ", " + std::to_string(r->context) + ", " + std::to_string(prio[i]) +
                   ", 2);\n";
    }
    db.exec(sql);

    for (const EnumTable& t : enumTables(layout)) {
        std::string s;
        for (size_t i = 0; i < t.count; ++i)
            s += std::string("INSERT INTO ") + t.table + " VALUES(" + std::to_string(t.rows[i].id) + ", " +
                 sqlQuote(t.rows[i].name) + ", " + sqlQuote(t.rows[i].label) + ");\n";
        db.exec(s);
    }
}

}  // namespace detail
}  // namespace skewgen
