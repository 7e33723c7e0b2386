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

/// What a kernel does with the memory a pointer parameter reaches (blkc sees
/// every load, store and atomic). Unknown: the manifest does not say (an
/// older artifact): the autotuner treats it as ReadWrite.
enum class Access : uint8_t { Unknown, None, Read, Write, ReadWrite, Atomic };

/// "read", "write", ... ("unknown" for Access::Unknown).
const char *accessName(Access access);

/// A runtime parameter of a kernel, in launch order.
struct Param {
  std::string name;
  ParamType type;
  uint32_t aligned = 0;   ///< pointer alignment hint in bytes, 0 if none
  int64_t multipleOf = 0; ///< integer divisibility hint, 0 if none
  Access access = Access::Unknown; ///< pointers only
};

/// A `const` (compile-time) parameter; its value selects a specialisation.
struct ConstParam {
  std::string name;
  ParamType type;
};

/// One node of a folded `@grid` expression.
struct GridExpr {
  enum class Kind { Int, Param, Op };
  /// Lt ... Not give 0 or 1 (the `requires` conditions); And/Or/Not test
  /// their operands against 0.
  enum class Op {
    Add, Sub, Mul, Div, Mod, Cdiv, Min, Max, Neg,
    Lt, Le, Gt, Ge, Eq, Ne, And, Or, Not
  };
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

/// Most dimensions of a tensor map (cuTensorMapEncodeTiled's limit).
inline constexpr size_t kMaxTensorMapRank = 5;
/// Most tensor maps one entry may take: each is a 128-byte kernel
/// parameter, and a launch keeps them on its stack.
inline constexpr size_t kMaxTensorMaps = 16;

/// A Hopper TMA descriptor (CUtensorMap) an entry takes as a hidden kernel
/// parameter after its own parameters (docs/manifest.md "Tensor maps"). The
/// runtime encodes it at launch from the arguments; interleave none,
/// element strides 1, L2 promotion 128 B and out-of-bounds elements read as
/// zero are fixed.
struct TensorMapDesc {
  uint32_t param = 0; ///< pointer parameter: the tensor's base address
  ScalarKind elem = ScalarKind::F16;
  /// Global extent of each dimension in elements, innermost first: 1 to
  /// kMaxTensorMapRank expressions over scalar integer parameters.
  std::vector<GridExpr> dims;
  /// Strides of dims 1..rank-1 in elements (dim 0 is contiguous).
  std::vector<GridExpr> strides;
  std::vector<uint32_t> box; ///< tile size per dim, innermost first, 1..256
  uint32_t swizzle = 0;      ///< bytes: 0 (none), 32, 64 or 128
};

/// Most parameters one kernel may `@specialize`.
inline constexpr size_t kMaxSpecialized = 4;

/// The producer warps of a warp-specialised entry (`producer_warps`: one
/// warpgroup; the compiler's twin is blk/Support/WarpSpecialize.h).
inline constexpr int kProducerWarps = 4;

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
  std::vector<TensorMapDesc> tensorMaps; ///< hidden parameters, in order
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
  std::vector<TensorMapDesc> tensorMaps; ///< hidden parameters, in order
};

/// One compiled specialisation of a kernel (one @config / -D set).
struct Specialization {
  std::string entry; ///< mangled entry name in the cubin / PTX
  std::vector<ConfigValue> config;
  /// "BLOCK=1024 num_warps=4 num_stages=3": how tuning tables and caches
  /// name this config (the manifest's `config_key`, else configKey()).
  std::string configKey;
  /// 16 hex digits identifying this config's machine code; empty when the
  /// manifest has none. Cached timings are reused only while it matches.
  std::string codeHash;
  /// `@requires` conditions, const values folded: the config may launch
  /// only when every one is nonzero for the arguments.
  std::vector<GridExpr> requirements;
  int numWarps = 4;
  int numStages = 3;
  /// Warps launched besides numWarps (a warp-specialised entry's producer
  /// warpgroup): 0 or kProducerWarps.
  int producerWarps = 0;
  int threads = 128; ///< 32 x (numWarps + producerWarps)
  /// `persistent`: launched with at most as many programs as fit on the
  /// device at once (SMs x programs per SM); each walks the one-axis grid.
  bool persistent = false;
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
  /// TMA descriptors `entry` takes after its parameters; empty for none.
  std::vector<TensorMapDesc> tensorMaps;
  std::vector<GridExpr> grid; ///< 1 to 3 dimensions; empty without @grid
  /// Value variants; `entry` itself is the all-0 (generic) one.
  std::vector<Variant> variants;
  /// Tried in order before the value variants; the first whose every
  /// assumption holds is launched.
  std::vector<AssumedVariant> assumed;
};

/// How `@autotune` groups key values into buckets: one tuning decision per
/// bucket (the launch still uses the exact values).
struct BucketRule {
  enum class Kind { Pow2, Exact, List };
  Kind kind = Kind::Pow2;
  std::vector<int64_t> bounds; ///< List: strictly ascending, positive
};

/// Most parameters an `@autotune` key may name.
inline constexpr size_t kMaxAutotuneKey = 8;

/// `@autotune(key = [...], bucket = ..., restore = [...], zero = [...])`.
struct AutotuneDesc {
  bool enabled = false;
  std::vector<uint32_t> key; ///< indices into params (scalar integers)
  BucketRule bucket;
  std::vector<uint32_t> restore; ///< pointer params always snapshotted
  std::vector<uint32_t> zero;    ///< pointer params zeroed before each trial
};

/// A kernel and all its specialisations.
struct KernelDesc {
  std::string name;
  std::vector<Param> params;
  std::vector<ConstParam> constParams;
  std::vector<std::string> autotuneKey;
  AutotuneDesc autotune; ///< from "autotune", else from "autotune_key"
  std::vector<std::string> gridSource;
  /// `@specialize`d parameters: indices into params (scalar integers, at
  /// most kMaxSpecialized, no repeats); empty when the kernel has none.
  std::vector<uint32_t> specialize;
  std::vector<Specialization> specializations;
};

/// One config's measured time in a tuning table.
struct TuningTiming {
  std::string config;   ///< a Specialization::configKey
  std::string codeHash; ///< the code that was timed ("" if unknown)
  double ms = 0;        ///< median of the timed launches
};

/// The decision for one kernel and one key bucket.
struct TuningEntry {
  std::string kernel;
  std::vector<std::pair<std::string, int64_t>> key; ///< bucket values, by name
  std::string config; ///< the chosen configKey
  std::vector<TuningTiming> timings;
  std::vector<std::pair<std::string, std::string>> skipped; ///< config, reason
};

/// A tuning table (docs/tuning.md): decisions for one device, as written by
/// `blkc tune`, Context::exportTuning and the cache.
struct TuningTable {
  std::string deviceName; ///< "NVIDIA H200"
  unsigned sm = 0;        ///< 90
  std::vector<TuningEntry> entries;
};

/// The whole manifest of one artifact.
struct Manifest {
  int schema = kManifestSchema;
  std::string compiler;
  std::string source;
  std::string sourceHash;
  std::vector<std::string> archs;
  std::vector<KernelDesc> kernels;
  /// Tables embedded with `blkc build --tuning` (any devices).
  std::vector<TuningTable> tuning;

  /// The kernel called `name`, or nullptr.
  const KernelDesc *findKernel(std::string_view name) const;
};

/// Parses and validates manifest JSON. `origin` names the artifact in
/// messages. Throws blk::Error on malformed JSON, a wrong schema, unknown
/// types, out-of-range grid parameter indices, malformed value variants
/// and similar.
Manifest parseManifest(std::string_view json, const std::string &origin);

/// The canonical config key "BLOCK=1024 num_warps=4 num_stages=3", then
/// " warp_specialize=1" when it has producer warps (what blkc writes as
/// `config_key`; used when a manifest has none).
std::string configKey(const Specialization &spec);

/// Renders a folded grid or `requires` expression with parameter names:
/// "n_cols <= 1024".
std::string formatGridExpr(const GridExpr &e, const KernelDesc &kernel);

/// Renders a tensor map for `blkc inspect` and messages: "`a`: f16 dims
/// [K, M] strides [lda] box [64, 128] swizzle 128".
std::string formatTensorMap(const TensorMapDesc &map, const KernelDesc &kernel);

} // namespace blk
