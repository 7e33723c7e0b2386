//===- TensorMapLaunch.cpp - encode tensor maps and launch with them ------===//
//
// The fixed choices of docs/manifest.md "Tensor maps" (interleave none,
// element strides 1, L2 promotion 128 B, out-of-bounds elements read as
// zero) live here, next to the one call of cuTensorMapEncodeTiled.
//
//===----------------------------------------------------------------------===//
#include "TensorMapLaunch.h"
#include "ContextImpl.h"
#include "blk/runtime/Error.h"

#include <algorithm>

namespace blk::detail {
namespace {

// TensorMap.h spells cuda.h's data types without cuda.h.
static_assert(CUtensorMapDataType(TensorMapDataType::UInt8) ==
              CU_TENSOR_MAP_DATA_TYPE_UINT8);
static_assert(CUtensorMapDataType(TensorMapDataType::UInt16) ==
              CU_TENSOR_MAP_DATA_TYPE_UINT16);
static_assert(CUtensorMapDataType(TensorMapDataType::UInt32) ==
              CU_TENSOR_MAP_DATA_TYPE_UINT32);
static_assert(CUtensorMapDataType(TensorMapDataType::Int32) ==
              CU_TENSOR_MAP_DATA_TYPE_INT32);
static_assert(CUtensorMapDataType(TensorMapDataType::UInt64) ==
              CU_TENSOR_MAP_DATA_TYPE_UINT64);
static_assert(CUtensorMapDataType(TensorMapDataType::Int64) ==
              CU_TENSOR_MAP_DATA_TYPE_INT64);
static_assert(CUtensorMapDataType(TensorMapDataType::Float16) ==
              CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
static_assert(CUtensorMapDataType(TensorMapDataType::Float32) ==
              CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
static_assert(CUtensorMapDataType(TensorMapDataType::Float64) ==
              CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
static_assert(CUtensorMapDataType(TensorMapDataType::BFloat16) ==
              CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) >= 64,
              "a tensor map is a 128-byte, 64-byte-aligned kernel parameter");

/// Kernel parameters a launch passes from its stack; more take a vector.
constexpr size_t kStackParams = 64;

CUtensorMapSwizzle swizzleMode(uint32_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default: // the parser allows 0, 32, 64, 128 only
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/// Encodes `a` into `out`, or throws blk::Error with the driver's error.
void encode(const ContextImpl &ctx, const KernelDesc &k,
            const TensorMapProgram &map, const TensorMapArgs &a,
            CUtensorMap &out) {
  const std::string &name = k.params[map.desc->param].name;
  if (!ctx.api->cuTensorMapEncodeTiled)
    throw Error(
        "tensor map of `" + name +
            "`: the CUDA driver lacks cuTensorMapEncodeTiled (CUDA 12.0 or "
            "newer is needed)",
        k.name);
  CUresult r = ctx.api->cuTensorMapEncodeTiled(
      &out, CUtensorMapDataType(a.dataType), a.rank,
      reinterpret_cast<void *>(uintptr_t(a.base)), a.dims, a.strides, a.box,
      a.elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleMode(a.swizzle),
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    ctx.fail(r,
             "encoding the tensor map of `" + name + "` (" +
                 describeTensorMapArgs(a) + ")",
             k.name);
}

} // namespace

std::unique_ptr<TensorMapState>
makeTensorMapState(const std::vector<TensorMapDesc> &maps,
                   const KernelDesc &kernel) {
  if (maps.empty())
    return nullptr;
  auto state = std::make_unique<TensorMapState>();
  state->programs = compileTensorMaps(maps, kernel);
  state->encodedFrom.resize(maps.size());
  state->encoded = std::make_unique<CUtensorMap[]>(maps.size());
  return state;
}

CUresult launchWithTensorMaps(const ContextImpl &ctx,
                              const TensorMapState &maps,
                              const KernelDesc &kernel, CUfunction function,
                              const Grid &grid, unsigned threads,
                              uint32_t shared, CUstream stream,
                              const ArgValue *args, void **pointers) {
  size_t count = kernel.params.size(), n = maps.programs.size();
  TensorMapArgs inputs[kMaxTensorMaps]; // n <= kMaxTensorMaps (the parser)
  for (size_t i = 0; i < n; ++i)
    evaluateTensorMap(maps.programs[i], kernel, args, inputs[i]);
  // The launch passes copies: another thread may re-encode the cache while
  // the driver reads them. A failed encoding leaves the cache as it was.
  CUtensorMap local[kMaxTensorMaps];
  {
    std::lock_guard<std::mutex> lock(maps.mutex);
    for (size_t i = 0; i < n; ++i) {
      if (maps.encodedFrom[i].sameInputs(inputs[i])) {
        local[i] = maps.encoded[i];
        continue;
      }
      encode(ctx, kernel, maps.programs[i], inputs[i], local[i]);
      maps.encoded[i] = local[i];
      maps.encodedFrom[i] = inputs[i];
    }
  }
  void *stackParams[kStackParams + kMaxTensorMaps];
  std::vector<void *> heapParams;
  void **params = stackParams;
  if (count > kStackParams) {
    heapParams.resize(count + n);
    params = heapParams.data();
  }
  std::copy(pointers, pointers + count, params);
  for (size_t i = 0; i < n; ++i)
    params[count + i] = &local[i];
  return ctx.api->cuLaunchKernel(function, unsigned(grid.x), unsigned(grid.y),
                                 unsigned(grid.z), threads, 1, 1, shared,
                                 stream, params, nullptr);
}

} // namespace blk::detail
