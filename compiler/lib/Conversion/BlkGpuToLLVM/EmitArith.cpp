//===- EmitArith.cpp - arith / math / addptr, one element at a time -------===//
//
// Elementwise ops apply emitScalarOp to each element. Transcendentals on
// f32 use the PTX approximations Triton uses (ex2.approx, lg2.approx,
// rsqrt.approx); the rest call libdevice (__nv_*), linked by PtxGen.cpp
// only when used. f16/bf16 math goes through f32. exp and exp2 flush a
// subnormal result to zero (ex2.approx.ftz, as Triton's FTZ mode does):
// without .ftz ptxas wraps each MUFU.EX2 in a range test and two
// multiplies to produce subnormals, which attention's softmax pays per score.
// A kernel configured with `exp2_on_fma = N` computes one f32 exp2 (exp) in
// N of each thread's elements with a polynomial on the FMA units instead
// (emitExp2OnFma), taking that share off the MUFU pipe.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"

#include "blk/Support/Exp2OnFma.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace mlir;
using llvm::Intrinsic::ID;

namespace blk::gpu {

static llvm::CmpInst::Predicate intPredicate(arith::CmpIPredicate p) {
  using P = llvm::CmpInst::Predicate;
  switch (p) {
  case arith::CmpIPredicate::eq: return P::ICMP_EQ;
  case arith::CmpIPredicate::ne: return P::ICMP_NE;
  case arith::CmpIPredicate::slt: return P::ICMP_SLT;
  case arith::CmpIPredicate::sle: return P::ICMP_SLE;
  case arith::CmpIPredicate::sgt: return P::ICMP_SGT;
  case arith::CmpIPredicate::sge: return P::ICMP_SGE;
  case arith::CmpIPredicate::ult: return P::ICMP_ULT;
  case arith::CmpIPredicate::ule: return P::ICMP_ULE;
  case arith::CmpIPredicate::ugt: return P::ICMP_UGT;
  case arith::CmpIPredicate::uge: return P::ICMP_UGE;
  }
  return P::ICMP_EQ;
}

static llvm::CmpInst::Predicate floatPredicate(arith::CmpFPredicate p) {
  using P = llvm::CmpInst::Predicate;
  switch (p) {
  case arith::CmpFPredicate::AlwaysFalse: return P::FCMP_FALSE;
  case arith::CmpFPredicate::OEQ: return P::FCMP_OEQ;
  case arith::CmpFPredicate::OGT: return P::FCMP_OGT;
  case arith::CmpFPredicate::OGE: return P::FCMP_OGE;
  case arith::CmpFPredicate::OLT: return P::FCMP_OLT;
  case arith::CmpFPredicate::OLE: return P::FCMP_OLE;
  case arith::CmpFPredicate::ONE: return P::FCMP_ONE;
  case arith::CmpFPredicate::ORD: return P::FCMP_ORD;
  case arith::CmpFPredicate::UEQ: return P::FCMP_UEQ;
  case arith::CmpFPredicate::UGT: return P::FCMP_UGT;
  case arith::CmpFPredicate::UGE: return P::FCMP_UGE;
  case arith::CmpFPredicate::ULT: return P::FCMP_ULT;
  case arith::CmpFPredicate::ULE: return P::FCMP_ULE;
  case arith::CmpFPredicate::UNE: return P::FCMP_UNE;
  case arith::CmpFPredicate::UNO: return P::FCMP_UNO;
  case arith::CmpFPredicate::AlwaysTrue: return P::FCMP_TRUE;
  }
  return P::FCMP_FALSE;
}

/// math ops: f32 fast paths, else libdevice (through f32 for f16/bf16).
/// f32 `/` as `div.full.f32` (within 2 ulp, full range), as Triton does: the
/// IEEE `div.rn.f32` that LLVM picks is a subroutine call per element in SASS.
/// Division by a constant stays an `fdiv`, which LLVM folds to a multiply
/// when that is exact. LLVM 19 has no intrinsic for div.full, hence the asm.
static llvm::Value *emitFloatDiv(llvm::IRBuilder<> &b, llvm::Value *lhs, llvm::Value *rhs) {
  if (!lhs->getType()->isFloatTy() || llvm::isa<llvm::Constant>(rhs))
    return b.CreateFDiv(lhs, rhs);
  PtxBuilder ptx(b);
  // One statement per operand: their order is the operand order.
  std::string q = ptx.output(b.getFloatTy());
  std::string x = ptx.input(lhs);
  std::string y = ptx.input(rhs);
  ptx.line("div.full.f32 " + q + ", " + x + ", " + y + ";");
  return ptx.emit(/*hasSideEffects=*/false);
}

/// exp(x) = 2^(x * log2(e)): how exp reaches ex2.approx or emitExp2OnFma.
static constexpr double kLog2e = 1.4426950408889634;

/// 2^x for f32 x on the FMA and integer units (`exp2_on_fma`, as
/// FlashAttention-4 does on Blackwell): the steps and constants of
/// blk/Support/Exp2OnFma.h, which says why and how accurate.
static llvm::Value *emitExp2OnFma(Emitter &e, llvm::Value *x) {
  namespace k = blk::exp2_on_fma;
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *f32 = b.getFloatTy();
  llvm::Type *i32 = b.getInt32Ty();
  auto f = [&](float v) { return llvm::ConstantFP::get(f32, double(v)); };
  llvm::Value *xc = e.callIntrinsic(llvm::Intrinsic::maxnum, {f32}, {x, f(k::kLowest)});
  xc = e.callIntrinsic(llvm::Intrinsic::minnum, {f32}, {xc, f(k::kHighest)});
  // No fast-math flags: (xc + M) - M must not fold back to xc.
  llvm::Value *t = b.CreateFAdd(xc, f(k::kRoundMagic));
  llvm::Value *frac = b.CreateFSub(xc, b.CreateFSub(t, f(k::kRoundMagic)));
  llvm::Value *p = f(k::kC3);
  for (float c : {k::kC2, k::kC1, k::kC0})
    p = e.callIntrinsic(llvm::Intrinsic::fma, {f32}, {p, frac, f(c)});
  llvm::Value *scale = b.CreateShl(b.CreateBitCast(t, i32), 23);
  llvm::Value *r = b.CreateBitCast(b.CreateAdd(b.CreateBitCast(p, i32), scale), f32);
  r = b.CreateSelect(b.CreateFCmpOLT(x, f(k::kLowest)), f(0.0f), r);
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, r);
}

static llvm::Value *emitMath(Emitter &e, Operation *op, ArrayRef<llvm::Value *> x) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *t = x[0]->getType();
  if (isa<math::AbsIOp>(op))
    return e.callIntrinsic(llvm::Intrinsic::abs, {t}, {x[0], b.getFalse()});
  bool narrow = t->isHalfTy() || t->isBFloatTy();
  SmallVector<llvm::Value *> args;
  for (llvm::Value *v : x)
    args.push_back(narrow ? b.CreateFPExt(v, b.getFloatTy()) : v);
  llvm::Type *ct = args[0]->getType();
  bool f32 = ct->isFloatTy();
  auto intr = [&](ID id) { return e.callIntrinsic(id, {ct}, args); };
  auto lib = [&](StringRef base) {
    std::string name = ("__nv_" + base + (f32 ? "f" : "")).str();
    return e.callLibdevice(name, ct, args);
  };
  llvm::Value *r = llvm::TypeSwitch<Operation *, llvm::Value *>(op)
      .Case([&](math::ExpOp) {
        if (!f32) return lib("exp");
        llvm::Value *s = b.CreateFMul(args[0], llvm::ConstantFP::get(ct, kLog2e));
        return e.callIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f, {}, {s});
      })
      .Case([&](math::Exp2Op) {
        return f32 ? e.callIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f, {}, args) : lib("exp2");
      })
      .Case([&](math::LogOp) {
        if (!f32) return lib("log");
        llvm::Value *l = e.callIntrinsic(llvm::Intrinsic::nvvm_lg2_approx_f, {}, args);
        return b.CreateFMul(l, llvm::ConstantFP::get(ct, 0.6931471805599453));
      })
      .Case([&](math::Log2Op) {
        return f32 ? e.callIntrinsic(llvm::Intrinsic::nvvm_lg2_approx_f, {}, args) : lib("log2");
      })
      .Case([&](math::SqrtOp) { return intr(llvm::Intrinsic::sqrt); })
      .Case([&](math::RsqrtOp) {
        return f32 ? e.callIntrinsic(llvm::Intrinsic::nvvm_rsqrt_approx_f, {}, args) : lib("rsqrt");
      })
      .Case([&](math::AbsFOp) { return intr(llvm::Intrinsic::fabs); })
      .Case([&](math::FloorOp) { return intr(llvm::Intrinsic::floor); })
      .Case([&](math::CeilOp) { return intr(llvm::Intrinsic::ceil); })
      .Case([&](math::TruncOp) { return intr(llvm::Intrinsic::trunc); })
      .Case([&](math::RoundEvenOp) { return intr(llvm::Intrinsic::roundeven); })
      .Case([&](math::RoundOp) { return lib("round"); })
      .Case([&](math::FmaOp) { return intr(llvm::Intrinsic::fma); })
      .Case([&](math::SinOp) { return lib("sin"); })
      .Case([&](math::CosOp) { return lib("cos"); })
      .Case([&](math::TanhOp) { return lib("tanh"); })
      .Case([&](math::ErfOp) { return lib("erf"); })
      .Case([&](math::PowFOp) { return lib("pow"); })
      .Default([](Operation *) { return nullptr; });
  if (r && narrow)
    r = b.CreateFPTrunc(r, t);
  return r;
}

llvm::Constant *llvmConstant(llvm::Type *type, FloatAttr value) {
  if (type->isIntegerTy()) // fp8: its bits
    return llvm::ConstantInt::get(type, value.getValue().bitcastToAPInt());
  return llvm::ConstantFP::get(type, value.getValue());
}

llvm::Expected<llvm::Value *> Emitter::emitScalarOp(Operation *op,
                                                    ArrayRef<llvm::Value *> x) {
  llvm::Type *rt = op->getNumResults() ? llvmType(op->getResult(0).getType()) : nullptr;
  // Pointers are opaque `ptr addrspace(1)`: a cast changes only the blk type.
  if (isa<MultipleOfOp, MaxContiguousOp, PtrCastOp>(op))
    return x[0];
  if (isa<PtrToIntOp>(op))
    return b.CreatePtrToInt(x[0], rt);
  if (auto add = dyn_cast<AddPtrOp>(op)) {
    Type pointee = cast<PtrType>(blk::getElementTypeOrSelf(add.getPtr().getType())).getPointeeType();
    llvm::Value *off = b.CreateSExtOrTrunc(x[1], b.getInt64Ty());
    return b.CreateGEP(memType(pointee), x[0], off);
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(cst.getValue()))
      return llvm::ConstantInt::get(rt, i.getValue());
    if (auto f = dyn_cast<FloatAttr>(cst.getValue()))
      return llvmConstant(rt, f);
    return fail(op, "has an unsupported constant");
  }
  if (isFp8Cast(op))
    return emitFp8Cast(op, x[0]);
  if (op->getDialect()->getNamespace() == "math")
    if (llvm::Value *r = emitMath(*this, op, x))
      return r;
  llvm::Value *r = llvm::TypeSwitch<Operation *, llvm::Value *>(op)
      .Case([&](arith::AddIOp) { return b.CreateAdd(x[0], x[1]); })
      .Case([&](arith::SubIOp) { return b.CreateSub(x[0], x[1]); })
      .Case([&](arith::MulIOp) { return b.CreateMul(x[0], x[1]); })
      .Case([&](arith::DivSIOp) { return b.CreateSDiv(x[0], x[1]); })
      .Case([&](arith::DivUIOp) { return b.CreateUDiv(x[0], x[1]); })
      .Case([&](arith::RemSIOp) { return b.CreateSRem(x[0], x[1]); })
      .Case([&](arith::RemUIOp) { return b.CreateURem(x[0], x[1]); })
      .Case([&](arith::AndIOp) { return b.CreateAnd(x[0], x[1]); })
      .Case([&](arith::OrIOp) { return b.CreateOr(x[0], x[1]); })
      .Case([&](arith::XOrIOp) { return b.CreateXor(x[0], x[1]); })
      .Case([&](arith::ShLIOp) { return b.CreateShl(x[0], x[1]); })
      .Case([&](arith::ShRSIOp) { return b.CreateAShr(x[0], x[1]); })
      .Case([&](arith::ShRUIOp) { return b.CreateLShr(x[0], x[1]); })
      .Case([&](arith::CeilDivSIOp) {
        // (a + b - 1) / b for positive b; blk's cdiv is on non-negative ints.
        llvm::Value *one = llvm::ConstantInt::get(x[0]->getType(), 1);
        return b.CreateSDiv(b.CreateSub(b.CreateAdd(x[0], x[1]), one), x[1]);
      })
      .Case([&](arith::CeilDivUIOp) {
        llvm::Value *one = llvm::ConstantInt::get(x[0]->getType(), 1);
        return b.CreateUDiv(b.CreateSub(b.CreateAdd(x[0], x[1]), one), x[1]);
      })
      .Case([&](arith::FloorDivSIOp) {
        llvm::Value *q = b.CreateSDiv(x[0], x[1]);
        llvm::Value *r = b.CreateSRem(x[0], x[1]);
        llvm::Value *zero = llvm::ConstantInt::get(x[0]->getType(), 0);
        llvm::Value *adjust = b.CreateAnd(b.CreateICmpNE(r, zero),
                                          b.CreateICmpNE(b.CreateICmpSLT(r, zero),
                                                         b.CreateICmpSLT(x[1], zero)));
        return b.CreateSub(q, b.CreateZExt(adjust, x[0]->getType()));
      })
      .Case([&](arith::MaxSIOp) { return callIntrinsic(llvm::Intrinsic::smax, {rt}, x); })
      .Case([&](arith::MinSIOp) { return callIntrinsic(llvm::Intrinsic::smin, {rt}, x); })
      .Case([&](arith::MaxUIOp) { return callIntrinsic(llvm::Intrinsic::umax, {rt}, x); })
      .Case([&](arith::MinUIOp) { return callIntrinsic(llvm::Intrinsic::umin, {rt}, x); })
      .Case([&](arith::AddFOp) { return b.CreateFAdd(x[0], x[1]); })
      .Case([&](arith::SubFOp) { return b.CreateFSub(x[0], x[1]); })
      .Case([&](arith::MulFOp) { return b.CreateFMul(x[0], x[1]); })
      .Case([&](arith::DivFOp) { return emitFloatDiv(b, x[0], x[1]); })
      .Case([&](arith::RemFOp) { return b.CreateFRem(x[0], x[1]); })
      .Case([&](arith::NegFOp) { return b.CreateFNeg(x[0]); })
      .Case([&](arith::MaximumFOp) { return callIntrinsic(llvm::Intrinsic::maximum, {rt}, x); })
      .Case([&](arith::MinimumFOp) { return callIntrinsic(llvm::Intrinsic::minimum, {rt}, x); })
      .Case([&](arith::MaxNumFOp) { return callIntrinsic(llvm::Intrinsic::maxnum, {rt}, x); })
      .Case([&](arith::MinNumFOp) { return callIntrinsic(llvm::Intrinsic::minnum, {rt}, x); })
      .Case([&](arith::CmpIOp c) { return b.CreateICmp(intPredicate(c.getPredicate()), x[0], x[1]); })
      .Case([&](arith::CmpFOp c) { return b.CreateFCmp(floatPredicate(c.getPredicate()), x[0], x[1]); })
      .Case([&](arith::SelectOp) { return b.CreateSelect(x[0], x[1], x[2]); })
      .Case([&](arith::ExtSIOp) { return b.CreateSExt(x[0], rt); })
      .Case([&](arith::ExtUIOp) { return b.CreateZExt(x[0], rt); })
      .Case([&](arith::TruncIOp) { return b.CreateTrunc(x[0], rt); })
      .Case([&](arith::IndexCastOp) { return b.CreateSExtOrTrunc(x[0], rt); })
      .Case([&](arith::IndexCastUIOp) { return b.CreateZExtOrTrunc(x[0], rt); })
      .Case([&](arith::SIToFPOp) { return b.CreateSIToFP(x[0], rt); })
      .Case([&](arith::UIToFPOp) { return b.CreateUIToFP(x[0], rt); })
      .Case([&](arith::FPToSIOp) { return b.CreateFPToSI(x[0], rt); })
      .Case([&](arith::FPToUIOp) { return b.CreateFPToUI(x[0], rt); })
      .Case([&](arith::ExtFOp) { return b.CreateFPExt(x[0], rt); })
      .Case([&](arith::TruncFOp) { return b.CreateFPTrunc(x[0], rt); })
      .Case([&](arith::BitcastOp) { return b.CreateBitCast(x[0], rt); })
      .Default([](Operation *) { return nullptr; });
  if (!r)
    return fail(op, "is not supported by the GPU backend");
  return r;
}

/// `exp2_on_fma = N` of the kernel (0: off), for an f32 exp2 / exp.
static unsigned exp2OnFmaShare(func::FuncOp kernel, Operation *op) {
  if (!isa<math::Exp2Op, math::ExpOp>(op) ||
      !blk::getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return 0;
  auto n = kernel->getAttrOfType<IntegerAttr>(blk::kExp2OnFmaAttr);
  return n ? unsigned(n.getInt()) : 0;
}

llvm::Error Emitter::emitElementwise(Operation *op) {
  unsigned n = 1;
  for (Value v : op->getOperands())
    n = std::max<unsigned>(n, get(v).size());
  unsigned onFma = exp2OnFmaShare(kernel, op);
  Elems out;
  for (unsigned i = 0; i < n; ++i) {
    SmallVector<llvm::Value *> args;
    for (Value v : op->getOperands()) {
      Elems &ev = get(v);
      if (ev.empty())
        return fail(op, "uses a value the backend did not produce");
      args.push_back(ev.size() == 1 ? ev[0] : ev[i]);
    }
    if (onFma && i % onFma == onFma - 1) {
      llvm::Value *x = args[0];
      if (isa<math::ExpOp>(op))
        x = b.CreateFMul(x, llvm::ConstantFP::get(x->getType(), kLog2e));
      out.push_back(emitExp2OnFma(*this, x));
      continue;
    }
    llvm::Expected<llvm::Value *> r = emitScalarOp(op, args);
    if (!r)
      return r.takeError();
    out.push_back(*r);
  }
  set(op->getResult(0), std::move(out));
  return llvm::Error::success();
}

} // namespace blk::gpu
