//===- RemoveLayoutConversions.cpp - --blkgpu-remove-layout-conversions --===//
//
// Expects: blkgpu IR from blkgpu-assign-layouts.
// Guarantees: no convert_layout of a convert_layout, none to the same type,
// none of a value that is cheap to recompute (index arithmetic from
// make_range / splat / constants): that value is recomputed in the target
// layout instead; and none whose only user is a narrowing cast (truncf,
// trunci) of a value that must move: the cast runs first, so fewer bytes
// move; and none of a 1-D load read only for the move (it loads in the
// target layout). Dead pure ops are erased. What remains needs data
// movement or a register permutation. Tests: tests/lit/blkgpu/remove-layout-conversions.mlir,
// tests/lit/codegen/layouts-remove-converts.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_REMOVELAYOUTCONVERSIONS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

bool isElementwise(Operation *op) {
  if (op->getNumRegions() != 0 || isa<arith::ConstantOp>(op))
    return false;
  if (isa<AddPtrOp, PtrCastOp, PtrToIntOp, MultipleOfOp, MaxContiguousOp>(op))
    return true;
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return ns == "arith" || ns == "math";
}

bool isRematerialisable(Value value, bool throughConversions, unsigned depth) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 12)
    return false;
  if (isa<MakeRangeOp, SplatOp, arith::ConstantOp>(def))
    return true;
  if (throughConversions && isa<ConvertLayoutOp>(def))
    return isRematerialisable(def->getOperand(0), throughConversions, depth + 1);
  bool cheap = isa<BroadcastOp, ExpandDimsOp, AddPtrOp, MultipleOfOp,
                   MaxContiguousOp>(def) ||
               (isElementwise(def) && def->getDialect()->getNamespace() == "arith");
  if (!cheap)
    return false;
  for (Value v : def->getOperands())
    if (isa<RankedTensorType>(v.getType()) && !isRematerialisable(v, throughConversions, depth + 1))
      return false;
  return true;
}

/// Recomputes `def` (a rematerialisable op) with result layout `enc`; null
/// when this op cannot produce that layout.
static Value rematerialise(OpBuilder &b, Operation *def, Attribute enc) {
  Type resType = withEncoding(def->getResult(0).getType(), enc);
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense)
      return {};
    return b.create<arith::ConstantOp>(def->getLoc(), resType,
                                       dense.reshape(cast<ShapedType>(resType)));
  }
  SmallVector<Attribute> operandEnc(def->getNumOperands(), enc);
  // Index arithmetic recomputed in an mma layout (a causal mask next to an
  // attention score tile) expands from the layout's slice.
  if (auto ed = dyn_cast<ExpandDimsOp>(def))
    operandEnc[0] = SliceEncodingAttr::get(b.getContext(), ed.getAxis(), enc);
  IRMapping map;
  for (auto [i, v] : llvm::enumerate(def->getOperands())) {
    if (!isa<RankedTensorType>(v.getType()))
      continue;
    Value c = v;
    if (getEncoding(v.getType()) != operandEnc[i])
      c = b.create<ConvertLayoutOp>(def->getLoc(),
                                    withEncoding(v.getType(), operandEnc[i]), v);
    map.map(v, c);
  }
  Operation *clone = b.clone(*def, map);
  clone->getResult(0).setType(resType);
  return clone->getResult(0);
}

/// Most elements a thread loads one by one in the target layout instead of
/// a move: each takes a register pair for its address (a masked load's
/// cannot fold into an immediate offset).
constexpr unsigned kMaxLoadedPerThread = 4;

/// True when `cvt` moves a 1-D block that a load reads only for it, from
/// addresses (and a mask and `other`) computed from indices, into a slice
/// of an mma layout of which each thread holds a few elements: attention's
/// lse and Δ going into the rows of a score tile (2 per thread). The load
/// then reads in the wanted layout: threads that hold the same element
/// load it again (from L1), where the move costs a shared-memory round
/// trip and a barrier. The columns of one (16 per thread) keep the move.
static bool isLoadedRowToMove(ConvertLayoutOp cvt) {
  auto load = cvt.getSrc().getDefiningOp<LoadOp>();
  if (!load || !load->hasOneUse() || cvt.getType().getRank() != 1)
    return false;
  std::optional<LayoutView> dst =
      getLayoutView(cvt.getType().getEncoding(), cvt.getType().getShape());
  if (!dst || dst->base || dst->numElems() > kMaxLoadedPerThread)
    return false; // into a blocked layout the load would give up its coalesced vectors
  return llvm::all_of(load->getOperands(), [](Value v) {
    return !isa<RankedTensorType>(v.getType()) || isRematerialisable(v);
  });
}

/// One simplification of `cvt`; true when it changed the IR.
static bool simplify(ConvertLayoutOp cvt) {
  Value src = cvt.getSrc();
  Type dstType = cvt.getType();
  if (src.getType() == dstType) {
    cvt.replaceAllUsesWith(src);
    cvt.erase();
    return true;
  }
  // A narrowing cast after the move goes before it: fewer bytes move
  // through shared memory (the f32 accumulator of a dot cast to f16). Not
  // for a source that is recomputed below: its move disappears, and
  // rematerialising the cast would put the move back after it, forever.
  if (cvt->hasOneUse() && !isRematerialisable(src)) {
    Operation *user = *cvt->getUsers().begin();
    if (isa<arith::TruncFOp, arith::TruncIOp>(user)) {
      OpBuilder b(user);
      Type narrow = user->getResult(0).getType();
      Operation *cast = b.clone(*user);
      cast->setOperand(0, src);
      cast->getResult(0).setType(withEncoding(narrow, getEncoding(src.getType())));
      Value moved = b.create<ConvertLayoutOp>(cvt.getLoc(), narrow, cast->getResult(0));
      user->getResult(0).replaceAllUsesWith(moved);
      user->erase();
      cvt.erase();
      return true;
    }
  }
  Operation *def = src.getDefiningOp();
  if (!def)
    return false;
  OpBuilder b(cvt);
  if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
    Value origin = inner.getSrc();
    Value repl = origin.getType() == dstType
                     ? origin
                     : b.create<ConvertLayoutOp>(cvt.getLoc(), dstType, origin);
    cvt.replaceAllUsesWith(repl);
    cvt.erase();
    return true;
  }
  if (isLoadedRowToMove(cvt)) {
    cvt.replaceAllUsesWith(rematerialise(b, def, getEncoding(dstType)));
    cvt.erase();
    return true;
  }
  if (def->getNumResults() != 1 || !isRematerialisable(src))
    return false;
  Value repl = rematerialise(b, def, getEncoding(dstType));
  if (!repl)
    return false;
  cvt.replaceAllUsesWith(repl);
  cvt.erase();
  return true;
}

static void eraseDeadOps(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    // Post-order: inner ops go before their parents; walk allows erasing
    // the visited op.
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (op != func && isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    });
  }
}

static void removeLayoutConversions(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<ConvertLayoutOp> converts;
    func.walk([&](ConvertLayoutOp cvt) { converts.push_back(cvt); });
    for (ConvertLayoutOp cvt : converts)
      changed |= simplify(cvt);
    eraseDeadOps(func);
  }
}

namespace {
struct RemoveLayoutConversionsPass
    : impl::RemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override { removeLayoutConversions(getOperation()); }
};
} // namespace

} // namespace blk::gpu
