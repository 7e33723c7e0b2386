//===- NativeArch.cpp - `--arch native`: the archs of this machine's GPUs --===//
#include "blk/Target/NativeArch.h"
#include "blk/Target/Arch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

namespace blk::target {
namespace {

// The few driver entry points used, declared here so that building blkc needs
// no CUDA headers (values from cuda.h, stable across driver versions).
using CuResult = int;
using CuDevice = int;
constexpr CuResult kCudaSuccess = 0;
constexpr CuResult kCudaErrorNoDevice = 100;
constexpr int kAttrCapabilityMajor = 75;
constexpr int kAttrCapabilityMinor = 76;

struct Driver {
  void *handle = nullptr;
  CuResult (*cuInit)(unsigned) = nullptr;
  CuResult (*cuDeviceGetCount)(int *) = nullptr;
  CuResult (*cuDeviceGet)(CuDevice *, int) = nullptr;
  CuResult (*cuDeviceGetAttribute)(int *, int, CuDevice) = nullptr;

  ~Driver() {
    if (handle)
      dlclose(handle);
  }
};

template <class Fn> static bool resolve(void *handle, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

/// Opens the driver; an empty string, or why it is unusable.
static std::string open(Driver &driver, const std::string &library) {
  driver.handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!driver.handle)
    return "no CUDA driver (`" + library + "` not found)";
  if (!resolve(driver.handle, "cuInit", driver.cuInit) ||
      !resolve(driver.handle, "cuDeviceGetCount", driver.cuDeviceGetCount) ||
      !resolve(driver.handle, "cuDeviceGet", driver.cuDeviceGet) ||
      !resolve(driver.handle, "cuDeviceGetAttribute", driver.cuDeviceGetAttribute))
    return "no usable CUDA driver (`" + library + "` lacks the device queries)";
  return "";
}

static std::string capability(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

static NativeArchs fallback(const std::string &why) {
  return {kNativeFallbackArchs.str(),
          {"`--arch native` found " + why + ": building for " + kNativeFallbackArchs.str()}};
}

} // namespace

llvm::Expected<NativeArchs> queryNativeArchs(const std::string &driverLibrary) {
  Driver driver;
  if (std::string why = open(driver, driverLibrary); !why.empty())
    return fallback(why);
  if (CuResult r = driver.cuInit(0); r != kCudaSuccess)
    return fallback(r == kCudaErrorNoDevice
                        ? std::string("no CUDA GPU")
                        : "no usable CUDA driver (cuInit failed with error " +
                              std::to_string(r) + ")");
  int count = 0;
  if (driver.cuDeviceGetCount(&count) != kCudaSuccess || count <= 0)
    return fallback("no CUDA GPU");

  NativeArchs result;
  std::vector<const GpuArch *> archs;
  bool jit = false; // a GPU newer than every arch loads the fatbin's PTX
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CuDevice device = 0;
    int major = 0, minor = 0;
    if (driver.cuDeviceGet(&device, ordinal) != kCudaSuccess ||
        driver.cuDeviceGetAttribute(&major, kAttrCapabilityMajor, device) != kCudaSuccess ||
        driver.cuDeviceGetAttribute(&minor, kAttrCapabilityMinor, device) != kCudaSuccess) {
      result.notes.push_back("`--arch native` could not read the compute capability of GPU " +
                             std::to_string(ordinal) + ": left out");
      continue;
    }
    std::string gpu = "GPU " + std::to_string(ordinal) + " (compute capability " +
                      capability(major, minor) + ")";
    const GpuArch *arch = archForCapability(unsigned(major), unsigned(minor));
    if (!arch) {
      result.notes.push_back(gpu + " is older than " + validArchs().front().name +
                             ", the oldest arch blk builds for: left out");
      continue;
    }
    if (arch->smVersion / 10 < unsigned(major)) {
      jit = true;
      result.notes.push_back(gpu + " is newer than every arch blk builds for: " + arch->name +
                             ", whose PTX the driver compiles when it loads the fatbin");
    }
    if (!llvm::is_contained(archs, arch))
      archs.push_back(arch);
  }
  if (archs.empty()) // the notes say why each GPU was left out
    return llvm::createStringError("`--arch native` found no GPU that blk can build for (" +
                                   llvm::join(result.notes, "; ") +
                                   "); name the archs with --arch (valid values: " +
                                   validArchNames() + ")");
  // The fatbin carries the newest arch's PTX; an `a` arch's PTX loads only on
  // its own capability, so when a GPU needs the PTX its portable twin is built.
  std::vector<std::string> names;
  for (const GpuArch *arch : archs) {
    std::string name = arch->name;
    if (jit && arch->archSpecific) {
      name.pop_back();
      result.notes.push_back("building " + name + " instead of " + arch->name +
                             ", whose PTX only compute capability " +
                             capability(arch->smVersion / 10, arch->smVersion % 10) +
                             " loads");
    }
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  }
  result.archs = llvm::join(names, ",");
  return result;
}

llvm::Error resolveNativeArch(std::string &arch, const std::string &driverLibrary,
                              llvm::raw_ostream &notes) {
  if (arch != "native")
    return llvm::Error::success();
  auto native = queryNativeArchs(driverLibrary);
  if (!native)
    return native.takeError();
  for (const std::string &note : native->notes)
    notes << "blkc: note: " << note << "\n";
  arch = native->archs;
  return llvm::Error::success();
}

} // namespace blk::target
