//===- Plan.h - pre-analysed form of a kernel's IR (internal) ---*- C++ -*-===//
//
// Before running, every op of the kernel is classified once into an OpPlan
// (kind, sub-operation, attributes, constant value, source location) and
// every type into a TypeInfo. Programs then only read these maps, so the
// MLIR context is never touched while programs run on several threads.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_INTERPRETER_PLAN_H
#define BLK_LIB_INTERPRETER_PLAN_H

#include "blk/Interpreter/BlockOps.h"
#include "blk/Interpreter/Memory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace blk::interp {

/// Element kind, pointee and shape of an IR type.
struct TypeInfo {
  ElemKind kind = ElemKind::I32;
  ElemKind pointee = ElemKind::I32;
  Shape shape; // empty for scalars
};
/// Classifies scalar, `!blk.ptr<T>` and ranked tensor types; nullopt otherwise.
std::optional<TypeInfo> classifyType(mlir::Type type);

/// What the executor does for one op.
enum class OpKind : uint8_t {
  Return, Constant, Binary, Unary, Fma, Cmp, Select, Cast, For, If, While, Yield,
  Condition, ProgramId, NumPrograms, MakeRange, Splat, Broadcast, ExpandDims,
  Reshape, Trans, AddPtr, PtrCast, PtrToInt, Load, Store, AtomicRmw, AtomicCas, Reduce, Scan,
  CombinerReturn, Dot, Print, Assert, Identity, Barrier, LocalMemory, Mbarrier, WarpSpecialize
};

/// A source position for reports.
struct SourcePos {
  std::string file;
  unsigned line = 0, col = 0;
};

/// Everything the executor needs about one op.
struct OpPlan {
  OpKind kind = OpKind::Identity;
  BinOp bin = BinOp::Add;
  UnOp un = UnOp::FNeg;
  CmpPred cmp = CmpPred::Eq;
  CastOp castOp = CastOp::ExtF;
  RmwKind rmw = RmwKind::Add;
  /// Result type (first result), when the op has one.
  TypeInfo result;
  /// axis / start / end / reverse.
  int64_t axis = 0, start = 0, end = 0;
  bool reverse = false;
  std::vector<int64_t> order;
  /// Operand positions of the optional load/store operands (-1: absent).
  int maskIdx = -1, otherIdx = -1;
  Block constant;
  /// A reduce/scan combiner that is one binary op on (a0, b0).
  std::optional<BinOp> fastCombiner;
  /// print format / assert message.
  std::string text;
  SourcePos pos;
};

/// The pre-analysed kernel.
struct KernelPlan {
  llvm::DenseMap<mlir::Operation *, OpPlan> ops;
  llvm::DenseMap<mlir::Type, TypeInfo> types;
};

/// Classifies every op and type of `fn`. On an unsupported op or type
/// returns false and sets `error` (with the op's location).
bool buildPlan(mlir::func::FuncOp fn, KernelPlan &plan, std::string &error);

/// The first FileLineColLoc inside `loc` (fused, call-site and name locations
/// are searched).
SourcePos sourcePosOf(mlir::Location loc);

} // namespace blk::interp

#endif // BLK_LIB_INTERPRETER_PLAN_H
