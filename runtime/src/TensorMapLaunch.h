//===- TensorMapLaunch.h - launching entries with tensor maps ---*- C++ -*-===//
//
// An entry with `tensor_maps` (docs/manifest.md "Tensor maps") takes one
// 128-byte CUtensorMap per map after its own parameters. This encodes them
// from the launch's arguments with cuTensorMapEncodeTiled, reusing the last
// encoding while the inputs (base, dims, strides) are unchanged, and passes
// them to cuLaunchKernel. Entries without maps never come here (launchSpec
// tests one pointer). Tests: TensorMapLaunchTest.cpp (fake driver).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Driver.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/TensorMap.h"

#include <memory>
#include <mutex>
#include <vector>

namespace blk::detail {

class ContextImpl;

/// The tensor maps of one entry: compiled at module load, and the last
/// encoding of each with the inputs it came from (guarded by `mutex`:
/// launches may come from several threads).
struct TensorMapState {
  std::vector<TensorMapProgram> programs;
  mutable std::mutex mutex;
  mutable std::vector<TensorMapArgs> encodedFrom; ///< rank 0: none yet
  mutable std::unique_ptr<CUtensorMap[]> encoded;
};

/// The state of an entry's `maps`; null when it has none.
std::unique_ptr<TensorMapState>
makeTensorMapState(const std::vector<TensorMapDesc> &maps,
                   const KernelDesc &kernel);

/// cuLaunchKernel of `function` with `pointers` (one per kernel parameter)
/// followed by the entry's tensor maps, evaluated from the checked `args`.
/// Throws blk::Error when an argument breaks a tensor map rule or the
/// driver refuses to encode a map; returns cuLaunchKernel's result.
CUresult launchWithTensorMaps(const ContextImpl &ctx,
                              const TensorMapState &maps,
                              const KernelDesc &kernel, CUfunction function,
                              const Grid &grid, unsigned threads,
                              uint32_t shared, CUstream stream,
                              const ArgValue *args, void **pointers);

} // namespace blk::detail
