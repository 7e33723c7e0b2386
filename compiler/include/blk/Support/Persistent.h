//===- Persistent.h - what `persistent` does to a launch --------*- C++ -*-===//
//
// One contract, read by each stage that sees a persistent config
// (`@config(…, persistent = true)`, docs/language.md §10.8): Sema names its
// entry `…__p` and requires a one-axis `@grid`; IRGen marks its func with the
// unit attribute `blk.persistent`; blk-make-persistent wraps the body in a
// loop over the `@grid`'s programs (program_id(0) from the launched program's
// index, step num_programs(0)), in which program_id(0) is the loop's index and
// num_programs(0) the `@grid` count; the manifest marks the specialisation
// `persistent`, and the runtime launches min(@grid, SMs × programs per SM)
// programs (runtime/src/Module.cpp). Tests: tests/lit/sema/persistent.blk,
// tests/lit/transforms/make-persistent.mlir, tests/lit/interp/persistent.blk.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_PERSISTENT_H
#define BLK_SUPPORT_PERSISTENT_H

namespace blk {

/// The func attribute (a UnitAttr) of a persistent entry.
constexpr const char *kPersistentAttr = "blk.persistent";

/// Appended to a persistent entry's name (after `__ws`): the same config
/// without `persistent` is another entry.
constexpr const char *kPersistentSuffix = "__p";

/// Programs the interpreter launches for a persistent entry at most: few,
/// so that each walks several of the `@grid`'s programs.
constexpr long long kInterpreterPersistentPrograms = 3;

} // namespace blk

#endif // BLK_SUPPORT_PERSISTENT_H
