//===- Emitter.h - IRGen internals: one function body at a time -*- C++ -*-===//
//
// The Emitter walks one kernel specialisation's checked AST with Sema's
// facts (ExprInfo, bindings, fn instances) and builds blk IR at the
// builder's insertion point. Variables live in a Frame (one per kernel body
// or inlined fn call) mapping their declaration to the current SSA value;
// control flow threads assigned variables through scf results.
// Split over Convert.cpp (types, constants, conversions, broadcasting),
// EmitExpr.cpp, EmitBuiltins.cpp, EmitReduce.cpp, EmitStmt.cpp and
// EmitLoops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_IRGEN_EMITTER_H
#define BLK_LIB_IRGEN_EMITTER_H

#include "blk/AST/AST.h"
#include "blk/Sema/Sema.h"
#include "blk/Support/SourceManager.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>
#include <vector>

namespace blk::irgen {

using sema::ScalarKind;
using sema::Shape;

/// Aborts with "internal compiler error in IRGen: <message>".
[[noreturn]] void ice(const std::string &message);

/// The variables of one function instance being emitted.
struct Frame {
  const sema::FunctionInstance *instance = nullptr;
  llvm::DenseMap<const ast::Node *, mlir::Value> vars;
};

/// How a statement list ended: fell through, or reached `return` (fn only;
/// `value` is null for a bare `return;`).
struct Flow {
  bool returned = false;
  mlir::Value value;
};

class Emitter {
public:
  Emitter(mlir::OpBuilder &builder, const SourceManager &sm)
      : b(builder), sm(sm) {}

  /// Emits the body of `spec` into `func`, whose arguments are the runtime
  /// parameters of `kernel` in launch order.
  void emitKernel(const sema::KernelInfo &kernel,
                  const sema::Specialization &spec, mlir::Block &entry);

  //===--- Types, constants, conversions (Convert.cpp) ---------------------===//
  mlir::Location loc(const ast::Node *node);
  mlir::Type scalarType(ScalarKind kind);
  mlir::Type lowerType(const sema::Type &type);
  /// `value` of kind `kind`, splatted to `shape` (a dense constant).
  mlir::Value constant(const sema::ConstValue &value, ScalarKind kind,
                       const Shape &shape, mlir::Location loc);
  mlir::Value intConstant(int64_t value, mlir::Type type, mlir::Location loc);
  /// Elementwise conversion between element kinds (no-op when equal).
  mlir::Value convert(mlir::Value v, ScalarKind from, ScalarKind to,
                      mlir::Location loc);
  /// The offset of `ptr + off` / `ptr - off` for blk.addptr, whose offsets
  /// the backends sign-extend: an unsigned (or i1) offset narrower than 64
  /// bits is zero-extended to i64 first, so `p + (65529 as u16)` moves
  /// forward, not 7 back; `subtract` negates it.
  mlir::Value pointerOffset(mlir::Value off, ScalarKind kind, bool subtract,
                            mlir::Location loc);
  /// splat / expand_dims / broadcast `v` up to `shape` (NumPy rules).
  mlir::Value broadcastTo(mlir::Value v, const Shape &shape, mlir::Location loc);
  /// A scalar integer condition as i1 (`x != 0`).
  mlir::Value toCondition(mlir::Value v, ScalarKind kind, mlir::Location loc);

  //===--- Expressions (EmitExpr.cpp) --------------------------------------===//
  const sema::ExprInfo &info(const ast::Expr *e) const;
  /// The value of `e` with its own type (Sema's ExprInfo::type).
  mlir::Value emitExpr(const ast::Expr *e);
  /// `e` converted to `elem` and broadcast to `shape` (numbers only).
  mlir::Value emitAs(const ast::Expr *e, ScalarKind elem, const Shape &shape);
  /// `e` broadcast to `shape`, element unchanged (pointers too).
  mlir::Value emitBroadcast(const ast::Expr *e, const Shape &shape);
  /// The elementwise binary operator `op` on values already converted to
  /// `elem` and broadcast to one shape.
  mlir::Value emitArith(ast::BinaryOp op, mlir::Value lhs, mlir::Value rhs,
                        ScalarKind elem, mlir::Location loc);
  //===--- Calls (EmitBuiltins.cpp, EmitReduce.cpp) ------------------------===//
  mlir::Value emitCall(const ast::CallExpr *call);
  mlir::Value emitBuiltin(const ast::CallExpr *call, const std::string &name);
  mlir::Value emitReduction(const ast::CallExpr *call, const std::string &name,
                            const std::vector<const ast::Expr *> &args);
  mlir::Value emitMath(const ast::CallExpr *call, const std::string &name,
                       const std::vector<const ast::Expr *> &args);
  mlir::Value emitFnCall(const ast::CallExpr *call,
                         const sema::FunctionInstance &callee);

  //===--- Statements (EmitStmt.cpp, EmitLoops.cpp) ------------------------===//
  /// Statement lists to run after the current one, innermost first: a
  /// `return` inside an `if` makes the rest of the function part of the
  /// branches (fn only).
  using Continuation = std::vector<llvm::ArrayRef<const ast::Stmt *>>;
  /// Emits `stmts`, then the `cont` lists.
  Flow emitStmts(llvm::ArrayRef<const ast::Stmt *> stmts,
                 const Continuation &cont = {});
  /// Emits an `if`; when `cont` is given the branches also run it.
  Flow emitIf(const ast::IfStmt *s, const Continuation *cont);
  void emitLet(const ast::LetStmt *s);
  void emitFor(const ast::ForStmt *s);
  void emitWhile(const ast::WhileStmt *s);
  /// Bounds of `for v in range(…)`, converted to the loop variable's kind.
  struct RangeBounds {
    mlir::Value lb, ub, step;
    std::optional<int64_t> constStep;
    /// The step is known > 0: a positive constant, or `num_programs(…)`
    /// (a persistent kernel's tile loop), so the loop is an scf.for.
    bool positiveStep = true;
    ScalarKind kind = ScalarKind::I32;
  };
  RangeBounds emitRangeBounds(const ast::ForStmt *s);
  /// `iv` has not yet passed `ub` (direction from the step's sign).
  mlir::Value rangeCondition(mlir::Value iv, const RangeBounds &bounds,
                             mlir::Location loc);
  /// A loop whose body has `break`/`continue` (EmitLoopControl.cpp): an
  /// scf.while carrying a `broken` flag, statements after a possible
  /// `continue`/`break` guarded by an `active` flag.
  void emitControlledLoop(const ast::Stmt *loop);
  void emitGuarded(std::vector<const ast::Stmt *> stmts);
  void emitAssign(const ast::AssignStmt *s);
  /// Variables declared outside `node` and assigned inside it, in a stable
  /// order: what control flow must carry.
  llvm::SetVector<const ast::Node *> assignedOuterVars(const ast::Node *node);
  /// Current values of `vars`.
  llvm::SmallVector<mlir::Value> valuesOf(llvm::ArrayRef<const ast::Node *> vars);
  /// Sema's type of a variable declaration in the current frame.
  const sema::VarInfo &varInfo(const ast::Node *decl) const;
  /// `e` as a value of type `type` (conversion and broadcast; pointers are
  /// broadcast only).
  mlir::Value emitAsType(const ast::Expr *e, const sema::Type &type);

  mlir::OpBuilder &builder() { return b; }
  Frame &currentFrame() { return *frame; }

private:
  mlir::OpBuilder &b;
  const SourceManager &sm;
  Frame *frame = nullptr;
  /// Frame keys of the `broken` and `active` flags of the loops being
  /// lowered by emitControlledLoop, innermost last.
  struct LoopFlags {
    const ast::Node *broken;
    const ast::Node *active;
  };
  std::vector<LoopFlags> loopFlags;
  /// Return type of the fn being inlined (converted at each `return`); null
  /// outside an inlined fn. Points into the callee's FunctionInstance.
  const sema::Type *fnReturnType = nullptr;
};

/// True if `node` has a `break`/`continue` of the loop it is the body of
/// (nested loops' own are not counted).
bool hasLoopControl(const ast::Node *node);

/// Positions `builder` to append to `block`: before its terminator if it
/// has one (scf builders add `scf.yield` to result-less regions).
void setInsertionPointToBodyEnd(mlir::OpBuilder &builder, mlir::Block *block);
/// Ends `block` with `scf.yield values` unless it already has a terminator.
void yieldValues(mlir::OpBuilder &builder, mlir::Block *block,
                 mlir::ValueRange values, mlir::Location loc);

} // namespace blk::irgen

#endif // BLK_LIB_IRGEN_EMITTER_H
