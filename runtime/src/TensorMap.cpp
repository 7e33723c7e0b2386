//===- TensorMap.cpp - tensor map inputs from launch arguments ------------===//
//
// Compiles a tensor map's dims and strides (grid expressions) at module load
// and evaluates them per launch into cuTensorMapEncodeTiled's arguments,
// checking the rules the driver documents so that a bad argument names its
// parameter and cause instead of a bare CUDA_ERROR_INVALID_VALUE. Written
// for the hot path: no allocation unless an error is being reported.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/TensorMap.h"

#include <algorithm>
#include "HexString.h"
#include "blk/runtime/Error.h"

namespace blk {
namespace {

/// cuTensorMapEncodeTiled's limits (cuda.h): dims 1..2^32 elements, byte
/// strides multiples of 16 below 2^40, a 16-byte-aligned base address.
constexpr uint64_t kMaxDim = uint64_t(1) << 32;
constexpr uint64_t kStrideLimit = uint64_t(1) << 40;
constexpr uint64_t kAlignment = 16;

[[noreturn]] void mapError(const TensorMapProgram &map, const KernelDesc &k,
                           const std::string &what) {
  throw Error("tensor map of `" + k.params[map.desc->param].name + "`: " + what,
              k.name);
}

/// "dim 1 (`K - 0`)" / "stride of dim 1 (`lda`)": the expression as written.
std::string exprName(const TensorMapProgram &map, const KernelDesc &k,
                     size_t dim, bool stride) {
  const GridExpr &e = stride ? map.desc->strides[dim - 1] : map.desc->dims[dim];
  return std::string(stride ? "stride of dim " : "dim ") + std::to_string(dim) +
         " (`" + formatGridExpr(e, k) + "`)";
}

} // namespace

TensorMapDataType tensorMapDataType(ScalarKind elem) {
  switch (elem) {
  case ScalarKind::I16:
  case ScalarKind::U16:
    return TensorMapDataType::UInt16;
  case ScalarKind::I32:
    return TensorMapDataType::Int32;
  case ScalarKind::U32:
    return TensorMapDataType::UInt32;
  case ScalarKind::I64:
    return TensorMapDataType::Int64;
  case ScalarKind::U64:
    return TensorMapDataType::UInt64;
  case ScalarKind::F16:
    return TensorMapDataType::Float16;
  case ScalarKind::BF16:
    return TensorMapDataType::BFloat16;
  case ScalarKind::F32:
    return TensorMapDataType::Float32;
  case ScalarKind::F64:
    return TensorMapDataType::Float64;
  default: // i1, i8, u8, f8e4m3, f8e5m2: one byte each
    return TensorMapDataType::UInt8;
  }
}

std::vector<TensorMapProgram>
compileTensorMaps(const std::vector<TensorMapDesc> &maps,
                  const KernelDesc &kernel) {
  std::vector<TensorMapProgram> programs;
  for (const TensorMapDesc &desc : maps) {
    TensorMapProgram p;
    p.desc = &desc;
    p.dataType = tensorMapDataType(desc.elem);
    p.elemBytes = scalarKindSize(desc.elem);
    std::string what =
        "tensor map of `" + kernel.params.at(desc.param).name + "`:";
    for (size_t d = 0; d < desc.dims.size(); ++d)
      p.exprs.push_back(compileGrid({desc.dims[d]}, kernel.params, kernel.name,
                                    what + " dim " + std::to_string(d)));
    for (size_t d = 0; d < desc.strides.size(); ++d)
      p.exprs.push_back(
          compileGrid({desc.strides[d]}, kernel.params, kernel.name,
                      what + " stride of dim " + std::to_string(d + 1)));
    programs.push_back(std::move(p));
  }
  return programs;
}

bool TensorMapArgs::sameInputs(const TensorMapArgs &o) const {
  if (base != o.base || rank != o.rank)
    return false;
  for (uint32_t d = 0; d < rank; ++d)
    if (dims[d] != o.dims[d] || (d + 1 < rank && strides[d] != o.strides[d]))
      return false;
  return true;
}

void evaluateTensorMap(const TensorMapProgram &map, const KernelDesc &k,
                       const ArgValue *args, TensorMapArgs &out) {
  const TensorMapDesc &desc = *map.desc;
  uint32_t rank = uint32_t(desc.dims.size());
  out.base = args[desc.param].bits;
  out.rank = rank;
  out.dataType = map.dataType;
  out.swizzle = desc.swizzle;
  if (out.base % kAlignment != 0)
    mapError(map, k,
             "base address " + detail::hexString(out.base) + " is not " +
                 std::to_string(kAlignment) + "-byte aligned");
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t v = 0;
    if (!evaluateGridDim(map.exprs[d], 0, args, v))
      mapError(map, k, exprName(map, k, d, false) + " divides by zero");
    if (v > 0 && uint64_t(v) > kMaxDim)
      mapError(map, k,
               exprName(map, k, d, false) + " is " + std::to_string(v) +
                   ", not in 1..2^32");
    // An empty tensor (a dim below 1: K = 0) is encoded with that dim 1:
    // blkc's kernels copy through a map only after checking on the device
    // that every extent is at least 1 (docs/manifest.md, "Tensor maps"),
    // so the map is never read, and the launch must not fail for it.
    out.dims[d] = uint64_t(std::max<int64_t>(v, 1));
    out.box[d] = desc.box[d];
    out.elementStrides[d] = 1;
  }
  for (uint32_t d = 1; d < rank; ++d) {
    int64_t v = 0;
    if (!evaluateGridDim(map.exprs[rank + d - 1], 0, args, v))
      mapError(map, k, exprName(map, k, d, true) + " divides by zero");
    // Elements to bytes without overflow: compare before multiplying.
    if (v < 0 || uint64_t(v) >= kStrideLimit / map.elemBytes)
      mapError(map, k,
               exprName(map, k, d, true) + " is " + std::to_string(v) +
                   (v < 0 ? " elements, negative"
                          : " elements, 2^40 bytes or more"));
    uint64_t bytes = uint64_t(v) * map.elemBytes;
    if (bytes % kAlignment != 0)
      mapError(map, k,
               exprName(map, k, d, true) + " is " + std::to_string(bytes) +
                   " bytes, not a multiple of " + std::to_string(kAlignment));
    out.strides[d - 1] = bytes;
  }
}

std::string describeTensorMapArgs(const TensorMapArgs &a) {
  auto list = [](const auto *values, uint32_t n) {
    std::string text;
    for (uint32_t i = 0; i < n; ++i)
      text += (i ? ", " : "") + std::to_string(values[i]);
    return "[" + text + "]";
  };
  return "base " + detail::hexString(a.base) + ", dims " +
         list(a.dims, a.rank) + ", strides " +
         list(a.strides, a.rank ? a.rank - 1 : 0) + " bytes, box " +
         list(a.box, a.rank) + ", swizzle " + std::to_string(a.swizzle);
}

} // namespace blk
