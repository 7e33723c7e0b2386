//===- Context.cpp - driver start-up, memory, streams, events
//--------------===//
#include "ContextImpl.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Module.h"

#include <cstdlib>
#include <cstring>

namespace blk {
namespace detail {

ContextImpl::ContextImpl(const ContextOptions &options)
    : api(DriverApi::load(options.driverLibrary)) {
  check(api->cuInit(0), "no CUDA device: cuInit failed");
  int count = 0;
  check(api->cuDeviceGetCount(&count), "cannot count CUDA devices");
  if (count == 0)
    throw Error("no CUDA device: the driver reports none");
  if (options.device < 0 || options.device >= count)
    throw Error("no CUDA device " + std::to_string(options.device) + ": " +
                std::to_string(count) + " device(s) present");
  check(api->cuDeviceGet(&device, options.device), "cannot open the device");
  check(api->cuDevicePrimaryCtxRetain(&context, device),
        "cannot retain the primary context");
  makeCurrent();

  info.ordinal = options.device;
  char name[256] = {};
  check(api->cuDeviceGetName(name, sizeof name - 1, device),
        "cannot read the device name");
  info.name = name;
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    check(api->cuDeviceGetAttribute(&v, a, device),
          "cannot read a device attribute");
    return v;
  };
  info.sm = unsigned(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
                     attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  info.multiprocessors = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.limits.maxGrid[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  info.limits.maxGrid[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  info.limits.maxGrid[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  info.limits.maxThreadsPerBlock =
      attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  info.limits.maxSharedOptin =
      uint32_t(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  size_t total = 0;
  check(api->cuDeviceTotalMem(&total, device), "cannot read the memory size");
  info.totalMemory = total;
  api->cuDriverGetVersion(&info.driverVersion);

  tuneMode = autotuneModeFromEnvironment();
  const char *print = std::getenv("BLK_AUTOTUNE_PRINT");
  printDecisions = print && *print && std::strcmp(print, "0") != 0;
  if (const char *budget = std::getenv("BLK_TUNE_BUDGET_MS"))
    if (double ms = std::atof(budget); ms > 0)
      tuneBudgetMs = ms;
  if (const char *limit = std::getenv("BLK_TUNE_SNAPSHOT_LIMIT_MB"))
    snapshotLimit = uint64_t(std::strtoull(limit, nullptr, 10)) << 20;
}

ContextImpl::~ContextImpl() {
  if (context) {
    makeCurrentNoThrow();
    if (tuneStream)
      api->cuStreamDestroy(tuneStream);
    if (flushBuffer)
      api->cuMemFree(flushBuffer);
    api->cuDevicePrimaryCtxRelease(device);
  }
}

void ContextImpl::fail(CUresult r, const std::string &cause,
                       const std::string &kernel) const {
  throw Error(cause, kernel, int(r), api->errorName(r), api->errorString(r));
}

} // namespace detail

Context::Context(int device) : Context(ContextOptions{device}) {}

Context::Context(const ContextOptions &options)
    : impl_(std::make_shared<detail::ContextImpl>(options)) {}

const DeviceInfo &Context::device() const { return impl_->info; }

CUctx_st *Context::handle() const { return impl_->context; }

Module Context::load(const std::string &path) const {
  return Module(detail::loadModule(impl_, readBinaryFile(path), path));
}

Module Context::loadImage(const void *data, size_t size,
                          const std::string &name) const {
  const auto *p = static_cast<const unsigned char *>(data);
  if (!p && size)
    throw Error(name + ": null image");
  return Module(
      detail::loadModule(impl_, std::vector<unsigned char>(p, p + size), name));
}

void Context::synchronize() const {
  impl_->makeCurrent();
  impl_->check(impl_->api->cuCtxSynchronize(), "device synchronisation failed");
}

int Context::deviceCount(const std::string &driverLibrary) {
  std::unique_ptr<detail::DriverApi> api = detail::DriverApi::load(driverLibrary);
  int count = 0;
  CUresult r = api->cuInit(0);
  if (r == CUDA_SUCCESS)
    r = api->cuDeviceGetCount(&count);
  if (r == CUDA_ERROR_NO_DEVICE)
    return 0;
  if (r != CUDA_SUCCESS)
    throw Error("cannot count CUDA devices", "", int(r), api->errorName(r), api->errorString(r));
  return count;
}

uint64_t Context::allocate(size_t bytes) const {
  impl_->makeCurrent();
  CUdeviceptr p = 0;
  impl_->check(impl_->api->cuMemAlloc(&p, bytes),
               "cannot allocate " + std::to_string(bytes) + " bytes");
  return p;
}

void Context::release(uint64_t address) const noexcept {
  impl_->makeCurrentNoThrow();
  impl_->api->cuMemFree(CUdeviceptr(address));
}

void Context::copyToDevice(uint64_t dst, const void *src, size_t bytes) const {
  impl_->makeCurrent();
  impl_->check(impl_->api->cuMemcpyHtoD(CUdeviceptr(dst), src, bytes),
               "host-to-device copy failed");
}

void Context::copyToHost(void *dst, uint64_t src, size_t bytes) const {
  impl_->makeCurrent();
  impl_->check(impl_->api->cuMemcpyDtoH(dst, CUdeviceptr(src), bytes),
               "device-to-host copy failed");
}

void Context::copyOnDevice(uint64_t dst, uint64_t src, size_t bytes) const {
  impl_->makeCurrent();
  impl_->check(
      impl_->api->cuMemcpyDtoD(CUdeviceptr(dst), CUdeviceptr(src), bytes),
      "device-to-device copy failed");
}

void Context::fill(uint64_t dst, const void *pattern, size_t patternSize,
                   size_t count) const {
  impl_->makeCurrent();
  CUresult r;
  if (patternSize == 1) {
    uint8_t v;
    std::memcpy(&v, pattern, 1);
    r = impl_->api->cuMemsetD8(CUdeviceptr(dst), v, count);
  } else if (patternSize == 2) {
    uint16_t v;
    std::memcpy(&v, pattern, 2);
    r = impl_->api->cuMemsetD16(CUdeviceptr(dst), v, count);
  } else if (patternSize == 4) {
    uint32_t v;
    std::memcpy(&v, pattern, 4);
    r = impl_->api->cuMemsetD32(CUdeviceptr(dst), v, count);
  } else {
    throw Error("fill: pattern of " + std::to_string(patternSize) +
                " bytes (1, 2 or 4 supported)");
  }
  impl_->check(r, "device fill failed");
}

Stream::Stream(const Context &ctx) : ctx_(ctx.impl()) {
  ctx_->makeCurrent();
  CUstream s = nullptr;
  ctx_->check(ctx_->api->cuStreamCreate(&s, CU_STREAM_DEFAULT),
              "cannot create a stream");
  stream_ = s;
}

Stream::Stream(Stream &&o) noexcept
    : ctx_(std::move(o.ctx_)), stream_(o.stream_) {
  o.stream_ = nullptr;
}

Stream &Stream::operator=(Stream &&o) noexcept {
  if (this != &o) {
    if (stream_)
      ctx_->api->cuStreamDestroy(stream_);
    ctx_ = std::move(o.ctx_);
    stream_ = o.stream_;
    o.stream_ = nullptr;
  }
  return *this;
}

Stream::~Stream() {
  if (stream_)
    ctx_->api->cuStreamDestroy(stream_);
}

void Stream::synchronize() const {
  ctx_->makeCurrent();
  ctx_->check(ctx_->api->cuStreamSynchronize(stream_),
              "stream synchronisation failed");
}

Event::Event(const Context &ctx) : ctx_(ctx.impl()) {
  ctx_->makeCurrent();
  CUevent e = nullptr;
  ctx_->check(ctx_->api->cuEventCreate(&e, CU_EVENT_DEFAULT),
              "cannot create an event");
  event_ = e;
}

Event::Event(Event &&o) noexcept : ctx_(std::move(o.ctx_)), event_(o.event_) {
  o.event_ = nullptr;
}

Event &Event::operator=(Event &&o) noexcept {
  if (this != &o) {
    if (event_)
      ctx_->api->cuEventDestroy(event_);
    ctx_ = std::move(o.ctx_);
    event_ = o.event_;
    o.event_ = nullptr;
  }
  return *this;
}

Event::~Event() {
  if (event_)
    ctx_->api->cuEventDestroy(event_);
}

void Event::record() {
  ctx_->makeCurrent();
  ctx_->check(ctx_->api->cuEventRecord(event_, nullptr), "event record failed");
}

void Event::record(StreamRef stream) {
  ctx_->makeCurrent();
  ctx_->check(ctx_->api->cuEventRecord(event_, stream.handle()),
              "event record failed");
}

void Event::synchronize() const {
  ctx_->makeCurrent();
  ctx_->check(ctx_->api->cuEventSynchronize(event_),
              "event synchronisation failed");
}

float Event::elapsedMs(const Event &start) const {
  float ms = 0;
  ctx_->makeCurrent();
  ctx_->check(ctx_->api->cuEventElapsedTime(&ms, start.event_, event_),
              "cannot read the event timing");
  return ms;
}

} // namespace blk
