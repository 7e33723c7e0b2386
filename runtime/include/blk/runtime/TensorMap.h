//===- TensorMap.h - driver-free tensor map (TMA) launch inputs -*- C++ -*-===//
//
// What cuTensorMapEncodeTiled needs for each tensor map an entry takes
// (docs/manifest.md "Tensor maps"), from checked launch arguments. The
// manifest's dims and strides are compiled once at module load; a launch
// evaluates them without allocation and checks the driver's rules, so a bad
// argument is reported with its parameter and cause before the driver sees
// it. Encoding and the per-entry cache are driver code (src/TensorMapLaunch).
// Tests: tests/unit/Runtime/TensorMapTest.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace blk {

/// The values of CUtensorMapDataType (cuda.h), so that this header needs no
/// CUDA headers (the driver code checks they agree).
enum class TensorMapDataType : uint8_t {
  UInt8 = 0,
  UInt16,
  UInt32,
  Int32,
  UInt64,
  Int64,
  Float16,
  Float32,
  Float64,
  BFloat16
};

/// The type TMA moves elements of `elem` as: same size; fp8, i8 and i1
/// as UInt8, i16 as UInt16 (TMA copies bits, it does not convert).
TensorMapDataType tensorMapDataType(ScalarKind elem);

/// A tensor map's expressions, compiled at module load.
struct TensorMapProgram {
  const TensorMapDesc *desc = nullptr;
  TensorMapDataType dataType = TensorMapDataType::UInt8;
  unsigned elemBytes = 1;
  /// One program (one dim) per expression: desc->dims, then desc->strides.
  std::vector<GridProgram> exprs;
};

/// Compiles the tensor maps of one entry of `kernel`. Throws blk::Error
/// when an expression is too deep to evaluate.
std::vector<TensorMapProgram>
compileTensorMaps(const std::vector<TensorMapDesc> &maps,
                  const KernelDesc &kernel);

/// The arguments of cuTensorMapEncodeTiled for one map at one launch.
struct TensorMapArgs {
  uint64_t base = 0; ///< the pointer argument: the tensor's global address
  uint32_t rank = 0; ///< 0: nothing evaluated yet
  TensorMapDataType dataType = TensorMapDataType::UInt8;
  uint32_t swizzle = 0;                         ///< bytes: 0, 32, 64, 128
  uint64_t dims[kMaxTensorMapRank] = {};        ///< elements, innermost first
  uint64_t strides[kMaxTensorMapRank - 1] = {}; ///< bytes, of dims 1..rank-1
  uint32_t box[kMaxTensorMapRank] = {};         ///< elements
  uint32_t elementStrides[kMaxTensorMapRank] = {}; ///< all 1

  /// Whether `o` has the same base, dims and strides (the inputs that vary
  /// between launches of one entry; the rest is fixed by its manifest).
  bool sameInputs(const TensorMapArgs &o) const;
};

/// Evaluates `map` over arguments checked by checkArguments into `out` and
/// checks what cuTensorMapEncodeTiled requires of them: the base address
/// 16-byte aligned, every dim in 1..2^32, every byte stride a multiple of
/// 16 and in 0..2^40 - 1. Throws blk::Error naming `kernel`, the parameter
/// and the cause ("tensor map of `a`: ..."); allocates only then.
void evaluateTensorMap(const TensorMapProgram &map, const KernelDesc &kernel,
                       const ArgValue *args, TensorMapArgs &out);

/// "base 0x7f0000, dims [300, 4000], strides [640] bytes, box [64, 128],
/// swizzle 128": what an encoding failure reports.
std::string describeTensorMapArgs(const TensorMapArgs &args);

} // namespace blk
