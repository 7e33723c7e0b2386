//===- BuiltinsMath.cpp - shape, select, reduce, math, dot built-ins ------===//
//
// Typing of the §7 groups that compute on values. Reductions drop the axis
// (or everything without one: a scalar); sums of i1/i8/i16 accumulate in
// i32 as in Triton; argmax/argmin give i32. `max(a, b)`/`min(a, b)` on two
// scalars are the binary min/max (folded when constant); on a block the
// second argument is the axis. Math on integers computes in f32 (except
// `abs`). `dot` needs rank-2 operands, matching K, every dimension ≥ 16.
// Tests: tests/lit/sema/fail_sema_dot_shape.blk, fail_sema_axis_out_of_range.blk, …
//
//===----------------------------------------------------------------------===//
#include "BuiltinChecker.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace blk::sema::detail {

std::optional<Shape> BuiltinChecker::broadcastArgs(const std::vector<size_t> &indices) {
  Shape shape;
  for (size_t i : indices) {
    std::optional<Shape> s = broadcastShapes(shape, infos[i].type.shape());
    if (!s) {
      a.report(DiagId::sema_shape_mismatch, call->getRange(),
               {name, formatShape(shape), formatShape(infos[i].type.shape())});
      return std::nullopt;
    }
    shape = *s;
  }
  return shape;
}

ScalarKind BuiltinChecker::promoteArgs(const std::vector<size_t> &indices) {
  ScalarKind k = infos[indices[0]].type.elem();
  bool lit = infos[indices[0]].isUntypedLiteral;
  for (size_t n = 1; n < indices.size(); ++n) {
    const ExprInfo &x = infos[indices[n]];
    k = promoteWithLiterals(k, lit, x.type.elem(), x.isUntypedLiteral);
    lit = lit && x.isUntypedLiteral;
  }
  return k;
}

bool BuiltinChecker::rejectFp8Args(const std::vector<size_t> &indices) {
  for (size_t i : indices)
    if (has(i) && c.rejectFp8("`" + name + "`", infos[i].type, range(i)))
      return true;
  return false;
}

ExprInfo BuiltinChecker::dispatch() {
  static const std::set<std::string> creationOps = {"program_id", "num_programs", "arange",
                                                    "zeros", "full"};
  static const std::set<std::string> shapeOps = {"broadcast_to", "reshape", "trans", "permute",
                                                 "expand_dims"};
  static const std::set<std::string> selectOps = {"where", "maximum", "minimum", "clamp"};
  static const std::set<std::string> reduceOps = {"sum", "max", "min", "prod",
                                                  "argmax", "argmin", "cumsum"};
  if (creationOps.count(name))
    return creation();
  if (name == "load" || name == "store" || name.rfind("atomic_", 0) == 0)
    return memory();
  if (shapeOps.count(name))
    return shapeOp();
  if (selectOps.count(name))
    return select();
  if (reduceOps.count(name))
    return reduce();
  if (name == "dot")
    return dot();
  if (name == "cdiv" || name == "multiple_of" || name == "max_contiguous" || name == "assert")
    return misc();
  return math();
}

ExprInfo BuiltinChecker::shapeOp() {
  ExprInfo out;
  if (!requireValue(0, true))
    return out;
  const Type &x = infos[0].type;
  if (name == "broadcast_to" || name == "reshape") {
    std::optional<Shape> shape = shapeArg(1);
    if (!shape)
      return out;
    if (name == "broadcast_to" && !broadcastsTo(x.shape(), *shape)) {
      a.report(DiagId::sema_shape_mismatch, call->getRange(),
               {name, formatShape(x.shape()), formatShape(*shape)});
      return out;
    }
    if (name == "reshape" && numElements(x.shape()) != numElements(*shape)) {
      a.report(DiagId::sema_reshape_count, range(1),
               {formatShape(x.shape()), std::to_string(numElements(x.shape())),
                formatShape(*shape), std::to_string(numElements(*shape))});
      return out;
    }
    out.type = x.withShape(*shape);
    return out;
  }
  if (name == "expand_dims") {
    std::optional<int64_t> axis = axisArg(1, x.rank(), true);
    if (!axis)
      return out;
    Shape s = x.shape();
    s.insert(s.begin() + *axis, 1);
    if (!c.checkShape(s, call->getRange(), nullptr))
      return out;
    out.type = x.withShape(s);
    return out;
  }
  // trans / permute
  std::vector<int64_t> perm(x.rank());
  std::iota(perm.begin(), perm.end(), 0);
  if (has(1)) {
    std::optional<std::vector<int64_t>> p = intListArg(1);
    if (!p)
      return out;
    std::vector<int64_t> sorted = *p;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != perm) {
      badArg(1, "a permutation of the axes 0.." + std::to_string(int(x.rank()) - 1));
      return out;
    }
    perm = *p;
  } else {
    if (x.rank() != 2) {
      badArg(0, "a 2-D block (give `dims` for other ranks)");
      return out;
    }
    perm = {1, 0};
  }
  Shape s;
  for (int64_t p : perm)
    s.push_back(x.shape()[p]);
  out.type = x.withShape(s);
  return out;
}

ExprInfo BuiltinChecker::select() {
  ExprInfo out;
  std::vector<size_t> values = name == "where" ? std::vector<size_t>{1, 2}
                               : name == "clamp" ? std::vector<size_t>{0, 1, 2}
                                                 : std::vector<size_t>{0, 1};
  bool pointers = name == "where" && infos[1].type.isPointerLike() &&
                  infos[2].type.isPointerLike();
  for (size_t i : values)
    if (!requireValue(i, pointers))
      return out;
  if (name == "where" && !infos[0].type.isBoolLike()) {
    badArg(0, "an `i1` condition");
    return out;
  }
  if (name != "where" && rejectFp8Args(values))
    return out;
  std::vector<size_t> all = values;
  if (name == "where")
    all.insert(all.begin(), 0);
  std::optional<Shape> shape = broadcastArgs(all);
  if (!shape)
    return out;
  ScalarKind elem = pointers ? infos[1].type.elem() : promoteArgs(values);
  if (pointers && infos[1].type.elem() != infos[2].type.elem()) {
    badArg(2, "a pointer to `" + std::string(spelling(elem)) + "`");
    return out;
  }
  out.type = pointers ? Type::pointerBlock(elem, *shape) : Type::block(elem, *shape);
  out.operandElem = elem;
  out.isUntypedLiteral = std::all_of(values.begin(), values.end(),
                                     [&](size_t i) { return infos[i].isUntypedLiteral; });
  if (name == "where" && infos[0].value) {
    const ExprInfo &pick = infos[0].value->getBool() ? infos[1] : infos[2];
    out.value = pick.value;
  } else if ((name == "maximum" || name == "minimum") && infos[0].value && infos[1].value) {
    ConstResult r = evalBinary(name == "maximum" ? ConstOp::Max : ConstOp::Min,
                               *infos[0].value, *infos[1].value);
    if (isOk(r))
      out.value = valueOf(r);
  }
  return out;
}

ExprInfo BuiltinChecker::reduce() {
  ExprInfo out;
  if (!requireValue(0, false))
    return out;
  const Type &x = infos[0].type;
  if (rejectFp8Args({0, 1}))
    return out;
  // `max(a, b)` / `min(a, b)` on scalars: the binary function.
  if ((name == "max" || name == "min") && x.isScalar() && has(1) && !args[1]->isNamed()) {
    if (!requireValue(1, false) || !infos[1].type.isScalar()) {
      badArg(1, "a scalar (or use `maximum`/`minimum` for blocks)");
      return out;
    }
    out.type = Type::scalar(promoteArgs({0, 1}));
    out.operandElem = out.type.elem();
    out.isUntypedLiteral = infos[0].isUntypedLiteral && infos[1].isUntypedLiteral;
    if (infos[0].value && infos[1].value) {
      ConstResult r = evalBinary(name == "max" ? ConstOp::Max : ConstOp::Min, *infos[0].value,
                                 *infos[1].value);
      if (isOk(r))
        out.value = valueOf(r);
    }
    return out;
  }
  if (!x.isBlock()) {
    badArg(0, "a block");
    return out;
  }
  ScalarKind elem = x.elem();
  if ((name == "sum" || name == "prod" || name == "cumsum") && isInteger(elem) &&
      bitWidth(elem) < 32)
    elem = isUnsigned(elem) ? ScalarKind::U32 : ScalarKind::I32;
  if (name == "argmax" || name == "argmin")
    elem = ScalarKind::I32;
  out.operandElem = x.elem();
  if (name == "cumsum") {
    if (has(1) && !axisArg(1, x.rank(), false))
      return out;
    out.type = Type::block(elem, x.shape());
    return out;
  }
  if (!has(1)) {
    out.type = Type::scalar(elem);
    return out;
  }
  if (!warnReluHabit())
    return out;
  std::optional<int64_t> axis = axisArg(1, x.rank(), false);
  if (!axis)
    return out;
  Shape s = x.shape();
  s.erase(s.begin() + *axis);
  out.type = Type::block(elem, s);
  return out;
}

/// `max(x, 0)` / `min(x, 0.0)` on a block, written as a ReLU or a clamp:
/// a positional integer literal reduces along that axis (warned, with the
/// explicit spelling and the elementwise one); a float is an error with the
/// same hint. False when the call is rejected.
bool BuiltinChecker::warnReluHabit() {
  if ((name != "max" && name != "min") || args[1]->isNamed())
    return true;
  const ast::Expr *e = args[1]->value;
  bool intLiteral = ast::isa<ast::IntLiteralExpr>(e);
  bool floatValue = infos[1].value && infos[1].value->isFloat();
  if (!intLiteral && !floatValue)
    return true;
  std::string text = infos[1].value ? infos[1].value->str() : "?";
  std::string elementwise = name == "max" ? "maximum" : "minimum";
  std::string hint = "for an elementwise " + elementwise + " write `" + elementwise + "(x, " +
                     (floatValue ? text : text + ".0") + ")`";
  if (floatValue) {
    a.report(DiagId::sema_reduce_float_axis, range(1), {name, text})
        .note(DiagId::note_sema_hint, SourceRange(), {hint});
    return false;
  }
  a.report(DiagId::sema_reduce_positional_axis, range(1), {name, text, elementwise})
      .note(DiagId::note_sema_hint, SourceRange(),
            {"write `" + name + "(x, axis: " + text + ")` if the reduction is meant; " + hint});
  return true;
}

ExprInfo BuiltinChecker::math() {
  ExprInfo out;
  std::vector<size_t> values = name == "fma" ? std::vector<size_t>{0, 1, 2}
                                             : std::vector<size_t>{0};
  for (size_t i : values)
    if (!requireValue(i, false))
      return out;
  if (rejectFp8Args(values))
    return out;
  std::optional<Shape> shape = broadcastArgs(values);
  if (!shape)
    return out;
  ScalarKind elem = promoteArgs(values);
  if (name != "abs" && !isFloat(elem))
    elem = ScalarKind::F32; // transcendental functions on integers compute in f32
  out.type = Type::block(elem, *shape);
  out.operandElem = elem;
  if (name == "abs" && infos[0].value) {
    const ConstValue &v = *infos[0].value;
    // An unsigned value is its own abs (a u64 above 2^63 is held negative).
    if (v.isFloat())
      out.value =
          ConstValue::floating(v.getFloat() < 0 ? -v.getFloat() : v.getFloat());
    else if (isUnsigned(elem))
      out.value = v;
    else
      out.value =
          ConstValue::integer(v.getInt() < 0 ? -v.getInt() : v.getInt());
    out.isUntypedLiteral = infos[0].isUntypedLiteral;
  }
  return out;
}

ExprInfo BuiltinChecker::dot() {
  ExprInfo out;
  for (size_t i : {0, 1})
    if (!requireValue(i, false))
      return out;
  const Type &ta = infos[0].type, &tb = infos[1].type;
  if (ta.rank() != 2 || tb.rank() != 2) {
    a.report(DiagId::sema_dot_operand, call->getRange(),
             {"needs two 2-D blocks, found `" + ta.str() + "` and `" + tb.str() + "`"});
    return out;
  }
  int64_t m = ta.shape()[0], k = ta.shape()[1], k2 = tb.shape()[0], n = tb.shape()[1];
  if (k != k2) {
    DiagBuilder d = a.report(DiagId::sema_dot_shape, call->getRange(),
                             {formatShape(ta.shape()) + " x " + formatShape(tb.shape()) +
                              " (inner dimensions " + std::to_string(k) + " and " +
                              std::to_string(k2) + ")"});
    d.label(range(0), "shape " + formatShape(ta.shape()));
    d.label(range(1), "shape " + formatShape(tb.shape()));
    return out;
  }
  static const std::set<ScalarKind> inputs = {ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32,
                                              ScalarKind::I8};
  // The fp8 kinds may be mixed (wgmma has e4m3 x e5m2); the others not.
  bool fp8 = isFp8(ta.elem()) && isFp8(tb.elem());
  if (!fp8 && (ta.elem() != tb.elem() || !inputs.count(ta.elem()))) {
    a.report(DiagId::sema_dot_operand, call->getRange(),
             {"inputs must both be f16, bf16, f32 or i8, or both fp8 (f8e4m3, f8e5m2), found `" +
              ta.str() + "` and `" + tb.str() + "`"});
    return out;
  }
  if (m < 16 || n < 16 || k < 16) {
    a.report(DiagId::sema_dot_operand, call->getRange(),
             {"needs M, N and K of at least 16, found M = " + std::to_string(m) + ", N = " +
              std::to_string(n) + ", K = " + std::to_string(k)})
        .note(DiagId::note_sema_hint, SourceRange(), {"tensor cores work on 16x16 tiles"});
    return out;
  }
  ScalarKind acc = ta.elem() == ScalarKind::I8 ? ScalarKind::I32 : ScalarKind::F32;
  Type result = Type::block(acc, {m, n});
  if (has(2) && requireValue(2, false) && infos[2].type != result) {
    badArg(2, "`" + result.str() + "`");
    return out;
  }
  // Only f32 inputs have a choice; the other types ignore it (§10.8).
  for (size_t i : {3, 4})
    checkOptionArg(i, {"tf32", "tf32x3", "ieee"});
  out.type = result;
  out.operandElem = ta.elem();
  return out;
}

ExprInfo BuiltinChecker::misc() {
  ExprInfo out;
  if (name == "assert") {
    if (!requireValue(0, false))
      return out;
    if (!infos[0].type.isBoolLike())
      badArg(0, "an `i1` condition");
    if (has(1) && infos[1].type.kind() != Type::Kind::String)
      badArg(1, "a string");
    out.type = Type::voidType();
    return out;
  }
  if (name == "cdiv") {
    for (size_t i : {0, 1})
      if (!requireValue(i, false) || !infos[i].type.isIntLike()) {
        badArg(i, "an integer");
        return out;
      }
    std::optional<Shape> shape = broadcastArgs({0, 1});
    if (!shape)
      return out;
    out.type = Type::block(promoteArgs({0, 1}), *shape);
    out.operandElem = out.type.elem();
    out.isUntypedLiteral = infos[0].isUntypedLiteral && infos[1].isUntypedLiteral;
    if (infos[0].value && infos[1].value) {
      ConstResult r = evalBinary(ConstOp::Cdiv, *infos[0].value, *infos[1].value);
      if (!isOk(r)) {
        a.report(DiagId::sema_const_eval, call->getRange(), {errorOf(r)});
        return ExprInfo();
      }
      out.value = valueOf(r);
    }
    return out;
  }
  // multiple_of / max_contiguous: hints that return their operand unchanged.
  if (!requireValue(0, true))
    return out;
  std::optional<std::vector<int64_t>> values = intListArg(1);
  if (!values)
    return out;
  for (int64_t v : *values)
    if (v <= 0) {
      badArg(1, "positive integers");
      return out;
    }
  out = infos[0];
  return out;
}

} // namespace blk::sema::detail
