//===- ConfigAttrs.h - func attributes of @config knobs ---------*- C++ -*-===//
//
// The func attributes IRGen sets from a `@config` (docs/language.md §10.4,
// docs/ir.md "Kernels") whose meaning is no larger contract's: the passes
// and the GPU back end read them by these names. `warp_specialize`,
// `persistent` and `exp2_on_fma` have headers of their own
// (WarpSpecialize.h, Persistent.h, Exp2OnFma.h).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_CONFIGATTRS_H
#define BLK_SUPPORT_CONFIGATTRS_H

namespace blk {

/// The func attribute (an i32, only when the config sets it) of
/// `programs_per_sm = P`: programs per SM, the entry's PTX .minnctapersm.
constexpr const char *kProgramsPerSmAttr = "blk.programs_per_sm";

/// The func attribute (a UnitAttr) of a `tma = false` config: no TMA in the
/// entry's pipelined loops (blkgpu-pipeline-loops keeps cp.async).
constexpr const char *kNoTmaAttr = "blk.no_tma";

} // namespace blk

#endif // BLK_SUPPORT_CONFIGATTRS_H
