//===- Emitter.h - blkgpu IR -> LLVM IR (NVPTX) -----------------*- C++ -*-===//
//
// The direct emitter (docs/architecture.md, "Backend"): walks one kernel of
// layout-annotated IR and builds LLVM IR with IRBuilder. Every MLIR value
// maps to the list of this thread's elements (one llvm::Value per element,
// in LayoutView order; scalars have one). One op family per Emit*.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_CONVERSION_EMITTER_H
#define BLK_LIB_CONVERSION_EMITTER_H

#include "blk/Dialect/BlkGpu/IR/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace blk::gpu {

using Elems = llvm::SmallVector<llvm::Value *, 4>;

/// Largest static shared allocation CUDA accepts.
constexpr unsigned kMaxStaticShared = 48 * 1024;

/// How a destination element's coordinates map to the source element it
/// copies (broadcast, expand_dims, trans, reshape, convert_layout).
struct CoordMap {
  enum Kind { Identity, Broadcast, DropDim, Permute, Reshape } kind = Identity;
  llvm::SmallVector<int64_t> srcShape, dstShape;
  llvm::SmallVector<int64_t> perm; ///< Permute: dst dim i is src dim perm[i]
  int64_t dim = 0;                 ///< DropDim: the dst dim that src lacks

  llvm::SmallVector<int64_t> apply(llvm::ArrayRef<int64_t> dst) const;
  /// Source coordinates of the element dst wants.
  llvm::SmallVector<llvm::Value *> applyCoords(llvm::IRBuilder<> &b,
                                               llvm::ArrayRef<llvm::Value *> dst) const;
  /// The src dim that dst dim `dstDim` walks along (-1: none).
  int srcDimOf(unsigned dstDim) const;
};

class Emitter {
public:
  Emitter(llvm::Module &module, mlir::func::FuncOp kernel);

  /// Emits the kernel; errors name the op and its location.
  llvm::Error emit();
  /// Bytes of shared memory the kernel uses: static up to 48 KiB, else
  /// dynamic (passed at launch).
  unsigned getStaticSharedBytes() const {
    return smemBytes <= kMaxStaticShared ? smemBytes : 0;
  }
  unsigned getDynamicSharedBytes() const {
    return smemBytes > kMaxStaticShared ? smemBytes : 0;
  }
  unsigned getThreads() const { return numWarps * kWarpSize; }

  // --- state and helpers shared by the Emit*.cpp files -------------------
  llvm::LLVMContext &ctx;
  llvm::Module &mod;
  llvm::IRBuilder<> b;
  mlir::func::FuncOp kernel;
  llvm::Function *fn = nullptr;
  unsigned numWarps;
  llvm::Value *tid = nullptr, *lane = nullptr, *warp = nullptr;

  llvm::Error fail(mlir::Operation *op, const llvm::Twine &msg);
  Elems &get(mlir::Value v);
  void set(mlir::Value v, Elems elems) { values[v] = std::move(elems); }

  llvm::Type *llvmType(mlir::Type type);      ///< element type in registers
  llvm::Type *memType(mlir::Type type);       ///< in memory (i1 as i8)
  std::optional<LayoutView> viewOf(mlir::Value v);
  llvm::Value *i32(int64_t v) { return b.getInt32(uint32_t(v)); }

  llvm::Value *laneIndex(const LayoutView &v, unsigned d);
  llvm::Value *warpIndex(const LayoutView &v, unsigned d);
  /// Own-dim coordinates (i32) of each of this thread's elements: per dim,
  /// the XOR of the linear layout's bases of the set lane and warp bits,
  /// XOR the element's register part (a constant).
  llvm::SmallVector<llvm::SmallVector<llvm::Value *>> coords(const LayoutView &v);
  /// True in the threads that own (are not copies of) their elements: free
  /// lane and warp bits 0 (LinearLayout::isOwner); null when none is free.
  llvm::Value *ownerPredicate(const LayoutView &v);
  llvm::Value *andPred(llvm::Value *a, llvm::Value *c);

  /// Shared memory: pointer to byte offset `bytes` (+ index elements of
  /// `elemTy`), growing the kernel's static allocation to `size` bytes.
  llvm::Value *smemPtr(llvm::Type *elemTy, llvm::Value *index, uint64_t bytes);
  void reserveSmem(uint64_t size);
  void barrier();

  /// Moves elements between layouts: registers when every thread already
  /// holds what it needs, else through padded shared memory.
  Elems move(const LayoutView &src, llvm::ArrayRef<llvm::Value *> srcVals,
             mlir::Type elemType, const LayoutView &dst, const CoordMap &map);
  /// Builds a uniform scalar from thread 0 for all threads (via shared memory).
  llvm::Value *broadcastFromThread0(llvm::Value *v);

  /// Emits the ops of `block` (not its terminator).
  llvm::Error emitBlock(mlir::Block &block);
  llvm::Error emitOp(mlir::Operation *op);
  /// Scalar combine region (reduce/scan): block args := lhs ++ rhs.
  llvm::Expected<Elems> emitCombine(mlir::Block &body, llvm::ArrayRef<llvm::Value *> lhs,
                                    llvm::ArrayRef<llvm::Value *> rhs);

  // Op families (EmitArith.cpp, EmitShape.cpp, EmitMemory.cpp, ...).
  llvm::Expected<llvm::Value *> emitScalarOp(mlir::Operation *op,
                                             llvm::ArrayRef<llvm::Value *> operands);
  llvm::Error emitElementwise(mlir::Operation *op);
  llvm::Error emitShapeOp(mlir::Operation *op);
  llvm::Error emitMemoryOp(mlir::Operation *op);
  llvm::Error emitAtomic(mlir::Operation *op);
  llvm::Error emitReduce(mlir::Operation *op);
  llvm::Error emitScan(mlir::Operation *op);
  llvm::Error emitDot(mlir::Operation *op);
  llvm::Error emitDebugOp(mlir::Operation *op);
  llvm::Error emitControlFlow(mlir::Operation *op);
  /// Runtime unroll count for a loop that streams global memory (1: none).
  unsigned loopUnrollCount(mlir::scf::ForOp loop);
  void setUnrollCount(llvm::Instruction *backedge, unsigned count);

  llvm::Value *callIntrinsic(unsigned id, llvm::ArrayRef<llvm::Type *> types,
                             llvm::ArrayRef<llvm::Value *> args);
  llvm::Value *callLibdevice(llvm::StringRef name, llvm::Type *type,
                             llvm::ArrayRef<llvm::Value *> args);

private:
  llvm::DenseMap<mlir::Value, Elems> values;
  llvm::GlobalVariable *smem = nullptr;
  unsigned smemBytes = 0;
};

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_EMITTER_H
