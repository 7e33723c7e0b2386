//===- AxisInfo.h - contiguity / divisibility / constancy -------*- C++ -*-===//
//
// Axis info of integer and pointer values (scalars or blocks), per
// dimension, as the GPU backend needs it to vectorise and coalesce memory
// accesses. Scalars have one dimension. Definitions, for dimension d:
//  - contiguity: values come in runs of this many elements along d, each run
//    increasing by exactly 1 (1 element for pointers);
//  - divisibility: the first value of every such run is a multiple of this
//    power of two (bytes for pointers, the value itself for integers); with
//    contiguity 1 every element is a multiple of it;
//  - constancy: values come in runs of this many equal elements along d.
// All three are powers of two; 1 is "nothing known".
// Sources of facts: constants, make_range, kernel argument attributes
// `blk.aligned` (pointer, bytes) and `blk.multiple_of` (integer),
// blk.multiple_of / blk.max_contiguous hints, loop bounds. Shown by
// `blk-opt --blk-test-print-axis-info` (tests/lit/transforms/).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_ANALYSIS_AXISINFO_H
#define BLK_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>

namespace blk {

/// The lattice value: per-dimension facts about one value.
class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// Largest divisibility ever claimed (e.g. for the constant 0).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  /// The uninitialized state (no dimensions); joins as the identity.
  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)), constancy(std::move(constancy)),
        constantValue(constantValue) {}

  /// Nothing known about a value of `rank` dimensions (0 for scalars).
  static AxisInfo getPessimistic(unsigned rank);
  /// Pessimistic state for the type of `value`.
  static AxisInfo getPessimistic(mlir::Value value);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  /// The value of every element when it is a known constant.
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// Conservative merge (gcd per dimension) of two facts about one value.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility &&
           constancy == other.constancy &&
           constantValue == other.constantValue;
  }
  /// "contiguity = [..], divisibility = [..], constancy = [..][, constant = c]".
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity, divisibility, constancy;
  std::optional<int64_t> constantValue;
};

/// Runs the axis info data-flow analysis over `root` (a module or a
/// function) once; queries are then cheap.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);
  ~AxisInfoAnalysis();
  AxisInfoAnalysis(const AxisInfoAnalysis &) = delete;
  AxisInfoAnalysis &operator=(const AxisInfoAnalysis &) = delete;

  /// Facts about `value`; pessimistic when the analysis learned nothing.
  AxisInfo getAxisInfo(mlir::Value value) const;

  /// Elements per contiguous run along the last (row-major fastest) dim of
  /// a pointer (block).
  int64_t getPtrContiguity(mlir::Value ptr) const;
  /// Elements a vector access through `ptr` may cover along the last dim:
  /// min(contiguity, divisibility in elements).
  int64_t getPtrAlignment(mlir::Value ptr) const;
  /// Elements over which an i1 mask is constant along the last dim.
  int64_t getMaskAlignment(mlir::Value mask) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace blk

#endif // BLK_ANALYSIS_AXISINFO_H
