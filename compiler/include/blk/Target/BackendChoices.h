//===- BackendChoices.h - blkc build's back-end switches --------*- C++ -*-===//
//
// The flags that choose what the back-end pipeline does, as one value that
// blkc, the artifact builder, codegen and blk-opt's --blkgpu-pipeline hand
// on unchanged: a new switch is added here once, not copied field by field
// through each layer's options.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_BACKENDCHOICES_H
#define BLK_TARGET_BACKENDCHOICES_H

namespace blk {

/// The back-end pipeline's choices, named after blkc build's flags.
struct BackendChoices {
  /// Assumed variants (`<entry>__auto`, blkgpu-auto-specialize); off with
  /// `--no-auto-specialize`.
  bool autoSpecialize = true;
  /// TMA for pipelined loads where a tile allows it; off with `--no-tma`
  /// (cp.async rings only).
  bool tma = true;
  /// blkgpu-warpgroup-turns: warp-specialised attention's consumer
  /// warpgroups take turns at the tensor cores; on with `--warpgroup-turns`
  /// (experimental).
  bool warpgroupTurns = false;
  /// A store of a tensor-core result goes from its registers, not through
  /// shared memory in 16-byte vectors; on with `--stores-from-registers`.
  bool storesFromRegisters = false;
};

} // namespace blk

#endif // BLK_TARGET_BACKENDCHOICES_H
