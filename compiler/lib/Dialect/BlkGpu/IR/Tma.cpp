//===- Tma.cpp - TMA copies and mbarriers: verifiers -----------------------===//
//
// blkgpu.tensor_map / tma_load / mbarrier_init / mbarrier_expect /
// mbarrier_wait / mbarrier_arrive (BlkGpuDialect.td). A tma_load's slot must hold exactly
// the bytes the hardware writes: TMA's swizzle modes are the NVMMA layouts
// (16-byte chunk c of row r at c ^ ((r / perPhase) % maxPhase), rows of
// `swizzle` bytes, one column block per box), so the verifier ties the
// slot's #blkgpu.shared to the map's box and swizzle.
// Test: tests/lit/blkgpu/tma.mlir (round trip, verifier).
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace blk::gpu {

unsigned tensorMapElementBytes(TensorMapOp map) {
  Type elem = cast<PtrType>(map.getBase().getType()).getPointeeType();
  return elem.getIntOrFloatBitWidth() / 8;
}

LogicalResult TensorMapOp::verify() {
  auto ptr = dyn_cast<PtrType>(getBase().getType());
  if (!ptr || !ptr.getPointeeType().isIntOrFloat() ||
      ptr.getPointeeType().getIntOrFloatBitWidth() % 8 != 0)
    return emitOpError() << "base must be a pointer to integers or floats, got "
                         << getBase().getType();
  // Rank 2 is what the lowering emits (cp.async.bulk.tensor.2d).
  if (getDims().size() != 2 || getStrides().size() != 1 || getBox().size() != 2)
    return emitOpError() << "describes a 2-D tensor: 2 dims, 1 stride and a 2-D box";
  for (int64_t b : getBox())
    if (b < 1 || b > 256)
      return emitOpError() << "box dims must be in 1..256, got " << b;
  unsigned swizzle = getSwizzle();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError() << "swizzle must be 0, 32, 64 or 128 bytes, got " << swizzle;
  int64_t rowBytes = getBox().back() * tensorMapElementBytes(*this);
  if (rowBytes % 16 != 0 || (swizzle && rowBytes != swizzle))
    return emitOpError() << "the box's rows (" << rowBytes
                         << " bytes) must be a multiple of 16 bytes and, swizzled, "
                            "exactly the swizzle span";
  auto func = dyn_cast<func::FuncOp>((*this)->getParentOp());
  if (!func || (*this)->getBlock() != &func.getBody().front())
    return emitOpError() << "must be in the kernel's entry block (it becomes a kernel "
                            "parameter)";
  return success();
}

/// `barrier` is one mbarrier: a [1] buffer of i64.
static LogicalResult verifyOneBarrier(Operation *op, MemDescType barrier) {
  if (barrier.getShape() != ArrayRef<int64_t>{1} || !barrier.getElementType().isInteger(64))
    return op->emitOpError() << "barrier must be one mbarrier (memdesc<1xi64>), got "
                             << barrier;
  return success();
}

LogicalResult TmaLoadOp::verify() {
  if (failed(verifyOneBarrier(*this, getBarrier().getType())))
    return failure();
  auto map = getMap().getDefiningOp<TensorMapOp>();
  if (!map)
    return emitOpError() << "map must come from blkgpu.tensor_map";
  ArrayRef<int64_t> box = map.getBox();
  MemDescType dst = getDst().getType();
  ArrayRef<int64_t> shape = dst.getShape();
  SharedEncodingAttr enc = dst.getEncoding();
  if (getCoords().size() != box.size())
    return emitOpError() << "needs " << box.size() << " coordinates, got " << getCoords().size();
  Type elem = cast<PtrType>(map.getBase().getType()).getPointeeType();
  if (dst.getElementType() != elem || shape.size() != box.size() ||
      enc.getOrder().size() != shape.size() || shape[0] != box[0] ||
      shape.back() % box.back() != 0)
    return emitOpError() << "dst must be one slot of " << elem << " shaped like the box ["
                         << box[0] << ", " << box[1] << "] (its last dim a multiple), got "
                         << dst;
  // TMA writes rows of the contiguous dim; the slot's row must be that dim.
  if (enc.getOrder()[0] != shape.size() - 1)
    return emitOpError() << "dst's rows must be its last dim (TMA does not transpose)";
  unsigned elemBytes = tensorMapElementBytes(map);
  unsigned swizzle = map.getSwizzle();
  int64_t block = enc.getBlock() ? enc.getBlock() : shape.back();
  bool matches = enc.getPad() == 0 && block == box.back();
  if (swizzle)
    matches = matches && enc.getVec() * elemBytes == 16 && enc.getPerPhase() == 128 / swizzle &&
              enc.getMaxPhase() == swizzle / 16;
  else
    matches = matches && enc.getMaxPhase() == 1;
  if (!matches)
    return emitOpError() << "dst's layout " << enc << " is not the " << swizzle
                         << "-byte swizzle of boxes " << box.back() << " elements wide";
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  MemDescType type = getBarriers().getType();
  if (type.getShape().size() != 2 || type.getShape()[1] != 1 ||
      !type.getElementType().isInteger(64))
    return emitOpError() << "barriers must be a ring of mbarriers (memdesc<n x 1 x i64>), got "
                         << type;
  if (getCount() < 1)
    return emitOpError() << "arrival count must be positive";
  return success();
}

LogicalResult MbarrierExpectOp::verify() {
  if (getBytes() <= 0)
    return emitOpError() << "expects a positive number of bytes";
  return verifyOneBarrier(*this, getBarrier().getType());
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyOneBarrier(*this, getBarrier().getType());
}

LogicalResult MbarrierArriveOp::verify() {
  return verifyOneBarrier(*this, getBarrier().getType());
}

} // namespace blk::gpu
