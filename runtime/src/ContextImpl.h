//===- ContextImpl.h - shared state behind Context, Module, Stream
//---------===//
#pragma once

#include "Driver.h"
#include "blk/runtime/Context.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace blk::detail {

struct ModuleState;

/// The driver, the device's primary context and the module cache.
class ContextImpl {
public:
  explicit ContextImpl(const ContextOptions &options);
  ~ContextImpl();
  ContextImpl(const ContextImpl &) = delete;
  ContextImpl &operator=(const ContextImpl &) = delete;

  /// Makes the primary context current on the calling thread (cheap when it
  /// already is: one cuCtxGetCurrent).
  void makeCurrent() const {
    CUcontext current = nullptr;
    if (api->cuCtxGetCurrent(&current) != CUDA_SUCCESS || current != context)
      check(api->cuCtxSetCurrent(context), "cannot make the context current");
  }
  /// makeCurrent for destructors: never throws.
  void makeCurrentNoThrow() const noexcept {
    CUcontext current = nullptr;
    if (api->cuCtxGetCurrent(&current) != CUDA_SUCCESS || current != context)
      api->cuCtxSetCurrent(context);
  }
  /// Throws blk::Error for a failed driver call.
  void check(CUresult r, const std::string &cause,
             const std::string &kernel = "") const {
    if (r != CUDA_SUCCESS)
      fail(r, cause, kernel);
  }
  [[noreturn]] void fail(CUresult r, const std::string &cause,
                         const std::string &kernel = "") const;

  std::unique_ptr<DriverApi> api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceInfo info;

  /// Loaded modules by content hash; guarded by cacheMutex.
  std::mutex cacheMutex;
  std::unordered_map<uint64_t, std::weak_ptr<const ModuleState>> cache;
};

/// One value variant (@specialize) or assumed variant (automatic
/// specialisation). Its function is looked up on the first launch that
/// picks it (resolveVariant), then read without a lock.
struct VariantState {
  const std::string *entry = nullptr;
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
  const AssumedVariant *assumed = nullptr; ///< its tests; null for a value variant
  mutable std::atomic<CUfunction> function{nullptr};
};

/// One specialisation, resolved: its function and compiled grid, and the
/// table that maps argument classes to its value variants.
struct SpecState {
  const Specialization *spec = nullptr;
  CUfunction function = nullptr;
  GridProgram grid;
  /// Empty without variants; else 3^k slots indexed by the class vector
  /// (digit i: 0 any, 1 equal to 1, 2 multiple of 16, weight 3^i), holding
  /// 1 + the variant's index, or 0 for the generic entry.
  std::vector<uint8_t> variantSlot;
  std::unique_ptr<VariantState[]> variants;
  /// One per Specialization::assumed, in its order.
  std::unique_ptr<VariantState[]> assumed;
  size_t assumedCount = 0;
};

/// One kernel and its resolved specialisations.
struct KernelState {
  const KernelDesc *desc = nullptr;
  std::vector<SpecState> specs;
};

/// A loaded module. Immutable once built, so launches need no lock.
struct ModuleState {
  ~ModuleState();
  std::shared_ptr<ContextImpl> ctx;
  std::string name;
  Manifest manifest;
  CUmodule module = nullptr;
  std::vector<KernelState> kernels;
  /// Serialises the lazy lookup of value variants' functions.
  mutable std::mutex variantMutex;
};

/// The variant the checked `args` select in `spec`: the first assumed
/// variant whose tests hold, else the value variant of the arguments'
/// classes, else nullptr (the generic entry).
const VariantState *pickVariant(const KernelDesc &kernel, const SpecState &spec,
                                const ArgValue *args);

/// The function of `variant`, looked up (and opted in to its shared memory)
/// on first use. The context must be current. Throws blk::Error.
CUfunction resolveVariant(const ModuleState &module, const KernelDesc &kernel,
                          const VariantState &variant);

/// Loads (or finds in the cache) the module held in `bytes`.
std::shared_ptr<const ModuleState>
loadModule(const std::shared_ptr<ContextImpl> &ctx,
           std::vector<unsigned char> bytes, const std::string &name);

} // namespace blk::detail
