//===- AutoSpecialize.cpp - --blkgpu-auto-specialize ----------------------===//
//
// Expects: optimised blk IR, one func per specialisation (IRGen's order:
// each generic entry before its value variants). Guarantees: after every
// kernel func without `@specialize` (no `blk.specialize`, not a variant),
// when assuming something about its arguments widens one of its memory
// accesses, "assumed variants": copies compiled under those assumptions,
// marked `blk.variant_of` = the entry and `blk.variant_assume` =
// (argument, kind, value) triples that the runtime tests at each launch,
// trying them in order (docs/manifest.md, "Assumed variants"):
//  - `<entry>__auto`, row-major: every access contiguous along its last dim;
//  - `<entry>__auto_bt`, when a dot's B operand is loaded as a [K, N] tile:
//    that tile read down K instead (the tutorial's `b.T` handed over
//    through the strides), everything else row-major. Only made when its
//    unit strides differ from the row-major variant's.
//
// This is blk's ahead-of-time form of what Triton's JIT does per launch:
// a tutorial kernel passes every stride, unit ones included, and no hints.
// The assumptions are those of the common case, a tensor at a cudaMalloc'd
// address with sizes that are multiples of 16:
//  - `== 1` for an integer argument whose being 1 makes some access
//    contiguous along the dim the variant wants, and none along another
//    (the stride of the fastest dim);
//  - `% 16 == 0` for the other integer arguments, 16-byte alignment for
//    pointer arguments;
// then each assumption that changes no access's facts (the dim its vectors
// run along and, along it, contiguity, alignment up to 16 bytes, mask
// constancy up to a 16-byte vector: what coalescing and the emitter read)
// is dropped again, so the runtime tests only what pays. The facts are axis
// info's, compared on copies of the func; nothing here guesses at the code
// the back end will make.
// Test: tests/lit/blkgpu/auto-specialize.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Coalesce.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "blk/Analysis/AxisInfo.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

#include <numeric>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_AUTOSPECIALIZE
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// What the runtime tests about one argument (the manifest's spelling).
enum class AssumeKind : int64_t { Aligned = 0, Equals = 1, MultipleOf = 2 };

struct Assumption {
  unsigned arg;
  AssumeKind kind;
  int64_t value;
};

constexpr int64_t kVectorBytes = 16;

/// What vectorising one block memory op reads off axis info: the dim its
/// vectors run along (the most contiguous one, ties to the later dim, as
/// blkgpu-coalesce orders them) and, along it, the contiguity, the
/// alignment and the mask's constancy, the last two capped at a 16-byte
/// vector (more would widen nothing). `contiguity` per dim is kept for the
/// choice of unit strides; it is not compared.
struct AccessKey {
  unsigned dim = 0;
  int64_t vecContiguity = 1, alignBytes = 1, maskConstancy = 1;
  SmallVector<int64_t> contiguity;
  bool operator==(const AccessKey &o) const {
    return dim == o.dim && vecContiguity == o.vecContiguity && alignBytes == o.alignBytes &&
           maskConstancy == o.maskConstancy;
  }
};

/// Per block memory op of a func, in walk order.
using AccessFacts = SmallVector<AccessKey>;

AccessFacts accessFacts(func::FuncOp func) {
  AxisInfoAnalysis analysis(func);
  AccessFacts facts;
  func.walk([&](Operation *op) {
    if (!isBlockMemoryOp(op))
      return;
    AccessHints hints = computeAccessHints(analysis, op);
    unsigned rank = hints.contiguity.size();
    AccessKey key;
    key.dim = rank - 1;
    for (unsigned d = rank; d-- > 0;)
      if (hints.contiguity[d] > hints.contiguity[key.dim])
        key.dim = d;
    int64_t elemBytes = getMemoryElemBits(op) / 8;
    key.vecContiguity = hints.contiguity[key.dim];
    key.alignBytes = std::min(hints.alignBytes[key.dim], kVectorBytes);
    key.maskConstancy = std::min(hints.maskConstancy[key.dim],
                                 std::max<int64_t>(1, kVectorBytes / elemBytes));
    key.contiguity = hints.contiguity;
    facts.push_back(std::move(key));
  });
  return facts;
}

/// The `blk.aligned` / `blk.multiple_of` hint of argument `arg`; 1 without.
int64_t hintOf(func::FuncOp func, unsigned arg, StringRef name) {
  auto attr = func.getArgAttrOfType<IntegerAttr>(arg, name);
  return attr ? attr.getInt() : 1;
}

/// Applies `assumptions` to `func` in place: an `Equals` argument's uses
/// become the constant, the others get the hint attribute the axis info
/// reads (combined with any the source gave).
void applyAssumptions(func::FuncOp func, ArrayRef<Assumption> assumptions) {
  OpBuilder b(func.getContext());
  Block &entry = func.getBody().front();
  for (const Assumption &a : assumptions) {
    BlockArgument arg = entry.getArgument(a.arg);
    if (a.kind == AssumeKind::Equals) {
      b.setInsertionPointToStart(&entry);
      Value c = b.create<arith::ConstantOp>(arg.getLoc(),
                                            b.getIntegerAttr(arg.getType(), a.value));
      arg.replaceAllUsesWith(c);
      continue;
    }
    StringRef name = a.kind == AssumeKind::Aligned ? "blk.aligned" : "blk.multiple_of";
    func.setArgAttr(a.arg, name,
                    b.getI32IntegerAttr(int32_t(std::lcm(hintOf(func, a.arg, name), a.value))));
  }
}

/// The facts of a copy of `func` under `assumptions` (the copy is erased).
AccessFacts factsUnder(func::FuncOp func, ArrayRef<Assumption> assumptions) {
  auto copy = cast<func::FuncOp>(func->clone());
  applyAssumptions(copy, assumptions);
  AccessFacts facts = accessFacts(copy);
  copy->destroy();
  return facts;
}

/// True when access `i` of `with` is contiguous over more elements along
/// dim `dim` (counted from the last: 0 is the last dim) than in `without`.
bool widens(const AccessFacts &without, const AccessFacts &with, size_t i, unsigned fromLast) {
  const SmallVector<int64_t> &a = without[i].contiguity, &b = with[i].contiguity;
  return fromLast < a.size() && b[b.size() - 1 - fromLast] > a[a.size() - 1 - fromLast];
}

/// Which dim of each access a variant wants contiguous: its last (row-major),
/// or, for the accesses in `kMajor`, dim 0 (a dot's B tile [BK, BN] read down
/// K: the tutorial's `b.T` handed over through the strides).
struct Orientation {
  llvm::SmallDenseSet<size_t> kMajor;
  unsigned wantedFromLast(const AccessFacts &facts, size_t i) const {
    return kMajor.contains(i) ? unsigned(facts[i].contiguity.size() - 1) : 0;
  }
};

/// The assumptions worth a variant of `func` for `orientation`; empty when
/// none widens an access.
SmallVector<Assumption> chooseAssumptions(func::FuncOp func, const AccessFacts &base,
                                          const Orientation &orientation) {
  // First every integer a multiple of 16 and every pointer aligned ...
  SmallVector<Assumption> all;
  Block &entry = func.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    if (arg.use_empty())
      continue;
    if (isa<PtrType>(arg.getType())) {
      if (hintOf(func, i, "blk.aligned") % kVectorBytes != 0)
        all.push_back({i, AssumeKind::Aligned, kVectorBytes});
      continue;
    }
    auto type = dyn_cast<IntegerType>(arg.getType());
    if (type && type.getWidth() >= 8 && hintOf(func, i, "blk.multiple_of") % 16 != 0)
      all.push_back({i, AssumeKind::MultipleOf, 16});
  }
  // ... then, against that, the unit strides: an integer whose being 1
  // instead makes some access contiguous along the dim the orientation
  // wants, and none along a dim it does not want. (Against nothing known,
  // `(pid_n * BN + arange(0, BN)) % N` times a stride of 1 is contiguous
  // only once N is a multiple of 16.)
  AccessFacts divisible = factsUnder(func, all);
  SmallVector<size_t> units;
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k].kind != AssumeKind::MultipleOf || hintOf(func, all[k].arg, "blk.multiple_of") != 1)
      continue;
    SmallVector<Assumption> trial(all);
    trial[k] = {all[k].arg, AssumeKind::Equals, 1};
    AccessFacts one = factsUnder(func, trial);
    bool unit = false, unwanted = false;
    for (size_t a = 0; a < divisible.size(); ++a) {
      unsigned rank = unsigned(divisible[a].contiguity.size());
      for (unsigned d = 0; d < rank; ++d)
        if (widens(divisible, one, a, d))
          (d == orientation.wantedFromLast(divisible, a) ? unit : unwanted) = true;
    }
    if (unit && !unwanted)
      units.push_back(k);
  }
  for (size_t k : units)
    all[k] = {all[k].arg, AssumeKind::Equals, 1};
  AccessFacts full = factsUnder(func, all);
  if (full == base)
    return {};
  // Drop, one at a time, what the others make redundant or what no access
  // reads: the runtime then tests only assumptions that change the code.
  for (size_t i = all.size(); i-- > 0;) {
    SmallVector<Assumption> without(all);
    without.erase(without.begin() + long(i));
    if (factsUnder(func, without) == full)
      all = std::move(without);
  }
  return all;
}

/// Indices (in accessFacts' order) of the loads that give a dot its B
/// operand as a [K, N] tile directly: those a K-major variant reads down K.
llvm::SmallDenseSet<size_t> dotBLoads(func::FuncOp func) {
  llvm::SmallPtrSet<Operation *, 4> bLoads;
  func.walk([&](DotOp dot) {
    if (auto load = dot.getB().getDefiningOp<LoadOp>())
      bLoads.insert(load);
  });
  llvm::SmallDenseSet<size_t> out;
  size_t index = 0;
  func.walk([&](Operation *op) {
    if (!isBlockMemoryOp(op))
      return;
    if (bLoads.contains(op))
      out.insert(index);
    ++index;
  });
  return out;
}

/// The variant of `func` under `assumptions`, inserted right after it.
func::FuncOp addAssumedVariant(func::FuncOp func, Operation *after, StringRef suffix,
                               ArrayRef<Assumption> assumptions,
                               const FrozenRewritePatternSet &canonicalization) {
  OpBuilder b(func.getContext());
  b.setInsertionPointAfter(after);
  auto variant = cast<func::FuncOp>(b.clone(*func));
  variant.setSymName((func.getSymName() + suffix).str());
  applyAssumptions(variant, assumptions);
  SmallVector<int64_t> triples;
  for (const Assumption &a : assumptions)
    triples.append({int64_t(a.arg), int64_t(a.kind), a.value});
  variant->setAttr("blk.variant_of", b.getStringAttr(func.getSymName()));
  variant->setAttr("blk.variant_assume", b.getDenseI64ArrayAttr(triples));
  // Fold what the constants make foldable (x * 1, ...), as the blk
  // pipeline's canonicalizer did for the entry itself.
  (void)applyPatternsAndFoldGreedily(variant, canonicalization);
  return variant;
}

bool sameEquals(ArrayRef<Assumption> a, ArrayRef<Assumption> b) {
  auto units = [](ArrayRef<Assumption> as) {
    SmallVector<unsigned> out;
    for (const Assumption &x : as)
      if (x.kind == AssumeKind::Equals)
        out.push_back(x.arg);
    return out;
  };
  return units(a) == units(b);
}

struct AutoSpecializePass : impl::AutoSpecializeBase<AutoSpecializePass> {
  void runOnOperation() override {
    // Idempotent: blkc runs the pass on the blk module before the per-arch
    // pipelines (so the manifest and the job list see the variants), and
    // the pipeline holds it again for blk-opt.
    llvm::StringSet<> done;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr("blk.variant_assume"))
        if (auto of = func->getAttrOfType<StringAttr>("blk.variant_of"))
          done.insert(of.getValue());
    SmallVector<func::FuncOp> kernels;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func->hasAttr("blk.kernel") && !func->hasAttr("blk.specialize") &&
          !func->hasAttr("blk.variant_of") && !done.contains(func.getSymName()) &&
          !func->hasAttr(BlkGpuDialect::kNumWarpsAttr) && !func.isExternal())
        kernels.push_back(func);
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    FrozenRewritePatternSet canonicalization(std::move(patterns));
    for (func::FuncOp func : kernels) {
      AccessFacts base = accessFacts(func);
      if (base.empty())
        continue;
      // Row-major first: the runtime tries the variants in this order.
      SmallVector<Assumption> rowMajor = chooseAssumptions(func, base, Orientation{});
      Operation *last = func;
      if (!rowMajor.empty())
        last = addAssumedVariant(func, last, "__auto", rowMajor, canonicalization);
      Orientation kMajor{dotBLoads(func)};
      if (kMajor.kMajor.empty())
        continue;
      SmallVector<Assumption> bt = chooseAssumptions(func, base, kMajor);
      if (!bt.empty() && !sameEquals(bt, rowMajor))
        addAssumedVariant(func, last, "__auto_bt", bt, canonicalization);
    }
  }
};

} // namespace

} // namespace blk::gpu
