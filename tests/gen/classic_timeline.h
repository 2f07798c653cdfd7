#pragma once
// The (non-causal) timeline of a generated run: steps, compute chunks, collectives and their
// planted late arrivers, written into the run's files (see classic_timeline.cpp for the model).

#include "run_setup.h"

namespace skewgen {
namespace detail {

// Simulates and writes every step of `run` (set up, files open) and fills its truth.
void runClassicTimeline(Run& run);

}  // namespace detail
}  // namespace skewgen
