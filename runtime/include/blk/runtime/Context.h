//===- Context.h - device context, streams and events ------------*- C++
//-*-===//
//
// blk::Context opens the CUDA driver (libcuda.so.1, loaded at run time so
// programs start on machines without one), picks a device and retains its
// primary context: the same context the CUDA runtime (cudaMalloc,
// cudaStreamCreate) and PyTorch use on that device, so their memory and
// streams work with blk launches (StreamRef, DevicePtr). It is a cheap
// shared handle: copies refer to the same context, and modules and buffers
// keep it alive. Public header: C++17, no CUDA headers (driver handles are
// forward-declared).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Launch.h"
#include "blk/runtime/Tuning.h"

#include <cstddef>
#include <functional>
#include <cstdint>
#include <memory>
#include <string>

struct CUctx_st;
struct CUstream_st;
struct CUevent_st;
struct CUfunc_st;

namespace blk {

class Module;
namespace detail {
class ContextImpl;
} // namespace detail

/// Properties of the context's device.
struct DeviceInfo {
  int ordinal = 0;
  std::string name; ///< "NVIDIA H200"
  unsigned sm = 0;  ///< compute capability as 90 for 9.0
  int multiprocessors = 0;
  size_t totalMemory = 0; ///< bytes
  int driverVersion = 0;  ///< e.g. 13000
  LaunchLimits limits;    ///< grid, block and shared-memory limits
};

/// How to open a Context.
struct ContextOptions {
  int device = 0;                             ///< device ordinal
  std::string driverLibrary = "libcuda.so.1"; ///< the driver to dlopen
};

/// A CUDA device and its primary context. Throws blk::Error when there is no
/// driver, no device, or the ordinal is out of range.
class Context {
public:
  explicit Context(int device = 0);
  explicit Context(const ContextOptions &options);

  /// The number of CUDA devices the driver sees (open one Context per
  /// device: ordinals 0 .. deviceCount() - 1). Throws blk::Error when there
  /// is no driver.
  static int deviceCount(const std::string &driverLibrary = "libcuda.so.1");

  /// The device's properties.
  const DeviceInfo &device() const;
  /// Loads a blk fatbin from a file (cached by content: loading the same
  /// bytes twice returns the same module).
  Module load(const std::string &path) const;
  /// Loads a blk fatbin held in memory; `name` is used in messages.
  Module loadImage(const void *data, size_t size,
                   const std::string &name = "<memory>") const;
  /// Waits for all work on the device; throws blk::Error on a device fault.
  void synchronize() const;

  /// Raw device memory (DeviceBuffer is the typed, owning form).
  uint64_t allocate(size_t bytes) const;
  void release(uint64_t address) const noexcept;
  void copyToDevice(uint64_t dst, const void *src, size_t bytes) const;
  void copyToHost(void *dst, uint64_t src, size_t bytes) const;
  void copyOnDevice(uint64_t dst, uint64_t src, size_t bytes) const;
  /// Writes `count` copies of a 1, 2 or 4-byte pattern at `dst`.
  void fill(uint64_t dst, const void *pattern, size_t patternSize,
            size_t count) const;

  /// Autotuning (docs/tuning.md). Calls `listener` after every decision
  /// of an unpinned `@autotune` launch (from any thread; replaces the
  /// previous listener; an empty function removes it).
  void onAutotune(std::function<void(const AutotuneEvent &)> listener) const;
  /// Adds the decisions of a tuning table (a file written by exportTuning
  /// or `blkc tune`) for this device; they come before embedded tables and
  /// the cache. Throws blk::Error for an unreadable or malformed file.
  void loadTuning(const std::string &path) const;
  /// Writes what this process tuned so far, as a tuning table.
  void exportTuning(const std::string &path) const;

  /// The driver's context handle (CUcontext), for interop.
  CUctx_st *handle() const;
  /// The shared implementation (used by Module, Stream, Event).
  const std::shared_ptr<detail::ContextImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::ContextImpl> impl_;
};

/// A CUDA stream owned by this object (work on it runs in order).
class Stream {
public:
  /// Creates a new stream on `ctx`.
  explicit Stream(const Context &ctx);
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  /// Waits for the stream's work; throws blk::Error on a device fault.
  void synchronize() const;
  /// The driver's handle (CUstream).
  CUstream_st *handle() const { return stream_; }

private:
  std::shared_ptr<detail::ContextImpl> ctx_;
  CUstream_st *stream_ = nullptr;
};

/// A stream blk does not own: a CUstream, a cudaStream_t (the same handle:
/// `struct CUstream_st *`), PyTorch's current stream
/// (`at::cuda::getCurrentCUDAStream().stream()`), or a blk::Stream. Accepted
/// wherever a blk::Stream is (a leading launch() argument, Event::record);
/// the default-constructed one is the default stream. The stream must
/// belong to the launching Context's device and outlive the work on it.
/// Launches on a stream being captured (cudaStreamBeginCapture) are
/// recorded into the graph like any other kernel node.
class StreamRef {
public:
  StreamRef() = default;
  StreamRef(CUstream_st *stream) : stream_(stream) {}
  StreamRef(const Stream &stream) : stream_(stream.handle()) {}

  /// The driver's handle (null: the default stream).
  CUstream_st *handle() const { return stream_; }

private:
  CUstream_st *stream_ = nullptr;
};

/// A CUDA event, for timing device work.
class Event {
public:
  explicit Event(const Context &ctx);
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  /// Records the event on the default stream.
  void record();
  /// Records the event on `stream` (a blk::Stream converts).
  void record(StreamRef stream);
  /// Waits until the event has happened.
  void synchronize() const;
  /// Milliseconds from `start` to this event (both recorded and complete).
  float elapsedMs(const Event &start) const;

private:
  std::shared_ptr<detail::ContextImpl> ctx_;
  CUevent_st *event_ = nullptr;
};

} // namespace blk
