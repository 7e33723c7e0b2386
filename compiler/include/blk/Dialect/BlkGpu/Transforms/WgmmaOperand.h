//===- WgmmaOperand.h - where wgmma finds an operand tile -------*- C++ -*-===//
//
// A wgmma operand lives in an NVMMA-swizzled buffer (#blkgpu.shared with
// `block`: SharedMemory.h's SmemLayout is its address function). The
// instruction does not take addresses per element: it takes a 64-bit
// matrix descriptor (PTX ISA, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4 (LBO)
//   bits 32-45  stride-dimension byte offset >> 4 (SBO)
//   bits 62-63  swizzle: 1 = 128 B, 2 = 64 B, 3 = 32 B
// For a K-major operand (K contiguous) SBO is the step between 8-row
// groups and LBO is unused; for an MN-major one (M or N contiguous, the
// transposed form) LBO steps between column blocks along M / N and SBO
// between 8-row groups along K. An instruction tile starts at an 8-row,
// column-block boundary, where the swizzle phase is 0, so its start is
// the unswizzled address; the hardware applies the XOR.
// Tests: tests/unit/BlkGpu/WgmmaOperandTest.cpp (Triton's constants from
// ../shared/docs/TENSORCORES.md), tests/lit/codegen/wgmma.mlir.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_WGMMAOPERAND_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_WGMMAOPERAND_H

#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include <optional>
#include <string>

namespace blk::gpu {

/// One operand buffer of blkgpu.wgmma, as the descriptor sees it.
struct WgmmaOperand {
  SmemLayout layout;
  unsigned elemBytes = 2;
  unsigned kDim = 1;        ///< A: 1 ([M, K]); B: 0 ([K, N])
  bool kMajor = true;       ///< K is the contiguous dim
  unsigned swizzleBytes = 128;

  /// The geometry of `type` used as operand A (`isB` false) or B; nullopt,
  /// with `why` set, when the layout is not one wgmma reads.
  static std::optional<WgmmaOperand> get(MemDescType type, bool isB, std::string &why);

  /// Byte offset from the buffer start of the tile at (mn, k) (element
  /// coordinates along M or N and K; k a multiple of one instruction's K (32
  /// bytes), mn of 8 rows or
  /// of a column block when MN-major).
  int64_t tileOffset(int64_t mn, int64_t k) const;
  /// The descriptor's bits other than the start address.
  uint64_t descriptorBits() const;
  /// The transpose immediate of the instruction (1: MN-major).
  unsigned transposeImm() const { return kMajor ? 0 : 1; }
};

/// A descriptor: `bits` (descriptorBits) with start address `addr` (bytes).
inline uint64_t wgmmaDescriptor(uint64_t bits, uint32_t addr) {
  return bits | ((addr & 0x3FFFF) >> 4);
}

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_WGMMAOPERAND_H
