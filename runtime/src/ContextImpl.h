//===- ContextImpl.h - shared state behind Context, Module, Stream
//---------===//
#pragma once

#include "Driver.h"
#include "TensorMapLaunch.h"
#include "blk/runtime/Context.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"
#include "blk/runtime/Module.h"
#include "blk/runtime/Tuning.h"

#include <array>
#include <atomic>
#include <functional>
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

  // Autotuning (Autotune.cpp). Settings are read from the environment when
  // the context opens.
  AutotuneMode tuneMode = AutotuneMode::On;
  bool printDecisions = false;  ///< BLK_AUTOTUNE_PRINT=1
  double tuneBudgetMs = 10;     ///< BLK_TUNE_BUDGET_MS, per config
  uint64_t snapshotLimit = 0;   ///< BLK_TUNE_SNAPSHOT_LIMIT_MB; 0: the default
  /// One tuning at a time on the device; also guards what follows.
  std::mutex tuneMutex;
  std::vector<TuningTable> loadedTables; ///< Context::loadTuning
  std::vector<TuningEntry> learned;      ///< Context::exportTuning
  CUstream tuneStream = nullptr;         ///< private: trials run here
  CUdeviceptr flushBuffer = 0;           ///< written before each trial
  size_t flushBytes = 0;
  /// Context::onAutotune; copied under listenerMutex before each call.
  std::mutex listenerMutex;
  std::function<void(const AutotuneEvent &)> listener;
};

/// A count worked out on first use and read without a lock afterwards.
/// Copyable (a vector of SpecState is built before any launch), as the
/// atomic alone is not.
struct CachedCount {
  mutable std::atomic<int64_t> value{0};
  CachedCount() = default;
  CachedCount(const CachedCount &other) : value(other.value.load(std::memory_order_relaxed)) {}
  CachedCount &operator=(const CachedCount &other) {
    value.store(other.value.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }
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
  std::unique_ptr<TensorMapState> tensorMaps; ///< null when it takes none
  /// A persistent entry's resident programs (residentPrograms); 0: not yet.
  CachedCount resident;
};

/// One specialisation, resolved: its function and compiled grid, and the
/// table that maps argument classes to its value variants.
struct SpecState {
  const Specialization *spec = nullptr;
  CUfunction function = nullptr;
  GridProgram grid;
  GridProgram requirements; ///< `@requires`, all in one; dims 0 if none
  std::unique_ptr<TensorMapState> tensorMaps; ///< of `entry`; null if none
  /// A persistent entry's resident programs (residentPrograms); 0: not yet.
  CachedCount resident;
  /// Empty without variants; else 3^k slots indexed by the class vector
  /// (digit i: 0 any, 1 equal to 1, 2 multiple of 16, weight 3^i), holding
  /// 1 + the variant's index, or 0 for the generic entry.
  std::vector<uint8_t> variantSlot;
  std::unique_ptr<VariantState[]> variants;
  /// One per Specialization::assumed, in its order.
  std::unique_ptr<VariantState[]> assumed;
  size_t assumedCount = 0;
};

/// A tuning decision for one key bucket: the configs (indices into
/// KernelState::specs) from best to worst; a launch takes the first whose
/// `@requires` holds for its arguments.
struct TuneDecision {
  std::array<int64_t, kMaxAutotuneKey> bucket{};
  std::vector<uint32_t> ranking;
};

/// The decisions of one `@autotune` kernel. Launches read `current`
/// without a lock; a new decision publishes a new vector (under `mutex`)
/// and keeps the old ones alive until the module goes.
struct TuneState {
  std::atomic<const std::vector<TuneDecision> *> current{nullptr};
  std::mutex mutex;
  std::vector<std::unique_ptr<const std::vector<TuneDecision>>> versions;
};

/// One kernel and its resolved specialisations.
struct KernelState {
  const KernelDesc *desc = nullptr;
  std::vector<SpecState> specs;
  std::unique_ptr<TuneState> tune; ///< @autotune kernels only
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

/// Launches `spec` of `kernel` with checked arguments: evaluates the grid
/// (unless `options` has one), picks the variant, encodes its tensor maps
/// (if any) and calls cuLaunchKernel.
/// Returns the driver's result (CUDA_SUCCESS for an empty grid, which
/// launches nothing); throws blk::Error when the grid or block exceeds the
/// device's limits or a tensor map cannot be encoded from the arguments.
/// `entry` receives the entry launched and `launched` (if given) the grid
/// (a persistent entry's is clamped to the programs the device holds).
CUresult launchSpec(const ModuleState &module, const KernelState &kernel,
                    const SpecState &spec, const LaunchOptions &options,
                    ArgValue *values, void **pointers, const std::string **entry,
                    Grid *launched = nullptr);

/// The specialisation an unpinned launch of an `@autotune` kernel uses for
/// these checked arguments: a decision already made, else one made now
/// (from tables, the cache or by timing: Autotune.cpp).
const SpecState &autotunedSpec(const ModuleState &module, const KernelState &kernel,
                               const LaunchOptions &options, ArgValue *values,
                               void **pointers);

/// The first specialisation whose `@requires` hold, or throws blk::Error
/// listing each config's conditions.
const SpecState &firstValidSpec(const KernelState &kernel, const ArgValue *values);

/// Throws blk::Error when `spec`'s `@requires` fail for `values`.
void checkRequirements(const KernelState &kernel, const SpecState &spec,
                       const ArgValue *values);

/// Loads (or finds in the cache) the module held in `bytes`.
std::shared_ptr<const ModuleState>
loadModule(const std::shared_ptr<ContextImpl> &ctx,
           std::vector<unsigned char> bytes, const std::string &name);

} // namespace blk::detail
