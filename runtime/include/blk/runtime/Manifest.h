//===- Manifest.h - the blk artifact manifest (schema 1) --------*- C++ -*-===//
//
// In-memory form of the JSON manifest that travels inside every blk fatbin
// (docs/manifest.md), and its parser. Driver-free; public header (C++17).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blk {

/// The manifest schema this runtime reads.
inline constexpr int kManifestSchema = 1;

/// A runtime parameter of a kernel, in launch order.
struct Param {
  std::string name;
  ParamType type;
  uint32_t aligned = 0;   ///< pointer alignment hint in bytes, 0 if none
  int64_t multipleOf = 0; ///< integer divisibility hint, 0 if none
};

/// A `const` (compile-time) parameter; its value selects a specialisation.
struct ConstParam {
  std::string name;
  ParamType type;
};

/// One node of a folded `@grid` expression.
struct GridExpr {
  enum class Kind { Int, Param, Op };
  enum class Op { Add, Sub, Mul, Div, Mod, Cdiv, Min, Max, Neg };
  Kind kind = Kind::Int;
  int64_t value = 0; ///< Int: the constant; Param: the index into params
  Op op = Op::Add;
  std::vector<GridExpr> args;
};

/// A value of a const parameter in a config (integers, booleans or floats).
struct ConfigValue {
  std::string name;
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;
};

/// Most parameters one kernel may `@specialize`.
inline constexpr size_t kMaxSpecialized = 4;

/// The value class of a specialised integer argument: 1 when it equals 1,
/// else 16 when it is a multiple of 16 (0 included), else 0 (any value).
constexpr int valueClass(int64_t value) {
  return value == 1 ? 1 : value % 16 == 0 ? 16 : 0;
}

/// An entry compiled for one class of each `@specialize`d argument.
struct Variant {
  std::string entry;     ///< mangled entry name (the generic's + `__v...`)
  std::vector<int> when; ///< per KernelDesc::specialize: 1, 16 or 0 (any)
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
};

/// One test an assumed variant's launch arguments must pass.
struct Assumption {
  enum class Kind { Aligned, Equals, MultipleOf };
  uint32_t param = 0; ///< index into KernelDesc::params
  Kind kind = Kind::Equals;
  int64_t value = 0; ///< the alignment (bytes), the value, the divisor
};

/// An entry compiled under assumptions about the arguments (automatic
/// specialisation, docs/manifest.md "Assumed variants").
struct AssumedVariant {
  std::string entry; ///< the generic's + `__auto`
  std::vector<Assumption> assume;
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
};

/// One compiled specialisation of a kernel (one @config / -D set).
struct Specialization {
  std::string entry; ///< mangled entry name in the cubin / PTX
  std::vector<ConfigValue> config;
  int numWarps = 4;
  int numStages = 3;
  int threads = 128;
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
  std::vector<GridExpr> grid; ///< 1 to 3 dimensions; empty without @grid
  /// Value variants; `entry` itself is the all-0 (generic) one.
  std::vector<Variant> variants;
  /// Tried in order before the value variants; the first whose every
  /// assumption holds is launched.
  std::vector<AssumedVariant> assumed;
};

/// A kernel and all its specialisations.
struct KernelDesc {
  std::string name;
  std::vector<Param> params;
  std::vector<ConstParam> constParams;
  std::vector<std::string> autotuneKey;
  std::vector<std::string> gridSource;
  /// `@specialize`d parameters: indices into params (scalar integers, at
  /// most kMaxSpecialized, no repeats); empty when the kernel has none.
  std::vector<uint32_t> specialize;
  std::vector<Specialization> specializations;
};

/// The whole manifest of one artifact.
struct Manifest {
  int schema = kManifestSchema;
  std::string compiler;
  std::string source;
  std::string sourceHash;
  std::vector<std::string> archs;
  std::vector<KernelDesc> kernels;

  /// The kernel called `name`, or nullptr.
  const KernelDesc *findKernel(std::string_view name) const;
};

/// Parses and validates manifest JSON. `origin` names the artifact in
/// messages. Throws blk::Error on malformed JSON, a wrong schema, unknown
/// types, out-of-range grid parameter indices, malformed value variants
/// and similar.
Manifest parseManifest(std::string_view json, const std::string &origin);

/// Renders one specialisation's config as "BLOCK=1024 num_warps=4".
std::string formatConfig(const Specialization &spec);

} // namespace blk
