//===- EmitBuiltins.cpp - calls: built-ins and inlined fns ----------------===//
//
// Built-in calls (LANGUAGE.md §7) map onto blk ops with their operands made
// explicit: masks, `other` and stored values broadcast to the pointer
// shape, values converted to the pointee type. Reductions and math are in
// EmitReduce.cpp; `fn` calls are inlined (EmitStmt.cpp).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <map>

using namespace mlir;

namespace blk::irgen {

/// Parameter names of each built-in, as Sema binds them (Builtins.cpp).
static const std::vector<std::string> &builtinParams(const std::string &name) {
  static const std::map<std::string, std::vector<std::string>> table = [] {
    std::map<std::string, std::vector<std::string>> t = {
        {"program_id", {"axis"}},
        {"num_programs", {"axis"}},
        {"arange", {"start", "end"}},
        {"zeros", {"shape", "dtype"}},
        {"full", {"shape", "value", "dtype"}},
        // Triton's spellings last, as in Sema's table (Builtins.cpp).
        {"load", {"pointer", "mask", "other", "cache", "evict", "volatile", "cache_modifier",
                  "eviction_policy"}},
        {"store", {"pointer", "value", "mask", "cache", "evict", "cache_modifier",
                   "eviction_policy"}},
        {"atomic_cas", {"pointer", "cmp", "val"}},
        {"broadcast_to", {"x", "shape"}},
        {"reshape", {"x", "shape"}},
        {"trans", {"x", "dims"}},
        {"permute", {"x", "dims"}},
        {"expand_dims", {"x", "axis"}},
        {"where", {"cond", "x", "y"}},
        {"maximum", {"x", "y"}},
        {"minimum", {"x", "y"}},
        {"clamp", {"x", "min", "max"}},
        {"cumsum", {"x", "axis"}},
        {"fma", {"x", "y", "z"}},
        {"dot", {"a", "b", "acc", "precision", "input_precision"}},
        {"cdiv", {"x", "div"}},
        {"multiple_of", {"x", "values"}},
        {"max_contiguous", {"x", "values"}},
        {"assert", {"cond", "msg"}},
    };
    for (const char *n : {"atomic_add", "atomic_max", "atomic_min", "atomic_and",
                          "atomic_or", "atomic_xor", "atomic_xchg"})
      t[n] = {"pointer", "value", "mask"};
    for (const char *n : {"sum", "max", "min", "prod", "argmax", "argmin"})
      t[n] = {"x", "axis"};
    for (const char *n : {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs",
                          "floor", "ceil", "sin", "cos", "tanh", "erf", "sigmoid"})
      t[n] = {"x"};
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end())
    ice("unknown built-in `" + name + "`");
  return it->second;
}

/// Arguments by parameter slot (nullptr when not given).
static std::vector<const ast::Expr *> bindArgs(const ast::CallExpr *call,
                                               const std::vector<std::string> &params) {
  std::vector<const ast::Expr *> args(params.size(), nullptr);
  size_t positional = 0;
  for (const ast::Argument *arg : call->args) {
    size_t slot = positional;
    if (arg->isNamed()) {
      slot = std::find(params.begin(), params.end(), arg->name) - params.begin();
    } else {
      ++positional;
    }
    if (slot >= params.size())
      ice("argument does not bind");
    args[slot] = arg->value;
  }
  return args;
}

Value Emitter::emitCall(const ast::CallExpr *call) {
  const sema::NameBinding *binding = frame->instance->binding(call->callee);
  if (!binding)
    ice("call of an unresolved callee");
  if (binding->kind == sema::NameBinding::Kind::Function) {
    const sema::FunctionInstance *callee = frame->instance->callee(call);
    if (!callee)
      ice("fn call without an instance");
    return emitFnCall(call, *callee);
  }
  if (binding->kind != sema::NameBinding::Kind::Builtin)
    ice("call of a non-function");
  return emitBuiltin(call, binding->name);
}

static int64_t constInt(Emitter &em, const ast::Expr *e) {
  const sema::ExprInfo *i = em.currentFrame().instance->lookup(e);
  if (!i || !i->value)
    ice("expected a compile-time integer");
  return i->value->getInt();
}

/// Elements of a list argument (`[16, 1]`) or the single value.
static std::vector<int64_t> intList(Emitter &em, const ast::Expr *e) {
  std::vector<int64_t> out;
  if (auto *list = ast::dyn_cast<ast::ListExpr>(e)) {
    for (const ast::Expr *x : list->elements)
      out.push_back(constInt(em, x));
    return out;
  }
  out.push_back(constInt(em, e));
  return out;
}

static std::string stringArg(const ast::Expr *e) {
  if (auto *s = ast::dyn_cast_or_null<ast::StringLiteralExpr>(e))
    return s->value;
  return "";
}

/// A string-literal option (`cache: ".cg"`, `precision: "tf32"`) without
/// Triton's leading `.`, from its argument or else its Triton-spelled alias
/// (Sema's checkOptionArg has checked the spelling); "" when neither is given.
static std::string optionArg(const ast::Expr *given, const ast::Expr *alias = nullptr) {
  std::string s = stringArg(given ? given : alias);
  if (!s.empty() && s[0] == '.')
    s.erase(0, 1);
  return s;
}

/// `cache: "cg"`; "" keeps the default.
static CacheModifier parseCache(const std::string &s) {
  return symbolizeCacheModifier(s).value_or(CacheModifier::none);
}

static EvictionPolicy parseEvict(const std::string &s) {
  return symbolizeEvictionPolicy(s).value_or(EvictionPolicy::normal);
}

namespace {
/// One built-in call being lowered.
struct Call {
  Emitter &em;
  const ast::CallExpr *call;
  std::vector<const ast::Expr *> args;
  Location loc;

  OpBuilder &b() { return em.builder(); }
  const sema::Type &resultType() { return em.info(call).type; }
  const sema::Type &argType(size_t i) { return em.info(args[i]).type; }

  /// mask broadcast to `shape`, or null.
  Value mask(size_t i, const Shape &shape) {
    return args[i] ? em.emitAs(args[i], ScalarKind::I1, shape) : Value();
  }

  Value memory(const std::string &name) {
    Value ptr = em.emitExpr(args[0]);
    const sema::Type &ptrType = argType(0);
    const Shape &shape = ptrType.shape();
    ScalarKind elem = ptrType.elem();
    if (name == "load") {
      Value m = mask(1, shape);
      Value other = args[2] && m ? em.emitAs(args[2], elem, shape) : Value();
      auto load = b().create<LoadOp>(loc, ptr, m, other);
      load.setCache(parseCache(optionArg(args[3], args[6])));
      load.setEvict(parseEvict(optionArg(args[4], args[7])));
      if (args[5] && em.info(args[5]).value && em.info(args[5]).value->getBool())
        load.setIsVolatile(true);
      return load;
    }
    if (name == "atomic_cas") {
      Value cmp = em.emitAs(args[1], elem, shape);
      Value val = em.emitAs(args[2], elem, shape);
      return b().create<AtomicCASOp>(loc, cmp.getType(), ptr, cmp, val);
    }
    Value value = em.emitAs(args[1], elem, shape);
    Value m = mask(2, shape);
    if (name == "store") {
      b().create<StoreOp>(loc, ptr, value, m, parseCache(optionArg(args[3], args[5])),
                          parseEvict(optionArg(args[4], args[6])));
      return Value();
    }
    bool isFloat = sema::isFloat(elem), isUnsigned = sema::isUnsigned(elem);
    std::string op = name.substr(std::string("atomic_").size());
    AtomicRMWKind kind =
        op == "add"   ? (isFloat ? AtomicRMWKind::fadd : AtomicRMWKind::add)
        : op == "max" ? (isUnsigned ? AtomicRMWKind::umax : AtomicRMWKind::max)
        : op == "min" ? (isUnsigned ? AtomicRMWKind::umin : AtomicRMWKind::min)
        : op == "and" ? AtomicRMWKind::and_
        : op == "or"  ? AtomicRMWKind::or_
        : op == "xor" ? AtomicRMWKind::xor_
                      : AtomicRMWKind::xchg;
    return b().create<AtomicRMWOp>(loc, kind, ptr, value, m);
  }

  Value shapeOp(const std::string &name) {
    const sema::Type &type = resultType();
    Value x = em.emitExpr(args[0]);
    if (name == "broadcast_to")
      return em.broadcastTo(x, type.shape(), loc);
    if (getShapeOrEmpty(x.getType()).empty())
      return em.broadcastTo(x, type.shape(), loc);
    if (name == "reshape") {
      Type to = em.lowerType(type);
      if (to == x.getType())
        return x;
      return b().create<ReshapeOp>(loc, to, x);
    }
    if (name == "expand_dims")
      return b().create<ExpandDimsOp>(loc, x, constInt(em, args[1]));
    // trans / permute
    SmallVector<int32_t> order;
    if (args[1])
      for (int64_t d : intList(em, args[1]))
        order.push_back(static_cast<int32_t>(d));
    else
      order = {1, 0};
    return b().create<TransOp>(loc, x, order);
  }

  Value minMax(bool isMax, Value x, Value y, ScalarKind k) {
    if (sema::isFloat(k))
      return isMax ? b().create<arith::MaximumFOp>(loc, x, y).getResult()
                   : b().create<arith::MinimumFOp>(loc, x, y).getResult();
    bool u = sema::isUnsigned(k) || k == ScalarKind::I1;
    if (isMax)
      return u ? b().create<arith::MaxUIOp>(loc, x, y).getResult()
               : b().create<arith::MaxSIOp>(loc, x, y).getResult();
    return u ? b().create<arith::MinUIOp>(loc, x, y).getResult()
             : b().create<arith::MinSIOp>(loc, x, y).getResult();
  }

  Value select(const std::string &name) {
    const sema::Type &type = resultType();
    const Shape &shape = type.shape();
    ScalarKind k = em.info(call).operandElem;
    if (name == "where") {
      Value cond = em.emitAs(args[0], ScalarKind::I1, shape);
      Value x = type.isPointerLike() ? em.emitBroadcast(args[1], shape)
                                     : em.emitAs(args[1], k, shape);
      Value y = type.isPointerLike() ? em.emitBroadcast(args[2], shape)
                                     : em.emitAs(args[2], k, shape);
      return b().create<arith::SelectOp>(loc, cond, x, y);
    }
    Value x = em.emitAs(args[0], k, shape), y = em.emitAs(args[1], k, shape);
    if (name == "clamp") {
      Value hi = em.emitAs(args[2], k, shape);
      return minMax(false, minMax(true, x, y, k), hi, k);
    }
    return minMax(name == "maximum" || name == "max", x, y, k);
  }

  Value cdiv() {
    const sema::Type &type = resultType();
    ScalarKind k = type.elem();
    Value x = em.emitAs(args[0], k, type.shape());
    Value y = em.emitAs(args[1], k, type.shape());
    Value one = em.constant(sema::ConstValue::integer(1), k, type.shape(), loc);
    Value sum = b().create<arith::AddIOp>(loc, x, y);
    Value num = b().create<arith::SubIOp>(loc, sum, one);
    return em.emitArith(ast::BinaryOp::Div, num, y, k, loc);
  }

  Value hint(const std::string &name) {
    Value x = em.emitExpr(args[0]);
    const sema::Type &type = argType(0);
    if (type.isFloatLike())
      return x; // the hints describe integers and pointers only
    std::vector<int64_t> values = intList(em, args[1]);
    size_t rank = std::max<size_t>(1, type.rank());
    SmallVector<int32_t> dims(rank, 1);
    for (size_t d = 0; d < rank; ++d)
      dims[d] = static_cast<int32_t>(
          values.size() == rank ? values[d] : values.back());
    if (name == "multiple_of")
      return b().create<MultipleOfOp>(loc, x.getType(), x, dims);
    return b().create<MaxContiguousOp>(loc, x.getType(), x, dims);
  }
};
} // namespace

Value Emitter::emitBuiltin(const ast::CallExpr *call, const std::string &name) {
  Location l = loc(call);
  if (name == "print") {
    std::string format = call->args.empty() ? "" : stringArg(call->args[0]->value);
    SmallVector<Value> values;
    for (size_t i = 1; i < call->args.size(); ++i)
      values.push_back(emitExpr(call->args[i]->value));
    b.create<PrintOp>(l, format, values);
    return Value();
  }
  Call c{*this, call, bindArgs(call, builtinParams(name)), l};
  if (name == "program_id")
    return b.create<ProgramIdOp>(l, b.getI32Type(), constInt(*this, c.args[0]));
  if (name == "num_programs")
    return b.create<NumProgramsOp>(l, b.getI32Type(), constInt(*this, c.args[0]));
  if (name == "arange")
    return b.create<MakeRangeOp>(l, constInt(*this, c.args[0]),
                                 constInt(*this, c.args[1]));
  if (name == "zeros" || name == "full") {
    const sema::Type &type = c.resultType();
    if (name == "zeros")
      return constant(sema::ConstValue::integer(0), type.elem(), type.shape(), l);
    return emitAs(c.args[1], type.elem(), type.shape());
  }
  if (name == "load" || name == "store" || name.rfind("atomic_", 0) == 0)
    return c.memory(name);
  if (name == "broadcast_to" || name == "reshape" || name == "expand_dims" ||
      name == "trans" || name == "permute")
    return c.shapeOp(name);
  if (name == "where" || name == "maximum" || name == "minimum" || name == "clamp")
    return c.select(name);
  if ((name == "max" || name == "min") && c.args[1] &&
      c.argType(0).isScalar() && !call->args[1]->isNamed())
    return c.select(name);
  if (name == "cdiv")
    return c.cdiv();
  if (name == "multiple_of" || name == "max_contiguous")
    return c.hint(name);
  if (name == "assert") {
    Value cond = emitAs(c.args[0], ScalarKind::I1, info(c.args[0]).type.shape());
    LineCol lc = sm.getLineCol(call->getBegin());
    b.create<AssertOp>(l, cond, stringArg(c.args[1]),
                       sm.getPath(call->getBegin().file),
                       static_cast<int32_t>(lc.line));
    return Value();
  }
  if (name == "dot") {
    const sema::Type &type = c.resultType();
    Value a = emitExpr(c.args[0]), bv = emitExpr(c.args[1]);
    Value acc = c.args[2] ? emitExpr(c.args[2])
                          : constant(sema::ConstValue::integer(0), type.elem(),
                                     type.shape(), l);
    // f32 inputs default to tf32, as in Triton (docs/language.md §10.8).
    StringAttr precision;
    if (cast<RankedTensorType>(a.getType()).getElementType().isF32()) {
      std::string p = optionArg(c.args[3], c.args[4]);
      precision = b.getStringAttr(p.empty() ? "tf32" : p);
    }
    return b.create<DotOp>(l, acc.getType(), a, bv, acc, precision);
  }
  if (name == "sum" || name == "max" || name == "min" || name == "prod" ||
      name == "argmax" || name == "argmin" || name == "cumsum")
    return emitReduction(call, name, c.args);
  return emitMath(call, name, c.args);
}

} // namespace blk::irgen
