//===- EmitFp8.cpp - conversions to and from f8e4m3 / f8e5m2 --------------===//
//
// fp8 values live in registers and memory as their i8 bits. LLVM 19 has no
// fp8 type, so `arith.extf` / `arith.truncf` with an fp8 side become PTX
// `cvt` on pairs (sm_90+): fp8 -> f16 is exact, f16 / f32 -> fp8 rounds to
// nearest even with `.satfinite` (docs/language.md §10.9); sm_90+. Each element is
// converted alone: its byte goes into both lanes of the pair, so the lane
// order of the packed forms does not matter. f64 -> fp8 first rounds to f32
// to odd (`cvt.rz` plus a sticky bit), so that the second rounding is the
// one correct rounding of the f64. Test: tests/lit/codegen/fp8-cvt.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace blk::gpu {

static const char *pairName(Type fp8) { return fp8.isFloat8E4M3FN() ? "e4m3x2" : "e5m2x2"; }

llvm::Value *Emitter::fp8ToHalf(llvm::Value *bits, Type fp8) {
  llvm::Value *w = b.CreateZExt(bits, b.getInt16Ty());
  llvm::Value *pair = b.CreateOr(w, b.CreateShl(w, 8));
  PtxBuilder ptx(b);
  std::string out = ptx.output(b.getInt32Ty());
  std::string in = ptx.input(pair);
  ptx.line(std::string("cvt.rn.f16x2.") + pairName(fp8) + " " + out + ", " + in + ";");
  llvm::Value *halves = ptx.emit(/*hasSideEffects=*/false);
  return b.CreateBitCast(b.CreateTrunc(halves, b.getInt16Ty()), b.getHalfTy());
}

/// half or float -> fp8 bits (i8), rounded to nearest even, saturated.
static llvm::Value *toFp8(llvm::IRBuilder<> &b, llvm::Value *x, Type fp8) {
  PtxBuilder ptx(b);
  std::string out = ptx.output(b.getInt16Ty());
  std::string form = std::string("cvt.rn.satfinite.") + pairName(fp8);
  if (x->getType()->isHalfTy()) {
    llvm::Value *h = b.CreateZExt(b.CreateBitCast(x, b.getInt16Ty()), b.getInt32Ty());
    std::string in = ptx.input(b.CreateOr(h, b.CreateShl(h, 16)));
    ptx.line(form + ".f16x2 " + out + ", " + in + ";");
  } else {
    std::string hi = ptx.input(x);
    std::string lo = ptx.input(x);
    ptx.line(form + ".f32 " + out + ", " + hi + ", " + lo + ";");
  }
  return b.CreateTrunc(ptx.emit(/*hasSideEffects=*/false), b.getInt8Ty());
}

/// double -> float rounded to odd: truncated, with the last bit set when
/// anything was dropped (NaN stays NaN, infinities stay infinite).
static llvm::Value *roundToOddF32(llvm::IRBuilder<> &b, llvm::Value *x) {
  PtxBuilder ptx(b);
  std::string out = ptx.output(b.getFloatTy());
  std::string in = ptx.input(x);
  ptx.line("cvt.rz.f32.f64 " + out + ", " + in + ";");
  llvm::Value *t = ptx.emit(/*hasSideEffects=*/false);
  llvm::Value *inexact = b.CreateFCmpUNE(b.CreateFPExt(t, b.getDoubleTy()), x);
  llvm::Value *bits = b.CreateOr(b.CreateBitCast(t, b.getInt32Ty()),
                                 b.CreateZExt(inexact, b.getInt32Ty()));
  return b.CreateBitCast(bits, b.getFloatTy());
}

bool isFp8Cast(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
         (isFp8Type(blk::getElementTypeOrSelf(op->getOperand(0).getType())) ||
          isFp8Type(blk::getElementTypeOrSelf(op->getResult(0).getType())));
}

llvm::Expected<llvm::Value *> Emitter::emitFp8Cast(Operation *op, llvm::Value *x) {
  Type from = blk::getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = blk::getElementTypeOrSelf(op->getResult(0).getType());
  if (!target.hasFp8Convert())
    return fail(op, "converts fp8, which needs --arch sm_90 or newer (" + target.arch +
                        " has no fp8 `cvt` in the PTX blk emits for it)");
  if (isFp8Type(from) && isFp8Type(to))
    return fail(op, "converts between two fp8 types directly (IRGen goes through f32)");
  if (isFp8Type(from)) {
    llvm::Value *h = fp8ToHalf(x, from);
    llvm::Type *rt = llvmType(to);
    if (rt->isHalfTy())
      return h;
    llvm::Value *f = b.CreateFPExt(h, b.getFloatTy());
    if (rt->isBFloatTy()) // exact: every fp8 value is a bf16 value
      return b.CreateFPTrunc(f, rt);
    return rt->isFloatTy() ? f : b.CreateFPExt(f, rt);
  }
  llvm::Type *ft = x->getType();
  if (ft->isBFloatTy())
    x = b.CreateFPExt(x, b.getFloatTy()); // exact
  else if (ft->isDoubleTy())
    x = roundToOddF32(b, x);
  return toFp8(b, x, to);
}

} // namespace blk::gpu
