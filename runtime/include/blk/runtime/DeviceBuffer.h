//===- DeviceBuffer.h - typed device memory -----------------------*- C++
//-*-===//
//
// DeviceBuffer<T> owns `size()` elements of device memory; DevicePtr<T> is a
// non-owning typed device address. Both are accepted by Kernel::launch for a
// `*T` parameter (the element type is checked). Public header: C++17.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Context.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/Types.h"

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace blk {

namespace detail {
// Host type names per ScalarKind, for argument-check messages.
inline constexpr const char *kBufferNames[] = {
    "DeviceBuffer<bool>",          "DeviceBuffer<int8_t>",
    "DeviceBuffer<int16_t>",       "DeviceBuffer<int32_t>",
    "DeviceBuffer<int64_t>",       "DeviceBuffer<uint8_t>",
    "DeviceBuffer<uint16_t>",      "DeviceBuffer<uint32_t>",
    "DeviceBuffer<uint64_t>",      "DeviceBuffer<blk::half>",
    "DeviceBuffer<blk::bfloat16>", "DeviceBuffer<float>",
    "DeviceBuffer<double>"};
inline constexpr const char *kDevicePtrNames[] = {
    "DevicePtr<bool>",      "DevicePtr<int8_t>",        "DevicePtr<int16_t>",
    "DevicePtr<int32_t>",   "DevicePtr<int64_t>",       "DevicePtr<uint8_t>",
    "DevicePtr<uint16_t>",  "DevicePtr<uint32_t>",      "DevicePtr<uint64_t>",
    "DevicePtr<blk::half>", "DevicePtr<blk::bfloat16>", "DevicePtr<float>",
    "DevicePtr<double>"};
template <class E>
const char *typeName(const char *const (&names)[13], const char *voidName) {
  using Elem = std::remove_cv_t<E>;
  if constexpr (std::is_void_v<Elem>)
    return voidName;
  else
    return names[static_cast<unsigned>(ScalarKindOf<Elem>::value)];
}
} // namespace detail

template <class T> class DeviceBuffer;

/// A typed device address (not owning). Converts from DeviceBuffer<T>, from
/// DevicePtr<U> when U* converts to T*, and from a raw device T*.
template <class T> struct DevicePtr {
  uint64_t address = 0;

  DevicePtr() = default;
  explicit DevicePtr(uint64_t addr) : address(addr) {}
  DevicePtr(T *p) : address(reinterpret_cast<uintptr_t>(p)) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  DevicePtr(const DeviceBuffer<U> &b) : address(b.address()) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U *, T *> &&
                                              !std::is_same_v<U, T>>>
  DevicePtr(DevicePtr<U> p) : address(p.address) {}

  /// The address `n` elements further (no bounds check).
  DevicePtr operator+(std::ptrdiff_t n) const {
    if constexpr (std::is_void_v<T>)
      return DevicePtr(address + uint64_t(n));
    else
      return DevicePtr(address + uint64_t(n * std::ptrdiff_t(sizeof(T))));
  }
  explicit operator bool() const { return address != 0; }
};

/// `size()` elements of T in device memory, freed on destruction.
template <class T> class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "DeviceBuffer<T> needs a trivially copyable T");

public:
  DeviceBuffer() = default;
  /// Allocates `count` uninitialised elements.
  DeviceBuffer(const Context &ctx, size_t count)
      : ctx_(ctx), size_(count),
        address_(count ? ctx.allocate(count * sizeof(T)) : 0) {}
  /// Allocates and uploads `host`.
  DeviceBuffer(const Context &ctx, const std::vector<T> &host)
      : DeviceBuffer(ctx, host.size()) {
    upload(host);
  }
  DeviceBuffer(DeviceBuffer &&o) noexcept
      : ctx_(std::move(o.ctx_)), size_(o.size_), address_(o.address_) {
    o.size_ = 0;
    o.address_ = 0;
  }
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = std::move(o.ctx_);
      size_ = o.size_;
      address_ = o.address_;
      o.size_ = 0;
      o.address_ = 0;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { reset(); }

  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }
  uint64_t address() const { return address_; }
  DevicePtr<T> ptr() const { return DevicePtr<T>(address_); }

  /// Copies `count` elements from host memory to elements [offset, ...).
  void upload(const T *src, size_t count, size_t offset = 0) {
    checkRange(count, offset, "upload");
    if (count)
      ctx_->copyToDevice(address_ + offset * sizeof(T), src, count * sizeof(T));
  }
  void upload(const std::vector<T> &src) { upload(src.data(), src.size()); }
  /// Copies `count` elements starting at `offset` to host memory.
  void download(T *dst, size_t count, size_t offset = 0) const {
    checkRange(count, offset, "download");
    if (count)
      ctx_->copyToHost(dst, address_ + offset * sizeof(T), count * sizeof(T));
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    download(host.data(), size_);
    return host;
  }
  /// Sets every element to `value`.
  void fill(const T &value) {
    if (!size_)
      return;
    if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4)
      ctx_->fill(address_, &value, sizeof(T), size_);
    else
      upload(std::vector<T>(size_, value));
  }

private:
  void checkRange(size_t count, size_t offset, const char *what) const {
    if (offset > size_ || count > size_ - offset)
      throw Error(std::string("DeviceBuffer::") + what + " of " +
                  std::to_string(count) + " elements at offset " +
                  std::to_string(offset) + " exceeds its size " +
                  std::to_string(size_));
  }
  void reset() noexcept {
    if (address_ && ctx_)
      ctx_->release(address_);
    address_ = 0;
    size_ = 0;
  }

  std::optional<Context> ctx_;
  size_t size_ = 0;
  uint64_t address_ = 0;
};

template <class T> struct ArgTraits<DeviceBuffer<T>, void> {
  static ArgValue make(const DeviceBuffer<T> &b) {
    ArgValue a = detail::makePointerArg<T>(
        b.address(), detail::typeName<T>(detail::kBufferNames, "DeviceBuffer"));
    a.extent = b.bytes();
    return a;
  }
};

template <class T> struct ArgTraits<DevicePtr<T>, void> {
  static ArgValue make(const DevicePtr<T> &p) {
    return detail::makePointerArg<T>(
        p.address,
        detail::typeName<T>(detail::kDevicePtrNames, "DevicePtr<void>"));
  }
};

} // namespace blk
