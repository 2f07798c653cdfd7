#pragma once
// The enum tables of the real exports (ENUM_NSYS_EVENT_TYPE, ENUM_NSYS_EVENT_CLASS,
// ENUM_CUPTI_SYNC_TYPE), rows copied from the real exports of each layout.

#include <array>
#include <cstddef>

#include "generator.h"

namespace skewgen {
namespace detail {

struct EnumRow {
    int id;
    const char* name;
    const char* label;
};

struct EnumTable {
    const char* table;
    const EnumRow* rows;
    size_t count;
};

// The layout's three enum tables, in the order they are written.
std::array<EnumTable, 3> enumTables(Layout layout);
std::array<EnumTable, 3> enumTablesV2026();
std::array<EnumTable, 3> enumTablesV2024();

}  // namespace detail
}  // namespace skewgen
