//===- PipelineTma.cpp - TMA rings for blkgpu-pipeline-loops --------------===//
//
// Test: tests/lit/blkgpu/pipeline-tma.mlir.
//
//===----------------------------------------------------------------------===//
#include "PipelineTma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace blk::gpu {

std::optional<unsigned> tmaSwizzle(MemDescType view) {
  ArrayRef<int64_t> shape = view.getShape();
  SharedEncodingAttr enc = view.getEncoding();
  unsigned elemBytes = view.getElementType().getIntOrFloatBitWidth() / 8;
  if (shape.size() != 2 || enc.getOrder().size() != 2 || enc.getOrder()[0] != 1 ||
      enc.getPad() != 0 || !elemBytes)
    return std::nullopt;
  int64_t block = enc.getBlock() ? enc.getBlock() : shape[1];
  int64_t rowBytes = block * elemBytes;
  if (enc.getMaxPhase() == 1)
    return rowBytes % 16 == 0 && enc.getBlock() == 0 ? std::optional<unsigned>(0) : std::nullopt;
  if ((rowBytes != 32 && rowBytes != 64 && rowBytes != 128) || enc.getVec() * elemBytes != 16 ||
      enc.getPerPhase() != 128 / rowBytes || enc.getMaxPhase() != rowBytes / 16)
    return std::nullopt;
  return unsigned(rowBytes);
}

Value tmaView(OpBuilder &b, Location loc, Value slot, const TmaTile &tile) {
  if (!tile.transposed)
    return slot;
  auto type = cast<MemDescType>(slot.getType());
  return b.create<MemDescTransOp>(loc, type.getTransposed(), slot);
}

TensorMapOp buildTensorMap(func::FuncOp func, const TmaTile &tile, MemDescType view) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  Value rows = tile.dims[0].extent.build(b, loc);
  Value cols = tile.dims[1].extent.build(b, loc);
  Value stride = tile.rowStride.build(b, loc);
  SharedEncodingAttr enc = view.getEncoding();
  int64_t block = enc.getBlock() ? enc.getBlock() : view.getShape()[1];
  return b.create<TensorMapOp>(loc, TensorMapType::get(b.getContext()), tile.base,
                               ValueRange{rows, cols}, ValueRange{stride},
                               b.getDenseI64ArrayAttr({view.getShape()[0], block}),
                               b.getI32IntegerAttr(int32_t(*tmaSwizzle(view))));
}

SmallVector<Value> buildTmaCoords(OpBuilder &b, Location loc, const TmaTile &tile) {
  return {tile.dims[0].start.build(b, loc), tile.dims[1].start.build(b, loc)};
}

Value buildTmaCondition(OpBuilder &b, Location loc, ArrayRef<TmaTile> tiles) {
  Value all = b.create<arith::ConstantIntOp>(loc, 1, 1);
  auto both = [&](Value c) { all = b.create<arith::AndIOp>(loc, all, c); };
  auto cst = [&](int64_t c) { return b.create<arith::ConstantIntOp>(loc, c, 32); };
  for (const TmaTile &tile : tiles)
    for (const TmaDim &dim : tile.dims) {
      Value extent = dim.extent.build(b, loc);
      if (!dim.extent.asConstant())
        both(b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, extent, cst(1)));
      if (!dim.wrapped)
        continue;
      // start is loop-invariant here: a wrapped dim does not advance.
      Value start = dim.start.build(b, loc);
      Value end = b.create<arith::AddIOp>(loc, start, cst(dim.size));
      both(b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, start, cst(0)));
      both(b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, end, extent));
    }
  return all;
}

std::pair<scf::ForOp, scf::ForOp> versionLoop(scf::ForOp loop, Value cond) {
  OpBuilder b(loop);
  auto branch = b.create<scf::IfOp>(loop.getLoc(), loop.getResultTypes(), cond,
                                    /*withElseRegion=*/true);
  loop->replaceAllUsesWith(branch.getResults());
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  auto clone = cast<scf::ForOp>(b.clone(*loop));
  if (branch.getThenRegion().front().empty() ||
      !isa<scf::YieldOp>(branch.getThenRegion().front().back()))
    b.create<scf::YieldOp>(loop.getLoc(), clone.getResults());
  Block &elseBlock = branch.getElseRegion().front();
  loop->moveBefore(&elseBlock, elseBlock.end());
  b.setInsertionPointToEnd(&elseBlock);
  b.create<scf::YieldOp>(loop.getLoc(), loop.getResults());
  return {clone, loop};
}

} // namespace blk::gpu
