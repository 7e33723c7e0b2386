//===- BuiltinChecker.h - typing one built-in call (internal) ---*- C++ -*-===//
//
// Shared by Builtins.cpp (argument binding, program/creation/memory groups)
// and BuiltinsMath.cpp (shape, select, reduce, math, dot, misc groups).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_SEMA_BUILTINCHECKER_H
#define BLK_LIB_SEMA_BUILTINCHECKER_H

#include "SemaImpl.h"

namespace blk::sema::detail {

class BuiltinChecker {
public:
  BuiltinChecker(BodyChecker &c, const ast::CallExpr *call, std::string name);

  /// Binds arguments to the signature; false if a count/name error was
  /// reported or an argument is in error.
  bool bind();
  /// Types the call by group.
  ExprInfo dispatch();

private:
  ExprInfo creation();
  ExprInfo memory();
  ExprInfo shapeOp();
  ExprInfo select();
  ExprInfo reduce();
  ExprInfo math();
  ExprInfo dot();
  ExprInfo misc();

  bool has(size_t i) const;
  SourceRange range(size_t i) const;
  void badArg(size_t i, const std::string &expected, const std::string &hint = "");
  void checkOptionArg(size_t i, std::initializer_list<const char *> allowed);
  bool warnReluHabit();
  bool requireValue(size_t i, bool allowPointer);
  std::optional<int64_t> constInt(size_t i, const std::string &what);
  std::optional<Shape> shapeArg(size_t i);
  std::optional<std::vector<int64_t>> intListArg(size_t i);
  std::optional<int64_t> axisArg(size_t i, unsigned rank, bool inclusive);
  void checkMask(size_t maskIndex, const Type &ptr);
  /// Warns when the constant literal arg `i` changes in the element type.
  void warnLiteralNarrowing(size_t i, ScalarKind elem);
  /// Reports this built-in on any fp8 value among the args; true if one was.
  bool rejectFp8Args(const std::vector<size_t> &indices);
  /// Broadcasts several value args together; reports a mismatch.
  std::optional<Shape> broadcastArgs(const std::vector<size_t> &indices);
  /// Promotes the element kinds of several value args (literal-aware).
  ScalarKind promoteArgs(const std::vector<size_t> &indices);

  BodyChecker &c;
  Analyzer &a;
  const ast::CallExpr *call;
  std::string name;
  std::vector<const ast::Argument *> args;
  std::vector<ExprInfo> infos;
  bool poisoned = false;
};

} // namespace blk::sema::detail

#endif // BLK_LIB_SEMA_BUILTINCHECKER_H
