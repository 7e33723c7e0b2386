//===- Verifier.cpp - what makes a func valid blkgpu IR -------------------===//
//
// A func carrying `blkgpu.num_warps = N` is blkgpu IR (blkgpu-assign-layouts
// sets it). Then every tensor value in it has a distributed layout (blocked,
// slice or mma) that fits its shape and spans N warps, memory ops,
// reductions, scans and FMA dots see only blocked ones (and their slices),
// and each op's operands
// have the layouts its lowering reads: memory ops, elementwise ops,
// broadcasts, reductions and scans take one layout for all their blocks.
// The result layouts of expand_dims, trans and reduce are checked by the
// blk verifiers through LayoutInference.h. The other `blkgpu.*` attributes
// the passes record are checked for their kind.
// Test: tests/lit/blkgpu/invalid.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace blk::gpu {

static unsigned warpsOf(Attribute encoding) {
  while (auto slice = dyn_cast<SliceEncodingAttr>(encoding))
    encoding = slice.getParent();
  ArrayRef<unsigned> warps = isa<MmaEncodingAttr>(encoding)
                                ? cast<MmaEncodingAttr>(encoding).getWarpsPerCTA()
                                : cast<BlockedEncodingAttr>(encoding).getWarpsPerCTA();
  unsigned n = 1;
  for (unsigned w : warps)
    n *= w;
  return n;
}

/// Every tensor has a distributed layout of its rank spanning `numWarps`.
static LogicalResult verifyTensorType(Operation *op, Type type, unsigned numWarps) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  Attribute enc = tensor.getEncoding();
  if (!enc)
    return op->emitOpError() << "has a block without a layout in blkgpu IR: " << type;
  if (!isa<BlockedEncodingAttr, SliceEncodingAttr, MmaEncodingAttr>(enc))
    return op->emitOpError() << "block " << type << " needs a blocked, slice or mma layout";
  if (!getLayoutView(enc, tensor.getShape()))
    return op->emitOpError() << "layout " << enc << " does not fit a rank-"
                             << tensor.getRank() << " block";
  if (warpsOf(enc) != numWarps)
    return op->emitOpError() << "layout " << enc << " spans " << warpsOf(enc)
                             << " warps, the kernel has " << numWarps;
  return success();
}

/// Ops whose tensor operands and results all share one layout.
static bool needsOneLayout(Operation *op) {
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp, BroadcastOp, AddPtrOp, MultipleOfOp,
          MaxContiguousOp, ReduceOp, ScanOp>(op))
    return true;
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return ns == "arith" || ns == "math";
}

/// The blocked layout under a slice chain; null for an mma layout.
static bool hasBlockedBase(Attribute encoding) {
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding))
    encoding = slice.getParent();
  return isa_and_nonnull<BlockedEncodingAttr>(encoding);
}

/// Ops whose lowering walks a blocked layout's threads (vector accesses,
/// butterflies): an mma-layout block must be converted first. Loads and
/// stores are not: without a blocked base each thread moves its elements
/// one by one, or an mma layout's column pairs together
/// (blkgpu-remove-layout-conversions makes such loads of 1-D blocks,
/// blkgpu-propagate-mma-layouts such stores of an accumulator).
static bool needsBlocked(Operation *op) {
  return isa<AtomicRMWOp, AtomicCASOp, ReduceOp, ScanOp, DotOp>(op);
}

/// A reduction of an mma-layout block whose warps do not split the axis:
/// in-thread steps and quad shuffles, which the emitter reads off the linear
/// layout (blkgpu-propagate-mma-layouts makes these).
static bool isRowReductionOfMma(Operation *op) {
  auto red = dyn_cast<ReduceOp>(op);
  if (!red)
    return false;
  std::optional<LayoutView> v = getLayoutView(
      getEncoding(red.getSrcs()[0].getType()),
      cast<RankedTensorType>(red.getSrcs()[0].getType()).getShape());
  return v && !v->base && v->distinctWarps(v->kept[red.getAxis()]) == 1;
}

static LogicalResult verifyOp(Operation *op, unsigned numWarps) {
  if (needsBlocked(op) && !isRowReductionOfMma(op)) {
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Type t : types)
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        if (tensor.getEncoding() && !hasBlockedBase(tensor.getEncoding()))
          return op->emitOpError() << "needs blocked layouts; convert " << t << " first";
  }
  for (Type t : op->getResultTypes())
    if (failed(verifyTensorType(op, t, numWarps)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (failed(verifyTensorType(op, arg.getType(), numWarps)))
          return failure();
  if (!needsOneLayout(op))
    return success();
  Attribute first;
  auto check = [&](Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    if (!first) {
      first = tensor.getEncoding();
      return success();
    }
    if (isa<ReduceOp>(op) && !op->getOperands().empty() &&
        llvm::is_contained(op->getResultTypes(), type))
      return success(); // reduce results: checked by blk's verifier
    if (tensor.getEncoding() != first)
      return op->emitOpError() << "needs one layout for its blocks, got " << first
                               << " and " << tensor.getEncoding();
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  return success();
}

static LogicalResult verifyKernel(Operation *op, Attribute value) {
  auto numWarps = dyn_cast<IntegerAttr>(value);
  if (!isa<func::FuncOp>(op) || !numWarps || numWarps.getInt() < 1)
    return op->emitOpError() << "`" << BlkGpuDialect::kNumWarpsAttr
                             << "` must be a positive integer on a func";
  unsigned n = numWarps.getInt();
  WalkResult result = op->walk([&](Operation *inner) {
    if (inner == op)
      return WalkResult::advance();
    return failed(verifyOp(inner, n)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  auto func = cast<func::FuncOp>(op);
  for (Type t : func.getArgumentTypes())
    if (failed(verifyTensorType(op, t, n)))
      return failure();
  for (Type t : func.getResultTypes())
    if (failed(verifyTensorType(op, t, n)))
      return failure();
  return success();
}

LogicalResult BlkGpuDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == kNumWarpsAttr)
    return verifyKernel(op, value);
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError() << "`" << name << "` must be " << what;
  };
  if (name == "blkgpu.contiguity" || name == "blkgpu.align" ||
      name == "blkgpu.mask_constancy")
    return expect(isa<DenseI64ArrayAttr>(value), "an i64 array");
  if (name == "blkgpu.layout")
    return expect(isa<BlockedEncodingAttr>(value), "a blocked layout");
  if (name == "blkgpu.unroll" || name == "blkgpu.scratch_offset" ||
      name == "blkgpu.shared_bytes" || name == "blkgpu.buffer_offset")
    return expect(isa<IntegerAttr>(value), "an integer");
  if (name == "blkgpu.scratch_layout")
    return expect(isa<SharedEncodingAttr>(value), "a shared layout");
  return op->emitOpError() << "has an unknown blkgpu attribute `" << name << "`";
}

} // namespace blk::gpu
