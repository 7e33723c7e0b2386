//===- BlkGpuDialect.cpp - blkgpu dialect: attributes, ops, inference -----===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/IR/BlkTypes.h"
#include "blk/IR/LayoutInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuTypes.cpp.inc"

#define GET_OP_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuOps.cpp.inc"

using namespace mlir;

namespace blk::gpu {

static bool allPowersOfTwo(ArrayRef<unsigned> v) {
  return llvm::all_of(v, [](unsigned x) { return x >= 1 && llvm::isPowerOf2_32(x); });
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0 || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank)
    return emitError() << "blocked layout needs sizePerThread, threadsPerWarp, "
                          "warpsPerCTA and order of one non-zero rank";
  if (!allPowersOfTwo(sizePerThread) || !allPowersOfTwo(threadsPerWarp) ||
      !allPowersOfTwo(warpsPerCTA))
    return emitError() << "blocked layout sizes must be powers of two";
  unsigned lanes = 1;
  for (unsigned t : threadsPerWarp)
    lanes *= t;
  if (lanes != kWarpSize)
    return emitError() << "threadsPerWarp must multiply to " << kWarpSize << ", got "
                       << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[o] = true;
  }
  return success();
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  if (!llvm::isa<BlockedEncodingAttr, SliceEncodingAttr, MmaEncodingAttr>(parent))
    return emitError() << "slice parent must be a blocked, slice or mma layout, got " << parent;
  if (auto blocked = llvm::dyn_cast<BlockedEncodingAttr>(parent))
    if (dim >= blocked.getSizePerThread().size())
      return emitError() << "slice dim " << dim << " out of range for a rank-"
                         << blocked.getSizePerThread().size() << " parent";
  return success();
}

LogicalResult MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned version, ArrayRef<unsigned> warpsPerCTA,
                                      unsigned instrN) {
  if (version != 2 && version != 3)
    return emitError() << "mma layout version must be 2 (mma.sync) or 3 (wgmma), got "
                       << version;
  if (warpsPerCTA.size() != 2 || !allPowersOfTwo(warpsPerCTA))
    return emitError() << "mma layout needs two power-of-two warp counts [along M, along N]";
  if (version == 3 && warpsPerCTA[0] % 4 != 0)
    return emitError() << "a version-3 mma layout puts warps along M in warpgroups of 4, got "
                       << warpsPerCTA[0];
  bool instrOk = version == 2 ? instrN == 8
                              : instrN >= 8 && instrN <= 256 && llvm::isPowerOf2_32(instrN);
  if (!instrOk)
    return emitError() << "mma layout instrN must be " << (version == 2 ? "8" : "a power of two in 8..256")
                       << ", got " << instrN;
  return success();
}

/// The checks blkgpu.wgmma and blkgpu.mma_sync share: [M, K] x [K, N] +
/// [M, N] with the result the accumulator's type, one operand type (or two
/// fp8 ones) that the tensor cores take, its accumulator type, and an
/// accumulator in a #blkgpu.mma layout of `version` made of whole tiles.
/// `a` is a buffer or a block in registers.
static LogicalResult verifyTensorCoreDot(Operation *op, Value a, MemDescType b,
                                         RankedTensorType acc, Type result, unsigned version) {
  auto regs = dyn_cast<RankedTensorType>(a.getType());
  auto buffer = dyn_cast<MemDescType>(a.getType());
  ArrayRef<int64_t> aShape = regs ? regs.getShape() : buffer.getShape();
  Type aElem = regs ? regs.getElementType() : buffer.getElementType();
  if (result != acc)
    return op->emitOpError() << "result type " << result << " must be the accumulator's, "
                             << acc;
  if (aShape.size() != 2 || b.getShape().size() != 2 || acc.getRank() != 2 ||
      aShape[1] != b.getShape()[0] || aShape[0] != acc.getShape()[0] ||
      b.getShape()[1] != acc.getShape()[1])
    return op->emitOpError() << "needs a [M, K] x [K, N] + [M, N], got "
                             << op->getOperand(0).getType() << ", " << b << " and " << acc;
  if (aElem != b.getElementType() && !(isFp8Type(aElem) && isFp8Type(b.getElementType())))
    return op->emitOpError() << "operands must have one element type (or two fp8 ones), got "
                             << aElem << " and " << b.getElementType();
  Type elem = aElem, accElem = acc.getElementType();
  bool fp8 = isFp8Type(elem) && version == 3; // mma.sync has no fp8 form before sm_89
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32() && !elem.isInteger(8) && !fp8)
    return op->emitOpError() << "operands must be f16, bf16, f32 (read as tf32), "
                             << (version == 3 ? "fp8 " : "") << "or i8, got " << elem;
  MLIRContext *ctx = op->getContext();
  if (accElem != (elem.isInteger(8) ? Type(IntegerType::get(ctx, 32)) : Type(Float32Type::get(ctx))))
    return op->emitOpError() << "accumulates " << elem << " in "
                             << (elem.isInteger(8) ? "i32" : "f32") << ", got " << accElem;
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(acc.getEncoding());
  if (!mma || mma.getVersion() != version)
    return op->emitOpError() << "accumulator needs a version-" << version
                             << " #blkgpu.mma layout, got " << acc;
  // The layout wraps on smaller blocks (a row vector of it is a layout too),
  // but the instructions need whole tiles.
  if (acc.getShape()[0] % (16 * int64_t(mma.getWarpsPerCTA()[0])) != 0 ||
      acc.getShape()[1] % (int64_t(mma.getInstrN()) * mma.getWarpsPerCTA()[1]) != 0)
    return op->emitOpError() << "accumulator " << acc << " is not a whole number of the "
                             << "layout's tiles";
  return success();
}

/// A tensor-core dot's A operand in registers: a 16-bit block in the
/// #blkgpu.mma layout (of `version`) of the accumulator's warps, all along
/// M, whole 16-wide K steps and instructions.
static LogicalResult verifyRegisterA(Operation *op, RankedTensorType regs, MmaEncodingAttr acc,
                                     unsigned version) {
  auto aMma = dyn_cast_or_null<MmaEncodingAttr>(regs.getEncoding());
  Type elem = regs.getElementType();
  if (!elem.isF16() && !elem.isBF16())
    return op->emitOpError() << "reads only 16-bit operands from registers, got " << regs;
  if (!aMma || aMma.getVersion() != version || aMma.getWarpsPerCTA() != acc.getWarpsPerCTA() ||
      acc.getWarpsPerCTA()[1] != 1 || regs.getShape()[1] % 16 != 0 ||
      regs.getShape()[1] % aMma.getInstrN() != 0)
    return op->emitOpError() << "register operand " << regs << " needs a version-" << version
                             << " #blkgpu.mma layout of the accumulator's warps, "
                             << (version == 3 ? "one warpgroup column" : "one warp column")
                             << " and whole instructions along K";
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  // `a` is a buffer, or a block in registers.
  auto regs = dyn_cast<RankedTensorType>(getA().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (failed(verifyTensorCoreDot(*this, getA(), getB().getType(), acc, getType(), 3)))
    return failure();
  if (getPendingAttr().getInt() < -1)
    return emitOpError() << "pending must be -1 (no wait) or a group count, got "
                         << getPendingAttr().getInt();
  if (regs)
    return verifyRegisterA(*this, regs, cast<MmaEncodingAttr>(acc.getEncoding()), 3);
  return success();
}

LogicalResult MmaSyncOp::verify() {
  auto regs = dyn_cast<RankedTensorType>(getA().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (failed(verifyTensorCoreDot(*this, getA(), getB().getType(), acc, getType(), 2)))
    return failure();
  // A warp's B fragments are loaded two 8-column tiles at a time.
  auto mma = cast<MmaEncodingAttr>(acc.getEncoding());
  if (acc.getShape()[1] % (16 * int64_t(mma.getWarpsPerCTA()[1])) != 0)
    return emitOpError() << "accumulator " << acc << " needs at least two 8-column tiles per "
                         << "warp";
  if (regs)
    return verifyRegisterA(*this, regs, mma, 2);
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getShape() != dst.getShape() || src.getElementType() != dst.getElementType())
    return emitOpError() << "changes the block's shape or element type: " << src
                         << " -> " << dst;
  if (!src.getEncoding() || !dst.getEncoding())
    return emitOpError("needs a layout encoding on both sides");
  return success();
}

namespace {
/// Short names in printed IR: `#blocked`, `#blocked1`, `#slice`, ...
struct BlkGpuAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

/// Result encodings of blk's shape ops (blk/IR/LayoutInference.h).
struct BlkGpuLayoutInference : public LayoutInferenceInterface {
  using LayoutInferenceInterface::LayoutInferenceInterface;

  FailureOr<Attribute> inferExpandDimsEncoding(Attribute src, int axis) const override {
    // Only a slice along `axis` expands without data movement.
    auto slice = dyn_cast<SliceEncodingAttr>(src);
    if (!slice || int(slice.getDim()) != axis)
      return failure();
    return slice.getParent();
  }

  FailureOr<Attribute> inferTransEncoding(Attribute src,
                                          ArrayRef<int32_t> order) const override {
    auto blocked = dyn_cast<BlockedEncodingAttr>(src);
    if (!blocked || order.size() != blocked.getOrder().size())
      return failure();
    return Attribute(getTransposedLayout(blocked, order));
  }

  FailureOr<Attribute> inferReduceEncoding(Attribute src, int axis) const override {
    if (!isa<BlockedEncodingAttr, SliceEncodingAttr, MmaEncodingAttr>(src) || axis < 0)
      return failure();
    return Attribute(SliceEncodingAttr::get(src.getContext(), axis, src));
  }
};
} // namespace

void BlkGpuDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "blk/Dialect/BlkGpu/IR/BlkGpuAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "blk/Dialect/BlkGpu/IR/BlkGpuTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "blk/Dialect/BlkGpu/IR/BlkGpuOps.cpp.inc"
      >();
  addInterfaces<BlkGpuLayoutInference, BlkGpuAsmInterface>();
}

} // namespace blk::gpu
