//===- ContextImpl.h - shared state behind Context, Module, Stream
//---------===//
#pragma once

#include "Driver.h"
#include "blk/runtime/Context.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"

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

/// One specialisation, resolved: its function and compiled grid.
struct SpecState {
  const Specialization *spec = nullptr;
  CUfunction function = nullptr;
  GridProgram grid;
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
};

/// Loads (or finds in the cache) the module held in `bytes`.
std::shared_ptr<const ModuleState>
loadModule(const std::shared_ptr<ContextImpl> &ctx,
           std::vector<unsigned char> bytes, const std::string &name);

} // namespace blk::detail
