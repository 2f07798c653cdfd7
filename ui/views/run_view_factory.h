#pragma once
// The run views by their `render --view` names: the one place that knows every run view's class, so
// the window builds its tabs and `render` its view without naming them.

#include <string>
#include <string_view>
#include <vector>

#include "views/run_view.h"

namespace skewui {

// `render --view` names of the run views, in the window's tab order: timeline, stepmap, heatmap.
const std::vector<std::string>& runViewNames();
// A new run view by its name (owned by `parent`, or by the caller without one); null for another name.
RunView* createRunView(std::string_view name, QWidget* parent = nullptr);

}  // namespace skewui
