//===- BlkGpuOpPlan.cpp - classify `blkgpu` ops: the back end's IR ---------===//
//
// Lets the interpreter run the IR between back-end passes, so it can act as
// their oracle (tests/lit/interp/backend-oracle.test): a pass that changes
// what a kernel computes changes what the interpreter prints.
//
// Expects: IR after any prefix of the blkgpu pipeline. Guarantees: a value
// means the same block whatever its layout. The interpreter holds every SSA
// value as a whole Block (one copy, not one per thread), so a layout is only
// where the elements live on the GPU: tensor encodings are never read
// (classifyType looks at shape and element type), `blkgpu.*` attributes are
// not read, a layout conversion is the identity and a barrier does nothing.
//
// Shared-memory ops are copies on the same model (LocalMemory.cpp): a
// memdesc value is a Block in the environment, `local_alloc` copies its
// operand in, `local_store` overwrites its slot, `local_load` copies it out, `wgmma` and `mma_sync` are dots of two slots,
// `async_copy` a masked load into a slot, `tma_load` a load of a block of
// its `tensor_map`'s tensor into a slot (both land when issued, but reading
// the slot before the async_wait or mbarrier_wait that makes the copy
// visible on the GPU is an error: LocalMemory.cpp). mbarriers count their
// completed phases, and a warp_specialize's producer and consumers take
// turns, each running until it waits on a phase that has not completed
// (Mbarriers.cpp).
//
// Test: tests/lit/interp/blkgpu-ir.mlir, KernelTest.cpp (BlkGpu*).
//
//===----------------------------------------------------------------------===//
#include "Plan.h"

#include "llvm/ADT/StringSwitch.h"

namespace blk::interp {

bool classifyBlkGpuOp(mlir::Operation *op, OpPlan &p, std::string &error) {
  llvm::StringRef name = op->getName().getStringRef();
  std::optional<OpKind> kind = llvm::StringSwitch<std::optional<OpKind>>(name)
                                   .Cases("blkgpu.convert_layout", "blkgpu.wgmma_wait",
                                          OpKind::Identity)
                                   .Cases("blkgpu.barrier", "blkgpu.turn_wait",
                                          "blkgpu.turn_pass", OpKind::Barrier)
                                   .Cases("blkgpu.mbarrier_init", "blkgpu.mbarrier_expect",
                                          "blkgpu.mbarrier_wait", "blkgpu.mbarrier_arrive",
                                          OpKind::Mbarrier)
                                   .Case("blkgpu.warp_specialize", OpKind::WarpSpecialize)
                                   .Cases("blkgpu.local_alloc", "blkgpu.local_store",
                                          "blkgpu.local_load", "blkgpu.memdesc_index",
                                          "blkgpu.memdesc_trans", "blkgpu.wgmma",
                                          OpKind::LocalMemory)
                                   .Case("blkgpu.mma_sync", OpKind::LocalMemory)
                                   .Cases("blkgpu.async_copy", "blkgpu.async_commit",
                                          "blkgpu.async_wait", OpKind::LocalMemory)
                                   .Cases("blkgpu.tensor_map", "blkgpu.tma_load",
                                          OpKind::LocalMemory)
                                   .Default(std::nullopt);
  if (!kind) {
    error = "the interpreter does not support `" + name.str() + "`";
    return false;
  }
  p.kind = *kind;
  return true;
}

} // namespace blk::interp
