//===- WarpSpecialize.h - what `warp_specialize` adds to a launch -*- C++ -*-===//
//
// One contract, read by each stage that sees a warp-specialised config
// (`@config(…, warp_specialize = true)`, docs/language.md §10.4): Sema
// names its entry `…__w<num_warps>__ws`, IRGen marks its func with the unit
// attribute `blk.warp_specialize` (docs/ir.md), and the manifest gives it
// `producer_warps` and `threads` = 32 × (`num_warps` + `producer_warps`)
// (docs/manifest.md). The runtime checks the same numbers on its own
// (runtime/src/Manifest.cpp). Tests: tests/lit/sema/warp_specialize.blk,
// tests/lit/target/warp-specialize.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_WARPSPECIALIZE_H
#define BLK_SUPPORT_WARPSPECIALIZE_H

#include <cstdint>

namespace blk {

/// Warps a warp-specialised program launches besides its `num_warps`
/// consumers: one producer warpgroup, which issues the TMA loads.
constexpr int64_t kProducerWarps = 4;

/// The func attribute (a UnitAttr) of a warp-specialised entry.
constexpr const char *kWarpSpecializeAttr = "blk.warp_specialize";

/// Appended to a warp-specialised entry's name: the same config without
/// `warp_specialize` is another entry.
constexpr const char *kWarpSpecializeSuffix = "__ws";

} // namespace blk

#endif // BLK_SUPPORT_WARPSPECIALIZE_H
