//===- Launch.cpp - argument checking and grid evaluation
//------------------===//
//
// The checks a launch runs before calling the driver. They are written for
// the hot path: no allocation unless an error is being reported.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/Launch.h"
#include "blk/runtime/Error.h"
#include "HexString.h"

#include <limits>

namespace blk {
namespace {

[[noreturn]] void argError(const KernelDesc &k, size_t i,
                           const std::string &what) {
  throw Error("argument " + std::to_string(i + 1) + " `" + k.params[i].name +
                  "`: " + what,
              k.name);
}

std::string describeArg(const ArgValue &a) {
  if (a.anyPointee)
    return std::string(a.hostType) + " (untyped pointer)";
  return std::string(a.hostType) + " (`" + formatParamType(a.type) + "`)";
}

uint64_t truncateBits(uint64_t v, unsigned size) {
  return size >= 8 ? v : (v & ((uint64_t(1) << (8 * size)) - 1));
}

/// Converts an integer argument to integer parameter kind `to`, or fails.
void convertInteger(const KernelDesc &k, size_t i, ArgValue &a, ScalarKind to) {
  ScalarKind from = a.type.elem;
  unsigned fromSize = scalarKindSize(from), toSize = scalarKindSize(to);
  bool negative = false;
  uint64_t magnitude = truncateBits(a.bits, fromSize); // as unsigned
  int64_t signedValue = 0;
  if (isSignedKind(from)) {
    signedValue = integerArgValue(a, from);
    negative = signedValue < 0;
  }
  bool fits;
  if (isSignedKind(to)) {
    int64_t max = toSize >= 8 ? std::numeric_limits<int64_t>::max()
                              : (int64_t(1) << (8 * toSize - 1)) - 1;
    int64_t min = -max - 1;
    fits = negative ? signedValue >= min : magnitude <= uint64_t(max);
  } else {
    uint64_t max = toSize >= 8 ? std::numeric_limits<uint64_t>::max()
                               : (uint64_t(1) << (8 * toSize)) - 1;
    fits = !negative && magnitude <= max;
  }
  if (!fits) {
    std::string value =
        negative ? std::to_string(signedValue) : std::to_string(magnitude);
    argError(k, i,
             "expected `" + std::string(scalarKindName(to)) + "`, got " +
                 describeArg(a) + " with value " + value +
                 ", which does not fit");
  }
  uint64_t bits = negative ? uint64_t(signedValue) : magnitude;
  a.bits = truncateBits(bits, toSize);
  a.type.elem = to;
}

} // namespace

int64_t integerArgValue(const ArgValue &arg, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I8:
    return int8_t(arg.bits);
  case ScalarKind::I16:
    return int16_t(arg.bits);
  case ScalarKind::I32:
    return int32_t(arg.bits);
  case ScalarKind::I1:
  case ScalarKind::U8:
    return uint8_t(arg.bits);
  case ScalarKind::U16:
    return uint16_t(arg.bits);
  case ScalarKind::U32:
    return uint32_t(arg.bits);
  default:
    return int64_t(arg.bits);
  }
}

void checkArguments(const KernelDesc &k, ArgValue *args, size_t count) {
  if (count != k.params.size()) {
    std::string sig;
    for (const Param &p : k.params)
      sig +=
          (sig.empty() ? "" : ", ") + p.name + ": " + formatParamType(p.type);
    throw Error("expected " + std::to_string(k.params.size()) +
                    " argument(s) (" + sig + "), got " + std::to_string(count),
                k.name);
  }
  for (size_t i = 0; i < count; ++i) {
    const Param &p = k.params[i];
    ArgValue &a = args[i];
    if (p.type.pointer) {
      if (!a.type.pointer)
        argError(k, i,
                 "expected `" + formatParamType(p.type) + "`, got " +
                     describeArg(a));
      if (!a.anyPointee && a.type.elem != p.type.elem)
        argError(k, i,
                 "expected `" + formatParamType(p.type) + "`, got " +
                     describeArg(a));
      uint64_t natural = scalarKindSize(p.type.elem);
      if (a.bits % natural != 0)
        argError(k, i,
                 "pointer " + detail::hexString(a.bits) + " is misaligned for `" +
                     formatParamType(p.type) + "` (needs " +
                     std::to_string(natural) + "-byte alignment)");
      if (p.aligned > 1 && a.bits % p.aligned != 0)
        argError(k, i,
                 "pointer " + detail::hexString(a.bits) +
                     " violates the hint @aligned(" +
                     std::to_string(p.aligned) + ")");
      continue;
    }
    if (a.type.pointer)
      argError(k, i,
               "expected `" + formatParamType(p.type) + "`, got " +
                   describeArg(a));
    ScalarKind to = p.type.elem, from = a.type.elem;
    auto bitExact = [](ScalarKind s) {
      return s == ScalarKind::I1 || s == ScalarKind::F16 || s == ScalarKind::BF16 ||
             s == ScalarKind::F8E4M3 || s == ScalarKind::F8E5M2;
    };
    if (bitExact(to) || bitExact(from)) {
      // bool and the 16- and 8-bit floats are passed bit-exact, never converted.
      if (from != to)
        argError(k, i,
                 "expected `" + formatParamType(p.type) + "`, got " +
                     describeArg(a));
    } else if (isIntegerKind(to)) {
      if (!isIntegerKind(from))
        argError(k, i,
                 "expected `" + formatParamType(p.type) + "`, got " +
                     describeArg(a));
      if (from != to)
        convertInteger(k, i, a, to);
      if (p.multipleOf > 1) {
        int64_t v = integerArgValue(a, to);
        if (v % p.multipleOf != 0)
          argError(k, i,
                   "value " + std::to_string(v) +
                       " violates the hint @multiple_of(" +
                       std::to_string(p.multipleOf) + ")");
      }
    } else { // f32 / f64
      if (!isFloatKind(from))
        argError(k, i,
                 "expected `" + formatParamType(p.type) + "`, got " +
                     describeArg(a));
      if (from != to) {
        if (to == ScalarKind::F32) {
          double d;
          std::memcpy(&d, &a.bits, sizeof d);
          float f = float(d);
          a.bits = 0;
          std::memcpy(&a.bits, &f, sizeof f);
        } else {
          float f;
          std::memcpy(&f, &a.bits, sizeof f);
          double d = f;
          std::memcpy(&a.bits, &d, sizeof d);
        }
        a.type.elem = to;
      }
    }
  }
}

GridProgram compileGrid(const std::vector<GridExpr> &grid,
                        const std::vector<Param> &params,
                        const std::string &kernel, const std::string &what) {
  GridProgram program;
  program.dims = unsigned(grid.size());
  // Post-order walk; returns the stack depth the subtree needs.
  auto emit = [&](auto &self, const GridExpr &e) -> unsigned {
    GridOp op;
    switch (e.kind) {
    case GridExpr::Kind::Int:
      op.code = GridOp::PushInt;
      op.value = e.value;
      program.ops.push_back(op);
      return 1;
    case GridExpr::Kind::Param:
      op.code = GridOp::PushParam;
      op.value = e.value;
      op.kind = params.at(size_t(e.value)).type.elem;
      program.ops.push_back(op);
      return 1;
    case GridExpr::Kind::Op:
      break;
    }
    unsigned depth = 0;
    for (size_t i = 0; i < e.args.size(); ++i)
      depth = std::max(depth, unsigned(i) + self(self, e.args[i]));
    op.code = uint8_t(GridOp::Add + unsigned(e.op));
    program.ops.push_back(op);
    return depth;
  };
  for (size_t d = 0; d < grid.size() && d < 3; ++d) {
    if (emit(emit, grid[d]) > kGridStackDepth)
      throw Error(what + " expression too deep to evaluate", kernel);
    program.ends[d] = uint32_t(program.ops.size());
  }
  return program;
}

namespace {
/// Evaluates dimension [begin, end) of `program`; false on division by zero.
bool evaluateRange(const GridProgram &program, uint32_t begin, uint32_t end,
                   const ArgValue *args, int64_t &result) {
  int64_t stack[kGridStackDepth];
  unsigned sp = 0;
  for (uint32_t pc = begin; pc < end; ++pc) {
    const GridOp &op = program.ops[pc];
    if (op.code == GridOp::PushInt) {
      stack[sp++] = op.value;
      continue;
    }
    if (op.code == GridOp::PushParam) {
      stack[sp++] = integerArgValue(args[op.value], op.kind);
      continue;
    }
    if (op.code == GridOp::Neg) {
      stack[sp - 1] = int64_t(0 - uint64_t(stack[sp - 1]));
      continue;
    }
    if (op.code == GridOp::Not) {
      stack[sp - 1] = stack[sp - 1] == 0;
      continue;
    }
    int64_t b = stack[--sp], a = stack[sp - 1];
    // Wrap-around arithmetic: the launch limits reject absurd results.
    uint64_t ua = uint64_t(a), ub = uint64_t(b);
    int64_t r = 0;
    switch (op.code) {
    case GridOp::Add:
      r = int64_t(ua + ub);
      break;
    case GridOp::Sub:
      r = int64_t(ua - ub);
      break;
    case GridOp::Mul:
      r = int64_t(ua * ub);
      break;
    case GridOp::Min:
      r = a < b ? a : b;
      break;
    case GridOp::Max:
      r = a > b ? a : b;
      break;
    case GridOp::Lt:
      r = a < b;
      break;
    case GridOp::Le:
      r = a <= b;
      break;
    case GridOp::Gt:
      r = a > b;
      break;
    case GridOp::Ge:
      r = a >= b;
      break;
    case GridOp::Eq:
      r = a == b;
      break;
    case GridOp::Ne:
      r = a != b;
      break;
    case GridOp::And:
      r = a != 0 && b != 0;
      break;
    case GridOp::Or:
      r = a != 0 || b != 0;
      break;
    default:
      if (b == 0)
        return false;
      if (b == -1) { // avoid INT64_MIN / -1 trapping
        r = op.code == GridOp::Mod ? 0 : int64_t(0 - ua);
      } else if (op.code == GridOp::Div) {
        r = a / b;
      } else if (op.code == GridOp::Mod) {
        r = a % b;
      } else { // cdiv: ceiling division
        r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
      }
    }
    stack[sp - 1] = r;
  }
  result = stack[0];
  return true;
}
} // namespace

GridProgram compileRequirements(const std::vector<GridExpr> &conditions,
                                const std::vector<Param> &params,
                                const std::string &kernel) {
  if (conditions.empty())
    return GridProgram{};
  // and(and(c0, c1), c2)...: one tree, one evaluation per launch; nested
  // to the left so the stack stays as deep as the deepest condition + 1.
  GridExpr all = conditions.front();
  for (size_t i = 1; i < conditions.size(); ++i) {
    GridExpr both;
    both.kind = GridExpr::Kind::Op;
    both.op = GridExpr::Op::And;
    both.args = {std::move(all), conditions[i]};
    all = std::move(both);
  }
  return compileGrid({all}, params, kernel);
}

bool requirementsHold(const GridProgram &program, const ArgValue *args) {
  if (program.dims == 0)
    return true;
  int64_t value = 0;
  return evaluateRange(program, 0, program.ends[0], args, value) && value != 0;
}

bool evaluateGridDim(const GridProgram &program, unsigned dim,
                     const ArgValue *args, int64_t &result) {
  uint32_t begin = dim == 0 ? 0 : program.ends[dim - 1];
  return evaluateRange(program, begin, program.ends[dim], args, result);
}

Grid evaluateGrid(const GridProgram &program, const ArgValue *args,
                  const std::string &kernel) {
  int64_t dims[3] = {1, 1, 1};
  uint32_t begin = 0;
  for (unsigned d = 0; d < program.dims; ++d) {
    if (!evaluateRange(program, begin, program.ends[d], args, dims[d]))
      throw Error("@grid divides by zero", kernel);
    begin = program.ends[d];
  }
  Grid g;
  g.x = dims[0];
  g.y = dims[1];
  g.z = dims[2];
  return g;
}

bool checkLaunchShape(const Grid &grid, const Specialization &spec,
                      const LaunchLimits &limits, const std::string &kernel) {
  const int64_t dims[3] = {grid.x, grid.y, grid.z};
  bool empty = false;
  for (int d = 0; d < 3; ++d) {
    if (dims[d] < 0 || dims[d] > limits.maxGrid[d])
      throw Error("grid dimension " + std::string(1, "xyz"[d]) + " = " +
                      std::to_string(dims[d]) + " is outside [0, " +
                      std::to_string(limits.maxGrid[d]) + "]",
                  kernel);
    empty |= dims[d] == 0;
  }
  if (spec.threads > limits.maxThreadsPerBlock)
    throw Error(std::to_string(spec.threads) +
                    " threads per program exceed the device limit of " +
                    std::to_string(limits.maxThreadsPerBlock),
                kernel);
  uint64_t shared = uint64_t(spec.sharedStatic) + spec.sharedDynamic;
  if (shared > limits.maxSharedOptin)
    throw Error(std::to_string(shared) +
                    " bytes of shared memory exceed the device limit of " +
                    std::to_string(limits.maxSharedOptin),
                kernel);
  return !empty;
}

} // namespace blk
