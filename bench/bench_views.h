#pragma once
// The benchmark's figures of the viewer (builds with the viewer only): --views, the run views built
// offscreen from a capture loaded here; --viewer, the real window opening files in a child process
// of its own (bench_viewer.cpp).

#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "model/profile.h"

namespace bench {

void benchViews(int argc, char** argv, skew::Profile&& p, skew::Analysis&& a, const std::string& file);

// --viewer: for each of cold (no profile cache) and from the cache, one child process per run opens
// `inputs` in the main window offscreen (benchViewerChild) and prints its figures; then the CLI's
// analyze of the same inputs for its peak memory. `repeat` runs each.
int benchViewer(const char* argv0, const std::vector<std::string>& inputs, int repeat);
// the child: opens `inputs` in a MainWindow and prints the figures (one `key value` line each too)
int benchViewerChild(int argc, char** argv, const std::vector<std::string>& inputs);

}  // namespace bench
