#pragma once
// The DDL of the exports' tables, copied verbatim from the Nsight Systems schema dumps.

namespace skewgen {
namespace detail {

extern const char* const kDdl_V2026;
extern const char* const kDdl_V2024;
extern const char* const kDdl_V2024_NVTX;  // NVTX_EVENTS for the 2024.5 layout (see the definition)

}  // namespace detail
}  // namespace skewgen
