#pragma once
// `skewscope info`: what is in the exports (inputs, ranks, streams, counts, warnings).

#include <string>

#include "model/profile.h"
#include "report/format.h"
#include "util/json.h"

namespace skew {

void writeToolJson(JsonWriter& w);
void writeInputsJson(JsonWriter& w, const Profile& p);  // the "inputs" array, shared with analyze
void writeRankIdentity(JsonWriter& w, const Profile& p, const Rank& r);  // id, label, file, pid, device
std::string infoJson(const Profile& p);
std::string infoText(const Profile& p);


}  // namespace skew
