//===- Memory.cpp - buffers and bounds-checked block accesses -------------===//
#include "blk/Interpreter/Memory.h"

#include "blk/Support/Fp8.h"
#include <cmath>
#include <cstring>

namespace blk::interp {

template <typename T> static T readRaw(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void writeRaw(uint8_t *p, T v) { std::memcpy(p, &v, sizeof(T)); }

double Buffer::readFloatAt(ElemKind kind, size_t offset) const {
  const uint8_t *p = bytes.data() + offset;
  switch (kind) {
  case ElemKind::F16: return f16FromBits(readRaw<uint16_t>(p));
  case ElemKind::BF16: return bf16FromBits(readRaw<uint16_t>(p));
  case ElemKind::F8E4M3: return fp8ToDouble(Fp8Format::E4M3, p[0]);
  case ElemKind::F8E5M2: return fp8ToDouble(Fp8Format::E5M2, p[0]);
  case ElemKind::F32: return readRaw<float>(p);
  case ElemKind::F64: return readRaw<double>(p);
  default: return double(readIntAt(kind, offset));
  }
}

int64_t Buffer::readIntAt(ElemKind kind, size_t offset) const {
  const uint8_t *p = bytes.data() + offset;
  switch (kind) {
  case ElemKind::I1: return p[0] ? -1 : 0;
  case ElemKind::I8: return int8_t(p[0]);
  case ElemKind::I16: return readRaw<int16_t>(p);
  case ElemKind::I32: return readRaw<int32_t>(p);
  case ElemKind::I64: case ElemKind::Ptr: return readRaw<int64_t>(p);
  default: return int64_t(readFloatAt(kind, offset));
  }
}

void Buffer::writeFloatAt(ElemKind kind, size_t offset, double v) {
  uint8_t *p = bytes.data() + offset;
  switch (kind) {
  case ElemKind::F16: writeRaw<uint16_t>(p, f16ToBits(v)); return;
  case ElemKind::BF16: writeRaw<uint16_t>(p, bf16ToBits(v)); return;
  case ElemKind::F8E4M3: p[0] = fp8FromDouble(Fp8Format::E4M3, v); return;
  case ElemKind::F8E5M2: p[0] = fp8FromDouble(Fp8Format::E5M2, v); return;
  case ElemKind::F32: writeRaw<float>(p, float(v)); return;
  case ElemKind::F64: writeRaw<double>(p, v); return;
  default: writeIntAt(kind, offset, int64_t(v)); return;
  }
}

void Buffer::writeIntAt(ElemKind kind, size_t offset, int64_t v) {
  uint8_t *p = bytes.data() + offset;
  switch (kind) {
  case ElemKind::I1: p[0] = v & 1; return;
  case ElemKind::I8: p[0] = uint8_t(v); return;
  case ElemKind::I16: writeRaw<int16_t>(p, int16_t(v)); return;
  case ElemKind::I32: writeRaw<int32_t>(p, int32_t(v)); return;
  case ElemKind::I64: case ElemKind::Ptr: writeRaw<int64_t>(p, v); return;
  default: writeFloatAt(kind, offset, double(v)); return;
  }
}

BufferId Memory::create(std::string name, DataType type, size_t count) {
  auto buf = std::make_unique<Buffer>();
  buf->name = std::move(name);
  buf->type = type;
  buf->count = count;
  buf->bytes.assign(count * byteSize(type.kind), 0);
  buffers.push_back(std::move(buf));
  return BufferId(buffers.size());
}

Buffer *Memory::get(BufferId id) const {
  if (id == 0 || id > buffers.size())
    return nullptr;
  return buffers[id - 1].get();
}

std::optional<RmwKind> parseRmwKind(std::string_view s) {
  static constexpr std::pair<std::string_view, RmwKind> kTable[] = {
      {"add", RmwKind::Add},   {"fadd", RmwKind::FAdd}, {"max", RmwKind::Max},
      {"min", RmwKind::Min},   {"umax", RmwKind::UMax}, {"umin", RmwKind::UMin},
      {"and", RmwKind::And},   {"or", RmwKind::Or},     {"xor", RmwKind::Xor},
      {"xchg", RmwKind::Xchg}};
  for (const auto &[name, kind] : kTable)
    if (name == s)
      return kind;
  return std::nullopt;
}

namespace {
/// Resolves encoded pointers to (buffer, byte offset) for accesses of
/// `kind`, checking bounds and alignment.
struct Resolver {
  Memory &mem;
  const char *what;
  ElemKind kind;
  BufferId lastId = 0;
  Buffer *last = nullptr;

  Buffer *resolve(int64_t p, size_t element, size_t &offset, std::optional<AccessFault> &fault) {
    BufferId id;
    int64_t off;
    decodePointer(p, id, off);
    if (id != lastId || !last) {
      last = mem.get(id);
      lastId = id;
    }
    int64_t size = byteSize(kind);
    if (last && off >= 0 && uint64_t(off) + uint64_t(size) <= last->bytes.size() &&
        (off & (size - 1)) == 0) { // the common case: in bounds and aligned
      offset = size_t(off);
      return last;
    }
    // Index in elements of the pointer's type (floor division for negatives).
    int64_t index = off >= 0 ? off / size : -((-off + size - 1) / size);
    bool far =
        off == kFarOffset; // the exact offset is not kept (offsetPointer)
    std::string place = far ? " at 2^47 bytes or more from its start"
                            : "[" + std::to_string(index) + "]";
    if (!last) {
      fault = AccessFault{std::string(what) +
                              " through a pointer into no buffer (" +
                              (far ? "2^47 bytes or more from null"
                                   : "element " + std::to_string(index)) +
                              ")",
                          element};
      return nullptr;
    }
    if (far || off < 0 || uint64_t(off) + uint64_t(size) > last->bytes.size()) {
      std::string count = std::to_string(last->count) + " elements";
      if (last->type.kind != kind)
        count += " of " + dataTypeName(last->type);
      fault =
          AccessFault{"out-of-bounds " + std::string(what) + " of " +
                          last->name + place + " (buffer has " + count + ")",
                      element};
      return nullptr;
    }
    if (off % size) {
      fault = AccessFault{"misaligned " + std::string(what) + " of " + last->name + " at byte " +
                              std::to_string(off) + " (a " + std::string(kindName(kind)) +
                              " needs " + std::to_string(size) + "-byte alignment)",
                          element};
      return nullptr;
    }
    offset = size_t(off);
    return last;
  }
};

/// Index of the buffer element holding byte `offset` (for written flags).
size_t elementOf(const Buffer &buf, size_t offset) { return offset / byteSize(buf.type.kind); }
} // namespace

static size_t at(const Block &b, size_t k) { return b.size() == 1 ? 0 : k; }

/// Visits every masked-in element of a pointer block: resolves its address
/// (a bounds or alignment fault stops the walk and is returned) and calls
/// `access(buffer, index, k)`. Masked-off elements go to `maskedOff(k)`.
template <typename Access, typename MaskedOff>
static std::optional<AccessFault> forEachAccess(Memory &mem, const char *what,
                                                const Block &ptrs, const Block *mask,
                                                Access access, MaskedOff maskedOff) {
  Resolver res{mem, what, ptrs.pointee};
  std::optional<AccessFault> fault;
  for (size_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !mask->i[at(*mask, k)]) {
      maskedOff(k);
      continue;
    }
    size_t idx;
    Buffer *buf = res.resolve(ptrs.i[k], k, idx, fault);
    if (!buf)
      return fault;
    if (std::optional<AccessFault> f = access(*buf, idx, k))
      return f;
  }
  return std::nullopt;
}

static void markWritten(Buffer &buf, size_t idx) {
  if (!buf.written.empty())
    buf.written[elementOf(buf, idx)] = 1;
}

static void ignoreMaskedOff(size_t) {}

std::optional<AccessFault> loadBlock(Memory &mem, const Block &ptrs, const Block *mask,
                                     const Block *other, ElemKind kind, Block &out) {
  out = Block::zeros(kind, ptrs.shape);
  bool isFloat = out.isFloat();
  auto maskedOff = [&](size_t k) {
    if (!other)
      return;
    if (isFloat)
      out.f[k] = other->f[at(*other, k)];
    else
      out.i[k] = other->i[at(*other, k)];
  };
  auto access = [&](Buffer &buf, size_t idx, size_t k) -> std::optional<AccessFault> {
    if (!buf.written.empty() && !buf.written[elementOf(buf, idx)])
      return AccessFault{"load of never-written " + buf.name + "[" +
                             std::to_string(elementOf(buf, idx)) + "]",
                         k};
    if (isFloat)
      out.f[k] = roundFloat(kind, buf.readFloatAt(ptrs.pointee, idx));
    else
      out.i[k] = wrapToWidth(bitWidth(kind), buf.readIntAt(ptrs.pointee, idx));
    return std::nullopt;
  };
  return forEachAccess(mem, "load", ptrs, mask, access, maskedOff);
}

std::optional<AccessFault> storeBlock(Memory &mem, const Block &ptrs, const Block &value,
                                      const Block *mask) {
  auto access = [&](Buffer &buf, size_t idx, size_t k) -> std::optional<AccessFault> {
    if (value.isFloat())
      buf.writeFloatAt(ptrs.pointee, idx, value.f[at(value, k)]);
    else
      buf.writeIntAt(ptrs.pointee, idx, value.i[at(value, k)]);
    markWritten(buf, idx);
    return std::nullopt;
  };
  return forEachAccess(mem, "store", ptrs, mask, access, ignoreMaskedOff);
}

/// The new value of an atomic read-modify-write.
static double rmwFloat(RmwKind kind, double old, double v) {
  switch (kind) {
  case RmwKind::FAdd: case RmwKind::Add: return old + v;
  case RmwKind::Max: case RmwKind::UMax: return std::fmax(old, v);
  case RmwKind::Min: case RmwKind::UMin: return std::fmin(old, v);
  default: return v;
  }
}

static int64_t rmwInt(RmwKind kind, unsigned w, int64_t old, int64_t v) {
  switch (kind) {
  case RmwKind::Add: case RmwKind::FAdd: return wrapToWidth(w, int64_t(uint64_t(old) + uint64_t(v)));
  case RmwKind::Max: return std::max(old, v);
  case RmwKind::Min: return std::min(old, v);
  case RmwKind::UMax: return unsignedView(w, old) >= unsignedView(w, v) ? old : v;
  case RmwKind::UMin: return unsignedView(w, old) <= unsignedView(w, v) ? old : v;
  case RmwKind::And: return old & v;
  case RmwKind::Or: return old | v;
  case RmwKind::Xor: return old ^ v;
  case RmwKind::Xchg: return v;
  }
  return v;
}

std::optional<AccessFault> atomicRmw(Memory &mem, RmwKind kind, const Block &ptrs,
                                     const Block &value, const Block *mask, Block &old) {
  old = Block::zeros(value.kind, ptrs.shape);
  unsigned w = bitWidth(value.kind);
  auto access = [&](Buffer &buf, size_t idx, size_t k) -> std::optional<AccessFault> {
    std::lock_guard<std::mutex> lock(buf.mutex);
    if (old.isFloat()) {
      double prev = roundFloat(value.kind, buf.readFloatAt(ptrs.pointee, idx));
      old.f[k] = prev;
      buf.writeFloatAt(ptrs.pointee, idx,
                       roundFloat(value.kind, rmwFloat(kind, prev, value.f[at(value, k)])));
    } else {
      int64_t prev = wrapToWidth(w, buf.readIntAt(ptrs.pointee, idx));
      old.i[k] = prev;
      buf.writeIntAt(ptrs.pointee, idx, rmwInt(kind, w, prev, value.i[at(value, k)]));
    }
    markWritten(buf, idx);
    return std::nullopt;
  };
  return forEachAccess(mem, "atomic", ptrs, mask, access, ignoreMaskedOff);
}

std::optional<AccessFault> atomicCas(Memory &mem, const Block &ptrs, const Block &cmp,
                                     const Block &value, Block &old) {
  old = Block::zeros(value.kind, ptrs.shape);
  auto access = [&](Buffer &buf, size_t idx, size_t k) -> std::optional<AccessFault> {
    std::lock_guard<std::mutex> lock(buf.mutex);
    if (old.isFloat()) {
      double prev = buf.readFloatAt(ptrs.pointee, idx);
      old.f[k] = prev;
      if (prev == cmp.f[at(cmp, k)])
        buf.writeFloatAt(ptrs.pointee, idx, value.f[at(value, k)]);
    } else {
      int64_t prev = wrapToWidth(bitWidth(value.kind), buf.readIntAt(ptrs.pointee, idx));
      old.i[k] = prev;
      if (prev == cmp.i[at(cmp, k)])
        buf.writeIntAt(ptrs.pointee, idx, value.i[at(value, k)]);
    }
    markWritten(buf, idx);
    return std::nullopt;
  };
  return forEachAccess(mem, "atomic", ptrs, /*mask=*/nullptr, access, ignoreMaskedOff);
}

} // namespace blk::interp
