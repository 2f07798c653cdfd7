#pragma once
// `skewscope info`: what is in the exports (inputs, ranks, streams, counts, warnings).

#include <string>

#include "model/profile.h"
#include "util/json.h"

namespace skew {

void writeToolJson(JsonWriter& w);
void writeInputsJson(JsonWriter& w, const Profile& p);  // the "inputs" array, shared with analyze
void writeRankIdentity(JsonWriter& w, const Profile& p, const Rank& r);  // id, label, file, pid, device
std::string infoJson(const Profile& p);
std::string infoText(const Profile& p);

std::string formatDuration(int64_t ns);  // "12.3 ms", "850 us", "1.20 s"

}  // namespace skew
