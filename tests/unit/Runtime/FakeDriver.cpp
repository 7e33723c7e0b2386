//===- FakeDriver.cpp - a CUDA driver on host memory, for unit tests ------===//
//
// Just enough of the driver API for libblkrt: one device, a primary context
// tracked per thread (a launch without a current context fails, as on a real
// driver), modules whose functions are the names found in the image, memory
// from malloc, and a record of the last launch. Test-only global state.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"

#include <cuda.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace {

struct FakeFunction {
  std::string name;
  int maxDynamicShared = 0;
};

struct FakeModule {
  std::string image;
  std::map<std::string, FakeFunction> functions;
};

/// A stream's (or the default stream's) virtual clock: a launch advances
/// it by its function's time, an event reads it, a wait joins it.
struct FakeStream {
  double clockMs = 0;
  bool capturing = false;
};

struct State {
  std::mutex mutex;
  BlkFakeLaunch last = {};
  std::map<CUstream, FakeStream> streams; ///< any handle, null included
  std::map<CUevent, double> events;       ///< the time each was recorded at
  std::map<std::string, double> kernelMs; ///< blkFakeSetKernelTime
  BlkFakeKernelEffectFn effect = nullptr;
  std::map<uintptr_t, size_t> allocations; ///< base -> bytes
  unsigned paramCount = 0;
  CUresult failNext = CUDA_SUCCESS;
  std::map<std::string, int> sharedAttribute;
  std::map<std::string, uint64_t> launchCount; ///< by function name
  std::set<std::string> failing; ///< BLK_FAKE_CUDA_FAIL_LAUNCH
  uint64_t tensorMapEncodes = 0;
  CUresult failNextEncode = CUDA_SUCCESS;
};

/// Settings for tests that run a tool as a process (no dlsym hooks):
/// BLK_FAKE_CUDA_KERNEL_MS="fn=ms,fn=ms" (blkFakeSetKernelTime) and
/// BLK_FAKE_CUDA_FAIL_LAUNCH="fn,fn" (every launch of these fails with
/// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
void readEnvironment(State &s) {
  auto items = [](const char *text, auto each) {
    std::string all = text ? text : "";
    for (size_t start = 0; start < all.size();) {
      size_t end = std::min(all.find(',', start), all.size());
      each(all.substr(start, end - start));
      start = end + 1;
    }
  };
  items(std::getenv("BLK_FAKE_CUDA_KERNEL_MS"), [&](const std::string &item) {
    size_t eq = item.find('=');
    if (eq != std::string::npos)
      s.kernelMs[item.substr(0, eq)] = std::atof(item.c_str() + eq + 1);
  });
  items(std::getenv("BLK_FAKE_CUDA_FAIL_LAUNCH"),
        [&](const std::string &item) { s.failing.insert(item); });
}

State &state() {
  static State s;
  static bool configured = (readEnvironment(s), true);
  (void)configured;
  return s;
}

int primaryContextTag;
CUcontext primaryContext() {
  return reinterpret_cast<CUcontext>(&primaryContextTag);
}
thread_local CUcontext currentContext = nullptr;

int fakeSm() {
  const char *sm = std::getenv("BLK_FAKE_CUDA_SM");
  return sm ? std::atoi(sm) : 90;
}

template <class T> CUresult fill(CUdeviceptr d, T v, size_t n) {
  T *p = reinterpret_cast<T *>(d);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

/// The driver's name and description of the errors the fake returns.
struct ErrorText {
  const char *name, *text;
};
ErrorText errorText(CUresult r) {
  switch (r) {
  case CUDA_ERROR_NO_DEVICE:
    return {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"};
  case CUDA_ERROR_NOT_FOUND:
    return {"CUDA_ERROR_NOT_FOUND", "named symbol not found"};
  case CUDA_ERROR_INVALID_CONTEXT:
    return {"CUDA_ERROR_INVALID_CONTEXT", "invalid device context"};
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"};
  case CUDA_ERROR_INVALID_VALUE:
    return {"CUDA_ERROR_INVALID_VALUE", "invalid argument"};
  default:
    return {"CUDA_ERROR_UNKNOWN", "unknown error"};
  }
}

} // namespace

extern "C" {

CUresult CUDAAPI cuInit(unsigned int) {
  return std::getenv("BLK_FAKE_CUDA_NO_DEVICE") ? CUDA_ERROR_NO_DEVICE
                                                : CUDA_SUCCESS;
}
CUresult CUDAAPI cuDriverGetVersion(int *v) {
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorName(CUresult r, const char **s) {
  *s = errorText(r).name;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorString(CUresult r, const char **s) {
  *s = errorText(r).text;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetCount(int *n) {
  *n = 1;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGet(CUdevice *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "Fake GPU", size_t(len));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) {
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *v = fakeSm() / 10;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *v = fakeSm() % 10;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *v = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *v = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *v = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *v = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *v = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *v = 64 * 1024; // small: the autotuner's flush buffer is twice this
    break;
  default:
    *v = 0;
    break;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice) {
  *bytes = size_t(80) << 30;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  *c = primaryContext();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *c) {
  *c = currentContext;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSetCurrent(CUcontext c) {
  currentContext = c;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSynchronize() {
  return currentContext ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *m, const void *image,
                                    unsigned int, CUjit_option *, void **) {
  if (!currentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  auto *fm = new FakeModule;
  const auto *p = static_cast<const char *>(image);
  uint64_t size = 0; // fatbin: header + declared body
  std::memcpy(&size, p + 8, 8);
  fm->image.assign(p, 16 + size);
  *m = reinterpret_cast<CUmodule>(fm);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleUnload(CUmodule m) {
  auto *fm = reinterpret_cast<FakeModule *>(m);
  {
    // An attribute belongs to a module's function: the next test's module
    // (same process, same names) starts without the opt-ins of this one.
    std::lock_guard<std::mutex> lock(state().mutex);
    for (const auto &[name, fn] : fm->functions)
      state().sharedAttribute.erase(name);
  }
  delete fm;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetFunction(CUfunction *f, CUmodule m,
                                     const char *name) {
  auto *fm = reinterpret_cast<FakeModule *>(m);
  // A function exists when its name appears in the image as an ELF string
  // (NUL-terminated) or as a PTX entry (followed by its parameter list).
  if (fm->image.find(std::string(name) + '\0') == std::string::npos &&
      fm->image.find(std::string(name) + '(') == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  FakeFunction &fn = fm->functions[name];
  fn.name = name;
  *f = reinterpret_cast<CUfunction>(&fn);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuFuncSetAttribute(CUfunction f, CUfunction_attribute a,
                                    int v) {
  auto *fn = reinterpret_cast<FakeFunction *>(f);
  if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    fn->maxDynamicShared = v;
    std::lock_guard<std::mutex> lock(state().mutex);
    state().sharedAttribute[fn->name] = v;
  }
  return CUDA_SUCCESS;
}
/// As a device with 2048 threads and 228 KiB of shared memory per SM
/// (registers not modelled): what a persistent launch is clamped to.
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction, int threads,
                                                             size_t shared) {
  if (threads <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  int byThreads = 2048 / threads;
  int byShared = shared ? int(233472 / shared) : byThreads;
  *n = std::min(std::min(byThreads, byShared), 32);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                                unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream stream,
                                void **params, void **) {
  if (!currentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  auto *fn = reinterpret_cast<FakeFunction *>(f);
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.failNext != CUDA_SUCCESS) {
    CUresult r = s.failNext;
    s.failNext = CUDA_SUCCESS;
    return r;
  }
  if (s.failing.count(fn->name))
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (shared > 48 * 1024 && int(shared) > fn->maxDynamicShared)
    return CUDA_ERROR_INVALID_VALUE; // as the driver: no opt-in, no launch
  BlkFakeLaunch &l = s.last;
  std::strncpy(l.function, fn->name.c_str(), sizeof l.function - 1);
  l.grid[0] = gx, l.grid[1] = gy, l.grid[2] = gz;
  l.block[0] = bx, l.block[1] = by, l.block[2] = bz;
  l.sharedBytes = shared;
  l.stream = stream;
  l.paramCount = s.paramCount;
  for (unsigned i = 0; i < s.paramCount && i < 16; ++i)
    std::memcpy(&l.params[i], params[i], 8);
  s.paramCount = 0; // one launch only: the next may take fewer parameters
  ++l.launches;
  ++s.launchCount[fn->name];
  auto time = s.kernelMs.find(fn->name);
  s.streams[stream].clockMs += time == s.kernelMs.end() ? 0.001 : time->second;
  if (s.effect)
    s.effect(fn->name.c_str(), params);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  void *m = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!m)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(m);
  std::lock_guard<std::mutex> lock(state().mutex);
  state().allocations[uintptr_t(m)] = bytes;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemFree(CUdeviceptr p) {
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().allocations.erase(uintptr_t(p));
  }
  std::free(reinterpret_cast<void *>(p));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *base, size_t *size, CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto &all = state().allocations;
  auto it = all.upper_bound(uintptr_t(p));
  if (it == all.begin())
    return CUDA_ERROR_NOT_FOUND;
  --it;
  if (uintptr_t(p) >= it->first + it->second)
    return CUDA_ERROR_NOT_FOUND;
  *base = CUdeviceptr(it->first);
  *size = it->second;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemGetInfo(size_t *free, size_t *total) {
  *total = size_t(80) << 30;
  *free = size_t(64) << 30;
  return CUDA_SUCCESS;
}
/// Whether [p, p + n) lies inside one allocation (as the driver requires of
/// a copy's source and destination).
static bool insideOneAllocation(CUdeviceptr p, size_t n) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto &all = state().allocations;
  auto it = all.upper_bound(uintptr_t(p));
  if (it == all.begin())
    return false;
  --it;
  return uintptr_t(p) + n <= it->first + it->second;
}
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream) {
  if (!insideOneAllocation(d, n) || !insideOneAllocation(s, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream) {
  return fill(d, v, n);
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream) {
  return fill(d, v, n);
}
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
  std::memcpy(d, reinterpret_cast<const void *>(s), n);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t n) {
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  return fill(d, v, n);
}
CUresult CUDAAPI cuMemsetD16(CUdeviceptr d, unsigned short v, size_t n) {
  return fill(d, v, n);
}
CUresult CUDAAPI cuMemsetD32(CUdeviceptr d, unsigned int v, size_t n) {
  return fill(d, v, n);
}

CUresult CUDAAPI cuStreamCreate(CUstream *s, unsigned int) {
  *s = reinterpret_cast<CUstream>(new char); // a distinct handle per stream
  std::lock_guard<std::mutex> lock(state().mutex);
  state().streams[*s] = FakeStream{};
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream s) {
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().streams.erase(s);
  }
  delete reinterpret_cast<char *>(s);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamWaitEvent(CUstream s, CUevent e, unsigned int) {
  std::lock_guard<std::mutex> lock(state().mutex);
  double &clock = state().streams[s].clockMs;
  clock = std::max(clock, state().events[e]);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status) {
  std::lock_guard<std::mutex> lock(state().mutex);
  *status = state().streams[s].capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                                         : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventCreate(CUevent *e, unsigned int) {
  *e = reinterpret_cast<CUevent>(new char);
  std::lock_guard<std::mutex> lock(state().mutex);
  state().events[*e] = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent e) {
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().events.erase(e);
  }
  delete reinterpret_cast<char *>(e);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent e, CUstream s) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().events[e] = state().streams[s].clockMs;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  std::lock_guard<std::mutex> lock(state().mutex);
  *ms = float(state().events[end] - state().events[start]);
  return CUDA_SUCCESS;
}

/// cuTensorMapEncodeTiled's documented rules (cuda.h) for what libblkrt
/// passes (interleave none); the map records the arguments
/// (BlkFakeTensorMap).
CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *base,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  static const unsigned sizes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  static const unsigned spans[] = {0, 32, 64, 128};
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (state().failNextEncode != CUDA_SUCCESS) {
      CUresult r = state().failNextEncode;
      state().failNextEncode = CUDA_SUCCESS;
      return r;
    }
  }
  if (uintptr_t(map) % 64 || rank < 1 || rank > 5 || uintptr_t(base) % 16 ||
      unsigned(type) >= sizeof sizes / sizeof *sizes ||
      unsigned(swizzle) >= sizeof spans / sizeof *spans ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t d = 0; d < rank; ++d)
    if (dims[d] == 0 || dims[d] > (uint64_t(1) << 32) || box[d] == 0 || box[d] > 256 ||
        elementStrides[d] == 0 || elementStrides[d] > 8 ||
        (d + 1 < rank && (strides[d] % 16 || strides[d] >= (uint64_t(1) << 40))))
      return CUDA_ERROR_INVALID_VALUE;
  unsigned inner = box[0] * sizes[type];
  if (inner % 16 || (swizzle && inner > spans[swizzle]))
    return CUDA_ERROR_INVALID_VALUE;
  static_assert(sizeof(BlkFakeTensorMap) <= sizeof(CUtensorMap), "fits the opaque map");
  BlkFakeTensorMap m = {};
  m.base = uint64_t(uintptr_t(base));
  m.rank = rank;
  m.dataType = type;
  m.interleave = interleave;
  m.swizzle = swizzle;
  m.l2Promotion = l2;
  m.oobFill = oob;
  for (cuuint32_t d = 0; d < rank; ++d) {
    m.dims[d] = dims[d];
    m.box[d] = box[d];
    m.elementStrides[d] = elementStrides[d];
    if (d + 1 < rank)
      m.strides[d] = strides[d];
  }
  std::memset(map, 0, sizeof *map);
  std::memcpy(map, &m, sizeof m);
  std::lock_guard<std::mutex> lock(state().mutex);
  ++state().tensorMapEncodes;
  return CUDA_SUCCESS;
}

// Test hooks (FakeDriver.h).
void blkFakeLastLaunch(BlkFakeLaunch *out) {
  std::lock_guard<std::mutex> lock(state().mutex);
  *out = state().last;
}
void blkFakeSetParamCount(unsigned count) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().paramCount = count;
}
void blkFakeFailNextLaunch(int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().failNext = CUresult(result);
}
int blkFakeSharedAttribute(const char *function) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto it = state().sharedAttribute.find(function);
  return it == state().sharedAttribute.end() ? -1 : it->second;
}
void blkFakeSetKernelTime(const char *function, double ms) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().kernelMs[function] = ms;
}
void blkFakeSetKernelEffect(BlkFakeKernelEffectFn effect) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().effect = effect;
}
void blkFakeSetCapturing(void *stream, int capturing) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().streams[reinterpret_cast<CUstream>(stream)].capturing = capturing != 0;
}
uint64_t blkFakeLaunchCount(const char *function) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto it = state().launchCount.find(function);
  return it == state().launchCount.end() ? 0 : it->second;
}

uint64_t blkFakeTensorMapEncodes() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().tensorMapEncodes;
}
void blkFakeFailNextEncode(int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().failNextEncode = CUresult(result);
}

} // extern "C"
