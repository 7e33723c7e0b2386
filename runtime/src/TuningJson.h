//===- TuningJson.h - tuning tables <-> JSON (internal) ---------*- C++ -*-===//
//
// The one reader and writer of the tuning-table format (docs/tuning.md):
// used for tables embedded in a manifest, for the user cache and for
// Context::loadTuning / exportTuning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <string>

namespace blk::detail {

/// The table held in `j` (a key object keeps its order with ordered_json).
/// Throws blk::Error "<where>: <what is wrong>".
TuningTable tuningTableFromJson(const nlohmann::ordered_json &j, const std::string &where);

/// `table` as JSON, entries in their order, fields in a fixed order.
nlohmann::ordered_json tuningTableToJson(const TuningTable &table);

} // namespace blk::detail
