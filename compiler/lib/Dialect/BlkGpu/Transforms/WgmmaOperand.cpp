//===- WgmmaOperand.cpp - where wgmma finds an operand tile ---------------===//
//
// See WgmmaOperand.h.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/WgmmaOperand.h"

namespace blk::gpu {

std::optional<WgmmaOperand> WgmmaOperand::get(MemDescType type, bool isB, std::string &why) {
  WgmmaOperand op;
  op.layout = getSlotLayout(type);
  op.elemBytes = getMemBytes(type.getElementType());
  op.kDim = isB ? 0 : 1;
  const SmemLayout &l = op.layout;
  if (l.shape.size() != 2) {
    why = "a wgmma operand is a 2-D block";
    return std::nullopt;
  }
  op.kMajor = l.inner == op.kDim;
  op.swizzleBytes = unsigned(l.blockLen()) * op.elemBytes;
  unsigned s = op.swizzleBytes;
  bool nvmma = (s == 32 || s == 64 || s == 128) && l.pad == 0 &&
               l.swizzleVec * op.elemBytes == 16 && l.maxPhase * 16 == s &&
               l.perPhase * l.maxPhase == 8 && l.numRows() % 8 == 0;
  if (!nvmma) {
    why = "a wgmma operand needs an NVMMA-swizzled buffer (16-byte groups, 32/64/128-byte "
          "column blocks, no padding)";
    return std::nullopt;
  }
  return op;
}

int64_t WgmmaOperand::tileOffset(int64_t mn, int64_t k) const {
  int64_t row = kMajor ? mn : k, col = kMajor ? k : mn;
  int64_t bl = layout.blockLen();
  return ((col / bl) * layout.numRows() + row) * swizzleBytes + (col % bl) * elemBytes;
}

uint64_t WgmmaOperand::descriptorBits() const {
  uint64_t lbo = kMajor ? 0 : uint64_t(layout.numRows()) * swizzleBytes;
  uint64_t sbo = 8ull * swizzleBytes;
  uint64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  return (((lbo >> 4) & 0x3FFF) << 16) | (((sbo >> 4) & 0x3FFF) << 32) | (mode << 62);
}

} // namespace blk::gpu
