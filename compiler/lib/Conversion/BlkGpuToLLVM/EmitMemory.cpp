//===- EmitMemory.cpp - load, store, atomics ------------------------------===//
//
// Loads and stores move vectors of up to 16 bytes: consecutive elements of
// a thread along the layout's fastest dim, as far as axis info proves them
// contiguous and aligned (and, when masked, equally masked). Unmasked
// accesses are plain LLVM vector loads/stores on addrspace(1) (PTX
// ld.global.v4.f32); masked ones are predicated inline PTX
// (`@p ld.global.v4.b32`, the destination pre-set to `other`). Copies of an
// element held by several threads are stored / updated by one owner only.
// Scalar stores and atomics run in thread 0. Test: codegen/vectorize-*.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Coalesce.h"
#include "Emitter.h"
#include "PtxBuilder.h"

#include "blk/IR/BlkOps.h"


using namespace mlir;

namespace blk::gpu {
namespace {

/// One vector access: `vec` elements starting at local element `first`,
/// `stride` apart in the thread's element list.
struct Group {
  unsigned first, stride, vec;
};

struct PtxWords {
  unsigned bits;  ///< bits per word (64, 32, 16 or 8)
  unsigned count; ///< words per access (1, 2 or 4)
};

} // namespace

static PtxWords wordsFor(unsigned elemBits, unsigned vec) {
  unsigned total = elemBits * vec;
  if (elemBits == 64)
    return {64, vec};
  if (total >= 32)
    return {32, total / 32};
  return {total, 1};
}

/// The dim along which a thread's consecutive registers run: the blocked
/// layout's first in `order`, or an mma layout's columns (its registers
/// come in column pairs).
static unsigned fastestDim(const LayoutView &v) {
  return v.base ? v.base.getOrder()[0] : v.rank() - 1;
}

static SmallVector<Group> groupsFor(const LayoutView *v, unsigned numElems,
                                    unsigned vec) {
  SmallVector<Group> groups;
  if (!v || vec == 1) {
    for (unsigned i = 0; i < numElems; ++i)
      groups.push_back({i, 1, 1});
    return groups;
  }
  unsigned d0 = fastestDim(*v);
  unsigned stride = 1;
  for (unsigned d = d0 + 1; d < v->perDim.size(); ++d)
    stride *= v->perDim[d];
  for (unsigned i = 0; i < numElems; ++i)
    if (((i / stride) % v->perDim[d0]) % vec == 0)
      groups.push_back({i, stride, vec});
  return groups;
}

/// Vector width for `op` in layout `v` (elements), 1 when not provable.
static unsigned vectorWidth(Operation *op, const LayoutView *v, bool masked,
                            bool trustAlignment = true) {
  if (!v || !v->sliced.empty())
    return 1; // one element at a time off a blocked layout (a load's)
  unsigned d0 = fastestDim(*v);
  AccessHints hints = getAccessHints(op);
  if (!trustAlignment)
    hints.alignBytes.assign(hints.alignBytes.size(), 16);
  unsigned vec = getVectorWidth(hints, d0, getMemoryElemBits(op), masked);
  return std::min<unsigned>(vec, v->sizeEff[d0]);
}

unsigned provenVectorWidth(Operation *op, const LayoutView &v, bool masked,
                           bool trustAlignment) {
  return v.base ? vectorWidth(op, &v, masked, trustAlignment) : 1;
}

namespace {
/// How a memory op moves its groups (see chooseWidth).
struct Width {
  unsigned vec = 1;
  bool split = false;      ///< vector only where `all` holds, else per element
  bool checkAlign = false; ///< `all` includes a run-time alignment test
};
} // namespace

/// Vector width. Contiguity must be proven; when the mask's constancy or
/// the proven alignment allow less than contiguity does, a group moves as
/// one vector where all its mask bits are set (and its address is aligned,
/// tested at run time) and element by element otherwise, so only the
/// block's ragged edge or a misaligned row pays.
static Width chooseWidth(Operation *op, const LayoutView *v, bool masked) {
  unsigned proven = vectorWidth(op, v, masked);
  if (!v || v->numElems() == 1)
    return {proven, false, false};
  unsigned full = vectorWidth(op, v, false, /*trustAlignment=*/false);
  if (full <= proven)
    return {proven, false, false};
  return {full, true, vectorWidth(op, v, false) < full};
}

/// True where `ptr` is aligned for a `bytes`-byte vector.
static llvm::Value *isAligned(llvm::IRBuilder<> &b, llvm::Value *ptr, unsigned bytes) {
  llvm::Value *addr = b.CreatePtrToInt(ptr, b.getInt64Ty());
  return b.CreateICmpEQ(b.CreateAnd(addr, bytes - 1), b.getInt64(0));
}

/// AND of the mask bits of a group's elements.
static llvm::Value *allOf(llvm::IRBuilder<> &b, ArrayRef<llvm::Value *> mask, Group g) {
  if (mask.empty())
    return nullptr;
  llvm::Value *all = mask[g.first];
  for (unsigned j = 1; j < g.vec; ++j)
    all = b.CreateAnd(all, mask[g.first + j * g.stride]);
  return all;
}

static std::string cacheSuffix(Operation *op, bool isLoad) {
  auto evict = op->getAttrOfType<EvictionPolicyAttr>("evict");
  if (evict && evict.getValue() != EvictionPolicy::normal)
    return ".L1::" + stringifyEvictionPolicy(evict.getValue()).str();
  auto cache = op->getAttrOfType<CacheModifierAttr>("cache");
  if (!cache || cache.getValue() == CacheModifier::none)
    return "";
  std::string c = stringifyCacheModifier(cache.getValue()).str();
  bool loadOnly = c == "ca" || c == "lu" || c == "cv";
  bool storeOnly = c == "wb" || c == "wt";
  if ((isLoad && storeOnly) || (!isLoad && loadOnly))
    return "";
  return "." + c;
}

/// Packs `elems` (memory type) into PTX words / unpacks words into elements.
static SmallVector<llvm::Value *> toWords(llvm::IRBuilder<> &b, ArrayRef<llvm::Value *> elems,
                                          PtxWords w) {
  llvm::Type *et = elems[0]->getType();
  llvm::Value *vecVal = llvm::PoisonValue::get(llvm::FixedVectorType::get(et, elems.size()));
  for (auto [i, e] : llvm::enumerate(elems))
    vecVal = b.CreateInsertElement(vecVal, e, i);
  unsigned wbits = w.bits == 8 ? 8 : w.bits;
  llvm::Value *words = b.CreateBitCast(
      vecVal, llvm::FixedVectorType::get(b.getIntNTy(wbits), w.count));
  SmallVector<llvm::Value *> out;
  for (unsigned i = 0; i < w.count; ++i) {
    llvm::Value *x = b.CreateExtractElement(words, i);
    out.push_back(w.bits == 8 ? b.CreateZExt(x, b.getInt16Ty()) : x);
  }
  return out;
}

static SmallVector<llvm::Value *> fromWords(llvm::IRBuilder<> &b, ArrayRef<llvm::Value *> words,
                                            PtxWords w, llvm::Type *et, unsigned vec) {
  llvm::Type *wt = b.getIntNTy(w.bits);
  llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(wt, w.count));
  for (auto [i, x] : llvm::enumerate(words))
    v = b.CreateInsertElement(v, w.bits == 8 ? b.CreateTrunc(x, wt) : x, i);
  v = b.CreateBitCast(v, llvm::FixedVectorType::get(et, vec));
  SmallVector<llvm::Value *> out;
  for (unsigned i = 0; i < vec; ++i)
    out.push_back(b.CreateExtractElement(v, i));
  return out;
}

static std::string vecSuffix(PtxWords w) {
  return (w.count > 1 ? ".v" + std::to_string(w.count) : std::string()) + ".b" +
         std::to_string(w.bits);
}

/// `$a` or `{$a, $b, ...}`: the registers of a vector access.
static std::string regList(ArrayRef<std::string> regs) {
  std::string s = regs.size() > 1 ? "{" : "";
  for (auto [i, r] : llvm::enumerate(regs))
    s += (i ? ", " : "") + r;
  return s + (regs.size() > 1 ? "}" : "");
}

/// Predicated vector load: words pre-set to `other` (or 0).
static SmallVector<llvm::Value *> asmLoad(Emitter &e, llvm::Value *ptr, llvm::Value *pred,
                                          ArrayRef<llvm::Value *> other, llvm::Type *memTy,
                                          unsigned vec, const std::string &mods) {
  llvm::IRBuilder<> &b = e.b;
  unsigned bits = memTy->getPrimitiveSizeInBits();
  PtxWords w = wordsFor(bits, vec);
  // 8-bit words travel in 16-bit registers (PTX has no 8-bit ones).
  llvm::Type *wordTy = w.bits == 8 ? b.getInt16Ty() : b.getIntNTy(w.bits);
  PtxBuilder ptx(b);
  SmallVector<std::string> regs;
  for (unsigned i = 0; i < w.count; ++i)
    regs.push_back(ptx.output(wordTy));
  std::string addr = ptx.input(ptr);
  SmallVector<llvm::Value *> otherWords;
  if (!other.empty())
    otherWords = toWords(b, other, w);
  std::string movBits = std::to_string(w.bits == 8 ? 16 : w.bits);
  for (unsigned i = 0; i < w.count; ++i)
    ptx.line("mov.b" + movBits + " " + regs[i] + ", " +
             (otherWords.empty() ? std::string("0") : ptx.input(otherWords[i])) + ";");
  std::string guard = pred ? "@" + ptx.predicate(pred) + " " : "";
  ptx.line(guard + "ld" + mods + vecSuffix(w) + " " + regList(regs) + ", [" + addr + "];");
  ptx.emit(/*hasSideEffects=*/true);
  SmallVector<llvm::Value *> words;
  for (unsigned i = 0; i < w.count; ++i)
    words.push_back(ptx.result(i));
  return fromWords(b, words, w, memTy, vec);
}

static void asmStore(Emitter &e, llvm::Value *ptr, llvm::Value *pred,
                     ArrayRef<llvm::Value *> vals, const std::string &mods) {
  llvm::IRBuilder<> &b = e.b;
  unsigned bits = vals[0]->getType()->getPrimitiveSizeInBits();
  PtxWords w = wordsFor(bits, vals.size());
  PtxBuilder ptx(b);
  std::string addr = ptx.input(ptr);
  SmallVector<std::string> regs;
  for (llvm::Value *x : toWords(b, vals, w))
    regs.push_back(ptx.input(x));
  std::string guard = pred ? "@" + ptx.predicate(pred) + " " : "";
  ptx.line(guard + "st" + mods + vecSuffix(w) + " [" + addr + "], " + regList(regs) + ";");
  ptx.emit(/*hasSideEffects=*/true);
}

llvm::Error Emitter::emitMemoryOp(Operation *op) {
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return emitAtomic(op);
  Value ptrValue = op->getOperand(0);
  std::optional<LayoutView> v = viewOf(ptrValue);
  Elems &ptrs = get(ptrValue);
  Type pointee = cast<PtrType>(blk::getElementTypeOrSelf(ptrValue.getType())).getPointeeType();
  llvm::Type *memTy = memType(pointee);
  llvm::Type *regTy = llvmType(pointee);
  uint64_t bytes = mod.getDataLayout().getTypeStoreSize(memTy);

  if (auto load = dyn_cast<LoadOp>(op)) {
    Elems *mask = load.getMask() ? &get(load.getMask()) : nullptr;
    Elems *other = load.getOther() ? &get(load.getOther()) : nullptr;
    Width width = chooseWidth(op, v ? &*v : nullptr, mask != nullptr);
    unsigned vec = width.vec;
    bool split = width.split;
    std::string mods = std::string(load.getIsVolatile() ? ".volatile" : "") + ".global" +
                       cacheSuffix(op, true);
    bool plain = !mask && !split && mods == ".global";
    Elems out(ptrs.size(), nullptr);
    for (Group g : groupsFor(v ? &*v : nullptr, ptrs.size(), vec)) {
      llvm::Value *ptr = ptrs[g.first];
      SmallVector<llvm::Value *> vals;
      if (plain) {
        if (g.vec == 1) {
          vals.push_back(b.CreateAlignedLoad(memTy, ptr, llvm::Align(bytes)));
        } else {
          auto *vt = llvm::FixedVectorType::get(memTy, g.vec);
          llvm::Value *x = b.CreateAlignedLoad(vt, ptr, llvm::Align(bytes * g.vec));
          for (unsigned j = 0; j < g.vec; ++j)
            vals.push_back(b.CreateExtractElement(x, j));
        }
      } else {
        SmallVector<llvm::Value *> others;
        if (other)
          for (unsigned j = 0; j < g.vec; ++j) {
            llvm::Value *o = (*other)[other->size() == 1 ? 0 : g.first + j * g.stride];
            others.push_back(memTy != regTy ? b.CreateZExt(o, memTy) : o);
          }
        llvm::Value *pred = mask ? (*mask)[mask->size() == 1 ? 0 : g.first] : nullptr;
        if (split)
          pred = andPred(mask ? allOf(b, *mask, g) : nullptr,
                         width.checkAlign ? isAligned(b, ptr, g.vec * bytes) : nullptr);
        vals = asmLoad(*this, ptr, pred, others, memTy, g.vec, mods);
        // Split mode: the vector moves only when the whole group is in
        // the mask; otherwise each element loads alone.
        for (unsigned j = 0; split && j < g.vec; ++j) {
          unsigned e = g.first + j * g.stride;
          llvm::Value *alone = andPred(mask ? (*mask)[e] : nullptr, b.CreateNot(pred));
          vals[j] = asmLoad(*this, ptrs[e], alone, {vals[j]}, memTy, 1, mods)[0];
        }
      }
      for (unsigned j = 0; j < g.vec; ++j) {
        llvm::Value *x = vals[j];
        if (memTy != regTy)
          x = b.CreateICmpNE(x, llvm::ConstantInt::get(memTy, 0));
        out[g.first + j * g.stride] = x;
      }
    }
    set(load.getResult(), std::move(out));
    return llvm::Error::success();
  }

  auto store = cast<StoreOp>(op);
  Elems &vals = get(store.getValue());
  Elems *mask = store.getMask() ? &get(store.getMask()) : nullptr;
  llvm::Value *owner = v ? ownerPredicate(*v) : b.CreateICmpEQ(tid, i32(0));
  Width width = chooseWidth(op, v ? &*v : nullptr, mask != nullptr);
  unsigned vec = width.vec;
  std::string mods = ".global" + cacheSuffix(op, false);
  for (Group g : groupsFor(v ? &*v : nullptr, ptrs.size(), vec)) {
    SmallVector<llvm::Value *> elems;
    for (unsigned j = 0; j < g.vec; ++j) {
      llvm::Value *x = vals[vals.size() == 1 ? 0 : g.first + j * g.stride];
      elems.push_back(memTy != regTy ? b.CreateZExt(x, memTy) : x);
    }
    if (width.split) {
      llvm::Value *all = andPred(mask ? allOf(b, *mask, g) : nullptr,
                                 width.checkAlign ? isAligned(b, ptrs[g.first], g.vec * bytes)
                                                  : nullptr);
      asmStore(*this, ptrs[g.first], andPred(all, owner), elems, mods);
      for (unsigned j = 0; j < g.vec; ++j) {
        unsigned e = g.first + j * g.stride;
        llvm::Value *alone = andPred(mask ? (*mask)[e] : nullptr, b.CreateNot(all));
        asmStore(*this, ptrs[e], andPred(alone, owner), {elems[j]}, mods);
      }
      continue;
    }
    llvm::Value *pred = andPred(mask ? (*mask)[mask->size() == 1 ? 0 : g.first] : nullptr, owner);
    if (!pred && mods == ".global") {
      if (g.vec == 1) {
        b.CreateAlignedStore(elems[0], ptrs[g.first], llvm::Align(bytes));
        continue;
      }
      llvm::Value *x = llvm::PoisonValue::get(llvm::FixedVectorType::get(memTy, g.vec));
      for (unsigned j = 0; j < g.vec; ++j)
        x = b.CreateInsertElement(x, elems[j], j);
      b.CreateAlignedStore(x, ptrs[g.first], llvm::Align(bytes * g.vec));
      continue;
    }
    asmStore(*this, ptrs[g.first], pred, elems, mods);
  }
  return llvm::Error::success();
}

} // namespace blk::gpu
