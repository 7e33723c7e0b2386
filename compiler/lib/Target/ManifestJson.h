//===- ManifestJson.h - the manifest's JSON, shared in blkTarget -*- C++ -*-===//
//
// Private to compiler/lib/Target: the JSON type the manifest is built in
// (keys keep their insertion order, so the bytes are reproducible) and the
// pieces of it that have a file of their own: the specialisation keys
// (ManifestKeys.cpp) and the tuning tables (Tuning.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_TARGET_MANIFESTJSON_H
#define BLK_LIB_TARGET_MANIFESTJSON_H

#include "blk/Target/Tuning.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace blk::target {

using Json = nlohmann::ordered_json;

/// A specialisation's `config_key`: `NAME=VALUE` for each entry of
/// `config` (the const params in declaration order; integers in decimal,
/// booleans `true`/`false`, floats in their shortest round-trip form), then
/// `num_warps=W num_stages=S`, separated by single spaces; ` warp_specialize=1`
/// after them for a warp-specialised entry, then ` persistent=1` for a
/// persistent one (each another config than the same values without).
std::string configKey(const Json &config, int64_t numWarps, int64_t numStages,
                      bool warpSpecialize, bool persistent = false);

/// A specialisation's `code_hash`: FNV-1a 64 (16 lowercase hex digits) of
/// each of its entries' PTX in order (the generic entry, then its
/// variants), without comments, empty lines and line info (`.loc`, `.file`,
/// debug sections and their labels), every piece preceded by its length so that no two lists of
/// pieces hash as the same bytes.
std::string codeHash(llvm::ArrayRef<llvm::StringRef> entryCode);

/// Checks every entry of `tables` against the kernels of `manifest` (a
/// kernel with `autotune`, its key names, one of its `config_key`s) and
/// appends the tables, normalised, as `manifest["tuning"]`. An entry that
/// does not fit is an error naming the table and the entry; a timing whose
/// `code_hash` is not this build's goes to `warnings`.
llvm::Error addTuningTables(Json &manifest, llvm::ArrayRef<TuningTable> tables,
                            std::vector<std::string> &warnings);

} // namespace blk::target

#endif // BLK_LIB_TARGET_MANIFESTJSON_H
