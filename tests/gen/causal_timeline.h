#pragma once
// Causal mode (GenConfig::causal): the timeline of a generated run simulated by its dependencies,
// written into the run's files, with the truth of every step's time with and without the planted
// delays (see causal_timeline.cpp for the model).

#include "run_setup.h"

namespace skewgen {
namespace detail {

// Checks the causal plants of `cfg` (throws std::runtime_error via Run::fail).
void validateCausal(const GenConfig& cfg);

// Simulates and writes every step of `run` (set up, files open) and fills its truth.
void runCausalTimeline(Run& run);

}  // namespace detail
}  // namespace skewgen
