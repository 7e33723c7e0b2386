//===- Memory.h - host buffers, pointers and checked accesses ---*- C++ -*-===//
//
// Global memory of an interpreted launch: numbered buffers of a known element
// type and size. A pointer is an int64 that encodes (buffer id, byte offset)
// as id * 2^48 + offset, so `blk.addptr` is integer addition (of offset times
// the element size), `blk.ptr_cast` keeps the value, and an offset may
// wander out of range until it is dereferenced. An offset of 2^47 bytes or
// more saturates (kFarOffset) rather than reach the next buffer's id, so its
// access is reported out of bounds of its own buffer. An access reads or writes
// the pointer's element type at its byte offset (reinterpreting the buffer's
// bytes after a ptr_cast, as the GPU would). Every
// masked-in load, store or atomic is checked against its buffer; a bad access
// comes back as an AccessFault for the executor to report with its location.
// Atomics hold the buffer's mutex for the whole block operation, so they stay
// correct when programs run on several threads.
// Tests: tests/unit/Interpreter/MemoryTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_MEMORY_H
#define BLK_INTERPRETER_MEMORY_H

#include "blk/Interpreter/Block.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace blk::interp {

/// Identifies a buffer of a Memory (0 is the null pointer's buffer).
using BufferId = uint32_t;

/// An encoded pointer to byte `offset` of buffer `id`.
inline int64_t encodePointer(BufferId id, int64_t offset) {
  return int64_t(uint64_t(id) << 48) + offset;
}
/// Splits an encoded pointer into buffer and byte offset; offsets within
/// +-2^47 round-trip.
inline void decodePointer(int64_t p, BufferId &id, int64_t &offset) {
  int64_t hi = (p + (int64_t(1) << 47)) >> 48;
  id = BufferId(hi);
  offset = p - int64_t(uint64_t(hi) << 48);
}

/// The offset a pointer gets when pointer arithmetic takes it 2^47 bytes or
/// more from its buffer's start, where the encoding would alias the next
/// buffer. It stays put under further arithmetic, and any access through it
/// is out of bounds of the pointer's own buffer.
inline constexpr int64_t kFarOffset = (int64_t(1) << 47) - 1;

/// `p` advanced by `index` elements of `elemSize` bytes (blk.addptr); the
/// offset saturates at kFarOffset instead of crossing into another buffer.
inline int64_t offsetPointer(int64_t p, int64_t index, int64_t elemSize) {
  BufferId id;
  int64_t off, delta, next;
  decodePointer(p, id, off);
  if (off == kFarOffset || __builtin_mul_overflow(index, elemSize, &delta) ||
      __builtin_add_overflow(off, delta, &next) || next >= kFarOffset ||
      next <= -kFarOffset)
    return encodePointer(id, kFarOffset);
  return encodePointer(id, next);
}

/// One host buffer: raw little-endian elements as the GPU would hold them.
struct Buffer {
  std::string name;
  DataType type;
  size_t count = 0;
  std::vector<uint8_t> bytes;
  /// One flag per element when reads of never-written elements are checked.
  std::vector<uint8_t> written;
  std::mutex mutex;

  /// Element k as a canonical value of the buffer's kind.
  double readFloat(size_t k) const { return readFloatAt(type.kind, k * byteSize(type.kind)); }
  int64_t readInt(size_t k) const { return readIntAt(type.kind, k * byteSize(type.kind)); }
  /// Stores element k (rounded/wrapped to the buffer's kind).
  void writeFloat(size_t k, double v) { writeFloatAt(type.kind, k * byteSize(type.kind), v); }
  void writeInt(size_t k, int64_t v) { writeIntAt(type.kind, k * byteSize(type.kind), v); }

  /// The value of kind `kind` at byte `offset` (canonical form).
  double readFloatAt(ElemKind kind, size_t offset) const;
  int64_t readIntAt(ElemKind kind, size_t offset) const;
  /// Stores a value of kind `kind` at byte `offset`.
  void writeFloatAt(ElemKind kind, size_t offset, double v);
  void writeIntAt(ElemKind kind, size_t offset, int64_t v);
};

/// All buffers of a launch.
class Memory {
public:
  /// Creates a zero-filled buffer; ids start at 1.
  BufferId create(std::string name, DataType type, size_t count);
  /// The buffer of `id`, or nullptr.
  Buffer *get(BufferId id) const;
  /// Number of buffers.
  size_t size() const { return buffers.size(); }

private:
  std::vector<std::unique_ptr<Buffer>> buffers;
};

/// A rejected access: "out-of-bounds load of x_ptr[10] (buffer has 10
/// elements)" or "load of never-written out[3]".
struct AccessFault {
  /// The message without location and program id.
  std::string message;
  /// Flat index of the offending element in the pointer block.
  size_t element = 0;
};

/// atomic_rmw kinds of docs/ir.md.
enum class RmwKind : uint8_t { Add, FAdd, Max, Min, UMax, UMin, And, Or, Xor, Xchg };
/// Parses "add", "fadd", ...; nullopt otherwise.
std::optional<RmwKind> parseRmwKind(std::string_view s);

/// Loads through `ptrs` (elements of kind ptrs.pointee); masked-off lanes
/// take `other` (or zero). `mask` and `other` may be null. Result elements
/// have kind `kind`.
std::optional<AccessFault> loadBlock(Memory &mem, const Block &ptrs, const Block *mask,
                                     const Block *other, ElemKind kind, Block &out);
/// Stores `value` through `ptrs` where `mask` (may be null) is true.
std::optional<AccessFault> storeBlock(Memory &mem, const Block &ptrs, const Block &value,
                                      const Block *mask);
/// Atomic read-modify-write; `old` receives the previous values.
std::optional<AccessFault> atomicRmw(Memory &mem, RmwKind kind, const Block &ptrs,
                                     const Block &value, const Block *mask, Block &old);
/// Atomic compare-and-swap; `old` receives the previous values.
std::optional<AccessFault> atomicCas(Memory &mem, const Block &ptrs, const Block &cmp,
                                     const Block &value, Block &old);

} // namespace blk::interp

#endif // BLK_INTERPRETER_MEMORY_H
