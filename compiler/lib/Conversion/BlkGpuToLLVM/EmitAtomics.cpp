//===- EmitAtomics.cpp - atomic_rmw / atomic_cas --------------------------===//
//
// One LLVM atomicrmw / cmpxchg (relaxed, system scope) per element, guarded
// by the mask and by ownership (copies of an element must not update memory
// twice); scalar atomics run in thread 0 and their old value is broadcast to
// all threads through shared memory. Kinds PTX lacks (e.g. float max) are
// expanded by LLVM into compare-and-swap loops.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"

#include "blk/IR/BlkOps.h"


using namespace mlir;

namespace blk::gpu {

static llvm::AtomicRMWInst::BinOp binOp(AtomicRMWKind kind, bool isFloat) {
  using B = llvm::AtomicRMWInst::BinOp;
  switch (kind) {
  case AtomicRMWKind::add: return isFloat ? B::FAdd : B::Add;
  case AtomicRMWKind::fadd: return B::FAdd;
  case AtomicRMWKind::max: return isFloat ? B::FMax : B::Max;
  case AtomicRMWKind::min: return isFloat ? B::FMin : B::Min;
  case AtomicRMWKind::umax: return B::UMax;
  case AtomicRMWKind::umin: return B::UMin;
  case AtomicRMWKind::and_: return B::And;
  case AtomicRMWKind::or_: return B::Or;
  case AtomicRMWKind::xor_: return B::Xor;
  case AtomicRMWKind::xchg: return B::Xchg;
  }
  return B::Add;
}

/// Runs `body` where `pred` holds (always when null); returns its value
/// there and 0 elsewhere.
static llvm::Value *guarded(Emitter &e, llvm::Value *pred, llvm::Type *type,
                            const std::function<llvm::Value *()> &body) {
  if (!pred)
    return body();
  llvm::IRBuilder<> &b = e.b;
  llvm::BasicBlock *from = b.GetInsertBlock();
  auto *then = llvm::BasicBlock::Create(e.ctx, "atomic", e.fn);
  auto *cont = llvm::BasicBlock::Create(e.ctx, "atomic.end", e.fn);
  b.CreateCondBr(pred, then, cont);
  b.SetInsertPoint(then);
  llvm::Value *r = body();
  llvm::BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
  llvm::PHINode *phi = b.CreatePHI(type, 2);
  phi->addIncoming(r, thenEnd);
  phi->addIncoming(llvm::Constant::getNullValue(type), from);
  return phi;
}

/// Copies of an element did not run the atomic: they read the owner's old
/// value through shared memory.
static Elems shareFromOwners(Emitter &e, Operation *op, const LayoutView &v,
                             ArrayRef<llvm::Value *> vals) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *t = vals[0]->getType();
  int64_t numel = 1;
  for (int64_t s : v.shape)
    numel *= s;
  uint64_t base = e.scratchOffset(op, numel * e.mod.getDataLayout().getTypeAllocSize(t));
  SmallVector<SmallVector<llvm::Value *>> cs = e.coords(v);
  auto linear = [&](ArrayRef<llvm::Value *> c) {
    llvm::Value *lin = e.i32(0);
    for (unsigned d = 0; d < v.rank(); ++d)
      lin = b.CreateAdd(b.CreateMul(lin, e.i32(v.shape[d])), c[d]);
    return lin;
  };
  llvm::Value *owner = e.ownerPredicate(v);
  for (unsigned i = 0; i < vals.size(); ++i) {
    llvm::Value *slot = e.smemPtr(t, linear(cs[i]), base);
    guarded(e, owner, t, [&]() -> llvm::Value * {
      b.CreateStore(vals[i], slot);
      return vals[i];
    });
  }
  e.barrier();
  Elems out;
  for (unsigned i = 0; i < vals.size(); ++i)
    out.push_back(b.CreateLoad(t, e.smemPtr(t, linear(cs[i]), base)));
  return out;
}

/// The PTX `red` (reduction without a result) for an atomic whose old value
/// nobody reads, or "" where PTX has none. `atom` would make every thread
/// wait for the old value to come back from L2; `red` is fire-and-forget.
static std::string redInstruction(AtomicRMWKind kind, llvm::Type *t) {
  bool isFloat = t->isFloatingPointTy();
  unsigned bits = t->getPrimitiveSizeInBits();
  if (bits != 32 && bits != 64)
    return "";
  std::string b = std::to_string(bits);
  switch (kind) {
  case AtomicRMWKind::add:
  case AtomicRMWKind::fadd:
    return isFloat ? "add.f" + b : "add.u" + b;
  case AtomicRMWKind::max: return isFloat ? "" : "max.s" + b;
  case AtomicRMWKind::min: return isFloat ? "" : "min.s" + b;
  case AtomicRMWKind::umax: return "max.u" + b;
  case AtomicRMWKind::umin: return "min.u" + b;
  case AtomicRMWKind::and_: return "and.b" + b;
  case AtomicRMWKind::or_: return "or.b" + b;
  case AtomicRMWKind::xor_: return "xor.b" + b;
  default: return "";
  }
}

/// `red.global.<op> [ptr], val;` (relaxed, gpu scope: what `atom` without
/// qualifiers and LLVM's monotonic atomicrmw give).
static void emitRed(llvm::IRBuilder<> &b, const std::string &op, llvm::Value *ptr,
                    llvm::Value *val) {
  PtxBuilder ptx(b);
  std::string addr = ptx.input(ptr);
  ptx.line("red.global." + op + " [" + addr + "], " + ptx.input(val) + ";");
  ptx.clobberMemory().emit(/*hasSideEffects=*/true);
}

llvm::Error Emitter::emitAtomic(Operation *op) {
  Value ptrValue = op->getOperand(0);
  std::optional<LayoutView> v = viewOf(ptrValue);
  Elems &ptrs = get(ptrValue);
  Type pointee = cast<PtrType>(blk::getElementTypeOrSelf(ptrValue.getType())).getPointeeType();
  llvm::Type *ty = llvmType(pointee);
  if (ty->isIntegerTy(1))
    return fail(op, "on i1 is not supported");
  llvm::Value *owner = v ? ownerPredicate(*v) : b.CreateICmpEQ(tid, i32(0));
  auto pick = [](Elems &e, unsigned i) { return e[e.size() == 1 ? 0 : i]; };
  Elems out;
  if (auto rmw = dyn_cast<AtomicRMWOp>(op)) {
    Elems &vals = get(rmw.getValue());
    Elems *mask = rmw.getMask() ? &get(rmw.getMask()) : nullptr;
    auto kind = binOp(rmw.getKind(), ty->isFloatingPointTy());
    std::string red =
        op->getResult(0).use_empty() ? redInstruction(rmw.getKind(), ty) : std::string();
    for (unsigned i = 0; i < ptrs.size(); ++i) {
      llvm::Value *pred = andPred(mask ? pick(*mask, i) : nullptr, owner);
      out.push_back(guarded(*this, pred, ty, [&]() -> llvm::Value * {
        if (!red.empty()) {
          emitRed(b, red, ptrs[i], pick(vals, i));
          return llvm::PoisonValue::get(ty); // unused: no old value
        }
        return b.CreateAtomicRMW(kind, ptrs[i], pick(vals, i), llvm::MaybeAlign(),
                                 llvm::AtomicOrdering::Monotonic);
      }));
    }
  } else {
    auto cas = cast<AtomicCASOp>(op);
    Elems &cmp = get(cas.getCmp());
    Elems &val = get(cas.getVal());
    llvm::Type *it = b.getIntNTy(ty->getPrimitiveSizeInBits());
    for (unsigned i = 0; i < ptrs.size(); ++i) {
      llvm::Value *r = guarded(*this, owner, it, [&]() -> llvm::Value * {
        llvm::Value *c = b.CreateBitCast(pick(cmp, i), it);
        llvm::Value *n = b.CreateBitCast(pick(val, i), it);
        llvm::Value *pair = b.CreateAtomicCmpXchg(
            ptrs[i], c, n, llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic,
            llvm::AtomicOrdering::Monotonic);
        return b.CreateExtractValue(pair, 0);
      });
      out.push_back(b.CreateBitCast(r, ty));
    }
  }
  if (!v && !op->getResult(0).use_empty())
    out[0] = broadcastFromThread0(op, out[0]);
  if (v && owner && !op->getResult(0).use_empty())
    out = shareFromOwners(*this, op, *v, out);
  set(op->getResult(0), std::move(out));
  return llvm::Error::success();
}

} // namespace blk::gpu
