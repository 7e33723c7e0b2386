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
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"
#include "blk/Target/GpuTarget.h"
#include "blk/Support/PrefixMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace blk::gpu {

using Elems = llvm::SmallVector<llvm::Value *, 4>;

/// A float constant of `type` (an fp8 one, held as i8, as its bits).
llvm::Constant *llvmConstant(llvm::Type *type, mlir::FloatAttr value);
/// An arith.extf / arith.truncf with an fp8 side (emitted by emitFp8Cast).
bool isFp8Cast(mlir::Operation *op);

/// Elements per global access that `op`'s recorded hints prove for a
/// pointer block in layout `v` (EmitMemory.cpp; 1 when nothing is proven).
/// Without `trustAlignment`, 16-byte alignment is assumed (to be tested at
/// run time): only contiguity and mask constancy count.
unsigned provenVectorWidth(mlir::Operation *op, const LayoutView &v, bool masked,
                           bool trustAlignment = true);

class Emitter;

/// The four .b32 registers of the m16n8k16 A fragment (wgmma's, per warp,
/// is the same) for rows tile `mr` and K step `k0` of a 16-bit block `a`
/// in an mma layout of tiling `tiling`: (g, 2t..2t+1), (g+8, 2t..),
/// (g, 2t+8..), (g+8, 2t+8..), f16 / bf16 pairs packed, no data leaves the
/// thread (EmitWgmma.cpp).
llvm::SmallVector<llvm::Value *, 4> mmaRegisterFragment(Emitter &e, const Elems &a,
                                                        const MmaTiling &tiling, unsigned mr,
                                                        int64_t k0);

class Emitter {
public:
  /// `target`: what the GPU has (shared-memory limits, instruction sets).
  /// `lineInfo`: attach each op's source line to its instructions
  /// (DebugInfo.cpp), file names rewritten by `prefixMap` (null: as they are).
  Emitter(llvm::Module &module, mlir::func::FuncOp kernel, const GpuTarget &target,
          bool lineInfo = false, const PrefixMap *prefixMap = nullptr);
  ~Emitter();

  /// Emits the kernel; errors name the op and its location.
  llvm::Error emit();
  /// Bytes of shared memory the kernel uses: static up to 48 KiB, else
  /// dynamic (passed at launch).
  unsigned getStaticSharedBytes() const {
    return smemBytes <= target.maxStaticShared ? smemBytes : 0;
  }
  unsigned getDynamicSharedBytes() const {
    return smemBytes > target.maxStaticShared ? smemBytes : 0;
  }
  /// Threads per program: the warps the layouts span and, in a
  /// warp-specialised kernel, the producer warpgroup's.
  unsigned getThreads() const { return (numWarps + producerWarps) * kWarpSize; }

  // --- state and helpers shared by the Emit*.cpp files -------------------
  llvm::LLVMContext &ctx;
  llvm::Module &mod;
  const GpuTarget &target;
  llvm::IRBuilder<> b;
  mlir::func::FuncOp kernel;
  llvm::Function *fn = nullptr;
  unsigned numWarps;
  /// Warps beyond numWarps (blk.warp_specialize): they run the producer
  /// region of blkgpu.warp_specialize and nothing else.
  unsigned producerWarps = 0;
  /// The thread that issues one-thread ops (TMA copies, expect_tx): thread
  /// 0, or the producer's thread inside the producer region.
  unsigned issuerThread = 0;
  /// Inside the consumer region: a barrier synchronises the consumers only.
  bool consumersOnly = false;
  llvm::Value *tid = nullptr, *lane = nullptr, *warp = nullptr;
  /// `warp` as ptxas can see it is the same in every lane of a warp (made
  /// once, in the entry block, on first use).
  llvm::Value *uniformWarp();

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
  /// `elemTy`).
  llvm::Value *smemPtr(llvm::Type *elemTy, llvm::Value *index, uint64_t bytes);
  /// The byte offset blkgpu-allocate-shared gave `op`'s scratch, which must
  /// hold `size` bytes (an internal compiler error otherwise).
  uint64_t scratchOffset(mlir::Operation *op, uint64_t size);
  /// The address of the buffer blkgpu-allocate-shared placed for
  /// `alloc` (a local_alloc); null, after an internal error, when it did not.
  llvm::Value *bufferBase(mlir::Operation *alloc, uint64_t size);
  /// The barrier inside a scratch user, between its writes and its reads.
  void barrier();
  /// Emits what `body` emits so that it runs only where `pred` holds
  /// (always when null).
  void emitGuarded(llvm::Value *pred, llvm::function_ref<void()> body);
  /// Records an internal compiler error; emit() returns it.
  void internalError(mlir::Operation *op, const llvm::Twine &msg);

  /// Moves elements between layouts (`op` is the move): registers when
  /// every thread already holds what it needs, else through shared memory.
  Elems move(mlir::Operation *op, const Move &move, llvm::ArrayRef<llvm::Value *> srcVals);
  /// Builds a uniform scalar from thread 0 for all threads, through the
  /// scratch of `op`.
  llvm::Value *broadcastFromThread0(mlir::Operation *op, llvm::Value *v);

  /// Line info (DebugInfo.cpp): the compile unit and the kernel's
  /// subprogram; the location of the instructions that follow; finalise.
  void beginDebugInfo();
  void setLocation(mlir::Location loc);
  void endDebugInfo();

  /// Emits the ops of `block` (not its terminator).
  llvm::Error emitBlock(mlir::Block &block);
  /// Lowers `op` with the family registered for it (Lowerings.cpp).
  llvm::Error emitOp(mlir::Operation *op);
  /// Scalar combine region (reduce/scan): block args := lhs ++ rhs.
  llvm::Expected<Elems> emitCombine(mlir::Block &body, llvm::ArrayRef<llvm::Value *> lhs,
                                    llvm::ArrayRef<llvm::Value *> rhs);

  // Op families (EmitArith.cpp, EmitShape.cpp, EmitMemory.cpp, ...).
  llvm::Expected<llvm::Value *> emitScalarOp(mlir::Operation *op,
                                             llvm::ArrayRef<llvm::Value *> operands);
  llvm::Error emitElementwise(mlir::Operation *op);
  /// One element of an isFp8Cast op (PTX cvt, sm_90+).
  llvm::Expected<llvm::Value *> emitFp8Cast(mlir::Operation *op, llvm::Value *x);
  /// fp8 bits (i8) -> half, exact (`cvt.rn.f16x2.e4m3x2`, sm_90+).
  llvm::Value *fp8ToHalf(llvm::Value *bits, mlir::Type fp8);
  llvm::Error emitShapeOp(mlir::Operation *op);
  llvm::Error emitMemoryOp(mlir::Operation *op);
  llvm::Error emitAtomic(mlir::Operation *op);
  llvm::Error emitReduce(mlir::Operation *op);
  llvm::Error emitScan(mlir::Operation *op);
  llvm::Error emitDot(mlir::Operation *op);
  llvm::Error emitWarpGroupDot(mlir::Operation *op);
  llvm::Error emitWarpGroupDotWait(mlir::Operation *op);
  llvm::Error emitMmaSync(mlir::Operation *op);
  llvm::Error emitDebugOp(mlir::Operation *op);
  llvm::Error emitLocalMemoryOp(mlir::Operation *op);
  /// async_copy / async_commit / async_wait (EmitAsyncCopy.cpp).
  llvm::Error emitAsyncCopyOp(mlir::Operation *op);
  /// tensor_map / tma_load / mbarrier_* (EmitTma.cpp).
  llvm::Error emitTmaOp(mlir::Operation *op);
  /// blkgpu.warp_specialize (EmitWarpSpecialize.cpp).
  llvm::Error emitWarpSpecialize(mlir::Operation *op);
  /// blkgpu.turn_wait and turn_pass (EmitWarpSpecialize.cpp).
  llvm::Error emitTurn(mlir::Operation *op);
  /// The hidden kernel parameter (a byval CUtensorMap) of each tensor_map.
  llvm::DenseMap<mlir::Operation *, llvm::Value *> tensorMapParams;
  /// program_id, num_programs and blkgpu.barrier.
  llvm::Error emitProgramOp(mlir::Operation *op);
  llvm::Error emitControlFlow(mlir::Operation *op);
  /// Runtime unroll count blkgpu-loop-unroll-hints chose (1: none).
  unsigned loopUnrollCount(mlir::scf::ForOp loop);
  /// The latch's loop metadata: a runtime unroll `count` (> 1), and
  /// llvm.licm.disable when `noLicm` (LoopUnrollHint.cpp).
  void setLoopHints(llvm::Instruction *backedge, unsigned count, bool noLicm);

  llvm::Value *callIntrinsic(unsigned id, llvm::ArrayRef<llvm::Type *> types,
                             llvm::ArrayRef<llvm::Value *> args);
  llvm::Value *callLibdevice(llvm::StringRef name, llvm::Type *type,
                             llvm::ArrayRef<llvm::Value *> args);

private:
  llvm::Value *uniformWarpValue = nullptr;
  /// Bytes of shared memory the kernel uses (the plan's total once any op
  /// used it): set through scratchOffset() and bufferBase().
  unsigned smemBytes = 0;
  llvm::DenseMap<mlir::Value, Elems> values;
  bool lineInfo;
  const PrefixMap *prefixMap;
  /// The DIFile of a source file, its name after `prefixMap`.
  llvm::DIFile *debugFileFor(llvm::StringRef path);
  std::unique_ptr<llvm::DIBuilder> debugBuilder;
  llvm::DISubprogram *debugScope = nullptr;
  std::string debugFile;
  llvm::DenseMap<llvm::StringRef, llvm::DIScope *> debugFileScopes;
  llvm::GlobalVariable *smem = nullptr;
  std::string internalErrors;
};

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_EMITTER_H
