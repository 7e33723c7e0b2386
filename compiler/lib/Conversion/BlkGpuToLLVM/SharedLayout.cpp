//===- SharedLayout.cpp - addresses in a move's shared layout -------------===//
#include "SharedLayout.h"

#include "llvm/Support/MathExtras.h"

namespace blk::gpu {

llvm::Value *emitSmemOffset(llvm::IRBuilder<> &b, const SmemLayout &layout,
                            llvm::ArrayRef<llvm::Value *> c) {
  llvm::Value *row = b.getInt32(0);
  for (unsigned d = 0; d < layout.shape.size(); ++d)
    if (d != layout.inner)
      row = b.CreateAdd(b.CreateMul(row, b.getInt32(layout.shape[d])), c[d]);
  llvm::Value *col = c[layout.inner];
  int64_t blockLen = layout.blockLen();
  if (layout.maxPhase > 1) {
    llvm::Value *phase = b.CreateAnd(b.CreateLShr(row, llvm::Log2_32(layout.perPhase)),
                                     layout.maxPhase - 1);
    llvm::Value *group =
        b.CreateXor(b.CreateLShr(col, llvm::Log2_32(layout.swizzleVec)), phase);
    col = b.CreateOr(b.CreateShl(group, llvm::Log2_32(layout.swizzleVec)),
                     b.CreateAnd(col, layout.swizzleVec - 1));
  }
  if (layout.numBlocks() > 1) {
    // Column block k starts k * numRows rows on. The XOR above only touched
    // bits below the block width, so the block index is still col's top bits.
    llvm::Value *colBlock = b.CreateLShr(col, llvm::Log2_64(blockLen));
    col = b.CreateAnd(col, uint64_t(blockLen - 1));
    row = b.CreateAdd(b.CreateMul(colBlock, b.getInt32(layout.numRows())), row);
  }
  return b.CreateAdd(b.CreateMul(row, b.getInt32(blockLen + layout.pad)), col);
}

unsigned sharedAccessWidth(const LayoutView &view, const SmemLayout &layout, unsigned bytes) {
  if (layout.inner >= view.rank())
    return 1;
  unsigned run = runLength(view, layout.inner);
  unsigned w = 1;
  while (w * 2 <= run && w * 2 * bytes <= 16 && (layout.blockLen() + layout.pad) % (w * 2) == 0 &&
         (layout.maxPhase == 1 || w * 2 <= layout.swizzleVec))
    w *= 2;
  return w;
}

} // namespace blk::gpu
