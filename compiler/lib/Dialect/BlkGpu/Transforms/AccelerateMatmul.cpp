//===- AccelerateMatmul.cpp - --blkgpu-accelerate-matmul ------------------===//
//
// Expects: blkgpu IR from blkgpu-assign-layouts. Guarantees: on a target
// with wgmma, every blk.dot that wgmma can run (f16/bf16 and fp8 inputs,
// f32 ones with precision "tf32", i8 ones with an i32 accumulator) is
//   a, b -> blkgpu.local_alloc into NVMMA-swizzled buffers
//   acc  -> convert_layout to a version-3 #blkgpu.mma layout
//   blkgpu.wgmma, then convert_layout back for the dot's users;
// on a target with mma.sync (sm_80 and later), every other dot of those
// types but fp8 whose tile is whole 16 x 16 warp tiles gets the same
// rewrite onto blkgpu.mma_sync with a version-2 layout;
// and an accumulator carried by the enclosing scf.for stays in the mma
// layout across iterations (the loop argument, init and result are
// retyped; conversions sit before and after the loop, and inside only for
// other users of the argument). An operand defined outside the loops
// around the dot is stored into its buffer once, before them, and a later
// loop reading the same operand reuses that buffer, and a tile read both
// directly and through `trans` is stored once (memdesc_trans views it
// transposed). Other dots are left for the FMA lowering.
// Tests: tests/lit/blkgpu/accelerate-matmul.mlir.
//
// The tile choice follows the hardware: a warpgroup (4 consecutive warps)
// computes 64 rows per instruction; warpgroups go along M first, then N;
// the instruction width is the largest power of two up to 256 that one
// warpgroup's columns allow. For mma.sync (one warp, 16 x 8 per
// instruction) the warps split the longer side of the warp tile in two
// until all are placed, which keeps each warp's tile near square (the
// fewest fragment loads per instruction). The operand buffers keep the register
// layout's contiguous dim contiguous (so the stores are 16-byte vectors),
// which makes an operand K-major or MN-major; the descriptor says which.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_ACCELERATEMATMUL
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// How the tensor cores run a dot: the accumulator's layout (version 3:
/// blkgpu.wgmma, 2: blkgpu.mma_sync) and the operands' buffers.
struct TensorCorePlan {
  MmaEncodingAttr mma;
  SharedEncodingAttr aShared, bShared;
};

/// What the tensor cores take of a dot's types.
struct DotTypes {
  bool f16 = false, tf32 = false, i8 = false, fp8 = false;
  unsigned elemBytes = 2;
  bool any() const { return f16 || tf32 || i8 || fp8; }
};

} // namespace

/// The fastest-varying dim of a block's register layout (1 when unknown).
static unsigned contiguousDim(Value v) {
  Attribute enc = getEncoding(v.getType());
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(enc))
    return blocked.getOrder()[0];
  return 1;
}

/// The NVMMA layout of a 2-D operand whose dim `contig` is contiguous: the
/// widest swizzle (128, 64 or 32 bytes) that the row and `maxSpan` elements
/// allow; nullopt when a row is narrower than 32 bytes.
static std::optional<SharedEncodingAttr> nvmmaLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                                     unsigned elemBytes, unsigned contig,
                                                     int64_t maxSpan) {
  int64_t spanBytes = std::min(shape[contig], maxSpan) * elemBytes;
  unsigned swizzle = spanBytes >= 128 ? 128 : spanBytes >= 64 ? 64 : spanBytes >= 32 ? 32 : 0;
  if (!swizzle || shape[1 - contig] < 8)
    return std::nullopt;
  unsigned vec = 16 / elemBytes;
  return SharedEncodingAttr::get(ctx, vec, /*perPhase=*/128 / swizzle, /*maxPhase=*/swizzle / 16,
                                 {contig, 1 - contig}, /*pad=*/0,
                                 /*block=*/swizzle / elemBytes);
}

/// The tensor-core kinds of `dot`'s operand and accumulator types.
static DotTypes dotTypes(DotOp dot) {
  Type in = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  Type bIn = cast<RankedTensorType>(dot.getB().getType()).getElementType();
  Type accElem = cast<RankedTensorType>(dot.getAcc().getType()).getElementType();
  DotTypes t;
  // f32 inputs run as tf32 where the dot allows it (tf32x3: three tf32
  // products, rewriteDot); ieee stays on the FMA path (exact f32 products).
  // i8 accumulates in i32.
  t.tf32 = in.isF32() && dot.allowsTf32();
  t.i8 = in.isInteger(8) && accElem.isInteger(32);
  t.f16 = (in.isF16() || in.isBF16()) && accElem.isF32();
  // fp8 (e4m3 and e5m2, mixed or not) accumulates in f32.
  t.fp8 = isFp8Type(in) && isFp8Type(bIn) && accElem.isF32();
  if (in != bIn && !t.fp8)
    return DotTypes();
  t.elemBytes = in.getIntOrFloatBitWidth() / 8;
  return t;
}

/// The operand buffers' layouts: wgmma and ldmatrix transpose only 16-bit
/// operands, so tf32, fp8 and i8 ones are K-major whatever the registers
/// hold (the stores into the buffer then write one element each); 16-bit
/// ones keep the registers' contiguous dim. `aSpan` / `bSpan`: the most
/// elements an MN-major row may span (what one instruction reads).
static bool planOperands(DotOp dot, const DotTypes &t, int64_t aSpan, int64_t bSpan,
                         TensorCorePlan &plan) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  int64_t k = aType.getShape()[1];
  unsigned aContig = t.f16 ? contiguousDim(dot.getA()) : 1;
  unsigned bContig = t.f16 ? contiguousDim(dot.getB()) : 0;
  MLIRContext *ctx = dot.getContext();
  std::optional<SharedEncodingAttr> aShared =
      nvmmaLayout(ctx, aType.getShape(), t.elemBytes, aContig, aContig == 0 ? aSpan : k);
  std::optional<SharedEncodingAttr> bShared =
      nvmmaLayout(ctx, bType.getShape(), t.elemBytes, bContig, bContig == 1 ? bSpan : k);
  if (!aShared || !bShared)
    return false;
  plan.aShared = *aShared;
  plan.bShared = *bShared;
  return true;
}

/// True for the ops that run a dot on the tensor cores from shared memory.
static bool isTensorCoreDot(Operation *op) { return isa<WarpGroupDotOp, MmaSyncOp>(op); }

/// A dot before or after blkgpu-accelerate-matmul.
static bool isAnyDot(Operation *op) { return isa<DotOp>(op) || isTensorCoreDot(op); }

/// A search over values from `start`: `step` visits each value once and
/// returns true when it is the one sought, else adds the values to visit
/// next to its second argument.
static bool searchValues(Value start,
                         llvm::function_ref<bool(Value, SmallVectorImpl<Value> &)> step) {
  SmallVector<Value> work{start};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (seen.insert(v).second && step(v, work))
      return true;
  }
  return false;
}

/// True when `start` reaches the A or B operand of a dot, following uses
/// through loops (a value an scf.for yields, or starts with, is also used
/// where its iteration argument and its result are) and branches; an
/// accumulator operand does not count (a GEMM's dot feeds its own).
static bool feedsDotOperand(Value start) {
  return searchValues(start, [](Value v, SmallVectorImpl<Value> &next) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned i = use.getOperandNumber();
      if (isAnyDot(user)) {
        if (i < 2)
          return true;
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (i >= loop.getNumControlOperands()) { // an init value, not a bound
          next.push_back(loop.getTiedLoopRegionIterArg(&use));
          next.push_back(loop.getTiedLoopResult(&use));
        }
        continue;
      }
      if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (auto loop = dyn_cast<scf::ForOp>(parent)) {
          next.push_back(loop.getRegionIterArg(i));
          next.push_back(loop.getResult(i));
        } else if (i < parent->getNumResults()) {
          next.push_back(parent->getResult(i));
        }
        continue;
      }
      for (Value r : user->getResults())
        next.push_back(r);
    }
    return false;
  });
}

/// True when `start` is computed from a dot's result, following definitions
/// through loops and branches (an scf.for iteration argument or result
/// comes from its init and from what the body yields; an scf.if result
/// from what either branch yields).
static bool comesFromDot(Value start) {
  return searchValues(start, [](Value v, SmallVectorImpl<Value> &next) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (loop && arg.getArgNumber() >= loop.getNumInductionVars()) {
        unsigned i = arg.getArgNumber() - loop.getNumInductionVars();
        next.push_back(loop.getInitArgs()[i]);
        next.push_back(loop.getBody()->getTerminator()->getOperand(i));
      }
      return false;
    }
    Operation *def = v.getDefiningOp();
    if (isAnyDot(def))
      return true;
    unsigned idx = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      next.push_back(loop.getInitArgs()[idx]);
      next.push_back(loop.getBody()->getTerminator()->getOperand(idx));
    } else if (auto branch = dyn_cast<scf::IfOp>(def)) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          next.push_back(region->front().getTerminator()->getOperand(idx));
    } else {
      next.append(def->operand_begin(), def->operand_end());
    }
    return false;
  });
}

/// True when `dot` is a link of a chain of dots (attention's Q·Kᵀ then
/// P·V, P possibly carried to the next iteration): its result feeds
/// another dot's operand, or its A operand comes from a dot.
static bool isChained(DotOp dot) {
  return feedsDotOperand(dot.getResult()) || comesFromDot(dot.getA());
}

/// How mma.sync runs `dot` with `numWarps` warps; nullopt when it cannot
/// (fp8, or a tile smaller than the warps' 16 x 16 tiles). A chained dot
/// puts every warp along M where the rows allow (16 or more per warp), as
/// FlashAttention does: each warp then holds whole rows of the first dot's
/// result, so its row max and sum take quad shuffles only, and that result
/// (P, cast to 16 bits) is the next dot's A fragment in registers.
static std::optional<TensorCorePlan> planMmaSync(DotOp dot, unsigned numWarps) {
  DotTypes t = dotTypes(dot);
  if (!t.any() || t.fp8)
    return std::nullopt;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  int64_t m = aType.getShape()[0], k = aType.getShape()[1], n = bType.getShape()[1];
  int64_t instrK = 32 / t.elemBytes; // one instruction reads 32 bytes of K
  if (k % instrK != 0 || m % 16 != 0 || n % 16 != 0)
    return std::nullopt;
  // Each warp holds whole 16 x 16 tiles (two 8-wide mma tiles: one
  // ldmatrix.x4 loads both B fragments).
  unsigned wm = 1, wn = 1;
  if (m % (16 * int64_t(numWarps)) == 0 && isChained(dot))
    wm = numWarps;
  while (wm * wn < numWarps) {
    bool mFits = m / (2 * wm) >= 16, nFits = n / (2 * wn) >= 16;
    if (mFits && (m / wm >= n / wn || !nFits))
      wm *= 2;
    else if (nFits)
      wn *= 2;
    else
      return std::nullopt;
  }
  TensorCorePlan plan;
  plan.mma = MmaEncodingAttr::get(dot.getContext(), 2, {wm, wn}, 8);
  auto accType = cast<RankedTensorType>(dot.getAcc().getType());
  if (!toLinearLayout(plan.mma, accType.getShape()) || !planOperands(dot, t, m, n, plan))
    return std::nullopt;
  return plan;
}

/// How wgmma runs `dot` with `numWarps` warps; nullopt when it cannot.
static std::optional<TensorCorePlan> planWgmma(DotOp dot, unsigned numWarps) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto accType = cast<RankedTensorType>(dot.getAcc().getType());
  DotTypes t = dotTypes(dot);
  if (!t.any())
    return std::nullopt;
  int64_t instrK = 32 / t.elemBytes; // one instruction reads 32 bytes of K
  int64_t m = aType.getShape()[0], k = aType.getShape()[1], n = bType.getShape()[1];
  if (numWarps % 4 != 0 || k % instrK != 0 || n % 16 != 0 || m < 64)
    return std::nullopt;
  unsigned groups = numWarps / 4, groupsM = groups;
  while (groupsM > 1 && m < 64 * int64_t(groupsM))
    groupsM /= 2;
  unsigned groupsN = groups / groupsM;
  if (m % (64 * groupsM) != 0 || n % (16 * groupsN) != 0)
    return std::nullopt;
  unsigned instrN = unsigned(std::min<int64_t>(256, n / groupsN));
  TensorCorePlan plan;
  plan.mma = MmaEncodingAttr::get(dot.getContext(), 3, {4 * groupsM, groupsN}, instrN);
  if (!toLinearLayout(plan.mma, accType.getShape()))
    return std::nullopt;
  // An M-major A is read 64 rows at a time; an N-major B instrN columns.
  if (!planOperands(dot, t, 64, instrN, plan))
    return std::nullopt;
  return plan;
}

static Value convertTo(OpBuilder &b, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return b.create<ConvertLayoutOp>(v.getLoc(), type, v);
}

/// When `accIn` converts a loop argument that the loop yields as `back`
/// (the accumulator of a dot inside a loop), keeps it in the mma layout:
/// the argument, its init and the loop's result take the type of `mma`
/// (the tensor-core dot's result).
static void keepAccumulatorInLoop(ConvertLayoutOp accIn, Value mma, ConvertLayoutOp back) {
  auto arg = dyn_cast<BlockArgument>(accIn.getSrc());
  if (!arg)
    return;
  auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getArgNumber() < loop.getNumInductionVars())
    return;
  unsigned idx = arg.getArgNumber() - loop.getNumInductionVars();
  Operation *yield = loop.getBody()->getTerminator();
  if (yield->getOperand(idx) != back.getResult())
    return;
  Type mmaType = mma.getType(), oldType = arg.getType();

  OpBuilder b(loop);
  Value init = convertTo(b, loop.getInitArgs()[idx], mmaType);
  loop.getInitArgsMutable()[idx].assign(init);
  arg.setType(mmaType);
  Value result = loop.getResult(idx);
  result.setType(mmaType);

  // Other users of the argument inside the loop read the old layout.
  b.setInsertionPointToStart(loop.getBody());
  Value argOld = convertTo(b, arg, oldType);
  arg.replaceUsesWithIf(argOld, [&](OpOperand &use) {
    return use.getOwner() != argOld.getDefiningOp() && use.getOwner() != accIn;
  });
  accIn.replaceAllUsesWith(arg);
  accIn.erase();
  yield->setOperand(idx, mma);

  b.setInsertionPointAfter(loop);
  Value resultOld = convertTo(b, result, oldType);
  result.replaceUsesWithIf(resultOld,
                           [&](OpOperand &use) { return use.getOwner() != resultOld.getDefiningOp(); });
  for (Value v : {argOld, Value(back.getResult())})
    if (v.use_empty())
      v.getDefiningOp()->erase();
}

/// `x` (f32) as hi + lo with hi = x's sign, exponent and top 10 mantissa
/// bits (exactly what tf32 keeps) and lo = x - hi (exact in f32; its own
/// tf32 part is what the tensor cores read of it).
static std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  auto bitsType = RankedTensorType::get(type.getShape(), b.getI32Type(), type.getEncoding());
  Value bits = b.create<arith::BitcastOp>(loc, bitsType, x);
  Value keep = b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(bitsType, APInt(32, 0xFFFFE000u)));
  Value hi = b.create<arith::BitcastOp>(loc, type, b.create<arith::AndIOp>(loc, bits, keep));
  return {hi, b.create<arith::SubFOp>(loc, x, hi)};
}

/// A buffer of `type` already holding `v`, stored before `outer` in a block
/// around it and only read since (by tensor-core dots): a Q tile read by the loops of
/// both of attention's phases is stored once, so that its registers do not
/// stay live across the first loop to fill a second copy after it. Null when
/// there is none.
static Value storedBefore(Value v, Type type, Operation *outer) {
  for (Operation *user : v.getUsers()) {
    auto alloc = dyn_cast<LocalAllocOp>(user);
    if (!alloc || alloc.getType() != type || alloc.getSrc() != v)
      continue;
    Operation *ancestor = alloc->getBlock()->findAncestorOpInBlock(*outer);
    if (!ancestor || !alloc->isBeforeInBlock(ancestor))
      continue;
    if (llvm::all_of(alloc->getUsers(), isTensorCoreDot))
      return alloc.getResult();
  }
  return {};
}

/// The outermost scf.for around `dot` that `v` is defined outside of (so
/// that what is made of `v` once can go before it); `dot` itself when `v`
/// comes from the innermost loop's body.
static Operation *outermostInvariantLoop(DotOp dot, Value v) {
  Operation *outer = dot;
  while (auto loop = outer->getParentOfType<scf::ForOp>()) {
    if (!loop.isDefinedOutsideOfLoop(v))
      break;
    outer = loop;
  }
  return outer;
}

/// Rewrites `dot` onto the tensor cores as `plan` says: blkgpu.wgmma for a
/// version-3 layout, blkgpu.mma_sync for a version-2 one.
static void rewriteDot(DotOp dot, const TensorCorePlan &plan) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto memdesc = [&](Value v, SharedEncodingAttr enc) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    Type type = MemDescType::get(ctx, t.getShape(), t.getElementType(), enc);
    // An operand computed before the loops around the dot (attention's Q
    // tile) is stored once, there, not in every iteration.
    Operation *outer = outermostInvariantLoop(dot, v);
    if (outer == dot)
      return b.create<LocalAllocOp>(loc, type, v);
    if (Value stored = storedBefore(v, type, outer))
      return stored;
    OpBuilder hoisted(outer);
    return hoisted.create<LocalAllocOp>(loc, type, v);
  };
  // mma.sync with every warp along M reads a small 16-bit A computed
  // before the loops around the dot (attention's Q at head dim 64) from
  // registers: converted once into the accumulator's layout, whose
  // registers are the A fragments (FlashAttention-2 keeps Q so), instead of
  // from shared memory with ldmatrix in every iteration. Only up to 16
  // registers per thread (16 rows x 64 per warp): more made ptxas spill in
  // the sample's head-dim-128 and backward configs (bench/NOTES.md,
  // session 14).
  auto registerA = [&](Value v) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t rowsPerWarp = t.getShape()[0] / plan.mma.getWarpsPerCTA()[0];
    if (plan.mma.getVersion() != 2 || plan.mma.getWarpsPerCTA()[1] != 1 ||
        !(t.getElementType().isF16() || t.getElementType().isBF16()) ||
        rowsPerWarp * t.getShape()[1] > 1024)
      return {};
    Operation *outer = outermostInvariantLoop(dot, v);
    if (outer == dot)
      return {};
    Type type = withEncoding(t, plan.mma);
    for (Operation *user : v.getUsers()) {
      auto convert = dyn_cast<ConvertLayoutOp>(user);
      Operation *ancestor = convert ? convert->getBlock()->findAncestorOpInBlock(*outer) : nullptr;
      if (ancestor && convert.getType() == type && convert->isBeforeInBlock(ancestor))
        return convert.getResult();
    }
    OpBuilder hoisted(outer);
    return hoisted.create<ConvertLayoutOp>(loc, type, v);
  };
  Type oldType = dot.getType();
  Type mmaType = withEncoding(oldType, plan.mma);
  auto accIn = b.create<ConvertLayoutOp>(loc, mmaType, dot.getAcc());
  auto create = [&](Value x, Value y, Value acc) -> Value {
    if (plan.mma.getVersion() == 2)
      return b.create<MmaSyncOp>(loc, mmaType, x, y, acc);
    return b.create<WarpGroupDotOp>(loc, mmaType, x, y, acc);
  };
  Value result;
  if (dot.getPrecision() == "tf32x3") {
    // a b ~ a_lo b_hi + a_hi b_lo + a_hi b_hi (a_lo b_lo is below f32's
    // rounding), the small products first.
    auto [aHi, aLo] = splitTf32(b, loc, dot.getA());
    auto [bHi, bLo] = splitTf32(b, loc, dot.getB());
    Value aHiBuf = memdesc(aHi, plan.aShared), bHiBuf = memdesc(bHi, plan.bShared);
    Value acc = accIn;
    for (auto [x, y] : {std::pair(memdesc(aLo, plan.aShared), bHiBuf),
                        std::pair(aHiBuf, memdesc(bLo, plan.bShared)), std::pair(aHiBuf, bHiBuf)}) {
      result = acc = create(x, y, acc);
    }
  } else {
    Value aOperand = registerA(dot.getA());
    if (!aOperand)
      aOperand = memdesc(dot.getA(), plan.aShared);
    Value bBuf = memdesc(dot.getB(), plan.bShared);
    result = create(aOperand, bBuf, accIn);
  }
  auto back = b.create<ConvertLayoutOp>(loc, oldType, result);
  dot.replaceAllUsesWith(back.getResult());
  dot.erase();
  keepAccumulatorInLoop(accIn, result, back);
}

/// A tile two wgmmas read, one of them through `trans` (attention's
/// backward reads Q as Qᵀ for S = K·Qᵀ and as Q for dK = dSᵀ·Q), is stored
/// once: local_alloc(trans(x)) becomes memdesc_trans(local_alloc(x)) where
/// the two buffers hold the same bytes (the operands' NVMMA layouts agree),
/// so that x's load has one user and blkgpu-pipeline-loops prefetches it.
static void shareTransposedBuffers(func::FuncOp func) {
  auto onlyWgmmas = [](LocalAllocOp alloc) {
    return llvm::all_of(alloc->getUsers(), isTensorCoreDot);
  };
  SmallVector<LocalAllocOp> viaTrans;
  func.walk([&](LocalAllocOp alloc) {
    if (alloc.getSrc() && alloc.getSrc().getDefiningOp<TransOp>())
      viaTrans.push_back(alloc);
  });
  for (LocalAllocOp transposed : viaTrans) {
    if (!onlyWgmmas(transposed))
      continue;
    auto trans = transposed.getSrc().getDefiningOp<TransOp>();
    for (Operation *user : trans.getSrc().getUsers()) {
      auto direct = dyn_cast<LocalAllocOp>(user);
      if (!direct || direct->getBlock() != transposed->getBlock() ||
          direct.getType().getTransposed() != transposed.getType() || !onlyWgmmas(direct))
        continue;
      // x is defined before trans(x), so the store may move up to there.
      if (transposed->isBeforeInBlock(direct))
        direct->moveBefore(transposed);
      OpBuilder b(transposed);
      Value view = b.create<MemDescTransOp>(transposed.getLoc(), transposed.getType(), direct);
      transposed.replaceAllUsesWith(view);
      transposed.erase();
      if (trans->use_empty())
        trans.erase();
      break;
    }
  }
}

namespace {
struct AccelerateMatmulPass : impl::AccelerateMatmulBase<AccelerateMatmulPass> {
  using AccelerateMatmulBase::AccelerateMatmulBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    GpuTarget target = GpuTarget::fromArch(arch, 80);
    if (!target.hasMmaSync() || !func->hasAttr(BlkGpuDialect::kNumWarpsAttr))
      return;
    unsigned numWarps = func->getAttrOfType<IntegerAttr>(BlkGpuDialect::kNumWarpsAttr).getInt();
    SmallVector<DotOp> dots;
    func.walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots) {
      std::optional<TensorCorePlan> plan;
      if (target.hasWgmma())
        plan = planWgmma(dot, numWarps);
      if (!plan)
        plan = planMmaSync(dot, numWarps);
      if (plan)
        rewriteDot(dot, *plan);
    }
    shareTransposedBuffers(func);
  }
};
} // namespace

} // namespace blk::gpu
