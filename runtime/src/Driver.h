//===- Driver.h - the CUDA driver entry points, loaded with dlopen
//---------===//
//
// libblkrt never links libcuda: a Context dlopens libcuda.so.1 and resolves
// the functions below, so programs and tests start on machines with no driver
// and report its absence as a blk::Error. Names go through cuda.h's macros
// (cuMemAlloc -> cuMemAlloc_v2), so each pointer has the ABI the header
// declares and is looked up under the versioned symbol.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda.h>

#include <memory>
#include <string>

namespace blk::detail {

#define BLK_DRIVER_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD16)                                                               \
  X(cuMemsetD32)                                                               \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuStreamWaitEvent)                                                         \
  X(cuStreamIsCapturing)                                                       \
  X(cuMemGetAddressRange)                                                      \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8Async)                                                           \
  X(cuMemsetD32Async)

/// Entry points a driver may lack: null then, and only what needs them
/// fails (tensor maps: CUDA 12.0 and newer).
#define BLK_DRIVER_OPTIONAL_FUNCTIONS(X) X(cuTensorMapEncodeTiled)

/// The driver library and its entry points.
struct DriverApi {
#define BLK_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  BLK_DRIVER_FUNCTIONS(BLK_DRIVER_MEMBER)
  BLK_DRIVER_OPTIONAL_FUNCTIONS(BLK_DRIVER_MEMBER)
#undef BLK_DRIVER_MEMBER

  /// Opens `library` and resolves every entry point. Throws blk::Error
  /// ("no CUDA driver: ...") when the library or a required symbol is
  /// missing.
  static std::unique_ptr<DriverApi> load(const std::string &library);
  ~DriverApi();

  /// "CUDA_ERROR_X" and its description for a result code.
  std::string errorName(CUresult r) const;
  std::string errorString(CUresult r) const;

private:
  DriverApi() = default;
  void *handle_ = nullptr;
};

} // namespace blk::detail
