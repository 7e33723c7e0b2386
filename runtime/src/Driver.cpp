//===- Driver.cpp - dlopen libcuda and resolve its entry points
//------------===//
#include "Driver.h"
#include "blk/runtime/Error.h"

#include <dlfcn.h>

namespace blk::detail {

#define BLK_STRINGIFY_(x) #x
#define BLK_STRINGIFY(x) BLK_STRINGIFY_(x)

std::unique_ptr<DriverApi> DriverApi::load(const std::string &library) {
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw Error("no CUDA driver: " + library + " not found");
  std::unique_ptr<DriverApi> api(new DriverApi);
  api->handle_ = handle;
#define BLK_DRIVER_RESOLVE(name)                                               \
  api->name = reinterpret_cast<decltype(api->name)>(                           \
      dlsym(handle, BLK_STRINGIFY(name)));                                     \
  if (!api->name)                                                              \
    throw Error("no usable CUDA driver: " + library + " lacks " +              \
                BLK_STRINGIFY(name) + " (driver too old?)");
  BLK_DRIVER_FUNCTIONS(BLK_DRIVER_RESOLVE)
#undef BLK_DRIVER_RESOLVE
#define BLK_DRIVER_RESOLVE_OPTIONAL(name)                                      \
  api->name = reinterpret_cast<decltype(api->name)>(                           \
      dlsym(handle, BLK_STRINGIFY(name)));
  BLK_DRIVER_OPTIONAL_FUNCTIONS(BLK_DRIVER_RESOLVE_OPTIONAL)
#undef BLK_DRIVER_RESOLVE_OPTIONAL
  return api;
}

DriverApi::~DriverApi() {
  if (handle_)
    dlclose(handle_);
}

std::string DriverApi::errorName(CUresult r) const {
  const char *s = nullptr;
  if (cuGetErrorName && cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
    return s;
  return "CUDA error " + std::to_string(int(r));
}

std::string DriverApi::errorString(CUresult r) const {
  const char *s = nullptr;
  if (cuGetErrorString && cuGetErrorString(r, &s) == CUDA_SUCCESS && s)
    return s;
  return "";
}

} // namespace blk::detail
