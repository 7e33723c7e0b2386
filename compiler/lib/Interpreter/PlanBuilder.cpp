//===- PlanBuilder.cpp - classify the ops of a kernel once -----------------===//
//
// arith/math/scf ops are matched by class; `blk` ops by name and generic
// attribute access, so the interpreter also runs unregistered (generic form)
// blk IR, e.g. tests written before the dialect library existed; `blkgpu`
// ops (the back end's IR between its passes) in BlkGpuOpPlan.cpp.
//
//===----------------------------------------------------------------------===//
#include "Plan.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::interp {

using namespace mlir;

static std::optional<ElemKind> scalarKind(Type t) {
  if (auto it = dyn_cast<IntegerType>(t)) {
    switch (it.getWidth()) {
    case 1: return ElemKind::I1;
    case 8: return ElemKind::I8;
    case 16: return ElemKind::I16;
    case 32: return ElemKind::I32;
    case 64: return ElemKind::I64;
    default: return std::nullopt;
    }
  }
  if (isa<IndexType>(t)) return ElemKind::I64;
  if (t.isF16()) return ElemKind::F16;
  if (t.isBF16()) return ElemKind::BF16;
  if (t.isFloat8E4M3FN()) return ElemKind::F8E4M3;
  if (t.isFloat8E5M2()) return ElemKind::F8E5M2;
  if (t.isF32()) return ElemKind::F32;
  if (t.isF64()) return ElemKind::F64;
  return std::nullopt;
}

/// The pointee of `!blk.ptr<T>`, registered or opaque: both print as
/// `!blk.ptr<T>`, which keeps this file independent of the dialect's classes.
static std::optional<ElemKind> pointeeKind(Type t) {
  if (t.getDialect().getNamespace() != "blk")
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  os.flush();
  size_t open = text.find("ptr<"), close = text.rfind('>');
  if (open == std::string::npos || close == std::string::npos)
    return std::nullopt;
  std::string inner = text.substr(open + 4, close - open - 4);
  // MLIR spells the fp8 types its own way.
  if (inner == "f8E4M3FN")
    return ElemKind::F8E4M3;
  if (inner == "f8E5M2")
    return ElemKind::F8E5M2;
  if (std::optional<DataType> dt = parseDataType(inner))
    return dt->kind;
  return std::nullopt;
}

std::optional<TypeInfo> classifyType(Type type) {
  TypeInfo info;
  // A TMA descriptor holds nothing: blkgpu.tma_load reads its tensor_map's
  // operands (LocalMemory.cpp).
  if (isa<gpu::TensorMapType>(type))
    return info;
  Type elem = type;
  // A shared-memory buffer holds its whole block (every ring slot).
  if (auto buffer = dyn_cast<gpu::MemDescType>(type)) {
    info.shape.assign(buffer.getShape().begin(), buffer.getShape().end());
    elem = buffer.getElementType();
  } else if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    info.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    elem = tensor.getElementType();
  }
  if (std::optional<ElemKind> k = scalarKind(elem)) {
    info.kind = *k;
    return info;
  }
  if (std::optional<ElemKind> p = pointeeKind(elem)) {
    info.kind = ElemKind::Ptr;
    info.pointee = *p;
    return info;
  }
  return std::nullopt;
}

SourcePos sourcePosOf(Location loc) {
  SourcePos pos;
  loc->walk([&](Location l) {
    if (auto flc = dyn_cast<FileLineColLoc>(l)) {
      pos = {flc.getFilename().str(), flc.getLine(), flc.getColumn()};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return pos;
}

/// The value of an arith.constant as a Block of `info`.
static bool constantBlock(Attribute attr, const TypeInfo &info, Block &out) {
  out = Block::zeros(info.kind, info.shape, info.pointee);
  size_t n = out.size();
  auto setInt = [&](size_t k, const APInt &v) {
    out.i[k] = wrapToWidth(bitWidth(info.kind), v.getBitWidth() == 1 ? -int64_t(v.getZExtValue())
                                                                      : v.getSExtValue());
  };
  auto setFloat = [&](size_t k, const APFloat &v) {
    bool lost;
    APFloat d = v;
    d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    out.f[k] = roundFloat(info.kind, d.convertToDouble());
  };
  if (auto ia = dyn_cast<IntegerAttr>(attr)) {
    setInt(0, ia.getValue());
    return true;
  }
  if (auto fa = dyn_cast<FloatAttr>(attr)) {
    setFloat(0, fa.getValue());
    return true;
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return false;
  bool isFloat = isa<FloatType>(dense.getElementType());
  if (dense.isSplat()) {
    for (size_t k = 0; k < n; ++k)
      isFloat ? setFloat(k, dense.getSplatValue<APFloat>())
              : setInt(k, dense.getSplatValue<APInt>());
    return true;
  }
  size_t k = 0;
  if (isFloat)
    for (const APFloat &v : dense.getValues<APFloat>())
      setFloat(k++, v);
  else
    for (const APInt &v : dense.getValues<APInt>())
      setInt(k++, v);
  return true;
}

static std::optional<BinOp> binaryOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<BinOp>>(op)
      .Case([](arith::AddIOp) { return BinOp::Add; })
      .Case([](arith::SubIOp) { return BinOp::Sub; })
      .Case([](arith::MulIOp) { return BinOp::Mul; })
      .Case([](arith::DivSIOp) { return BinOp::DivS; })
      .Case([](arith::DivUIOp) { return BinOp::DivU; })
      .Case([](arith::RemSIOp) { return BinOp::RemS; })
      .Case([](arith::RemUIOp) { return BinOp::RemU; })
      .Case([](arith::CeilDivSIOp) { return BinOp::CeilDivS; })
      .Case([](arith::FloorDivSIOp) { return BinOp::FloorDivS; })
      .Case([](arith::AndIOp) { return BinOp::And; })
      .Case([](arith::OrIOp) { return BinOp::Or; })
      .Case([](arith::XOrIOp) { return BinOp::Xor; })
      .Case([](arith::ShLIOp) { return BinOp::Shl; })
      .Case([](arith::ShRSIOp) { return BinOp::ShrS; })
      .Case([](arith::ShRUIOp) { return BinOp::ShrU; })
      .Case([](arith::MaxSIOp) { return BinOp::MaxS; })
      .Case([](arith::MaxUIOp) { return BinOp::MaxU; })
      .Case([](arith::MinSIOp) { return BinOp::MinS; })
      .Case([](arith::MinUIOp) { return BinOp::MinU; })
      .Case([](arith::AddFOp) { return BinOp::FAdd; })
      .Case([](arith::SubFOp) { return BinOp::FSub; })
      .Case([](arith::MulFOp) { return BinOp::FMul; })
      .Case([](arith::DivFOp) { return BinOp::FDiv; })
      .Case([](arith::RemFOp) { return BinOp::FRem; })
      .Case([](arith::MaximumFOp) { return BinOp::FMaximum; })
      .Case([](arith::MinimumFOp) { return BinOp::FMinimum; })
      .Case([](arith::MaxNumFOp) { return BinOp::FMaxNum; })
      .Case([](arith::MinNumFOp) { return BinOp::FMinNum; })
      .Case([](math::PowFOp) { return BinOp::FPow; })
      .Case([](math::Atan2Op) { return BinOp::FAtan2; })
      .Case([](math::CopySignOp) { return BinOp::FCopySign; })
      .Default([](Operation *) { return std::nullopt; });
}

static std::optional<UnOp> unaryOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<UnOp>>(op)
      .Case([](arith::NegFOp) { return UnOp::FNeg; })
      .Case([](math::ExpOp) { return UnOp::Exp; })
      .Case([](math::Exp2Op) { return UnOp::Exp2; })
      .Case([](math::LogOp) { return UnOp::Log; })
      .Case([](math::Log2Op) { return UnOp::Log2; })
      .Case([](math::Log1pOp) { return UnOp::Log1p; })
      .Case([](math::ExpM1Op) { return UnOp::Expm1; })
      .Case([](math::SqrtOp) { return UnOp::Sqrt; })
      .Case([](math::RsqrtOp) { return UnOp::Rsqrt; })
      .Case([](math::AbsFOp) { return UnOp::FAbs; })
      .Case([](math::AbsIOp) { return UnOp::IAbs; })
      .Case([](math::FloorOp) { return UnOp::Floor; })
      .Case([](math::CeilOp) { return UnOp::Ceil; })
      .Case([](math::RoundOp) { return UnOp::Round; })
      .Case([](math::RoundEvenOp) { return UnOp::RoundEven; })
      .Case([](math::TruncOp) { return UnOp::Trunc; })
      .Case([](math::SinOp) { return UnOp::Sin; })
      .Case([](math::CosOp) { return UnOp::Cos; })
      .Case([](math::TanOp) { return UnOp::Tan; })
      .Case([](math::TanhOp) { return UnOp::Tanh; })
      .Case([](math::ErfOp) { return UnOp::Erf; })
      .Case([](math::AtanOp) { return UnOp::Atan; })
      .Default([](Operation *) { return std::nullopt; });
}

static std::optional<CastOp> castOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<CastOp>>(op)
      .Case([](arith::SIToFPOp) { return CastOp::SIToFP; })
      .Case([](arith::UIToFPOp) { return CastOp::UIToFP; })
      .Case([](arith::FPToSIOp) { return CastOp::FPToSI; })
      .Case([](arith::FPToUIOp) { return CastOp::FPToUI; })
      .Case([](arith::ExtFOp) { return CastOp::ExtF; })
      .Case([](arith::TruncFOp) { return CastOp::TruncF; })
      .Case([](arith::ExtSIOp) { return CastOp::ExtSI; })
      .Case([](arith::ExtUIOp) { return CastOp::ExtUI; })
      .Case([](arith::TruncIOp) { return CastOp::TruncI; })
      .Case([](arith::BitcastOp) { return CastOp::Bitcast; })
      .Case([](arith::IndexCastOp) { return CastOp::IndexCast; })
      .Case([](arith::IndexCastUIOp) { return CastOp::IndexCast; })
      .Default([](Operation *) { return std::nullopt; });
}

bool classifyBlkOp(Operation *op, OpPlan &p, std::string &error);
bool classifyBlkGpuOp(Operation *op, OpPlan &p, std::string &error);

/// Fills `p` for `op`; false if the op is not supported.
static bool classifyOp(Operation *op, OpPlan &p, std::string &error) {
  if (std::optional<BinOp> b = binaryOf(op)) {
    p.kind = OpKind::Binary;
    p.bin = *b;
    return true;
  }
  if (std::optional<UnOp> u = unaryOf(op)) {
    p.kind = OpKind::Unary;
    p.un = *u;
    return true;
  }
  if (std::optional<CastOp> c = castOf(op)) {
    p.kind = OpKind::Cast;
    p.castOp = *c;
    return true;
  }
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    p.kind = OpKind::Constant;
    if (constantBlock(c.getValue(), p.result, p.constant))
      return true;
    error = "unsupported constant";
    return false;
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    p.kind = OpKind::Cmp;
    p.cmp = CmpPred(uint8_t(c.getPredicate()));
    return true;
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    p.kind = OpKind::Cmp;
    p.cmp = CmpPred(uint8_t(CmpPred::FFalse) + uint8_t(c.getPredicate()));
    return true;
  }
  using K = OpKind;
  std::optional<OpKind> kind =
      llvm::TypeSwitch<Operation *, std::optional<OpKind>>(op)
          .Case([](arith::SelectOp) { return K::Select; })
          .Case([](math::FmaOp) { return K::Fma; })
          .Case([](func::ReturnOp) { return K::Return; })
          .Case([](scf::ForOp) { return K::For; })
          .Case([](scf::IfOp) { return K::If; })
          .Case([](scf::WhileOp) { return K::While; })
          .Case([](scf::YieldOp) { return K::Yield; })
          .Case([](scf::ConditionOp) { return K::Condition; })
          .Default([](Operation *) { return std::nullopt; });
  if (kind) {
    p.kind = *kind;
    return true;
  }
  if (op->getName().getDialectNamespace() == "blk")
    return classifyBlkOp(op, p, error);
  if (op->getName().getDialectNamespace() == "blkgpu")
    return classifyBlkGpuOp(op, p, error);
  error = "the interpreter does not support `" + op->getName().getStringRef().str() + "`";
  return false;
}

/// Recognises a combiner region that is one binary op of (a0, b0).
static std::optional<BinOp> fastCombinerOf(Operation *op) {
  if (op->getNumRegions() != 1 || op->getNumOperands() != 1)
    return std::nullopt;
  mlir::Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  Operation &inner = body.front();
  Operation *term = body.getTerminator();
  if (inner.getNumOperands() != 2 || inner.getNumResults() != 1 ||
      term->getNumOperands() != 1 || term->getOperand(0) != inner.getResult(0))
    return std::nullopt;
  bool straight = inner.getOperand(0) == body.getArgument(0) &&
                  inner.getOperand(1) == body.getArgument(1);
  bool swapped = inner.getOperand(0) == body.getArgument(1) &&
                 inner.getOperand(1) == body.getArgument(0);
  std::optional<BinOp> b = binaryOf(&inner);
  // Swapped operands are only the same op when it commutes.
  if (b && (straight || (swapped && *b != BinOp::Sub && *b != BinOp::FSub &&
                         *b != BinOp::FDiv && *b != BinOp::DivS)))
    return b;
  return std::nullopt;
}

bool buildPlan(func::FuncOp fn, KernelPlan &plan, std::string &error) {
  auto addType = [&](Type t) {
    if (plan.types.count(t))
      return true;
    std::optional<TypeInfo> info = classifyType(t);
    if (!info)
      return false;
    plan.types[t] = *info;
    return true;
  };
  for (Type t : fn.getArgumentTypes())
    if (!addType(t)) {
      error = "unsupported kernel parameter type";
      return false;
    }
  WalkResult walk = fn.getBody().walk([&](Operation *op) {
    OpPlan p;
    p.pos = sourcePosOf(op->getLoc());
    for (Region &r : op->getRegions())
      for (mlir::Block &b : r)
        for (BlockArgument arg : b.getArguments())
          if (!addType(arg.getType())) {
            error = "unsupported block argument type";
            return WalkResult::interrupt();
          }
    for (Type t : op->getResultTypes())
      if (!addType(t)) {
        error = "unsupported result type of `" + op->getName().getStringRef().str() + "`";
        return WalkResult::interrupt();
      }
    if (op->getNumResults())
      p.result = plan.types.lookup(op->getResult(0).getType());
    if (!classifyOp(op, p, error)) {
      error = p.pos.file + ":" + std::to_string(p.pos.line) + ":" + std::to_string(p.pos.col) +
              ": error: " + error;
      return WalkResult::interrupt();
    }
    if (p.kind == OpKind::Reduce || p.kind == OpKind::Scan)
      p.fastCombiner = fastCombinerOf(op);
    plan.ops[op] = std::move(p);
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

} // namespace blk::interp
