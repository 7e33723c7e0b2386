//===- Launch.h - driver-free launch checks: arguments and grid -*- C++ -*-===//
//
// What a checked launch does before it reaches the driver: argument count and
// types against the manifest (with in-place conversion to each parameter's
// representation), pointer alignment and hints, and evaluation of the @grid
// expressions. All of it runs without a GPU, so it is unit-tested in CI.
// The grid expressions are compiled once (at module load) into a flat
// program so a launch does no allocation and no lookups.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Manifest.h"
#include "blk/runtime/Types.h"

#include <cstdint>
#include <type_traits>
#include <vector>

namespace blk {

/// An explicit launch grid: blk::Grid{x, y, z} (missing dimensions are 1).
struct Grid {
  int64_t x = 1, y = 1, z = 1;
  Grid() = default;
  template <
      class X, class Y = int, class Z = int,
      class = std::enable_if_t<std::is_integral_v<X> && std::is_integral_v<Y> &&
                               std::is_integral_v<Z>>>
  Grid(X gx, Y gy = 1, Z gz = 1)
      : x(static_cast<int64_t>(gx)), y(static_cast<int64_t>(gy)),
        z(static_cast<int64_t>(gz)) {}
};

/// Device limits a grid and block must respect.
struct LaunchLimits {
  int64_t maxGrid[3] = {2147483647, 65535, 65535};
  int maxThreadsPerBlock = 1024;
  uint32_t maxSharedOptin = 227 * 1024; ///< dynamic + static, opted in
};

/// One instruction of a compiled grid program (postfix order).
struct GridOp {
  enum Code : uint8_t {
    PushInt,
    PushParam,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Cdiv,
    Min,
    Max,
    Neg,
    Lt, // Lt ... Not: the `requires` conditions (0 or 1)
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Not
  };
  uint8_t code = PushInt;
  ScalarKind kind = ScalarKind::I64; ///< PushParam: the parameter's type
  int64_t value = 0;                 ///< PushInt: constant; PushParam: index
};

/// The @grid expressions of a specialisation, flattened for evaluation.
struct GridProgram {
  std::vector<GridOp> ops;
  unsigned dims = 0;            ///< 0 when the kernel has no @grid
  uint32_t ends[3] = {0, 0, 0}; ///< ops of dim d are [ends[d-1], ends[d])
};

/// Maximum evaluation stack depth of a grid program.
inline constexpr unsigned kGridStackDepth = 32;

/// Compiles folded grid expressions (at most 3). Throws blk::Error if the
/// program would exceed kGridStackDepth; `what` names the expressions in
/// that message.
GridProgram compileGrid(const std::vector<GridExpr> &grid,
                        const std::vector<Param> &params,
                        const std::string &kernel,
                        const std::string &what = "@grid");

/// Compiles `requires` conditions into one program (dims 1) whose value is
/// nonzero when all hold; an empty list gives an empty program (dims 0).
GridProgram compileRequirements(const std::vector<GridExpr> &conditions,
                                const std::vector<Param> &params,
                                const std::string &kernel);

/// Whether `program` (from compileRequirements) holds for `args`; true for
/// an empty program. Division by zero makes a condition false.
bool requirementsHold(const GridProgram &program, const ArgValue *args);

/// Evaluates expression `dim` (< program.dims) of `program` over checked
/// arguments into `result`: 64-bit wrap-around arithmetic, no allocation.
/// False on division by zero.
bool evaluateGridDim(const GridProgram &program, unsigned dim,
                     const ArgValue *args, int64_t &result);

/// Evaluates a grid program over checked arguments (see checkArguments).
/// Throws blk::Error on division by zero; the result is not range-checked.
Grid evaluateGrid(const GridProgram &program, const ArgValue *args,
                  const std::string &kernel);

/// Checks `count` host arguments against `kernel`'s parameters and converts
/// each in place to the parameter's representation. Integers convert between
/// widths when the value fits, float and double between f32 and f64; a
/// pointer's element type must match (or be void). Pointers must be aligned
/// to their element size and to the `aligned` hint, integers must honour
/// `multiple_of`. Throws blk::Error naming the kernel and the parameter.
void checkArguments(const KernelDesc &kernel, ArgValue *args, size_t count);

/// Throws blk::Error if the grid or block exceeds `limits`. Returns false for
/// an empty grid (some dimension 0), which launches nothing.
bool checkLaunchShape(const Grid &grid, const Specialization &spec,
                      const LaunchLimits &limits, const std::string &kernel);

/// The signed value of a checked integer argument of kind `kind`.
int64_t integerArgValue(const ArgValue &arg, ScalarKind kind);

} // namespace blk
