//===- Memory.cpp - buffers and bounds-checked block accesses -------------===//
#include "blk/Interpreter/Memory.h"

#include <cmath>
#include <cstring>

namespace blk::interp {

template <typename T> static T readRaw(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void writeRaw(uint8_t *p, T v) { std::memcpy(p, &v, sizeof(T)); }

double Buffer::readFloat(size_t k) const {
  const uint8_t *p = bytes.data() + k * byteSize(type.kind);
  switch (type.kind) {
  case ElemKind::F16: return f16FromBits(readRaw<uint16_t>(p));
  case ElemKind::BF16: return bf16FromBits(readRaw<uint16_t>(p));
  case ElemKind::F32: return readRaw<float>(p);
  case ElemKind::F64: return readRaw<double>(p);
  default: return double(readInt(k));
  }
}

int64_t Buffer::readInt(size_t k) const {
  const uint8_t *p = bytes.data() + k * byteSize(type.kind);
  switch (type.kind) {
  case ElemKind::I1: return p[0] ? -1 : 0;
  case ElemKind::I8: return int8_t(p[0]);
  case ElemKind::I16: return readRaw<int16_t>(p);
  case ElemKind::I32: return readRaw<int32_t>(p);
  case ElemKind::I64: case ElemKind::Ptr: return readRaw<int64_t>(p);
  default: return int64_t(readFloat(k));
  }
}

void Buffer::writeFloat(size_t k, double v) {
  uint8_t *p = bytes.data() + k * byteSize(type.kind);
  switch (type.kind) {
  case ElemKind::F16: writeRaw<uint16_t>(p, f16ToBits(v)); return;
  case ElemKind::BF16: writeRaw<uint16_t>(p, bf16ToBits(v)); return;
  case ElemKind::F32: writeRaw<float>(p, float(v)); return;
  case ElemKind::F64: writeRaw<double>(p, v); return;
  default: writeInt(k, int64_t(v)); return;
  }
}

void Buffer::writeInt(size_t k, int64_t v) {
  uint8_t *p = bytes.data() + k * byteSize(type.kind);
  switch (type.kind) {
  case ElemKind::I1: p[0] = v & 1; return;
  case ElemKind::I8: p[0] = uint8_t(v); return;
  case ElemKind::I16: writeRaw<int16_t>(p, int16_t(v)); return;
  case ElemKind::I32: writeRaw<int32_t>(p, int32_t(v)); return;
  case ElemKind::I64: case ElemKind::Ptr: writeRaw<int64_t>(p, v); return;
  default: writeFloat(k, double(v)); return;
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
/// Resolves encoded pointers to (buffer, index), checking bounds.
struct Resolver {
  Memory &mem;
  const char *what;
  BufferId lastId = 0;
  Buffer *last = nullptr;

  Buffer *resolve(int64_t p, size_t element, size_t &index, std::optional<AccessFault> &fault) {
    BufferId id;
    int64_t off;
    decodePointer(p, id, off);
    if (id != lastId || !last) {
      last = mem.get(id);
      lastId = id;
    }
    if (!last) {
      fault = AccessFault{std::string(what) + " through a pointer into no buffer (offset " +
                              std::to_string(off) + ")",
                          element};
      return nullptr;
    }
    if (off < 0 || uint64_t(off) >= last->count) {
      fault = AccessFault{"out-of-bounds " + std::string(what) + " of " + last->name + "[" +
                              std::to_string(off) + "] (buffer has " +
                              std::to_string(last->count) + " elements)",
                          element};
      return nullptr;
    }
    index = size_t(off);
    return last;
  }
};
} // namespace

static size_t at(const Block &b, size_t k) { return b.size() == 1 ? 0 : k; }

std::optional<AccessFault> loadBlock(Memory &mem, const Block &ptrs, const Block *mask,
                                     const Block *other, ElemKind kind, Block &out) {
  out = Block::zeros(kind, ptrs.shape);
  Resolver res{mem, "load"};
  std::optional<AccessFault> fault;
  bool isFloat = out.isFloat();
  for (size_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !mask->i[at(*mask, k)]) {
      if (other) {
        if (isFloat)
          out.f[k] = other->f[at(*other, k)];
        else
          out.i[k] = other->i[at(*other, k)];
      }
      continue;
    }
    size_t idx;
    Buffer *buf = res.resolve(ptrs.i[k], k, idx, fault);
    if (!buf)
      return fault;
    if (!buf->written.empty() && !buf->written[idx])
      return AccessFault{"load of never-written " + buf->name + "[" + std::to_string(idx) + "]", k};
    if (isFloat)
      out.f[k] = roundFloat(kind, buf->readFloat(idx));
    else
      out.i[k] = wrapToWidth(bitWidth(kind), buf->readInt(idx));
  }
  return std::nullopt;
}

std::optional<AccessFault> storeBlock(Memory &mem, const Block &ptrs, const Block &value,
                                      const Block *mask) {
  Resolver res{mem, "store"};
  std::optional<AccessFault> fault;
  for (size_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !mask->i[at(*mask, k)])
      continue;
    size_t idx;
    Buffer *buf = res.resolve(ptrs.i[k], k, idx, fault);
    if (!buf)
      return fault;
    if (value.isFloat())
      buf->writeFloat(idx, value.f[at(value, k)]);
    else
      buf->writeInt(idx, value.i[at(value, k)]);
    if (!buf->written.empty())
      buf->written[idx] = 1;
  }
  return std::nullopt;
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
  Resolver res{mem, "atomic"};
  std::optional<AccessFault> fault;
  unsigned w = bitWidth(value.kind);
  for (size_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !mask->i[at(*mask, k)])
      continue;
    size_t idx;
    Buffer *buf = res.resolve(ptrs.i[k], k, idx, fault);
    if (!buf)
      return fault;
    std::lock_guard<std::mutex> lock(buf->mutex);
    if (old.isFloat()) {
      double prev = roundFloat(value.kind, buf->readFloat(idx));
      old.f[k] = prev;
      buf->writeFloat(idx, roundFloat(value.kind, rmwFloat(kind, prev, value.f[at(value, k)])));
    } else {
      int64_t prev = wrapToWidth(w, buf->readInt(idx));
      old.i[k] = prev;
      buf->writeInt(idx, rmwInt(kind, w, prev, value.i[at(value, k)]));
    }
    if (!buf->written.empty())
      buf->written[idx] = 1;
  }
  return std::nullopt;
}

std::optional<AccessFault> atomicCas(Memory &mem, const Block &ptrs, const Block &cmp,
                                     const Block &value, Block &old) {
  old = Block::zeros(value.kind, ptrs.shape);
  Resolver res{mem, "atomic"};
  std::optional<AccessFault> fault;
  for (size_t k = 0, n = ptrs.size(); k < n; ++k) {
    size_t idx;
    Buffer *buf = res.resolve(ptrs.i[k], k, idx, fault);
    if (!buf)
      return fault;
    std::lock_guard<std::mutex> lock(buf->mutex);
    if (old.isFloat()) {
      double prev = buf->readFloat(idx);
      old.f[k] = prev;
      if (prev == cmp.f[at(cmp, k)])
        buf->writeFloat(idx, value.f[at(value, k)]);
    } else {
      int64_t prev = wrapToWidth(bitWidth(value.kind), buf->readInt(idx));
      old.i[k] = prev;
      if (prev == cmp.i[at(cmp, k)])
        buf->writeInt(idx, value.i[at(value, k)]);
    }
    if (!buf->written.empty())
      buf->written[idx] = 1;
  }
  return std::nullopt;
}

} // namespace blk::interp
