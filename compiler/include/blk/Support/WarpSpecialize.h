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

/// The registers per thread a program of `threads` threads holds at launch
/// when `programsPerSm` of them share an SM (.maxntid and .minnctapersm, as
/// EmitKernel.cpp marks a warp-specialised entry): 64 K over the programs
/// and threads, rounded down to the allocation unit of 8, at most 255.
/// setmaxnreg.inc takes only what the program's own warps gave back, so a
/// register split must fit `threads` times this (WarpSpecialize.cpp).
constexpr int64_t registersAtLaunch(int64_t threads, int64_t programsPerSm) {
  constexpr int64_t kRegistersPerSm = 64 * 1024, kAllocationUnit = 8, kMaxPerThread = 255;
  int64_t programs = programsPerSm < 1 ? 1 : programsPerSm;
  int64_t each = kRegistersPerSm / programs / (threads < 1 ? 1 : threads);
  return (each < kMaxPerThread ? each : kMaxPerThread) / kAllocationUnit * kAllocationUnit;
}

} // namespace blk

#endif // BLK_SUPPORT_WARPSPECIALIZE_H
