#pragma once
// Rank labels as the views show them: with several files open a label reads "<file stem>/pid P/dev D",
// and the stems of one run's captures share a long start; the views elide that shared start first
// (ui/common/rank_labels.h) so the part that tells the files apart stays. The start is found here.

#include <string>
#include <vector>

#include "model/profile.h"

namespace skew {

std::vector<std::string> rankLabels(const Profile& p);
// The start every label shares ("nsysai-mfu_2gpu_" of "nsysai-mfu_2gpu_before/pid 148/dev 0" and
// "nsysai-mfu_2gpu_after/..."), cut just after a separator (_ - / . space :) and leaving every label
// something of its own; empty with fewer than two labels or when shorter than 6 characters
// ("dev " is not worth an ellipsis).
std::string commonLabelStart(const std::vector<std::string>& labels);

}  // namespace skew
