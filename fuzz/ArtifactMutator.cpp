//===- ArtifactMutator.cpp - seeded mutations of blk artifacts ------------===//
//
// The field walk follows runtime/src/FatbinReader.cpp's layout comment, but
// stops (keeps what it found) at the first thing that does not fit, instead
// of reporting it: the mutator must accept any input. Tested through the
// smoke runs of tests/fuzz (a fixed seed range; see ArtifactSmoke.cpp).
//
//===----------------------------------------------------------------------===//
#include "ArtifactMutator.h"

#include <algorithm>
#include <cstring>

namespace blk::fuzz {
namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
// Fields kept per symbol table and per `.nv.info` section: enough to reach
// the manifest and resource symbols, few enough that other fields get picked.
constexpr size_t kMaxSymbolFields = 64;
constexpr size_t kMaxRecordFields = 64;

/// splitmix64: tiny, and the same sequence on every platform and library.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform-enough in [0, n); 0 when n is 0.
  size_t below(size_t n) { return n == 0 ? 0 : size_t(next() % n); }

private:
  uint64_t state_;
};

uint64_t load(const Bytes &b, size_t at, unsigned width) {
  uint64_t v = 0;
  // Little-endian host, as the readers assume.
  std::memcpy(&v, b.data() + at, width);
  return v;
}

void store(Bytes &b, size_t at, unsigned width, uint64_t v) {
  if (at <= b.size() && width <= b.size() - at)
    std::memcpy(b.data() + at, &v, width);
}

/// Whether [at, at + len) lies in `b` (subtraction form, as the readers).
bool fits(const Bytes &b, uint64_t at, uint64_t len) {
  return at <= b.size() && len <= b.size() - at;
}

void elfFields(const Bytes &b, size_t base, size_t len,
               std::vector<Field> &out) {
  if (len < 64 || std::memcmp(b.data() + base,
                              "\x7f"
                              "ELF",
                              4) != 0)
    return;
  for (Field f :
       {Field{0x28, 8}, Field{0x3A, 2}, Field{0x3C, 2}, Field{0x3E, 2}})
    out.push_back({base + f.offset, f.width});
  uint64_t shoff = load(b, base + 0x28, 8), shentsize = load(b, base + 0x3A, 2);
  uint64_t shnum = load(b, base + 0x3C, 2);
  if (shentsize != 64 || shoff > len || shnum * 64 > len - shoff)
    return;
  for (uint64_t i = 0; i < shnum; ++i) {
    size_t sh = base + size_t(shoff + 64 * i);
    for (Field f :
         {Field{4, 4}, Field{16, 8}, Field{24, 8}, Field{32, 8}, Field{40, 4}})
      out.push_back({sh + f.offset, f.width});
    uint32_t type = uint32_t(load(b, sh + 4, 4));
    uint64_t off = load(b, sh + 24, 8), size = load(b, sh + 32, 8);
    if (type == 8 /*SHT_NOBITS*/ || off > len || size > len - off)
      continue;
    size_t data = base + size_t(off);
    if (type == 2 /*SHT_SYMTAB*/) {
      for (uint64_t s = 0; s + 24 <= size && s / 24 < kMaxSymbolFields; s += 24)
        for (Field f : {Field{0, 4}, Field{6, 2}, Field{8, 8}, Field{16, 8}})
          out.push_back({data + size_t(s) + f.offset, f.width});
    } else if (type == 0x70000000 /*SHT_CUDA_INFO: .nv.info*/) {
      size_t records = 0;
      for (uint64_t r = 0; r + 4 <= size && records++ < kMaxRecordFields;) {
        uint16_t n = uint16_t(load(b, data + size_t(r) + 2, 2));
        out.push_back({data + size_t(r) + 2, 2});
        if (b[data + size_t(r)] == 0x04 /*EIFMT_SVAL*/ && n >= 8 &&
            n <= size - r - 4) {
          out.push_back({data + size_t(r) + 4, 4});
          out.push_back({data + size_t(r) + 8, 4});
        }
        r += 4 + (b[data + size_t(r)] == 0x04 ? n : 0);
      }
    }
  }
}

/// A value near a boundary an offset or size check must get right.
uint64_t boundaryValue(Rng &rng, unsigned width, size_t size) {
  uint64_t ones = width >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * width)) - 1;
  const uint64_t values[] = {
      0, 1,  ones, ones >> 1, (ones >> 1) + 1, size,      size - 1,  size + 1,
      8, 16, 64,   80,        ones - 15,       ones - 63, rng.next()};
  return values[rng.below(std::size(values))] & ones;
}

/// Rewrites one JSON-looking byte run found from a random start: a number's
/// digits (same length, perhaps signed), or a bracket or separator.
void mutateJsonToken(Bytes &b, Rng &rng) {
  static const char kPunct[] = "[]{},:\"";
  size_t start = rng.below(b.size());
  size_t end = std::min(b.size(), start + 4096);
  for (size_t i = start; i < end; ++i) {
    if (b[i] >= '0' && b[i] <= '9') {
      size_t j = i;
      for (; j < b.size() && b[j] >= '0' && b[j] <= '9'; ++j)
        b[j] = uint8_t(rng.below(2) ? '9' : '0' + rng.below(10));
      if (rng.below(4) == 0)
        b[i] = '-';
      return;
    }
    if (std::strchr(kPunct, b[i]) && b[i] != 0) {
      b[i] = uint8_t(kPunct[rng.below(sizeof kPunct - 1)]);
      return;
    }
  }
}

} // namespace

std::vector<Field> findFields(const Bytes &b) {
  std::vector<Field> out;
  size_t pos = 0;
  while (fits(b, pos, 16) && load(b, pos, 4) == kFatbinMagic) {
    out.push_back({pos + 6, 2});
    out.push_back({pos + 8, 8});
    uint64_t headerSize = load(b, pos + 6, 2), bodySize = load(b, pos + 8, 8);
    if (headerSize < 16 || !fits(b, pos, headerSize) ||
        !fits(b, pos + headerSize, bodySize))
      break;
    size_t end = pos + size_t(headerSize + bodySize);
    for (size_t e = pos + size_t(headerSize); e < end && end - e >= 64;) {
      for (Field f :
           {Field{0, 2}, Field{4, 4}, Field{8, 8}, Field{28, 4}, Field{40, 8}})
        out.push_back({e + f.offset, f.width});
      uint64_t entryHeader = load(b, e + 4, 4), payload = load(b, e + 8, 8);
      if (entryHeader < 64 || entryHeader > end - e ||
          payload > end - e - entryHeader)
        break;
      elfFields(b, e + size_t(entryHeader), size_t(payload), out);
      e += size_t(entryHeader + payload);
    }
    pos = end;
  }
  return out;
}

Bytes mutate(const std::vector<Bytes> &corpus, size_t index,
             const std::vector<Field> &fields, uint64_t seed) {
  Rng rng(seed * 0x100000001B3ull + index);
  Bytes b = corpus[index];
  size_t steps = 1 + rng.below(3);
  for (size_t step = 0; step < steps && !b.empty(); ++step) {
    switch (rng.below(6)) {
    case 0: // bit flips
      for (size_t n = 1 + rng.below(8); n > 0; --n)
        b[rng.below(b.size())] ^= uint8_t(1u << rng.below(8));
      break;
    case 1: // truncation
      b.resize(rng.below(b.size() + 1));
      break;
    case 2: { // this file's head on another's tail
      const Bytes &other = corpus[rng.below(corpus.size())];
      size_t head = rng.below(b.size() + 1), tail = rng.below(other.size() + 1);
      b.resize(head);
      b.insert(b.end(), other.begin() + tail, other.end());
      break;
    }
    case 3: // a known field
      if (!fields.empty()) {
        Field f = fields[rng.below(fields.size())];
        store(b, f.offset, f.width, boundaryValue(rng, f.width, b.size()));
      }
      break;
    case 4: { // an integer anywhere
      unsigned width = 1u << rng.below(4);
      store(b, rng.below(b.size()), width, boundaryValue(rng, width, b.size()));
      break;
    }
    default:
      mutateJsonToken(b, rng);
    }
  }
  return b;
}

} // namespace blk::fuzz
